import { Secret, TOTP } from 'otpauth';
import type { Page } from '@playwright/test';
import { expect, OWN_SERVERS, test } from './fixtures';
import { createResetLink, db, STAFF_PASSWORD, type Staff } from './staff';
import { DESKTOP, expectNoA11yIssues, MOBILE, startServer } from './support';
import { homePathFor } from '../../app/lib/permissions';
import { TWO_FACTOR_MESSAGES } from '../../app/lib/two-factor';

// Issue 25: the second sign-in step as staff meet it. Codes are computed here from the key the
// enrolment screen shows, with the same TOTP library the site uses.

test.use({ viewport: DESKTOP });
test.describe.configure({ timeout: 90_000 });

const STEP_MS = 30_000;

function codeAt(key: string, timestamp = Date.now()): string {
  return TOTP.generate({
    secret: Secret.fromBase32(key.replace(/\s/g, '')),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp,
  });
}

/** The password half of a sign-in, on the real screen: it ends on the second step. */
async function passwordStep(page: Page, user: Pick<Staff, 'email' | 'password'>) {
  await page.goto('/admin');
  await page.getByLabel('Email address').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/verify/, { timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Second step' })).toBeVisible();
}

async function enterCode(page: Page, code: string) {
  await page.getByLabel('Code from your authenticator app').fill(code);
  await page.getByRole('button', { name: 'Continue' }).click();
}

async function enterRecoveryCode(page: Page, code: string) {
  await page.getByText('Use a recovery code instead').click();
  await page.getByLabel('Recovery code').fill(code);
  await page.getByRole('button', { name: 'Use recovery code' }).click();
}

/** Sets up an authenticator app on My sign-in: the key shown, and the recovery codes shown once. */
async function enrol(page: Page): Promise<{ key: string; codes: string[] }> {
  await page.goto('/admin/security');
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(page.locator('svg').first()).toBeVisible();
  const key = (await page.getByTestId('totp-key').textContent())!.trim();
  expect(key.replace(/\s/g, '')).toMatch(/^[A-Z2-7]{32}$/);
  const field = page.getByLabel('Code from the app');
  await expect(field).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(field).toHaveAttribute('inputmode', 'numeric');
  await field.fill(codeAt(key));
  await page.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(page.getByText('Your authenticator app is set up.')).toBeVisible();
  const codes = await page.getByTestId('recovery-codes').locator('li').allTextContents();
  expect(codes).toHaveLength(10);
  return { key, codes };
}

test('enrolment, then sign-in asks for a code: a wrong one is refused, a right one opens the dashboard', async ({
  page,
  signIn,
}) => {
  const user = await signIn('EDITOR');
  const { key } = await enrol(page);
  await expectNoA11yIssues(page);
  // Shown once: the page again has no codes on it.
  await page.goto('/admin/security');
  await expect(page.getByTestId('recovery-codes')).toHaveCount(0);
  await expect(page.getByTestId('recovery-left')).toContainText('10 of 10');

  await page.context().clearCookies();
  await passwordStep(page, user);
  const field = page.getByLabel('Code from your authenticator app');
  await expect(field).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(field).toHaveAttribute('inputmode', 'numeric');
  // The dashboard stays shut until the second step.
  expect((await page.request.get('/admin/overview', { maxRedirects: 0 })).status()).toBe(302);
  for (const viewport of [MOBILE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await expectNoA11yIssues(page);
  }

  const right = codeAt(key, Date.now() + STEP_MS);
  await enterCode(page, right === '000000' ? '111111' : '000000');
  await expect(page.getByText(TWO_FACTOR_MESSAGES.wrongCode).first()).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/verify/);
  await expectNoA11yIssues(page);
  await enterCode(page, right);
  await expect(page).toHaveURL(new RegExp(`${homePathFor('EDITOR')}$`), { timeout: 15_000 });
});

test('a recovery code works once, and says how many are left', async ({ page, signIn }) => {
  const user = await signIn('ADMIN');
  const { codes } = await enrol(page);
  await page.context().clearCookies();
  await passwordStep(page, user);
  await enterRecoveryCode(page, codes[0]!);
  await expect(page).toHaveURL(new RegExp(`${homePathFor('ADMIN')}$`), { timeout: 15_000 });
  await expect(page.getByText(TWO_FACTOR_MESSAGES.recoveryCodeUsed(9))).toBeVisible();

  await page.context().clearCookies();
  await passwordStep(page, user);
  await enterRecoveryCode(page, codes[0]!);
  await expect(page.getByText(TWO_FACTOR_MESSAGES.wrongRecoveryCode).first()).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/verify/);
  const audit = db()
    .prepare("SELECT count(*) AS n FROM audit_log WHERE action = 'auth.recovery_code_used' AND target = ?")
    .get(user.email) as { n: number };
  expect(audit.n).toBe(1);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a password reset still asks for the second step', async ({ page, staff }) => {
    const user = await staff('VIEWER');
    // An app already set up (its key known here), as enrolment leaves it.
    const key = new Secret({ size: 20 }).base32;
    db()
      .prepare('INSERT INTO two_factor_totp (user_id, secret, confirmed_at, last_step, created_at) VALUES (?, ?, ?, NULL, ?)')
      .run(user.id, key, new Date().toISOString(), new Date().toISOString());
    await page.goto(createResetLink(user.id));
    const password = `${STAFF_PASSWORD}-new`;
    await page.getByLabel('New password', { exact: true }).fill(password);
    await page.getByLabel('Repeat the new password').fill(password);
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect(page.getByRole('heading', { name: 'Password set' })).toBeVisible();
    // The link opened no session.
    expect((await page.request.get('/admin/overview', { maxRedirects: 0 })).status()).toBe(302);
    await passwordStep(page, { email: user.email, password });
    await enterCode(page, codeAt(key));
    await expect(page).toHaveURL(new RegExp(`${homePathFor('VIEWER')}$`), { timeout: 15_000 });
  });
});

test.describe('required by role', () => {
  test.describe.configure({ timeout: 240_000 });
  test(
    'takes a role that must use a second step to set it up before anything else',
    { tag: OWN_SERVERS },
    async ({ browser }) => {
      // Its own server: the requirement would reach every other journey's staff on the shared one.
      const owner = { email: 'owner@e2e.example', password: 'Owner-passphrase-2291' };
      const server = await startServer(
        { SUPER_ADMIN_EMAIL: owner.email, SUPER_ADMIN_PASSWORD: owner.password, DEMO_CONTENT: 'false' },
        'tdg-2fa-',
      );
      const context = await browser.newContext({ baseURL: `http://127.0.0.1:${server.port}`, viewport: DESKTOP });
      try {
        const page = await context.newPage();
        // Off on a fresh site: the first sign-in lands on the dashboard.
        await page.goto('/admin');
        await page.getByLabel('Email address').fill(owner.email);
        await page.getByLabel('Password', { exact: true }).fill(owner.password);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await expect(page).toHaveURL(/\/admin\/overview$/, { timeout: 15_000 });

        await expect(page.getByTestId('two-factor-advice')).toContainText(
          'Recommended: require a second sign-in step for Super Admin and Admin',
        );
        await page.getByRole('link', { name: 'Choose in My sign-in' }).click();
        await expect(page.getByText('Recommended for Super Admin and Admin')).toBeVisible();
        await page.getByLabel('Super Admin').check();
        await page.getByRole('button', { name: 'Save the requirement' }).click();
        await expect(page.getByText('The two-factor requirement was saved.')).toBeVisible();

        for (const path of ['/admin/overview', '/admin/users', '/admin/content']) {
          await page.goto(path);
          await expect(page).toHaveURL(/\/admin\/security\?setup=required$/);
          await expect(page.getByText(TWO_FACTOR_MESSAGES.setupRequired)).toBeVisible();
        }
        await expectNoA11yIssues(page);
        await page.setViewportSize(MOBILE);
        await expectNoA11yIssues(page);
        await page.setViewportSize(DESKTOP);
        await enrol(page);
        await page.goto('/admin/overview');
        await expect(page).toHaveURL(/\/admin\/overview$/);
      } finally {
        await context.close();
        await server.dispose();
      }
    },
  );
});

test.describe('passkeys', () => {
  test.describe.configure({ timeout: 240_000 });
  test(
    'added and named on My sign-in; sign in with one and no password; one as the second step; removed',
    { tag: OWN_SERVERS },
    async ({ browser }) => {
      // Its own server, reached as localhost: a passkey belongs to a domain name (an IP address cannot
      // be one), and the server's public address (by default http://localhost:PORT) is its origin.
      const owner = { email: 'owner@e2e.example', password: 'Owner-passphrase-2291' };
      const server = await startServer(
        { SUPER_ADMIN_EMAIL: owner.email, SUPER_ADMIN_PASSWORD: owner.password, DEMO_CONTENT: 'false' },
        'tdg-passkey-',
      );
      const context = await browser.newContext({ baseURL: `http://localhost:${server.port}`, viewport: DESKTOP });
      try {
        const page = await context.newPage();
        // Chromium's virtual authenticator (DevTools protocol), with resident keys and user verification.
        const cdp = await context.newCDPSession(page);
        await cdp.send('WebAuthn.enable');
        const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
          options: {
            protocol: 'ctap2',
            transport: 'internal',
            hasResidentKey: true,
            hasUserVerification: true,
            isUserVerified: true,
            automaticPresenceSimulation: true,
          },
        });

        await page.goto('/admin');
        await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible({ timeout: 15_000 });
        await page.getByLabel('Email address').fill(owner.email);
        await page.getByLabel('Password', { exact: true }).fill(owner.password);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await expect(page).toHaveURL(/\/admin\/overview$/, { timeout: 15_000 });

        await page.goto('/admin/security');
        await page.getByLabel('Name for the new passkey').fill('Test laptop');
        await page.getByRole('button', { name: 'Add a passkey' }).click();
        await expect(page.getByLabel(/Passkey name/)).toHaveValue('Test laptop', { timeout: 15_000 });
        const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
        expect(credentials).toHaveLength(1);
        expect(credentials[0]!.isResidentCredential).toBe(true);
        await expectNoA11yIssues(page);

        // No password: the passkey alone.
        await context.clearCookies();
        await page.goto('/admin');
        await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
        await expect(page).toHaveURL(/\/admin\/overview$/, { timeout: 15_000 });

        // After a password, the passkey is the second step.
        await context.clearCookies();
        await passwordStep(page, owner);
        await expect(page.getByLabel('Code from your authenticator app')).toHaveCount(0);
        await page.getByRole('button', { name: 'Use a passkey' }).click();
        await expect(page).toHaveURL(/\/admin\/overview$/, { timeout: 15_000 });

        await page.goto('/admin/security');
        await page.getByRole('button', { name: 'Remove the passkey Test laptop' }).click();
        await expect(page.getByText('The passkey was removed.')).toBeVisible();
        await expect(page.getByTestId('passkey-list')).toHaveCount(0);
      } finally {
        await context.close();
        await server.dispose();
      }
    },
  );
});
