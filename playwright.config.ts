import { defineConfig } from '@playwright/test';
import type { EngineOptions } from './tests/e2e/fixtures';
import { journeyChromium } from './tests/e2e/chromium';
import { E2E } from './tests/e2e/env';

// Journeys run in real Chromium against the production build, served by server.ts on a fresh data
// folder (tests/e2e/env.ts). The app's mail goes to a small SMTP server of the tests
// (tests/e2e/smtp-sink.ts), which writes each message into E2E.mailDir.
const port = new URL(E2E.baseURL).port;

/** The journeys' server settings; the PostgreSQL server differs only in its port and data. */
function serverEnv(serverPort: string, data: Record<string, string>): Record<string, string> {
  const publicUrl = `http://127.0.0.1:${serverPort}`;
  return {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: serverPort,
    PUBLIC_URL: publicUrl,
    SUPER_ADMIN_EMAIL: E2E.adminEmail,
    SUPER_ADMIN_PASSWORD: E2E.adminPassword,
    DONATION_URL: E2E.donationUrl,
    COURSE_URL: E2E.courseUrl,
    LOG_LEVEL: 'error',
    // The sink offers no STARTTLS; ignoreTLS tells nodemailer not to ask for it.
    SMTP_URL: `smtp://127.0.0.1:${E2E.smtpPort}?ignoreTLS=true`,
    MAIL_FROM: E2E.mailFrom,
    // A journey may speak for a visitor of its own address (X-Forwarded-For from 127.0.0.1), so the
    // per-address limits one journey uses up never refuse another's visitor.
    TRUST_PROXY: 'loopback',
    // One process: journeys read the server's logs and state; tests/e2e/workers.spec.ts starts its own workers.
    WEB_CONCURRENCY: '1',
    // The backup job has its own tests (app/server/platform/backup.server.test.ts); journeys need no copies.
    BACKUPS: 'off',
    ...data,
  };
}

/**
 * Journeys that run again against the PostgreSQL server (the `postgres` project) (issue 23,
 * docs/decisions/023-ci-time.md): every staff action through HTTP with its change read back from the
 * database (dashboard-permissions), the inbox (the one engine-specific query a screen makes, ILIKE,
 * and its CSV streamed from the database) and several workers sharing one cache (LISTEN/NOTIFY).
 * Other journeys render the same on either engine: what they store and read is tested on both
 * engines by the integration tests beside each service (app/server/*.test.ts, ENGINES). The application
 * forms (issue 27) reach the same inbox.
 */
const BOTH_ENGINES =
  /(messages|applications|dashboard-permissions|workers|events|analytics|translations-screen|translations-content|easy-read)\.spec\.ts$/;
/** Journeys only PostgreSQL can run (many instances on one database): the `postgres` project alone. */
const POSTGRES_ONLY = /instances\.spec\.ts$/;
/**
 * Journeys that change what public pages show run after those that read the seeded pages. So does the
 * Overview's, whose two confirmed subscribers the newsletter journey (in the first group) would
 * otherwise count while it sends.
 */
const PUBLISHING =
  /(content(-security|-permissions)?|settings|services-admin|dashboard-permissions|revisions|editorial|sign-language-video|events|analytics|translations-screen|translations-content|overview)\.spec\.ts$/;

/**
 * Chromium features the journeys' browser goes without. Chromium keeps only the last
 * `--disable-features` it is given, so the list repeats Playwright's own (playwright-core 1.65, those
 * that apply on Linux), which ours would otherwise replace, and adds the omnibox popups: Debian's
 * full Chromium 156 opens two WebUI renderers for each new browser context, a quarter of the suite's
 * CPU (decision 043). The headless shell (decision 045) has no omnibox and ignores those names.
 */
const DISABLED_FEATURES = [
  // Playwright's.
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  // Ours: chrome://omnibox-popup.top-chrome/ and its AI-mode page, per window, never shown headless.
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  'WebUIOmniboxFullPopup',
];

export default defineConfig<EngineOptions, EngineOptions>({
  testDir: 'tests/e2e',
  // Playwright empties its results folder when a run starts: a run with its own BUILD_DIR keeps its
  // own, so runs side by side do not delete each other's traces.
  outputDir: process.env.BUILD_DIR ? `test-results/${process.env.BUILD_DIR.replace(/[^\w.-]/g, '_')}` : 'test-results',
  fullyParallel: true,
  workers: 2,
  // Journeys that publish or delete public content run after the ones that read the seeded lists,
  // so a list never sees another test's article appear or vanish.
  projects: [
    { name: 'site', testIgnore: [PUBLISHING, POSTGRES_ONLY] },
    { name: 'publishing', testMatch: PUBLISHING, dependencies: ['site'] },
    ...(E2E.postgres
      ? [
          {
            name: 'postgres',
            testMatch: [BOTH_ENGINES, POSTGRES_ONLY],
            // Layout, keyboard and axe journeys render the same HTML on either engine, and journeys
            // with servers of their own start one per engine from the SQLite run (fixtures.ts).
            grepInvert: /@layout|@own-servers/,
            use: { baseURL: E2E.postgres.baseURL, serverURL: E2E.postgres.baseURL, engine: 'postgres' as const },
          },
        ]
      : []),
  ],
  retries: 0,
  reporter: [['list']],
  timeout: 60_000,
  // How long an assertion waits for the page to come right. A passing one waits only as long as the
  // page takes; 10 s leaves room for a CI machine at full load running at half this one's speed.
  expect: { timeout: 10_000 },
  use: {
    baseURL: E2E.baseURL,
    // Recording a trace of every journey, to keep only the failures', cost a quarter of the suite's CPU.
    // A failing journey is run again with `--trace on` to see it step by step.
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: journeyChromium(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
        `--disable-features=${DISABLED_FEATURES.join(',')}`,
      ],
    },
  },
  webServer: [
    {
      command: 'node tests/e2e/smtp-sink.ts',
      port: E2E.smtpPort,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { SMTP_SINK_PORT: String(E2E.smtpPort), SMTP_SINK_DIR: E2E.mailDir },
    },
    {
      command: 'node server.ts',
      url: `${E2E.baseURL}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: serverEnv(port, { DATA_DIR: E2E.dataDir!, DATABASE_URL: '' }),
    },
    ...(E2E.postgres
      ? [
          {
            command: 'node tests/e2e/postgres-server.ts',
            url: `${E2E.postgres.baseURL}/healthz`,
            reuseExistingServer: false,
            timeout: 120_000,
            stdout: 'ignore' as const,
            stderr: 'pipe' as const,
            // Its uploads beside the SQLite server's, in a folder of their own.
            env: serverEnv(new URL(E2E.postgres.baseURL).port, { DATA_DIR: `${E2E.dataDir}-postgres` }),
          },
        ]
      : []),
  ],
});
