import { beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { staffUserByEmail } from '../../../tests/support/staff';
import { ensureSuperAdmin } from '../demo/seed.server';
import { completeSecondStep, signIn, type SignInResult, type StaffUser } from './auth.server';
import { createUser } from './users.server';
import { resetPassword, sendPasswordResetLink } from './password-reset.server';
import {
  confirmTotpEnrolment,
  regenerateRecoveryCodes,
  removeTotp,
  resetTwoFactor,
  resetTwoFactorFromCommand,
  setRequiredRoles,
  startTotpEnrolment,
  twoFactorStatus,
  verifyTotp,
  TOTP_PERIOD_SECONDS,
} from './two-factor.server';
import { RuleError } from '../platform/rule-error.server';
import { TWO_FACTOR_MESSAGES } from '../../lib/two-factor';

// Issue 25: the second step, on both engines, through the services the screens call. Codes are
// computed here from the key the enrolment shows, with the same TOTP library the site uses.

const PASSWORD = 'a-fine-passphrase';
const STEP_MS = TOTP_PERIOD_SECONDS * 1000;

function codeAt(key: string, timestamp: number): string {
  return TOTP.generate({
    secret: Secret.fromBase32(key.replace(/\s/g, '')),
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    timestamp,
  });
}

function cookieValue(setCookie: string): string {
  return setCookie.split(';')[0]!.split('=').slice(1).join('=');
}

describe.each(ENGINES)('two-factor sign-in on %s', (engine) => {
  const database = useTestDatabase(engine);
  let boss: StaffUser;
  let accounts = 0;

  beforeAll(async () => {
    await ensureSuperAdmin(database().db, { email: 'boss@example.org', password: 'boss-passphrase' });
    boss = await staffUserByEmail(database().db, 'boss@example.org');
  });

  /** A new account with an authenticator app set up: its key and its recovery codes. */
  async function enrolled(): Promise<{ user: StaffUser; key: string; codes: string[]; ip: string }> {
    const email = `staff-${++accounts}-${engine}@example.org`;
    await createUser(
      boss,
      { name: `Staff ${accounts}`, email, role: 'ADMIN', bio: '', profilePicture: '', password: PASSWORD },
      '192.0.2.1',
    );
    const user = await staffUserByEmail(database().db, email);
    const { key } = await startTotpEnrolment(user);
    const codes = await confirmTotpEnrolment(user, codeAt(key, Date.now()), '192.0.2.1');
    return { user, key, codes: codes ?? [], ip: `198.51.100.${accounts}` };
  }

  function passwordStep(email: string, ip: string, deviceToken?: string): Promise<SignInResult> {
    return signIn({
      email,
      password: PASSWORD,
      remember: false,
      ip,
      userAgent: 'test',
      request: new Request('http://localhost/admin'),
      deviceToken,
    });
  }

  async function challengeOf(email: string, ip: string): Promise<string> {
    const result = await passwordStep(email, ip);
    if (result.status !== 'second-step') throw new Error(`expected the second step, got ${result.status}`);
    return cookieValue(result.challengeCookie);
  }

  function second(challengeToken: string, ip: string, answer: { code?: string; recoveryCode?: string }, rememberDevice = false) {
    return completeSecondStep({
      challengeToken,
      ...answer,
      rememberDevice,
      ip,
      userAgent: 'test',
      request: new Request('http://localhost/admin/verify'),
    });
  }

  async function sessionsOf(userId: string): Promise<number> {
    const rows = await database().db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute();
    return rows.length;
  }

  /** The next 30-second step's code: the enrolment already used this one. */
  const nextCode = (key: string) => codeAt(key, Date.now() + STEP_MS);

  it('sets up an app only with a right first code, and gives ten recovery codes once', async () => {
    const email = `setup-${engine}@example.org`;
    await createUser(
      boss,
      { name: 'Setup', email, role: 'EDITOR', bio: '', profilePicture: '', password: PASSWORD },
      '192.0.2.1',
    );
    const user = await staffUserByEmail(database().db, email);
    const { key, qrSvg, uri } = await startTotpEnrolment(user);
    expect(qrSvg).toMatch(/^<svg/);
    expect(uri).toContain('otpauth://totp/');
    await expect(
      confirmTotpEnrolment(user, '000000' === codeAt(key, Date.now()) ? '111111' : '000000', '192.0.2.1'),
    ).rejects.toThrow(TWO_FACTOR_MESSAGES.wrongEnrolmentCode);
    expect((await twoFactorStatus(user.id)).totp).toBe(false);
    const codes = await confirmTotpEnrolment(user, codeAt(key, Date.now()), '192.0.2.1');
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    // Stored hashed: no code appears in the table.
    const stored = await database()
      .db.selectFrom('two_factor_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', user.id)
      .execute();
    expect(stored).toHaveLength(10);
    for (const code of codes!) expect(stored.map((r) => r.code_hash)).not.toContain(code);
    expect(await twoFactorStatus(user.id)).toMatchObject({ totp: true, recoveryCodesLeft: 10, enabled: true });
    await expect(startTotpEnrolment(user)).rejects.toThrow(TWO_FACTOR_MESSAGES.alreadyEnrolled);
    const audit = await database().db.selectFrom('audit_log').select('action').where('target', '=', email).execute();
    expect(audit.map((r) => r.action)).toEqual(expect.arrayContaining(['two_factor.enrol_failed', 'two_factor.totp_added']));
    const mail = await database().db.selectFrom('mail_outbox').select('subject').where('to_address', '=', email).execute();
    expect(mail.map((m) => m.subject)).toContainEqual(expect.stringContaining('a second step was added'));
  });

  it('accepts a code one step either side, never the same step twice, never an earlier one', async () => {
    const { user, key } = await enrolled();
    const now = Date.now() + 10 * STEP_MS;
    expect(await verifyTotp(user, codeAt(key, now - 2 * STEP_MS), now)).toBe(false);
    expect(await verifyTotp(user, codeAt(key, now - STEP_MS), now)).toBe(true);
    expect(await verifyTotp(user, codeAt(key, now - STEP_MS), now)).toBe(false);
    expect(await verifyTotp(user, codeAt(key, now), now)).toBe(true);
    expect(await verifyTotp(user, codeAt(key, now), now)).toBe(false);
    // An earlier step is refused once a later one was used.
    expect(await verifyTotp(user, codeAt(key, now - STEP_MS), now)).toBe(false);
    expect(await verifyTotp(user, codeAt(key, now + STEP_MS), now)).toBe(true);
    expect(await verifyTotp(user, codeAt(key, now + 2 * STEP_MS), now)).toBe(false);
    expect(await verifyTotp(user, 'abcdef', now)).toBe(false);
  });

  it('opens no session after the password alone; a wrong code is refused; a right one opens one session', async () => {
    const { user, key, ip } = await enrolled();
    const before = await sessionsOf(user.id);
    const token = await challengeOf(user.email, ip);
    expect(await sessionsOf(user.id)).toBe(before);
    const right = nextCode(key);
    const wrong = right === '123456' ? '654321' : '123456';
    expect(await second(token, ip, { code: wrong })).toEqual({ status: 'invalid', method: 'totp' });
    expect(await sessionsOf(user.id)).toBe(before);
    const ok = await second(token, ip, { code: right });
    expect(ok.status).toBe('ok');
    expect(await sessionsOf(user.id)).toBe(before + 1);
    // Replaying the step (the same cookie, even with a fresh right code) opens nothing more.
    expect(await second(token, ip, { code: codeAt(key, Date.now() + 2 * STEP_MS) })).toEqual({ status: 'expired' });
    expect(await second(token, ip, { code: right })).toEqual({ status: 'expired' });
    const failures = await database()
      .db.selectFrom('audit_log')
      .select('action')
      .where('target', '=', user.email)
      .where('action', '=', 'auth.second_step_failed')
      .execute();
    expect(failures.length).toBeGreaterThanOrEqual(1);
    expect(await sessionsOf(user.id)).toBe(before + 1);
  });

  it('does not reopen a used step with a recovery code', async () => {
    const { user, key, codes, ip } = await enrolled();
    const token = await challengeOf(user.email, ip);
    expect((await second(token, ip, { code: nextCode(key) })).status).toBe('ok');
    expect(await second(token, ip, { recoveryCode: codes[0]! })).toEqual({ status: 'expired' });
  });

  it('opens exactly one session when the same step is raced 25 times with the right code', async () => {
    const { user, key, ip } = await enrolled();
    const token = await challengeOf(user.email, ip);
    const code = nextCode(key);
    const results = await Promise.all(Array.from({ length: 25 }, () => second(token, ip, { code })));
    expect(results.filter((r) => r.status === 'ok')).toHaveLength(1);
    expect(await sessionsOf(user.id)).toBe(1);
  });

  it('opens exactly one session when one step is raced with 25 different recovery codes', async () => {
    const { user, codes, ip } = await enrolled();
    const token = await challengeOf(user.email, ip);
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => second(token, `${ip.slice(0, -1)}${i}`, { recoveryCode: codes[i % 10]! })),
    );
    expect(results.filter((r) => r.status === 'ok')).toHaveLength(1);
    expect(await sessionsOf(user.id)).toBe(1);
  });

  it('takes a recovery code once, and says how many are left', async () => {
    const { user, codes, ip } = await enrolled();
    const first = await second(await challengeOf(user.email, ip), ip, { recoveryCode: codes[3]!.toUpperCase() });
    expect(first).toMatchObject({ status: 'ok', recoveryCodesLeft: 9 });
    expect(await second(await challengeOf(user.email, ip), ip, { recoveryCode: codes[3]! })).toEqual({
      status: 'invalid',
      method: 'recovery',
    });
    const used = await database()
      .db.selectFrom('audit_log')
      .select('detail')
      .where('target', '=', user.email)
      .where('action', '=', 'auth.recovery_code_used')
      .execute();
    expect(used.map((r) => JSON.parse(r.detail))).toEqual([{ left: 9 }]);
    // New codes replace the old ones.
    const fresh = await regenerateRecoveryCodes(user, ip);
    expect(await second(await challengeOf(user.email, ip), ip, { recoveryCode: codes[4]! })).toMatchObject({ status: 'invalid' });
    expect(await second(await challengeOf(user.email, ip), ip, { recoveryCode: fresh[0]! })).toMatchObject({
      status: 'ok',
      recoveryCodesLeft: 9,
    });
  });

  it('lets a step expire after a few minutes', async () => {
    const { user, key, ip } = await enrolled();
    const token = await challengeOf(user.email, ip);
    await database()
      .db.updateTable('sign_in_challenges')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    expect(await second(token, ip, { code: nextCode(key) })).toEqual({ status: 'expired' });
    expect(await second('not-a-real-token-at-all-xxxxxxxxx', ip, { code: nextCode(key) })).toEqual({ status: 'expired' });
  });

  it('counts wrong codes under the sign-in limits', async () => {
    const { user, key, ip } = await enrolled();
    const token = await challengeOf(user.email, ip);
    const right = nextCode(key);
    const wrong = right === '123456' ? '654321' : '123456';
    const results = await Promise.all(Array.from({ length: 25 }, () => second(token, ip, { code: wrong })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 'invalid')).toHaveLength(5);
    expect(statuses.filter((s) => s === 'rate-limited')).toHaveLength(20);
    // Even the right code now waits at this address.
    expect((await second(token, ip, { code: right })).status).toBe('rate-limited');
  });

  it('keeps the second step after a password reset: the link opens no session', async () => {
    const { user, key, ip } = await enrolled();
    expect(await sendPasswordResetLink(user.email, { actor: null, ip })).toBe(true);
    const mail = await database()
      .db.selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', user.email)
      .where('subject', 'like', 'Set your password%')
      .executeTakeFirstOrThrow();
    const link = /\/admin\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text_body)![1]!;
    const before = await sessionsOf(user.id);
    expect(await resetPassword(link, PASSWORD, ip)).toBe(true);
    expect(await sessionsOf(user.id)).toBe(0);
    expect(before).toBeGreaterThanOrEqual(0);
    expect((await twoFactorStatus(user.id)).totp).toBe(true);
    const token = await challengeOf(user.email, ip);
    expect((await second(token, ip, { code: nextCode(key) })).status).toBe('ok');
  });

  it('remembers a device for the account until its factors change', async () => {
    const { user, key, ip } = await enrolled();
    const ok = await second(await challengeOf(user.email, ip), ip, { code: nextCode(key) }, true);
    if (ok.status !== 'ok') throw new Error(ok.status);
    const device = ok.cookies.find((c) => c.startsWith('tdg_device='))!;
    expect(device).toContain('HttpOnly');
    const deviceToken = cookieValue(device);
    expect((await passwordStep(user.email, ip, deviceToken)).status).toBe('ok');
    // Bound to the account: another account's sign-in from the same browser is still asked.
    const other = await enrolled();
    expect((await passwordStep(other.user.email, ip, deviceToken)).status).toBe('second-step');
    // New recovery codes leave it; removing the app ends it.
    await regenerateRecoveryCodes(user, ip);
    expect((await passwordStep(user.email, ip, deviceToken)).status).toBe('ok');
    await removeTotp(user, ip);
    const { key: key2 } = await startTotpEnrolment(user);
    await confirmTotpEnrolment(user, codeAt(key2, Date.now()), ip);
    expect((await passwordStep(user.email, ip, deviceToken)).status).toBe('second-step');
  });

  it('refuses removing the last factor of a role that must have one; the super admin resets it, audited and mailed', async () => {
    const { user, ip } = await enrolled();
    await setRequiredRoles(boss, ['ADMIN'], ip);
    try {
      await expect(removeTotp(user, ip)).rejects.toThrow(TWO_FACTOR_MESSAGES.lastFactorRequired);
      await expect(resetTwoFactor(user, boss.id, ip)).rejects.toBeInstanceOf(RuleError);
      await expect(setRequiredRoles(user, [], ip)).rejects.toThrow(TWO_FACTOR_MESSAGES.onlySuperAdmin);
      await expect(setRequiredRoles(boss, ['NOBODY'], ip)).rejects.toThrow(TWO_FACTOR_MESSAGES.unknownRole);
      await resetTwoFactor(boss, user.id, ip);
      expect(await twoFactorStatus(user.id)).toMatchObject({ totp: false, recoveryCodesLeft: 0, enabled: false });
      await expect(resetTwoFactor(boss, user.id, ip)).rejects.toThrow(TWO_FACTOR_MESSAGES.nothingToReset);
      const audit = await database()
        .db.selectFrom('audit_log')
        .select(['action', 'actor_email'])
        .where('target', '=', user.email)
        .where('action', '=', 'two_factor.reset')
        .execute();
      expect(audit).toEqual([{ action: 'two_factor.reset', actor_email: boss.email }]);
      const mail = await database().db.selectFrom('mail_outbox').select('subject').where('to_address', '=', user.email).execute();
      expect(mail.map((m) => m.subject)).toContainEqual(expect.stringContaining('a second step was reset'));
      // With none left, the password alone opens a session (the dashboard then asks them to set one up).
      expect((await passwordStep(user.email, ip)).status).toBe('ok');
    } finally {
      await setRequiredRoles(boss, [], ip);
    }
  });

  it('resets from the server command', async () => {
    const { user, ip } = await enrolled();
    expect(await resetTwoFactorFromCommand(user.email.toUpperCase())).toBe(true);
    expect((await twoFactorStatus(user.id)).enabled).toBe(false);
    expect(await resetTwoFactorFromCommand('nobody@example.org')).toBe(false);
    expect((await passwordStep(user.email, ip)).status).toBe('ok');
  });
});
