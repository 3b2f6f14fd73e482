import { RouterContextProvider } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_MESSAGES } from '~/lib/auth';
import type { Route } from '../../routes/admin/+types/sign-in';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { staffUserByEmail } from '../../../tests/support/staff';
import { ensureSuperAdmin } from '../demo/seed.server';
import {
  LOGIN_WINDOW_MS,
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_EMAIL_AND_IP,
  MAX_FAILURES_PER_IP,
  signIn,
  signInLimitKeys,
  type SignInResult,
  type StaffUser,
} from './auth.server';
import { attemptsInWindow } from '../platform/limits.server';
import { createUser } from './users.server';
import { requestContext } from '../http/request-context.server';
import { adminAccessContext } from '../http/staff-context.server';
import { formPost } from '../../../tests/support/requests';
import { action as signInAction, loader as signInLoader } from '../../routes/admin/sign-in';
import { homePathFor } from '../../lib/permissions';
import { safeRedirect } from '../../lib/auth';

// The sign-in limits (spec §9, issue point 2): every attempt is reserved in the database before the
// password is checked, so attempts sent at the same moment cannot all slip under a limit.

const PASSWORD = 'a-fine-passphrase';

function attempt(email: string, password: string, ip: string): Promise<SignInResult> {
  return signIn({ email, password, remember: false, ip, userAgent: null, request: new Request('http://localhost/admin') });
}

/** How many of the answers were each status. */
function tally(results: SignInResult[]): Partial<Record<SignInResult['status'], number>> {
  const counts: Partial<Record<SignInResult['status'], number>> = {};
  for (const { status } of results) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

function times<T>(n: number, make: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => make(i)));
}

describe.each(ENGINES)('sign-in limits on %s', (engine) => {
  const database = useTestDatabase(engine);
  let boss: StaffUser;
  let accounts = 0;

  /** A new account of its own for each test, so no test sees another's counts. */
  async function account(): Promise<string> {
    const email = `staff-${++accounts}@example.org`;
    await createUser(
      boss,
      { name: `Staff ${accounts}`, email, role: 'EDITOR', bio: '', profilePicture: '', password: PASSWORD },
      '192.0.2.1',
    );
    return email;
  }

  beforeAll(async () => {
    await ensureSuperAdmin(database().db, { email: 'boss@example.org', password: 'boss-passphrase' });
    boss = await staffUserByEmail(database().db, 'boss@example.org');
  });

  it('checks exactly 5 of 25 simultaneous wrong passwords for one account from one address', async () => {
    const email = await account();
    const ip = '203.0.113.10';
    const results = await times(25, (i) => attempt(email, `wrong-password-${i}`, ip));
    expect(tally(results)).toEqual({ invalid: MAX_FAILURES_PER_EMAIL_AND_IP, 'rate-limited': 20 });
    // Even the right password now waits at this address; the owner elsewhere is not affected.
    expect((await attempt(email, PASSWORD, ip)).status).toBe('rate-limited');
    expect((await attempt(email, PASSWORD, '198.51.100.10')).status).toBe('ok');
    // Only checked failures stay counted: the refused ones were given back.
    const keys = signInLimitKeys(email, ip);
    expect(await attemptsInWindow(keys.pair, LOGIN_WINDOW_MS)).toBe(MAX_FAILURES_PER_EMAIL_AND_IP);
    expect(await attemptsInWindow(keys.address, LOGIN_WINDOW_MS)).toBe(MAX_FAILURES_PER_EMAIL_AND_IP);
    const failures = await database()
      .db.selectFrom('login_attempts')
      .select('id')
      .where('email', '=', email)
      .where('succeeded', '=', 0)
      .execute();
    expect(failures).toHaveLength(MAX_FAILURES_PER_EMAIL_AND_IP);
  });

  it('checks at most 30 of 40 simultaneous attempts from one address across different emails', async () => {
    const ip = '203.0.113.20';
    const results = await times(40, (i) => attempt(`guess-${i}@example.org`, 'wrong-password', ip));
    expect(tally(results)).toEqual({ invalid: MAX_FAILURES_PER_IP, 'rate-limited': 10 });
    // A real account from this address now waits too, however right its password.
    expect((await attempt(await account(), PASSWORD, ip)).status).toBe('rate-limited');
  });

  it('slows guessing at one account spread over many addresses, but lets its owner in from an address they used before', async () => {
    const email = await account();
    const home = '198.51.100.50';
    expect((await attempt(email, PASSWORD, home)).status).toBe('ok');

    const results = await times(30, (i) => attempt(email, `wrong-password-${i}`, `203.0.113.${100 + i}`));
    expect(tally(results)).toEqual({ invalid: MAX_FAILURES_PER_ACCOUNT, 'rate-limited': 10 });

    // A new address waits for the window, even with the right password: the price of the limit.
    expect((await attempt(email, PASSWORD, '192.0.2.200')).status).toBe('rate-limited');
    // The owner's usual address is let past the account-wide limit...
    expect((await attempt(email, PASSWORD, home)).status).toBe('ok');
    // ...but not past the limit for that address and account.
    const fromHome = await times(6, (i) => attempt(email, `wrong-at-home-${i}`, home));
    expect(tally(fromHome)).toEqual({ invalid: MAX_FAILURES_PER_EMAIL_AND_IP, 'rate-limited': 1 });
  });

  it('counts IPv6 addresses in one /64 together', async () => {
    const email = await account();
    const results = await times(6, (i) => attempt(email, 'wrong-password', `2001:db8:1:2::${(i + 1).toString(16)}`));
    expect(tally(results)).toEqual({ invalid: MAX_FAILURES_PER_EMAIL_AND_IP, 'rate-limited': 1 });
    expect((await attempt(email, PASSWORD, '2001:db8:1:2:ffff:ffff:ffff:ffff')).status).toBe('rate-limited');
    expect((await attempt(email, PASSWORD, '2001:db8:1:3::1')).status).toBe('ok');
  });

  it('lets the right password in after 4 failures and gives its place back', async () => {
    const email = await account();
    const ip = '203.0.113.30';
    for (let i = 0; i < 4; i++) expect((await attempt(email, 'wrong-password', ip)).status).toBe('invalid');
    expect((await attempt(email, PASSWORD, ip)).status).toBe('ok');
    expect(await attemptsInWindow(signInLimitKeys(email, ip).pair, LOGIN_WINDOW_MS)).toBe(4);
    // Had the success kept its place, this fifth failure would already be refused.
    expect((await attempt(email, 'wrong-password', ip)).status).toBe('invalid');
    expect((await attempt(email, PASSWORD, ip)).status).toBe('rate-limited');
  });

  it('gives the place back for the right password of a disabled account too', async () => {
    const email = await account();
    const ip = '203.0.113.40';
    await database().db.updateTable('system_users').set({ disabled: 1 }).where('email', '=', email).execute();
    expect((await attempt(email, 'wrong-password', ip)).status).toBe('invalid');
    expect((await attempt(email, PASSWORD, ip)).status).toBe('disabled');
    expect(await attemptsInWindow(signInLimitKeys(email, ip).pair, LOGIN_WINDOW_MS)).toBe(1);
  });

  it('answers an address that has used up its failures before the form is read, checking and counting nothing', async () => {
    const email = await account();
    const ip = '203.0.113.70';
    const keys = signInLimitKeys(email, ip);
    await database()
      .db.insertInto('rate_limits')
      .values({ key: keys.address, hits: MAX_FAILURES_PER_IP, window_started_at: new Date().toISOString() })
      .execute();
    const post = async (fields: Record<string, string>) => {
      const body = new URLSearchParams(fields).toString();
      const request = new Request('http://localhost/admin', {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) },
      });
      const context = new RouterContextProvider();
      context.set(requestContext, { nonce: '', clientIp: ip, publicPagesChanged: () => undefined });
      return (await signInAction({ request, context, params: {} } as unknown as Route.ActionArgs)) as {
        data: { error: string; email: string };
        init: ResponseInit;
      };
    };
    // The right password, and a form that would be refused for its fields: both wait, with the email kept.
    for (const fields of [
      { email, password: PASSWORD },
      { email, password: '' },
    ]) {
      const answer = await post(fields);
      expect(answer.init.status).toBe(429);
      expect(answer.data).toEqual({ error: SIGN_IN_MESSAGES.tooManyAttempts, email });
      expect(Number(new Headers(answer.init.headers).get('Retry-After'))).toBeGreaterThan(0);
    }
    expect(await attemptsInWindow(keys.address, LOGIN_WINDOW_MS)).toBe(MAX_FAILURES_PER_IP);
    expect(await attemptsInWindow(keys.pair, LOGIN_WINDOW_MS)).toBe(0);
    expect(await database().db.selectFrom('login_attempts').select('id').where('email', '=', email).execute()).toEqual([]);
  });
});

// After signing in, staff go back to the page they asked for (redirectTo), but only to a dashboard
// path a browser could have sent: a hand-made one with a line feed or another character a Location
// header cannot hold goes to the staff member's home instead of failing with a 500.
const HAND_MADE = [
  '/admin/users\nSet-Cookie: tdg_session=stolen',
  '/admin/users\r\nLocation: https://evil.example',
  '/admin/users\u0000',
  '/admin/users\u007f',
  '/admin/users\t',
  '/admin/users list',
  '/admin/utilisateurs-\u00e9t\u00e9',
  '/admin/\u4e2d\u6587',
];

describe('safeRedirect', () => {
  it('keeps a dashboard path with its query, and falls back for anything a Location header cannot hold', () => {
    expect(safeRedirect('/admin/content?q=sign%20language&type=blogs', '/home')).toBe(
      '/admin/content?q=sign%20language&type=blogs',
    );
    for (const to of HAND_MADE) expect(safeRedirect(to, '/home'), JSON.stringify(to)).toBe('/home');
  });
});

describe.each(ENGINES)('redirectTo after sign-in on %s', (engine) => {
  const database = useTestDatabase(engine);
  let boss: StaffUser;

  beforeAll(async () => {
    await ensureSuperAdmin(database().db, { email: 'redirect-boss@example.org', password: PASSWORD });
    boss = await staffUserByEmail(database().db, 'redirect-boss@example.org');
  });

  /** Runs `run` and gives back the Response it returned or threw (or, for a form's answer, its status and data). */
  async function answer(run: () => unknown): Promise<{ status: number | undefined; location: string | null; data?: unknown }> {
    let result: unknown;
    try {
      result = await run();
    } catch (thrown) {
      if (!(thrown instanceof Response)) throw thrown;
      result = thrown;
    }
    if (result instanceof Response) return { status: result.status, location: result.headers.get('Location') };
    const { data, init } = result as { data: unknown; init?: { status?: number } };
    return { status: init?.status, location: null, data };
  }

  it('signs in and sends a hand-made redirectTo home, never a 500', async () => {
    for (const [i, redirectTo] of [...HAND_MADE, '/admin/users'].entries()) {
      const context = new RouterContextProvider();
      context.set(requestContext, { nonce: '', clientIp: `198.51.100.${i + 1}`, publicPagesChanged: () => undefined });
      const fields = { email: 'redirect-boss@example.org', password: PASSWORD, redirectTo };
      const length = String(Buffer.byteLength(new URLSearchParams(fields).toString()));
      const request = formPost('http://localhost/admin', fields, { 'content-length': length });
      const response = await answer(() => signInAction({ request, context, params: {} } as never));
      // A field with a control character other than tab and line breaks is refused as a whole form
      // (parseForm, 400); any other hand-made address signs in and goes home.
      // eslint-disable-next-line no-control-regex -- the characters parseForm refuses
      if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(redirectTo)) {
        expect(response, JSON.stringify(redirectTo)).toMatchObject({ status: 400 });
        continue;
      }
      expect(response, JSON.stringify(redirectTo)).toMatchObject({ status: 302 });
      expect(response.location).toBe(redirectTo === '/admin/users' ? '/admin/users' : homePathFor(boss.role));
    }
  });

  it('sends a signed-in visit to /admin?redirectTo=… with a line feed home, never a 500', async () => {
    for (const redirectTo of [...HAND_MADE, '/admin/users']) {
      const context = new RouterContextProvider();
      context.set(adminAccessContext, { current: { status: 'signed-in', user: boss } });
      const request = new Request(`http://localhost/admin?${new URLSearchParams({ redirectTo })}`);
      const response = await answer(() => signInLoader({ request, context, params: {} } as never));
      expect(response, JSON.stringify(redirectTo)).toMatchObject({ status: 302 });
      expect(response.location).toBe(redirectTo === '/admin/users' ? '/admin/users' : homePathFor(boss.role));
    }
  });
});
