import { createHash, randomBytes } from 'node:crypto';
import { getConfig } from '../platform/config.server.ts';
import { getDb } from '../db/db.server.ts';
import { nowIso } from '../platform/ids.server.ts';
import type { SignedOutReason } from '../../lib/auth.ts';

// Sessions live in the database; the cookie holds only a random token, whose SHA-256 is the row id.

export const REMEMBER_MS = 30 * 24 * 60 * 60 * 1000;
export const IDLE_MS = 12 * 60 * 60 * 1000;
const TOUCH_EVERY_MS = 60 * 1000;

export function sessionCookieName(): string {
  // The __Host- prefix requires Secure, so it is used only when the site is served over https.
  return getConfig().https ? '__Host-tdg_session' : 'tdg_session';
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index === -1) continue;
    if (part.slice(0, index).trim() === name) {
      const value = part.slice(index + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function sessionCookie(token: string, remember: boolean): string {
  const parts = [`${sessionCookieName()}=${token}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (getConfig().https) parts.push('Secure');
  // Without "remember me" the cookie has no lifetime, so it ends with the browser.
  if (remember) parts.push(`Max-Age=${Math.floor(REMEMBER_MS / 1000)}`);
  return parts.join('; ');
}

export function clearSessionCookie(): string {
  const parts = [`${sessionCookieName()}=`, 'Path=/', 'HttpOnly', 'SameSite=Lax', 'Max-Age=0'];
  if (getConfig().https) parts.push('Secure');
  return parts.join('; ');
}

export async function createSession(input: {
  userId: string;
  remember: boolean;
  ip: string;
  userAgent: string | null;
}): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  await getDb()
    .insertInto('sessions')
    .values({
      id: hashToken(token),
      user_id: input.userId,
      remember: input.remember ? 1 : 0,
      created_at: new Date(now).toISOString(),
      last_seen_at: new Date(now).toISOString(),
      expires_at: new Date(now + (input.remember ? REMEMBER_MS : IDLE_MS)).toISOString(),
      ip: input.ip || null,
      user_agent: input.userAgent?.slice(0, 300) ?? null,
      ended_reason: null,
    })
    .execute();
  return token;
}

export type SessionLookup =
  { status: 'none' } | { status: 'ended'; reason: SignedOutReason } | { status: 'active'; sessionId: string; userId: string };

/** The session the request's cookie names, if it is still valid; extends idle sessions as they are used. */
export async function lookupSession(request: Request): Promise<SessionLookup> {
  const token = readCookie(request, sessionCookieName());
  if (!token || token.length > 100) return { status: 'none' };
  const db = getDb();
  const id = hashToken(token);
  const session = await db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!session) return { status: 'none' };
  if (session.ended_reason) {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
    return { status: 'ended', reason: session.ended_reason as SignedOutReason };
  }
  const now = Date.now();
  if (Date.parse(session.expires_at) <= now) {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
    return { status: 'none' };
  }
  if (now - Date.parse(session.last_seen_at) > TOUCH_EVERY_MS) {
    const update: { last_seen_at: string; expires_at?: string } = { last_seen_at: new Date(now).toISOString() };
    if (!session.remember) update.expires_at = new Date(now + IDLE_MS).toISOString();
    await db.updateTable('sessions').set(update).where('id', '=', id).execute();
  }
  return { status: 'active', sessionId: id, userId: session.user_id };
}

export async function endSession(request: Request): Promise<void> {
  const token = readCookie(request, sessionCookieName());
  if (token) await getDb().deleteFrom('sessions').where('id', '=', hashToken(token)).execute();
}

export async function deleteSessionById(sessionId: string): Promise<void> {
  await getDb().deleteFrom('sessions').where('id', '=', sessionId).execute();
}

/** Ends every session of a user; their next request is told why. */
export async function endAllSessions(userId: string, reason: SignedOutReason): Promise<void> {
  await getDb()
    .updateTable('sessions')
    .set({ ended_reason: reason, last_seen_at: nowIso() })
    .where('user_id', '=', userId)
    .execute();
}

/** Housekeeping: removes expired sessions and ones ended more than a month ago. */
export async function pruneSessions(): Promise<void> {
  const now = nowIso();
  const monthAgo = new Date(Date.now() - REMEMBER_MS).toISOString();
  await getDb()
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([eb('expires_at', '<', now), eb.and([eb('ended_reason', 'is not', null), eb('last_seen_at', '<', monthAgo)])]),
    )
    .execute();
}

export interface ActiveSession {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  ip: string | null;
  userAgent: string | null;
}

/** Issue 25: a staff member's open sessions, newest use first (My sign-in lists them). */
/** How many sessions or remembered devices My sign-in lists, the most recently used first. */
export const SIGN_IN_PLACES_LISTED = 20;

export async function listSessions(userId: string, limit = SIGN_IN_PLACES_LISTED): Promise<ActiveSession[]> {
  const rows = await getDb()
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('ended_reason', 'is', null)
    .where('expires_at', '>', nowIso())
    .orderBy('last_seen_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, createdAt: r.created_at, lastSeenAt: r.last_seen_at, ip: r.ip, userAgent: r.user_agent }));
}

/** Ends one of the user's own sessions; false when it is not theirs or already gone. */
export async function endOwnSession(userId: string, sessionId: string): Promise<boolean> {
  const gone = await getDb().deleteFrom('sessions').where('id', '=', sessionId).where('user_id', '=', userId).executeTakeFirst();
  return Number(gone.numDeletedRows) === 1;
}
