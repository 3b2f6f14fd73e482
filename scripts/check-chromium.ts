// Browser tests need a Chromium; say in one line how to get one instead of failing obscurely.
import fs from 'node:fs';

const candidate = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (!fs.existsSync(candidate)) {
  process.stderr.write(
    `No Chromium found at ${candidate}: install it (apt-get install chromium) or set CHROMIUM_PATH to a Chromium executable.\n`,
  );
  process.exit(1);
}
