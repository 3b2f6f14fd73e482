import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The settings the journeys' server runs with. The data folder is made once, in Playwright's main
// process, and inherited by its workers through the environment.
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-e2e-'));

export const E2E = {
  baseURL: `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`,
  dataDir: process.env.E2E_DATA_DIR,
  adminEmail: 'admin@e2e.example',
  adminPassword: 'e2e-Super-admin-passphrase',
  donationUrl: 'https://donate.e2e.example/give',
  courseUrl: 'https://course.e2e.example/deaf-awareness',
};
