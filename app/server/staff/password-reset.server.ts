import { createHash, randomBytes } from 'node:crypto';
import { getConfig } from '../platform/config.server.ts';
import { getDb } from '../db/db.server.ts';
import { sendMail } from '../platform/mail.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { enqueueJob } from '../platform/jobs.server.ts';
import { limitReached, reserveAttempt, visitorKey } from '../platform/limits.server.ts';
import { nowIso } from '../platform/ids.server.ts';
import { setPassword, UserRuleError } from './users.server.ts';
import { isCommonPassword } from './common-passwords.server.ts';
import { USER_MESSAGES } from '../../lib/users.ts';

// Forgot password (the spec leaves it unshown) and the super admin's "send password reset": one
// mechanism. A single-use link, valid for an hour; only its SHA-256 is stored.

export const RESET_TTL_MS = 60 * 60 * 1000;
const MAX_LINKS_PER_HOUR = 3;

/** Forgot-password requests allowed per visitor address and per email address, each per hour. */
export const FORGOT_PASSWORD_LIMITS = { perAddress: 10, perEmail: 5, windowMs: 60 * 60 * 1000 } as const;
export const PASSWORD_RESET_JOB = 'password-reset.request';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export type ForgotPasswordOutcome = { status: 'queued' } | { status: 'limited'; retryAfterSeconds: number };

const addressKey = (ip: string) => `forgot-password:address:${visitorKey(ip)}`;

/**
 * Before the forgot-password form is read: the seconds this visitor's address must wait when it has
 * used up its requests, or undefined when the request may go on to requestPasswordReset, which
 * counts it and alone decides (also when the count cannot be read). Nothing is counted here.
 */
export async function forgotPasswordAddressWait(ip: string): Promise<number | undefined> {
  const { perAddress, windowMs } = FORGOT_PASSWORD_LIMITS;
  let wait;
  try {
    wait = await limitReached(addressKey(ip), perAddress, windowMs);
  } catch {
    return undefined;
  }
  if (wait !== undefined) limited(wait, 'address');
  return wait;
}

/**
 * The public forgot-password form: counts the request against the visitor's address and the email,
 * then queues the rest. Nothing here depends on whether the account exists, so every address gets
 * the same answer in the same time; the per-email limit counts requests, not accounts, so being
 * refused tells nothing either.
 */
export async function requestPasswordReset(input: { email: string; ip: string }): Promise<ForgotPasswordOutcome> {
  const email = input.email.toLowerCase();
  const { perAddress, perEmail, windowMs } = FORGOT_PASSWORD_LIMITS;
  const byAddress = await reserveAttempt(addressKey(input.ip), perAddress, windowMs);
  if (!byAddress.allowed) return limited(byAddress.retryAfterSeconds, 'address');
  // Hashed: the counter outlives the request, and the address typed may belong to nobody here.
  const byEmail = await reserveAttempt(`forgot-password:email:${hashToken(email).slice(0, 32)}`, perEmail, windowMs);
  if (!byEmail.allowed) return limited(byEmail.retryAfterSeconds, 'email');
  await enqueueJob(PASSWORD_RESET_JOB, { email, ip: input.ip }, { maxAttempts: 3 });
  return { status: 'queued' };
}

function limited(retryAfterSeconds: number, by: 'address' | 'email'): ForgotPasswordOutcome {
  getLogger().warn({ limit: by }, 'password reset request refused: rate limit');
  return { status: 'limited', retryAfterSeconds };
}

/** The `password-reset.request` job: what the forgot-password form queued. */
export async function runPasswordResetRequest(payload: unknown): Promise<void> {
  const { email, ip } = (payload ?? {}) as { email?: unknown; ip?: unknown };
  if (typeof email !== 'string' || typeof ip !== 'string') throw new Error('A password reset job without an email or address');
  await sendPasswordResetLink(email, { actor: null, ip });
}

/**
 * Mails a reset link when the account exists. Returns whether a link was made and its mail queued,
 * for the super admin's screen; the public form runs it in a job and never learns the answer.
 */
export async function sendPasswordResetLink(email: string, context: { actor: string | null; ip: string }): Promise<boolean> {
  const db = getDb();
  const user = await db
    .selectFrom('system_users')
    .select(['id', 'name', 'email', 'disabled'])
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
  await recordAudit({
    actor: context.actor ?? email,
    action: 'user.password_reset_requested',
    target: email.toLowerCase(),
    ip: context.ip,
    detail: { known: Boolean(user) },
  });
  if (!user || user.disabled) return false;
  const hourAgo = new Date(Date.now() - RESET_TTL_MS).toISOString();
  const recent = await db
    .selectFrom('password_reset_tokens')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', user.id)
    .where('created_at', '>', hourAgo)
    .executeTakeFirstOrThrow();
  if (Number(recent.n) >= MAX_LINKS_PER_HOUR) {
    getLogger().warn({ target: user.email }, 'password reset not sent: too many links this hour');
    return false;
  }
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  await db
    .insertInto('password_reset_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: user.id,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + RESET_TTL_MS).toISOString(),
    })
    .execute();
  const config = getConfig();
  const link = `${config.publicUrl}/admin/reset-password/${token}`;
  await sendMail({
    carriesSecret: true,
    to: user.email,
    subject: `Set your password for the ${config.organisation.name} dashboard`,
    text: [
      `Hello ${user.name},`,
      '',
      `Someone asked to set a new password for your ${config.organisation.name} dashboard account.`,
      'Open this link within one hour to choose a new password (it works once):',
      '',
      link,
      '',
      'If you did not ask for this, you can ignore this email: your password stays the same.',
    ].join('\n'),
  });
  await recordAudit({
    actor: context.actor ?? user.email,
    action: 'user.password_reset_sent',
    target: user.email,
    ip: context.ip,
  });
  return true;
}

// Using a reset link.
export type ResetTokenState = { status: 'valid'; userId: string; email: string } | { status: 'invalid' };

export async function checkResetToken(token: string): Promise<ResetTokenState> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { status: 'invalid' };
  const row = await getDb()
    .selectFrom('password_reset_tokens')
    .innerJoin('system_users', 'system_users.id', 'password_reset_tokens.user_id')
    .select([
      'password_reset_tokens.user_id',
      'password_reset_tokens.expires_at',
      'password_reset_tokens.used_at',
      'system_users.email',
    ])
    .where('password_reset_tokens.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || row.used_at || Date.parse(row.expires_at) <= Date.now()) return { status: 'invalid' };
  return { status: 'valid', userId: row.user_id, email: row.email };
}

/** Uses a link once: sets the password, ends every session of the account, retires the user's other links. */
export async function resetPassword(token: string, password: string, ip: string): Promise<boolean> {
  const state = await checkResetToken(token);
  if (state.status !== 'valid') return false;
  if (isCommonPassword(password)) throw new UserRuleError(USER_MESSAGES.commonPassword, 400, 'password');
  const db = getDb();
  // Claim the link first, so two submissions of the same link cannot both succeed.
  const claimed = await db
    .updateTable('password_reset_tokens')
    .set({ used_at: nowIso() })
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return false;
  await setPassword(state.userId, password);
  await db
    .updateTable('password_reset_tokens')
    .set({ used_at: nowIso() })
    .where('user_id', '=', state.userId)
    .where('used_at', 'is', null)
    .execute();
  await recordAudit({
    actor: state.email,
    action: 'user.password_changed',
    target: state.email,
    ip,
    detail: { via: 'reset link' },
  });
  return true;
}
