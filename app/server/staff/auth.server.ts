import type { Selectable } from 'kysely';
import type { SystemUserTable } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { newId, nowIso } from '../platform/ids.server.ts';
import { hashPassword, verifyPassword } from './passwords.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import { limitReached, pruneLimits, releaseAttempt, reserveAttempt, visitorKey } from '../platform/limits.server.ts';
import {
  clearSessionCookie,
  createSession,
  endSession,
  lookupSession,
  sessionCookie,
  deleteSessionById,
  pruneSessions,
} from './sessions.server.ts';
import { roleOf, type Role } from '../../lib/permissions.ts';
import {
  challengeCookie,
  claimChallenge,
  createChallenge,
  deviceCookie,
  deviceRemembered,
  hasSecondFactor,
  passkeyCookie,
  readChallenge,
  twoFactorStatus,
  rememberDevice,
  spendRecoveryCode,
  verifyTotp,
} from './two-factor.server.ts';
import { passkeyAuthenticationOptions, verifyPasskey } from './passkeys.server.ts';
import type { SignedOutReason } from '../../lib/auth.ts';

/** Who a staff account is, as every view of it (the session, the users screens) shows them. */
export interface StaffProfile {
  id: string;
  name: string;
  email: string;
  role: Role;
  bio: string;
  profilePicture: string | null;
}

/** The signed-in staff member, as loaders and actions see them. */
export interface StaffUser extends StaffProfile {
  sessionId: string;
}

export const FORBIDDEN_MESSAGE = 'You do not have permission to perform this action.';

// spec §9/§5 and the issue: 5 failures for one email from one address in 15 minutes, and a looser
// limit for one address across all emails. The per-account limit slows guessing spread over many
// addresses; an address that has signed into the account lately is let past it
// (docs/decisions/009-sign-in-limits-and-proxies.md).
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_EMAIL_AND_IP = 5;
export const MAX_FAILURES_PER_IP = 30;
export const MAX_FAILURES_PER_ACCOUNT = 20;
export const KNOWN_ADDRESS_MS = 30 * 86_400_000;
const FAILURES_KEPT_MS = 86_400_000;

let dummyHash: Promise<string> | undefined;
/** A real argon2id hash to verify against when the account does not exist, so timing gives nothing away. */
function getDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(`no-such-account-${newId()}`);
  return dummyHash;
}

export type SignInResult =
  | { status: 'ok'; user: { id: string; role: Role }; cookie: string }
  /** The password was right; the account has a second factor, asked for next (issue 25). */
  | { status: 'second-step'; challengeCookie: string }
  | { status: 'invalid' }
  | { status: 'disabled' }
  | { status: 'rate-limited'; retryAfterSeconds: number };

interface Reservation {
  key: string;
  windowStartedAt: string;
}

/**
 * The rate-limit counters for a sign-in (spec §9). The address is the visitor key, so an IPv6
 * visitor cannot step past the limits by moving inside their /64; the address comes first in the
 * pair key and holds no `|`, so no two pairs share a key.
 */
export function signInLimitKeys(email: string, ip: string): { address: string; pair: string; account: string } {
  const address = visitorKey(ip);
  return {
    address: `sign-in:address:${address}`,
    pair: `sign-in:pair:${address}|${email.toLowerCase()}`,
    account: `sign-in:account:${email.toLowerCase()}`,
  };
}

/** Whether `email` signed in successfully from this visitor's address within KNOWN_ADDRESS_MS. */
async function signedInFromBefore(email: string, ip: string): Promise<boolean> {
  const address = visitorKey(ip);
  const rows = await getDb()
    .selectFrom('login_attempts')
    .select('ip')
    .distinct()
    .where('email', '=', email)
    .where('succeeded', '=', 1)
    .where('at', '>', new Date(Date.now() - KNOWN_ADDRESS_MS).toISOString())
    .execute();
  return rows.some((row) => visitorKey(row.ip) === address);
}

/**
 * Before the sign-in form is read: the seconds this visitor's address must wait when it has used up
 * its failures (the first limit reserveSignIn would refuse it by, with nothing counted), or
 * undefined when the attempt may go on to signIn, which alone decides. A read, so a flood from one
 * address is refused without its forms being checked or a counter written; undefined, too, when
 * the count cannot be read.
 */
export async function signInAddressWait(ip: string): Promise<number | undefined> {
  try {
    return await limitReached(signInLimitKeys('', ip).address, MAX_FAILURES_PER_IP, LOGIN_WINDOW_MS);
  } catch {
    return undefined;
  }
}

/**
 * Reserves this attempt under every limit before the password is checked, or answers null when one
 * refuses (with the wait). Each reservation is one atomic count in the database, so simultaneous attempts cannot all
 * read the same old count: at most `limit` are ever checked. Whatever is not a checked failure is
 * given back, so the counters hold failures only and a refused flood does not lock out others behind
 * the same address for longer than its own failures earn. The address limit goes first, so a flood
 * from one address stops at one counter instead of writing one per email it tries.
 */
async function reserveSignIn(email: string, ip: string): Promise<Reservation[] | { retryAfterSeconds: number }> {
  const keys = signInLimitKeys(email, ip);
  const limits = [
    { key: keys.address, limit: MAX_FAILURES_PER_IP, knownAddressPasses: false },
    { key: keys.pair, limit: MAX_FAILURES_PER_EMAIL_AND_IP, knownAddressPasses: false },
    { key: keys.account, limit: MAX_FAILURES_PER_ACCOUNT, knownAddressPasses: true },
  ];
  const held: Reservation[] = [];
  for (const { key, limit, knownAddressPasses } of limits) {
    const decision = await reserveAttempt(key, limit, LOGIN_WINDOW_MS);
    if (decision.allowed) {
      held.push({ key, windowStartedAt: decision.windowStartedAt });
      continue;
    }
    await releaseAttempt(key, decision.windowStartedAt);
    if (knownAddressPasses && (await signedInFromBefore(email, ip))) continue;
    await releaseAll(held);
    return { retryAfterSeconds: decision.retryAfterSeconds };
  }
  return held;
}

async function releaseAll(held: Reservation[]): Promise<void> {
  for (const { key, windowStartedAt } of held) await releaseAttempt(key, windowStartedAt);
}

async function recordAttempt(email: string, ip: string, succeeded: boolean): Promise<void> {
  await getDb()
    .insertInto('login_attempts')
    .values({ id: newId(), email, ip, at: nowIso(), succeeded: succeeded ? 1 : 0 })
    .execute();
}

/** Checks the credentials and, when they are right, opens a new session (replacing `previous`). */
export async function signIn(input: {
  email: string;
  password: string;
  remember: boolean;
  ip: string;
  userAgent: string | null;
  request: Request;
  /** The token of this browser's "remember this device" cookie, if it has one. */
  deviceToken?: string | undefined;
}): Promise<SignInResult> {
  const email = input.email.toLowerCase();
  const reserved = await reserveSignIn(email, input.ip);
  if (!Array.isArray(reserved)) return { status: 'rate-limited', retryAfterSeconds: reserved.retryAfterSeconds };
  const db = getDb();
  const user = await db
    .selectFrom('system_users')
    .select(['id', 'email', 'role', 'password_hash', 'disabled'])
    .where('email', '=', email)
    .executeTakeFirst();
  const ok = await verifyPassword(user?.password_hash ?? (await getDummyHash()), input.password);
  if (!user || !user.password_hash || !ok) {
    // The reservations stay: they are this failure's place in the counts.
    await recordAttempt(email, input.ip, false);
    await recordAudit({
      actor: email,
      action: 'auth.sign_in_failed',
      target: email,
      ip: input.ip,
      detail: { reason: user ? 'wrong password' : 'unknown email' },
    });
    return { status: 'invalid' };
  }
  // The right password is not a failure: the owner is never locked out by their own sign-ins.
  await releaseAll(reserved);
  if (user.disabled) {
    await recordAudit({
      actor: email,
      action: 'auth.sign_in_failed',
      target: email,
      ip: input.ip,
      detail: { reason: 'account disabled' },
    });
    return { status: 'disabled' };
  }
  // Issue 25: an account with a second factor is asked for it (unless this device is remembered for
  // it); no session exists until it is given.
  if ((await hasSecondFactor(user.id)) && !(await deviceRemembered(user.id, input.deviceToken))) {
    const token = await createChallenge({ kind: 'second-step', userId: user.id, remember: input.remember });
    return { status: 'second-step', challengeCookie: challengeCookie(token) };
  }
  const cookie = await openSession(user, { ...input, email, via: 'password' });
  return { status: 'ok', user: { id: user.id, role: roleOf(user.role) }, cookie };
}

/** The end of every path into a session: a new session id, the attempt and the sign-in recorded. */
async function openSession(
  user: { id: string },
  input: { email: string; remember: boolean; ip: string; userAgent: string | null; request: Request; via: string },
): Promise<string> {
  const { email } = input;
  await recordAttempt(email, input.ip, true);
  // Housekeeping on a quiet path: expired sessions, finished limit windows and old attempts go.
  // Successful sign-ins stay longer: they are how an owner's usual address is recognised.
  await pruneSessions();
  await pruneLimits();
  await getDb()
    .deleteFrom('login_attempts')
    .where((eb) =>
      eb.or([
        eb.and([eb('succeeded', '=', 0), eb('at', '<', new Date(Date.now() - FAILURES_KEPT_MS).toISOString())]),
        eb('at', '<', new Date(Date.now() - KNOWN_ADDRESS_MS).toISOString()),
      ]),
    )
    .execute();
  // A new session id at every sign-in; any session the browser already had ends here.
  await endSession(input.request);
  const token = await createSession({ userId: user.id, remember: input.remember, ip: input.ip, userAgent: input.userAgent });
  await getDb().updateTable('system_users').set({ last_login: nowIso() }).where('id', '=', user.id).execute();
  const detail: Record<string, unknown> = { remember: input.remember };
  if (input.via !== 'password') detail.via = input.via;
  await recordAudit({ actor: email, action: 'auth.sign_in', target: email, ip: input.ip, detail });
  return sessionCookie(token, input.remember);
}

export type SecondStepResult =
  | { status: 'ok'; user: { id: string; role: Role }; cookies: string[]; recoveryCodesLeft?: number }
  | { status: 'invalid'; method: 'totp' | 'recovery' | 'passkey' }
  | { status: 'expired' }
  | { status: 'disabled' }
  | { status: 'rate-limited'; retryAfterSeconds: number };

/**
 * The second step (issue 25): the pending step's token (from its cookie) and an authenticator code or
 * a recovery code. Each attempt is reserved under the sign-in limits first (per address, per account
 * and address, per account), as a password is; a session is opened only for a right code, and only
 * once per step (the step is claimed by one atomic update).
 */
export async function completeSecondStep(input: {
  challengeToken: string | undefined;
  code?: string | undefined;
  recoveryCode?: string | undefined;
  /** A passkey's answer to the challenge secondStepPasskeyOptions put on this step. */
  passkey?: unknown;
  rememberDevice: boolean;
  ip: string;
  userAgent: string | null;
  request: Request;
}): Promise<SecondStepResult> {
  const challenge = await readChallenge(input.challengeToken, 'second-step');
  if (!challenge?.userId) return { status: 'expired' };
  const user = await getDb()
    .selectFrom('system_users')
    .select(['id', 'email', 'name', 'role', 'disabled'])
    .where('id', '=', challenge.userId)
    .executeTakeFirst();
  if (!user) return { status: 'expired' };
  if (user.disabled) return { status: 'disabled' };
  const reserved = await reserveSignIn(user.email, input.ip);
  if (!Array.isArray(reserved)) return { status: 'rate-limited', retryAfterSeconds: reserved.retryAfterSeconds };
  const method = input.passkey !== undefined ? 'passkey' : input.recoveryCode !== undefined ? 'recovery' : 'totp';
  let recoveryCodesLeft: number | undefined;
  const ok =
    method === 'passkey'
      ? Boolean(challenge.webauthnChallenge && (await verifyPasskey(input.passkey, challenge.webauthnChallenge, user.id)))
      : method === 'recovery'
        ? (recoveryCodesLeft = await spendRecoveryCode(user, input.recoveryCode ?? '')) !== undefined
        : await verifyTotp(user, input.code ?? '');
  if (!ok) {
    await recordAttempt(user.email, input.ip, false);
    await recordAudit({
      actor: user.email,
      action: 'auth.second_step_failed',
      target: user.email,
      ip: input.ip,
      detail: { method },
    });
    return { status: 'invalid', method };
  }
  await releaseAll(reserved);
  if (!(await claimChallenge(challenge.id))) return { status: 'expired' };
  if (method === 'recovery')
    await recordAudit({
      actor: user.email,
      action: 'auth.recovery_code_used',
      target: user.email,
      ip: input.ip,
      detail: { left: recoveryCodesLeft },
    });
  const cookies = [
    await openSession(user, { ...input, email: user.email, remember: challenge.remember, via: method }),
    challengeCookie(null),
  ];
  if (input.rememberDevice) cookies.push(deviceCookie(await rememberDevice(user.id, input.ip, input.userAgent)));
  return {
    status: 'ok',
    user: { id: user.id, role: roleOf(user.role) },
    cookies,
    ...(recoveryCodesLeft === undefined ? {} : { recoveryCodesLeft }),
  };
}

/** Puts a passkey challenge on the pending second step: the options for the browser, or undefined when there is no step. */
export async function secondStepPasskeyOptions(challengeToken: string | undefined) {
  const challenge = await readChallenge(challengeToken, 'second-step');
  if (!challenge?.userId) return undefined;
  const options = await passkeyAuthenticationOptions(challenge.userId);
  await getDb()
    .updateTable('sign_in_challenges')
    .set({ webauthn_challenge: options.challenge })
    .where('id', '=', challenge.id)
    .execute();
  return options;
}

/** The start of "Sign in with a passkey": a challenge kept server-side, and the browser's options. */
export async function passkeySignInOptions() {
  const options = await passkeyAuthenticationOptions(null);
  const token = await createChallenge({ kind: 'passkey-sign-in', userId: null, webauthnChallenge: options.challenge });
  return { options, cookie: passkeyCookie(token) };
}

export type PasskeySignInResult =
  | { status: 'ok'; user: { id: string; role: Role }; cookies: string[] }
  | { status: 'invalid' }
  | { status: 'expired' }
  | { status: 'disabled' }
  | { status: 'rate-limited'; retryAfterSeconds: number };

/**
 * "Sign in with a passkey", no password: the passkey (found by the id the authenticator answers with,
 * a discoverable credential) is both steps. The challenge is used once; each attempt is counted under
 * the address limit first, and a right one gives its place back.
 */
export async function signInWithPasskey(input: {
  token: string | undefined;
  response: unknown;
  ip: string;
  userAgent: string | null;
  request: Request;
}): Promise<PasskeySignInResult> {
  const challenge = await readChallenge(input.token, 'passkey-sign-in');
  if (!challenge?.webauthnChallenge || !(await claimChallenge(challenge.id))) return { status: 'expired' };
  const address = signInLimitKeys('', input.ip).address;
  const reserved = await reserveAttempt(address, MAX_FAILURES_PER_IP, LOGIN_WINDOW_MS);
  if (!reserved.allowed) {
    await releaseAttempt(address, reserved.windowStartedAt);
    return { status: 'rate-limited', retryAfterSeconds: reserved.retryAfterSeconds };
  }
  const found = await verifyPasskey(input.response, challenge.webauthnChallenge);
  const user = found
    ? await getDb()
        .selectFrom('system_users')
        .select(['id', 'email', 'role', 'disabled'])
        .where('id', '=', found.userId)
        .executeTakeFirst()
    : undefined;
  if (!user) {
    await recordAudit({
      actor: null,
      action: 'auth.sign_in_failed',
      target: null,
      ip: input.ip,
      detail: { reason: 'passkey refused' },
    });
    return { status: 'invalid' };
  }
  await releaseAttempt(address, reserved.windowStartedAt);
  if (user.disabled) {
    await recordAudit({
      actor: user.email,
      action: 'auth.sign_in_failed',
      target: user.email,
      ip: input.ip,
      detail: { reason: 'account disabled' },
    });
    return { status: 'disabled' };
  }
  const cookie = await openSession(user, { ...input, email: user.email, remember: false, via: 'passkey' });
  return { status: 'ok', user: { id: user.id, role: roleOf(user.role) }, cookies: [cookie, passkeyCookie(null)] };
}

/** Who the pending second step is for (the screen names them), or undefined when there is none. */
export async function pendingSecondStep(
  challengeToken: string | undefined,
): Promise<{ email: string; totp: boolean; passkeys: boolean } | undefined> {
  const challenge = await readChallenge(challengeToken, 'second-step');
  if (!challenge?.userId) return undefined;
  const user = await getDb().selectFrom('system_users').select('email').where('id', '=', challenge.userId).executeTakeFirst();
  if (!user) return undefined;
  const status = await twoFactorStatus(challenge.userId);
  return { email: user.email, totp: status.totp, passkeys: status.passkeys > 0 };
}

export async function signOut(request: Request, user: StaffUser | null, ip: string): Promise<string> {
  await endSession(request);
  if (user) await recordAudit({ actor: user.email, action: 'auth.sign_out', target: user.email, ip });
  return clearSessionCookie();
}

export type CurrentUser = { status: 'signed-in'; user: StaffUser } | { status: 'signed-out'; reason?: SignedOutReason };

const cache = new WeakMap<Request, Promise<CurrentUser>>();

/** The request's signed-in staff member (looked up once per request). */
export function getCurrentUser(request: Request): Promise<CurrentUser> {
  let pending = cache.get(request);
  if (!pending) {
    pending = loadCurrentUser(request);
    cache.set(request, pending);
  }
  return pending;
}

async function loadCurrentUser(request: Request): Promise<CurrentUser> {
  const session = await lookupSession(request);
  if (session.status === 'none') return { status: 'signed-out' };
  if (session.status === 'ended') return { status: 'signed-out', reason: session.reason };
  const row = await getDb().selectFrom('system_users').selectAll().where('id', '=', session.userId).executeTakeFirst();
  if (!row) {
    // spec §4: the account no longer exists in the user list: signed out and told so.
    await deleteSessionById(session.sessionId);
    return { status: 'signed-out', reason: 'account-removed' };
  }
  if (row.disabled) {
    await deleteSessionById(session.sessionId);
    return { status: 'signed-out', reason: 'disabled' };
  }
  return { status: 'signed-in', user: staffUserFromRow(row, session.sessionId) };
}

export function staffProfileFromRow(row: Selectable<SystemUserTable>): StaffProfile {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: roleOf(row.role),
    bio: row.bio,
    profilePicture: row.profile_picture,
  };
}

/** A stored account as the signed-in staff member of session `sessionId`. */
export function staffUserFromRow(row: Selectable<SystemUserTable>, sessionId: string): StaffUser {
  return { ...staffProfileFromRow(row), sessionId };
}
