import { nowIso } from './ids.server.ts';
import { recordAudit } from './audit.server.ts';
import { setPassword, UserRuleError } from './users.server.ts';
import { isCommonPassword } from './common-passwords.server.ts';
import { USER_MESSAGES } from '../lib/users.ts';
import { getDb } from './db/db.server.ts';
import { hashToken as hash } from './password-reset-mail.server.ts';

// Using a reset link. Making and mailing links: password-reset-mail.server.ts (re-exported here, so
// routes import one module).
export {
  FORGOT_PASSWORD_LIMITS,
  PASSWORD_RESET_JOB,
  RESET_TTL_MS,
  requestPasswordReset,
  sendPasswordResetLink,
  type ForgotPasswordOutcome,
} from './password-reset-mail.server.ts';

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
    .where('password_reset_tokens.token_hash', '=', hash(token))
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
    .where('token_hash', '=', hash(token))
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
