import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The settings the journeys' server runs with. The data folder (and the folder the test SMTP server
// writes mail into) is made once, in Playwright's main process, and inherited by its workers through
// the environment.
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-e2e-'));
process.env.E2E_MAIL_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-e2e-mail-'));

const port = Number(process.env.E2E_PORT ?? 3100);

export const E2E = {
  baseURL: `http://127.0.0.1:${port}`,
  dataDir: process.env.E2E_DATA_DIR,
  adminEmail: 'admin@e2e.example',
  adminPassword: 'e2e-Super-admin-passphrase',
  donationUrl: 'https://donate.e2e.example/give',
  courseUrl: 'https://course.e2e.example/deaf-awareness',
  /** The test SMTP server (tests/e2e/smtp-sink.ts) the app sends its mail to. */
  smtpPort: port + 1000,
  /** Where the test SMTP server writes every message it receives, one .eml file each. */
  mailDir: process.env.E2E_MAIL_DIR,
  mailFrom: 'TDG Uganda <no-reply@e2e.example>',
  /**
   * The second journey server, on PostgreSQL (the `postgres` project), when TEST_DATABASE_URL names
   * a database for tests: its address and the schema it keeps its data in.
   */
  postgres: process.env.TEST_DATABASE_URL
    ? { url: process.env.TEST_DATABASE_URL, schema: `e2e_${port}`, baseURL: `http://127.0.0.1:${port + 2}` }
    : undefined,
};
