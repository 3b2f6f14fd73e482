import type { Page } from '@playwright/test';
import { SIGN_IN_MESSAGES } from '../../app/lib/auth';
import { USER_MESSAGES } from '../../app/lib/users';
import { FORGOT_PASSWORD_SENT } from '../../app/routes/admin/forgot-password';
import { RESET_MESSAGES } from '../../app/routes/admin/reset-password';
import { E2E } from './env';
import { expect as baseExpect, test } from './fixtures';
import {
  apiSignIn,
  createResetLink,
  db,
  deleteUserRow,
  mailsTo,
  resetLinkMailedTo,
  signInWithForm,
  STAFF_PASSWORD,
  superAdmin,
  uniqueEmail,
} from './staff';
import { DESKTOP, expectNoA11yIssues, MOBILE } from './support';

// Issue 4, items 1–3: the sign-in screen, sessions and forgot password, as a staff member meets them.

test.use({ viewport: DESKTOP });
// Journeys with several sign-ins and axe scans take a while when the machine is busy.
test.describe.configure({ timeout: 60_000 });
const expect = baseExpect.configure({ timeout: 10_000 });

const emailField = (page: Page) => page.getByLabel('Email address');
const passwordField = (page: Page) => page.getByLabel('Password', { exact: true });
const signInButton = (page: Page) => page.getByRole('button', { name: 'Sign in', exact: true });

/** The sign-in screen, once its scripts run (the show/hide button appears only then). */
async function openSignIn(page: Page) {
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Show password' })).toBeVisible();
}

/** The sign-in call the screen makes with JavaScript: its form's POST to the /admin route action. */
const isSignInCall = (url: URL | string, method: string) => new URL(url).pathname === '/admin.data' && method === 'POST';

async function submitSignIn(page: Page, email: string, password: string) {
  await emailField(page).fill(email);
  await passwordField(page).fill(password);
  const answer = page.waitForResponse((r) => isSignInCall(r.url(), r.request().method()));
  await signInButton(page).click();
  return answer;
}

async function sessionCookie(page: Page) {
  return (await page.context().cookies()).find((c) => c.name === 'tdg_session');
}

test.describe('sign-in screen', () => {
  test('shows field errors only after a field is touched and enables Sign in once both are filled', async ({ page }) => {
    await openSignIn(page);
    const messages = [
      SIGN_IN_MESSAGES.emailRequired,
      SIGN_IN_MESSAGES.emailInvalid,
      SIGN_IN_MESSAGES.passwordRequired,
      SIGN_IN_MESSAGES.passwordShort,
    ];
    for (const message of messages) await expect(page.getByText(message, { exact: true })).toHaveCount(0);
    await expect(signInButton(page)).toBeDisabled();

    await emailField(page).focus();
    await passwordField(page).focus();
    await expect(page.getByText(SIGN_IN_MESSAGES.emailRequired, { exact: true })).toBeVisible();
    await expect(emailField(page)).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(SIGN_IN_MESSAGES.passwordRequired, { exact: true })).toHaveCount(0);

    await emailField(page).fill('not-an-email');
    await expect(page.getByText(SIGN_IN_MESSAGES.emailInvalid, { exact: true })).toBeVisible();
    await expect(signInButton(page)).toBeDisabled();

    await passwordField(page).fill('abc');
    await emailField(page).focus();
    await expect(page.getByText(SIGN_IN_MESSAGES.passwordShort, { exact: true })).toBeVisible();
    await expect(passwordField(page)).toHaveAttribute('aria-describedby', 'password-error');
    await expect(signInButton(page)).toBeEnabled();

    await passwordField(page).fill('');
    await expect(page.getByText(SIGN_IN_MESSAGES.passwordRequired, { exact: true })).toBeVisible();
    await expect(signInButton(page)).toBeDisabled();

    await emailField(page).fill('someone@e2e.example');
    await passwordField(page).fill('abcdef');
    for (const message of messages) await expect(page.getByText(message, { exact: true })).toHaveCount(0);
    await expect(signInButton(page)).toBeEnabled();
  });

  test('Show password reveals the password and says so with aria-pressed', async ({ page }) => {
    await openSignIn(page);
    await passwordField(page).fill('secret-words');
    const show = page.getByRole('button', { name: 'Show password' });
    await expect(show).toHaveAttribute('aria-pressed', 'false');
    await expect(passwordField(page)).toHaveAttribute('type', 'password');
    await show.click();
    const hide = page.getByRole('button', { name: 'Hide password' });
    await expect(hide).toHaveAttribute('aria-pressed', 'true');
    await expect(passwordField(page)).toHaveAttribute('type', 'text');
    await expect(passwordField(page)).toHaveValue('secret-words');
    await hide.click();
    await expect(page.getByRole('button', { name: 'Show password' })).toHaveAttribute('aria-pressed', 'false');
    await expect(passwordField(page)).toHaveAttribute('type', 'password');
  });

  test('says Authenticating..., then Signing in..., then the success notice, and lands on the first section', async ({
    page,
    staff,
  }) => {
    const user = await staff('VIEWER');
    // What the screen says, in order, as it changes (the page is replaced once signed in, so it is
    // noted as it happens).
    const seen: string[] = [];
    await page.exposeFunction('noteScreen', (text: string) => {
      if (seen.at(-1) !== text) seen.push(text);
    });
    await page.addInitScript(() => {
      const note = (window as unknown as { noteScreen: (text: string) => void }).noteScreen;
      new MutationObserver(() => {
        const button = document.querySelector<HTMLButtonElement>('form button[type=submit]');
        const status = [...document.querySelectorAll('[role=status]')].map((el) => el.textContent).join(' ');
        note(`${button?.textContent ?? ''}${button?.disabled ? ' (disabled)' : ''}|${status}`);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    // The sign-in call is held until "Signing in..." has been seen, so that stage cannot be missed.
    let answer!: () => void;
    const seenSigningIn = new Promise<void>((resolve) => (answer = resolve));
    await page.route(
      (url) => url.pathname === '/admin.data',
      async (route) => {
        if (isSignInCall(route.request().url(), route.request().method())) await seenSigningIn;
        await route.continue();
      },
    );
    await openSignIn(page);
    await emailField(page).fill(user.email);
    await passwordField(page).fill(user.password);
    await signInButton(page).click();
    await expect(page.getByRole('button', { name: 'Signing in...' })).toBeDisabled();
    answer();
    await expect(page).toHaveURL(`${E2E.baseURL}/admin/overview`);
    await expect(page.getByText(`Welcome, ${user.name}`)).toBeVisible();
    // The 500 ms "Authenticating..." can be over before a busy test runner looks, so the stages are
    // checked as the page noted them, each with the button disabled.
    const stages = seen.filter((s) => s.startsWith('Authenticating') || s.startsWith('Signing in'));
    expect(stages).toEqual([
      'Authenticating... (disabled)|',
      'Signing in... (disabled)|',
      `Signing in... (disabled)|${SIGN_IN_MESSAGES.success}`,
    ]);
  });

  // The `staff` fixture forgets the failed sign-ins of the emails it made or tracked when a test ends.
  test('an unknown email and a wrong password get the same answer', async ({ page, staff }) => {
    const user = await staff('EDITOR');
    const stranger = staff.track(uniqueEmail('nobody'));
    await openSignIn(page);
    const unknown = await submitSignIn(page, stranger, STAFF_PASSWORD);
    expect(unknown.status()).toBe(401);
    await expect(page.getByRole('alert').filter({ hasText: SIGN_IN_MESSAGES.invalidCredentials })).toBeVisible();

    const wrong = await submitSignIn(page, user.email, 'Not-the-password-1');
    expect(wrong.status()).toBe(401);
    await expect(page.getByRole('alert').filter({ hasText: SIGN_IN_MESSAGES.invalidCredentials })).toBeVisible();
    await expect(page).toHaveURL(`${E2E.baseURL}/admin`);
    expect(await sessionCookie(page)).toBeUndefined();
  });

  test('a disabled account is told so only after the right password', async ({ page, staff }) => {
    const user = await staff('AUTHOR', { disabled: true });
    await openSignIn(page);
    const wrong = await submitSignIn(page, user.email, 'Not-the-password-1');
    expect(wrong.status()).toBe(401);
    await expect(page.getByRole('alert').filter({ hasText: SIGN_IN_MESSAGES.invalidCredentials })).toBeVisible();
    await expect(page.getByText(SIGN_IN_MESSAGES.disabled)).toHaveCount(0);

    const right = await submitSignIn(page, user.email, user.password);
    expect(right.status()).toBe(403);
    await expect(page.getByRole('alert').filter({ hasText: SIGN_IN_MESSAGES.disabled })).toBeVisible();
    await expect(page).toHaveURL(`${E2E.baseURL}/admin`);
    expect(await sessionCookie(page)).toBeUndefined();
  });

  test('after 5 failures for one email even the right password is refused for a while', async ({
    page,
    request,
    staff,
    signIn,
  }) => {
    const user = await staff('VIEWER');
    for (let i = 0; i < 5; i++) {
      const response = await request.post('/admin', {
        form: { email: user.email, password: `Wrong-password-${i}` },
        maxRedirects: 0,
      });
      expect(response.status()).toBe(401);
    }
    await openSignIn(page);
    const answer = await submitSignIn(page, user.email, user.password);
    expect(answer.status()).toBe(429);
    await expect(page.getByRole('alert').filter({ hasText: SIGN_IN_MESSAGES.tooManyAttempts })).toBeVisible();
    await expect(page).toHaveURL(`${E2E.baseURL}/admin`);

    // Another account from the same address is not locked out by this one's failures.
    await signIn('VIEWER', { via: 'form' });
  });

  test('a network failure says so and lets the person try again', async ({ page }) => {
    // Only the sign-in call is lost: the page itself was loaded before.
    await page.route(
      (url) => url.pathname === '/admin.data',
      (route) =>
        isSignInCall(route.request().url(), route.request().method()) ? route.abort('internetdisconnected') : route.continue(),
    );
    await openSignIn(page);
    await emailField(page).fill('someone@e2e.example');
    await passwordField(page).fill('whatever-it-is');
    await signInButton(page).click();
    await expect(page.getByRole('alert').filter({ hasText: SIGN_IN_MESSAGES.network })).toBeVisible();
    await expect(signInButton(page)).toBeEnabled();
  });

  test('links back to the website and to Forgot password', async ({ page }) => {
    await openSignIn(page);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(`${E2E.baseURL}/admin/forgot-password`);
    await expect(page.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to sign in' }).click();
    await expect(page).toHaveURL(`${E2E.baseURL}/admin`);
    await page.getByRole('link', { name: 'Back to website' }).click();
    await expect(page).toHaveURL(`${E2E.baseURL}/`);
  });

  test('has no accessibility issues at 1280 px, also with its messages showing', async ({ page }) => {
    await openSignIn(page);
    await expectNoA11yIssues(page);
    await emailField(page).fill('not-an-email');
    await passwordField(page).fill('abc');
    await emailField(page).focus();
    await expect(page.getByText(SIGN_IN_MESSAGES.passwordShort)).toBeVisible();
    await expectNoA11yIssues(page);
  });

  test.describe('at 375 px', () => {
    test.use({ viewport: MOBILE });

    test('fits the screen and has no accessibility issues', async ({ page }) => {
      await openSignIn(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expect(signInButton(page)).toBeVisible();
      await expectNoA11yIssues(page);
    });
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('signs in with a plain form post', async ({ page, staff }) => {
      const user = await staff('VIEWER');
      await page.goto('/admin');
      await emailField(page).fill(user.email);
      await passwordField(page).fill(user.password);
      await signInButton(page).click();
      await expect(page).toHaveURL(`${E2E.baseURL}/admin/overview`);
      await expect(page.getByText(`Welcome, ${user.name}`)).toBeVisible();
    });

    test('a wrong password gets the invalid-credentials message and keeps the email', async ({ page, staff }) => {
      const user = await staff('VIEWER');
      await page.goto('/admin');
      await emailField(page).fill(user.email);
      await passwordField(page).fill('Not-the-password-1');
      await signInButton(page).click();
      await expect(page.getByRole('alert').filter({ hasText: SIGN_IN_MESSAGES.invalidCredentials })).toBeVisible();
      await expect(emailField(page)).toHaveValue(user.email);
      await expect(page).toHaveURL(`${E2E.baseURL}/admin`);
    });
  });
});

test.describe('sessions', () => {
  test('the cookie is HttpOnly and SameSite=Lax and, without Remember me, ends with the browser', async ({ page, signIn }) => {
    await signIn('VIEWER', { via: 'form' });
    const cookie = await sessionCookie(page);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', expires: -1 });
    expect(cookie!.value.length).toBeGreaterThanOrEqual(40);
  });

  test('Remember me keeps the session for 30 days', async ({ page, signIn }) => {
    await signIn('VIEWER', { via: 'form', remember: true });
    const cookie = await sessionCookie(page);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    const days = (cookie!.expires - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  test('Logout ends the session: the old cookie no longer opens the dashboard', async ({ page, signIn }) => {
    await signIn(superAdmin());
    await page.goto('/admin/users');
    await expect(page.getByRole('heading', { level: 1, name: /^System Users/ })).toBeVisible();
    const before = (await sessionCookie(page))!;
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(`${E2E.baseURL}/admin`);
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
    expect(await sessionCookie(page)).toBeUndefined();

    await page.context().addCookies([before]);
    await page.goto('/admin/users');
    await expect(page).toHaveURL(`${E2E.baseURL}/admin?redirectTo=%2Fadmin%2Fusers`);
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
    await expect(page.getByText(E2E.adminEmail)).toHaveCount(0);
  });

  test('signing in again gives a new session id and ends the old one', async ({ request, playwright, staff }) => {
    const user = await staff('VIEWER');
    const first = await apiSignIn(request, user);
    const second = await apiSignIn(request, user);
    expect(second).not.toBe(first);
    const probe = await playwright.request.newContext({ baseURL: E2E.baseURL });
    try {
      const old = await probe.get('/admin/overview', { headers: { cookie: first }, maxRedirects: 0 });
      expect(old.status()).toBe(302);
      expect(old.headers().location).toMatch(/^\/admin\?/);
      const current = await probe.get('/admin/overview', { headers: { cookie: second }, maxRedirects: 0 });
      expect(current.status()).toBe(200);
    } finally {
      await probe.dispose();
    }
  });

  test('a session whose account was deleted signs out with the not-authorized message', async ({ page, signIn }) => {
    const user = await signIn('VIEWER');
    await page.goto('/admin/overview');
    await expect(page.getByText(`Welcome, ${user.name}`)).toBeVisible();
    deleteUserRow(user.id);
    await page.reload();
    await expect(page).toHaveURL(/\/admin\?signedOut=account-removed/);
    await expect(page.getByText(SIGN_IN_MESSAGES.notAuthorized)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  });
});

test.describe('forgot password', () => {
  test('mails a single-use link that sets a new password and signs every session out', async ({
    page,
    browser,
    staff,
    signIn,
  }) => {
    const user = await staff('VIEWER');
    const newPassword = 'Nile-Crane-5581';
    // A session on another device, which the new password must end.
    const elsewhere = await browser.newContext({ viewport: DESKTOP });
    const otherPage = await elsewhere.newPage();
    try {
      await signInWithForm(otherPage, user);

      await page.goto('/admin');
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeVisible();
      await page.getByLabel('Email address').fill(user.email);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await expect(page.getByText(FORGOT_PASSWORD_SENT)).toBeVisible();

      const link = await resetLinkMailedTo(user.email);
      const mail = mailsTo(user.email).at(-1)!;
      expect(mail.raw).toMatch(/^From: .*no-reply@e2e\.example/m);
      expect(mail.text).toContain(`Hello ${user.name},`);

      await page.goto(link);
      await expect(page.getByRole('heading', { level: 1, name: 'Set a new password' })).toBeVisible();
      await expect(page.getByText(`For ${user.email}.`)).toBeVisible();
      const first = page.getByLabel('New password', { exact: true });
      const second = page.getByLabel('Repeat the new password');
      const save = page.getByRole('button', { name: 'Set password' });

      // Too short: the browser holds the form back (and the server would refuse it too).
      await first.fill('abc');
      await second.fill('abc');
      await save.click();
      await expect(page).toHaveURL(link);
      expect(await first.evaluate((el: HTMLInputElement) => el.validity.tooShort)).toBe(true);
      const short = await page.request.post(link, { form: { password: 'abc', confirm: 'abc' } });
      expect(short.status()).toBe(400);
      expect(await short.text()).toContain(SIGN_IN_MESSAGES.passwordShort);

      await first.fill(newPassword);
      await second.fill(`${newPassword}x`);
      await save.click();
      await expect(page.getByRole('alert').filter({ hasText: RESET_MESSAGES.mismatch })).toBeVisible();

      await first.fill('password123');
      await second.fill('password123');
      await save.click();
      await expect(page.getByRole('alert').filter({ hasText: USER_MESSAGES.commonPassword })).toBeVisible();

      await first.fill(newPassword);
      await second.fill(newPassword);
      // Set, the page says so after a redirect, with 200 (not the 410 of a used link).
      const landed = page.waitForResponse((r) => r.request().method() === 'GET' && r.url().includes('/admin/reset-password/'));
      await save.click();
      expect((await landed).status()).toBe(200);
      await expect(page.getByText(RESET_MESSAGES.done)).toBeVisible();

      // The other session is over, and says why.
      await otherPage.reload();
      await expect(otherPage).toHaveURL(/\/admin\?signedOut=password-changed/);
      await expect(otherPage.getByText(SIGN_IN_MESSAGES.passwordChanged)).toBeVisible();

      // The old password no longer works; the new one does.
      await openSignIn(page);
      const old = await submitSignIn(page, user.email, user.password);
      expect(old.status()).toBe(401);
      await expect(page.getByRole('alert').filter({ hasText: SIGN_IN_MESSAGES.invalidCredentials })).toBeVisible();
      await signIn({ ...user, password: newPassword }, { via: 'form' });

      // The link worked once.
      const again = await page.goto(link);
      expect(again?.status()).toBe(410);
      await expect(page.getByText(RESET_MESSAGES.invalidLink)).toBeVisible();
      await expect(page.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/admin/forgot-password');
    } finally {
      await elsewhere.close();
    }
  });

  test('an unknown email gets the same answer and no mail is sent', async ({ page }) => {
    const stranger = uniqueEmail('nobody');
    await page.goto('/admin/forgot-password');
    await page.getByLabel('Email address').fill(stranger);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText(FORGOT_PASSWORD_SENT)).toBeVisible();
    // The answer comes before the account is looked up: wait for the background job to be done.
    const job = db().prepare("SELECT status FROM jobs WHERE kind = 'password-reset.request' AND payload LIKE ?");
    await expect
      .poll(() => (job.get(`%${stranger}%`) as { status: string } | undefined)?.status, { timeout: 10_000 })
      .toBe('done');
    expect(mailsTo(stranger)).toEqual([]);
    expect(db().prepare('SELECT count(*) AS n FROM mail_outbox WHERE to_address = ?').get(stranger)).toEqual({ n: 0 });
  });

  test('a made-up link is refused with the expired-link message', async ({ page }) => {
    const response = await page.goto('/admin/reset-password/not-a-real-token-at-all-0123456789');
    expect(response?.status()).toBe(410);
    await expect(page.getByText(RESET_MESSAGES.invalidLink)).toBeVisible();
    await expectNoA11yIssues(page);
  });

  test('the forgot-password and set-password pages have no accessibility issues', async ({ page, staff }) => {
    await page.goto('/admin/forgot-password');
    await expect(page.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeVisible();
    await expectNoA11yIssues(page);
    await page.getByLabel('Email address').fill(uniqueEmail('nobody'));
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText(FORGOT_PASSWORD_SENT)).toBeVisible();
    await expectNoA11yIssues(page);

    const user = await staff('VIEWER');
    await page.goto(createResetLink(user.id));
    await expect(page.getByRole('heading', { level: 1, name: 'Set a new password' })).toBeVisible();
    await expectNoA11yIssues(page);
  });
});
