import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { getDb } from '../db/db.server.ts';
import { getConfig } from '../platform/config.server.ts';
import { nowIso } from '../platform/ids.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import { sendMail } from '../platform/mail.server.ts';
import { readSetting, writeSetting } from '../platform/settings.server.ts';
import { RuleError } from '../platform/rule-error.server.ts';
import { ROLES, type Role } from '../../lib/permissions.ts';
import { TWO_FACTOR_MESSAGES } from '../../lib/two-factor.ts';

// Issue 25: the second step of a staff sign-in (docs/decisions/026-two-factor-sign-in.md). An
// authenticator app (RFC 6238, 30-second steps, 6 digits, one step either side, never the same step
// twice), ten single-use recovery codes kept as SHA-256, the pending step between a right password and
// a session, "remember this device", and which roles must use it. auth.server.ts opens the sessions.

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
/** How long the step between a right password and a session stays open. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const REMEMBER_DEVICE_MS = 30 * 86_400_000;
export const REQUIRED_ROLES_SETTING = 'two_factor_required_roles';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Who a factor belongs to, as the service needs them. */
export interface FactorOwner {
  id: string;
  email: string;
  name?: string;
}

export class TwoFactorRuleError extends RuleError {}

// ---------------------------------------------------------------------------------------------
// Status

export interface TwoFactorStatus {
  totp: boolean;
  recoveryCodesLeft: number;
  passkeys: number;
  /** Whether any second factor is set up (recovery codes alone are not one). */
  enabled: boolean;
}

export async function twoFactorStatus(userId: string): Promise<TwoFactorStatus> {
  const db = getDb();
  const totp = await db
    .selectFrom('two_factor_totp')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
  const codes = await db
    .selectFrom('two_factor_recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  const passkeys = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return {
    totp: Boolean(totp),
    recoveryCodesLeft: Number(codes.n),
    passkeys: Number(passkeys.n),
    enabled: Boolean(totp) || Number(passkeys.n) > 0,
  };
}

/** Whether the account has a second factor: what decides that a sign-in needs the second step. */
export async function hasSecondFactor(userId: string): Promise<boolean> {
  return (await twoFactorStatus(userId)).enabled;
}

// ---------------------------------------------------------------------------------------------
// Which roles must use it

export async function requiredRoles(): Promise<Role[]> {
  const stored = await readSetting<unknown>(getDb(), REQUIRED_ROLES_SETTING);
  return Array.isArray(stored) ? ROLES.filter((role) => stored.includes(role)) : [];
}

export async function twoFactorRequiredFor(role: Role): Promise<boolean> {
  return (await requiredRoles()).includes(role);
}

export async function setRequiredRoles(actor: { email: string; role: Role }, roles: string[], ip: string): Promise<Role[]> {
  if (actor.role !== 'SUPER_ADMIN') throw new TwoFactorRuleError(TWO_FACTOR_MESSAGES.onlySuperAdmin, 403);
  const unknown = roles.filter((role) => !(ROLES as readonly string[]).includes(role));
  if (unknown.length > 0) throw new TwoFactorRuleError(TWO_FACTOR_MESSAGES.unknownRole, 400, 'roles');
  const chosen = ROLES.filter((role) => roles.includes(role));
  const before = await requiredRoles();
  await writeSetting(getDb(), REQUIRED_ROLES_SETTING, chosen);
  await recordAudit({
    actor: actor.email,
    action: 'two_factor.required_roles_changed',
    target: null,
    ip,
    detail: { before, after: chosen },
  });
  return chosen;
}

// ---------------------------------------------------------------------------------------------
// The authenticator app

function totpFor(secret: string, email: string): TOTP {
  return new TOTP({
    issuer: getConfig().organisation.name,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

export interface TotpEnrolment {
  /** The key as text, in groups of four, for people who type it. */
  key: string;
  uri: string;
  /** The QR code of `uri`, an SVG drawn on the server. */
  qrSvg: string;
}

async function enrolmentOf(secret: string, email: string): Promise<TotpEnrolment> {
  const uri = totpFor(secret, email).toString();
  const qrSvg = await QRCode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return { key: secret.replace(/(.{4})/g, '$1 ').trim(), uri, qrSvg };
}

/** The app being set up (not yet confirmed by a first code), if any. */
export async function pendingTotpEnrolment(owner: FactorOwner): Promise<TotpEnrolment | undefined> {
  const row = await getDb()
    .selectFrom('two_factor_totp')
    .select(['secret', 'confirmed_at'])
    .where('user_id', '=', owner.id)
    .executeTakeFirst();
  if (!row || row.confirmed_at) return undefined;
  return enrolmentOf(row.secret, owner.email);
}

/** Starts setting up an authenticator app: a new key, kept unconfirmed until its first code. */
export async function startTotpEnrolment(owner: FactorOwner): Promise<TotpEnrolment> {
  const db = getDb();
  const existing = await db
    .selectFrom('two_factor_totp')
    .select('confirmed_at')
    .where('user_id', '=', owner.id)
    .executeTakeFirst();
  if (existing?.confirmed_at) throw new TwoFactorRuleError(TWO_FACTOR_MESSAGES.alreadyEnrolled, 409);
  const secret = new Secret({ size: 20 }).base32;
  await db.deleteFrom('two_factor_totp').where('user_id', '=', owner.id).execute();
  await db
    .insertInto('two_factor_totp')
    .values({ user_id: owner.id, secret, confirmed_at: null, last_step: null, created_at: nowIso() })
    .execute();
  return enrolmentOf(secret, owner.email);
}

/** The 30-second step `code` belongs to (within one step either side of `now`), or undefined. */
function matchingStep(secret: string, email: string, code: string, now: number): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpFor(secret, email).validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return undefined;
  return Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** A code as typed: spaces and dashes go. */
export function normaliseCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

/**
 * Checks an authenticator code and uses it up: the step is claimed by one atomic update that only
 * succeeds for a step later than the last one accepted, so a code (or an earlier one) is never
 * accepted twice, even by requests at the same moment.
 */
export async function verifyTotp(owner: FactorOwner, code: string, now = Date.now()): Promise<boolean> {
  const db = getDb();
  const row = await db
    .selectFrom('two_factor_totp')
    .select(['secret', 'confirmed_at'])
    .where('user_id', '=', owner.id)
    .executeTakeFirst();
  if (!row?.confirmed_at) return false;
  const step = matchingStep(row.secret, owner.email, normaliseCode(code), now);
  if (step === undefined) return false;
  const claimed = await db
    .updateTable('two_factor_totp')
    .set({ last_step: step })
    .where('user_id', '=', owner.id)
    .where('confirmed_at', 'is not', null)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/**
 * Confirms the app being set up with its first code. Answers the new recovery codes when the
 * account had none left (shown once), else null.
 */
export async function confirmTotpEnrolment(
  owner: FactorOwner,
  code: string,
  ip: string,
  now = Date.now(),
): Promise<string[] | null> {
  const db = getDb();
  const row = await db
    .selectFrom('two_factor_totp')
    .select(['secret', 'confirmed_at'])
    .where('user_id', '=', owner.id)
    .executeTakeFirst();
  if (!row) throw new TwoFactorRuleError(TWO_FACTOR_MESSAGES.noEnrolment, 409);
  if (row.confirmed_at) throw new TwoFactorRuleError(TWO_FACTOR_MESSAGES.alreadyEnrolled, 409);
  const step = matchingStep(row.secret, owner.email, normaliseCode(code), now);
  if (step === undefined) {
    await recordAudit({ actor: owner.email, action: 'two_factor.enrol_failed', target: owner.email, ip });
    throw new TwoFactorRuleError(TWO_FACTOR_MESSAGES.wrongEnrolmentCode, 400, 'code');
  }
  const confirmed = await db
    .updateTable('two_factor_totp')
    .set({ confirmed_at: nowIso(), last_step: step })
    .where('user_id', '=', owner.id)
    .where('confirmed_at', 'is', null)
    .executeTakeFirst();
  if (Number(confirmed.numUpdatedRows) !== 1) throw new TwoFactorRuleError(TWO_FACTOR_MESSAGES.alreadyEnrolled, 409);
  await forgetAllDevices(owner.id);
  await recordAudit({ actor: owner.email, action: 'two_factor.totp_added', target: owner.email, ip });
  await factorMail(owner, 'added', 'An authenticator app');
  const left = (await twoFactorStatus(owner.id)).recoveryCodesLeft;
  return left > 0 ? null : storeRecoveryCodes(owner.id);
}

/** Removes the authenticator app; refused when it is the last factor of a role that must have one. */
export async function removeTotp(owner: FactorOwner & { role: Role }, ip: string): Promise<void> {
  const status = await twoFactorStatus(owner.id);
  if (!status.totp) throw new TwoFactorRuleError(TWO_FACTOR_MESSAGES.noTotp, 404);
  if (status.passkeys === 0 && (await twoFactorRequiredFor(owner.role)))
    throw new TwoFactorRuleError(TWO_FACTOR_MESSAGES.lastFactorRequired, 409);
  await getDb().deleteFrom('two_factor_totp').where('user_id', '=', owner.id).execute();
  if (status.passkeys === 0) await getDb().deleteFrom('two_factor_recovery_codes').where('user_id', '=', owner.id).execute();
  await forgetAllDevices(owner.id);
  await recordAudit({ actor: owner.email, action: 'two_factor.totp_removed', target: owner.email, ip });
  await factorMail(owner, 'removed', 'The authenticator app');
}

// ---------------------------------------------------------------------------------------------
// Recovery codes

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  let code = '';
  for (const byte of bytes) code += RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

async function storeRecoveryCodes(userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const at = nowIso();
  await getDb()
    .transaction()
    .execute(async (trx) => {
      await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
      await trx
        .insertInto('two_factor_recovery_codes')
        .values(codes.map((code) => ({ code_hash: sha256(normaliseCode(code)), user_id: userId, used_at: null, created_at: at })))
        .execute();
    });
  return codes;
}

/** New recovery codes in place of the old ones (all of which stop working), shown once. */
export async function regenerateRecoveryCodes(owner: FactorOwner, ip: string): Promise<string[]> {
  if (!(await hasSecondFactor(owner.id))) throw new TwoFactorRuleError(TWO_FACTOR_MESSAGES.noFactor, 409);
  const codes = await storeRecoveryCodes(owner.id);
  await recordAudit({ actor: owner.email, action: 'two_factor.recovery_codes_made', target: owner.email, ip });
  return codes;
}

/** Uses up one recovery code; answers how many are left, or undefined when the code is not one. */
export async function spendRecoveryCode(owner: FactorOwner, code: string): Promise<number | undefined> {
  const normalised = normaliseCode(code);
  if (!/^[a-z0-9]{10}$/.test(normalised)) return undefined;
  const db = getDb();
  const used = await db
    .updateTable('two_factor_recovery_codes')
    .set({ used_at: nowIso() })
    .where('code_hash', '=', sha256(normalised))
    .where('user_id', '=', owner.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) return undefined;
  return (await twoFactorStatus(owner.id)).recoveryCodesLeft;
}

// ---------------------------------------------------------------------------------------------
// The super admin's reset, and the command's

/** Removes every second factor of an account (app, passkeys, recovery codes, remembered devices). */
async function removeAllFactors(userId: string): Promise<boolean> {
  const db = getDb();
  const had = await twoFactorStatus(userId);
  await db.deleteFrom('two_factor_totp').where('user_id', '=', userId).execute();
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await db.deleteFrom('passkeys').where('user_id', '=', userId).execute();
  await db.deleteFrom('sign_in_challenges').where('user_id', '=', userId).execute();
  await forgetAllDevices(userId);
  return had.enabled || had.recoveryCodesLeft > 0;
}

/** The super admin resets another person's second factor (they set it up again at their next sign-in). */
export async function resetTwoFactor(
  actor: { id: string; email: string; role: Role },
  userId: string,
  ip: string,
): Promise<void> {
  if (actor.role !== 'SUPER_ADMIN') throw new TwoFactorRuleError(TWO_FACTOR_MESSAGES.onlySuperAdmin, 403);
  if (actor.id === userId) throw new TwoFactorRuleError(TWO_FACTOR_MESSAGES.notYourOwn, 403);
  const user = await getDb()
    .selectFrom('system_users')
    .select(['id', 'email', 'name'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw new TwoFactorRuleError(TWO_FACTOR_MESSAGES.noSuchUser, 404);
  const had = await removeAllFactors(user.id);
  if (!had) throw new TwoFactorRuleError(TWO_FACTOR_MESSAGES.nothingToReset, 409);
  await recordAudit({ actor: actor.email, action: 'two_factor.reset', target: user.email, ip });
  await factorMail(user, 'reset', 'Every second factor');
}

/** `npm run staff -- reset-2fa EMAIL`: the reset for an account nobody in the dashboard can reset. */
export async function resetTwoFactorFromCommand(email: string): Promise<boolean> {
  const user = await getDb()
    .selectFrom('system_users')
    .select(['id', 'email', 'name'])
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
  if (!user) return false;
  await removeAllFactors(user.id);
  await recordAudit({
    actor: 'server command',
    action: 'two_factor.reset',
    target: user.email,
    ip: null,
    detail: { via: 'command' },
  });
  await factorMail(user, 'reset', 'Every second factor');
  return true;
}

/** Called when an account is deleted. */
export async function forgetFactorsOf(userId: string): Promise<void> {
  await removeAllFactors(userId);
}

// ---------------------------------------------------------------------------------------------
// Mail

export async function factorMail(owner: FactorOwner, change: 'added' | 'removed' | 'reset', what: string): Promise<void> {
  const { organisation, publicUrl } = getConfig();
  const sentence =
    change === 'added'
      ? `${what} was added as a second step for signing in to your ${organisation.name} dashboard account.`
      : change === 'removed'
        ? `${what} was removed from the second step for signing in to your ${organisation.name} dashboard account.`
        : `${what} of your ${organisation.name} dashboard account was removed by an administrator, so you can set it up again.`;
  await sendMail({
    to: owner.email,
    subject: `Your ${organisation.name} sign-in: a second step was ${change}`,
    text: [
      `Hello${owner.name ? ` ${owner.name}` : ''},`,
      '',
      sentence,
      '',
      `You can see your sign-in settings at ${publicUrl}/admin/security.`,
      'If this was not you, tell the super admin at once: someone may know your password.',
    ].join('\n'),
  });
}

// ---------------------------------------------------------------------------------------------
// The pending step: between a right password and a session, and passkey ceremonies

export type ChallengeKind = 'second-step' | 'passkey-sign-in' | 'passkey-add';

export interface Challenge {
  id: string;
  userId: string | null;
  remember: boolean;
  webauthnChallenge: string | null;
}

export async function createChallenge(input: {
  kind: ChallengeKind;
  userId: string | null;
  remember?: boolean;
  webauthnChallenge?: string;
}): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  const db = getDb();
  // Housekeeping: finished and expired steps go.
  await db.deleteFrom('sign_in_challenges').where('expires_at', '<', new Date(now).toISOString()).execute();
  await db
    .insertInto('sign_in_challenges')
    .values({
      id: sha256(token),
      user_id: input.userId,
      kind: input.kind,
      remember: input.remember ? 1 : 0,
      webauthn_challenge: input.webauthnChallenge ?? null,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + CHALLENGE_TTL_MS).toISOString(),
      used_at: null,
    })
    .execute();
  return token;
}

/** The open step `token` names, if it is of `kind`, unused and unexpired. */
export async function readChallenge(token: string | undefined, kind: ChallengeKind): Promise<Challenge | undefined> {
  if (!token || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
  const row = await getDb().selectFrom('sign_in_challenges').selectAll().where('id', '=', sha256(token)).executeTakeFirst();
  if (!row || row.kind !== kind || row.used_at || Date.parse(row.expires_at) <= Date.now()) return undefined;
  return { id: row.id, userId: row.user_id, remember: row.remember === 1, webauthnChallenge: row.webauthn_challenge };
}

/** Uses up a step: true for the one request that gets it. */
export async function claimChallenge(id: string): Promise<boolean> {
  const now = nowIso();
  const claimed = await getDb()
    .updateTable('sign_in_challenges')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

export function challengeCookieName(): string {
  return getConfig().https ? '__Host-tdg_second_step' : 'tdg_second_step';
}

export function challengeCookie(token: string | null): string {
  const parts = [`${challengeCookieName()}=${token ?? ''}`, 'Path=/admin', 'HttpOnly', 'SameSite=Lax'];
  if (getConfig().https) {
    parts.push('Secure');
    parts[1] = 'Path=/';
  }
  parts.push(`Max-Age=${token ? Math.floor(CHALLENGE_TTL_MS / 1000) : 0}`);
  return parts.join('; ');
}

/** The cookie of a passkey ceremony under way ("Sign in with a passkey", adding one). */
export function passkeyCookieName(): string {
  return getConfig().https ? '__Host-tdg_passkey' : 'tdg_passkey';
}

export function passkeyCookie(token: string | null): string {
  const parts = [`${passkeyCookieName()}=${token ?? ''}`, 'Path=/', 'HttpOnly', 'SameSite=Strict'];
  if (getConfig().https) parts.push('Secure');
  parts.push(`Max-Age=${token ? Math.floor(CHALLENGE_TTL_MS / 1000) : 0}`);
  return parts.join('; ');
}

// ---------------------------------------------------------------------------------------------
// Remembered devices

export function deviceCookieName(): string {
  return getConfig().https ? '__Host-tdg_device' : 'tdg_device';
}

export function deviceCookie(token: string | null): string {
  const parts = [`${deviceCookieName()}=${token ?? ''}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (getConfig().https) parts.push('Secure');
  parts.push(`Max-Age=${token ? Math.floor(REMEMBER_DEVICE_MS / 1000) : 0}`);
  return parts.join('; ');
}

/**
 * Remembers this device for the account: the cookie holds a random token bound to the account by
 * its stored SHA-256, so it can be listed, ended, and is ended when the factors change.
 */
export async function rememberDevice(userId: string, ip: string, userAgent: string | null): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  await getDb()
    .insertInto('remembered_devices')
    .values({
      id: sha256(token),
      user_id: userId,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + REMEMBER_DEVICE_MS).toISOString(),
      last_used_at: new Date(now).toISOString(),
      ip: ip || null,
      user_agent: userAgent?.slice(0, 300) ?? null,
    })
    .execute();
  return token;
}

/** Whether `token` is a remembered device of this account (and still within its 30 days). */
export async function deviceRemembered(userId: string, token: string | undefined): Promise<boolean> {
  if (!token || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) return false;
  const db = getDb();
  const row = await db
    .selectFrom('remembered_devices')
    .select(['user_id', 'expires_at'])
    .where('id', '=', sha256(token))
    .executeTakeFirst();
  if (!row || row.user_id !== userId || Date.parse(row.expires_at) <= Date.now()) return false;
  await db.updateTable('remembered_devices').set({ last_used_at: nowIso() }).where('id', '=', sha256(token)).execute();
  return true;
}

export interface RememberedDevice {
  id: string;
  createdAt: string;
  lastUsedAt: string;
  userAgent: string | null;
  ip: string | null;
}

export async function listRememberedDevices(userId: string, limit = 20): Promise<RememberedDevice[]> {
  const rows = await getDb()
    .selectFrom('remembered_devices')
    .selectAll()
    .where('user_id', '=', userId)
    .where('expires_at', '>', nowIso())
    .orderBy('last_used_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, createdAt: r.created_at, lastUsedAt: r.last_used_at, userAgent: r.user_agent, ip: r.ip }));
}

export async function forgetDevice(owner: FactorOwner, deviceId: string, ip: string): Promise<void> {
  const gone = await getDb()
    .deleteFrom('remembered_devices')
    .where('id', '=', deviceId)
    .where('user_id', '=', owner.id)
    .executeTakeFirst();
  if (Number(gone.numDeletedRows) !== 1) throw new TwoFactorRuleError(TWO_FACTOR_MESSAGES.noSuchDevice, 404);
  await recordAudit({ actor: owner.email, action: 'two_factor.device_forgotten', target: owner.email, ip });
}

export async function forgetAllDevices(userId: string): Promise<void> {
  await getDb().deleteFrom('remembered_devices').where('user_id', '=', userId).execute();
}
