// A tiny SMTP server for the journeys: it accepts every message (no TLS, no login) and writes each one,
// as received, to a file in SMTP_SINK_DIR, so a test can read the mail the site sent.
// Run by Playwright as a webServer entry (playwright.config.ts): node tests/e2e/smtp-sink.ts
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

const port = Number(process.env.SMTP_SINK_PORT);
const folder = process.env.SMTP_SINK_DIR;
if (!Number.isInteger(port) || port <= 0 || !folder) {
  process.stderr.write('smtp-sink: set SMTP_SINK_PORT and SMTP_SINK_DIR\n');
  process.exit(1);
}
fs.mkdirSync(folder, { recursive: true });

const server = new SMTPServer({
  disabledCommands: ['STARTTLS', 'AUTH'],
  authOptional: true,
  logger: false,
  size: 5 * 1024 * 1024,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', callback);
    stream.on('end', () => {
      const recipients = session.envelope.rcptTo.map((r) => r.address).join(', ');
      const name = `${Date.now()}-${randomBytes(4).toString('hex')}.eml`;
      const file = path.join(folder, name);
      // Written whole (temporary name, then rename) before the sender hears "OK", so a test that
      // waited for the site's answer never reads half a message.
      fs.writeFileSync(`${file}.part`, Buffer.concat([Buffer.from(`X-Envelope-To: ${recipients}\r\n`), ...chunks]));
      fs.renameSync(`${file}.part`, file);
      callback();
    });
  },
});

server.on('error', (error) => process.stderr.write(`smtp-sink: ${error.message}\n`));
server.listen(port, '127.0.0.1');

function stop() {
  server.close(() => process.exit(0));
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
