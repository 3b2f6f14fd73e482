// Browser tests need a Chromium; say in one line how to get one instead of failing obscurely.
import fs from 'node:fs';
import { journeyChromium } from '../tests/e2e/chromium.ts';

const candidate = journeyChromium();
if (!fs.existsSync(candidate)) {
  process.stderr.write(
    `No Chromium found at ${candidate}: install it (apt-get install chromium-headless-shell, or chromium) or set CHROMIUM_PATH to a Chromium executable.\n`,
  );
  process.exit(1);
}
