import { defineConfig } from '@playwright/test';
import { E2E } from './tests/e2e/env';

// Journeys run in real Chromium against the production build, served by server.ts on a fresh data
// folder (tests/e2e/env.ts).
const port = new URL(E2E.baseURL).port;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL: E2E.baseURL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: 'node server.ts',
    url: `${E2E.baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: E2E.dataDir,
      PUBLIC_URL: E2E.baseURL,
      SUPER_ADMIN_EMAIL: E2E.adminEmail,
      SUPER_ADMIN_PASSWORD: E2E.adminPassword,
      DONATION_URL: E2E.donationUrl,
      COURSE_URL: E2E.courseUrl,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
  },
});
