import { isIPv4, isIPv6, SocketAddress } from 'node:net';
import { sql } from 'kysely';
import { getDb } from '../db/db.server.ts';

// Rate limits kept in the database, so every process and instance counts the same attempts, and a
// restart forgets nothing. Each key is a fixed-window counter advanced by one atomic upsert: the
// row lock (PostgreSQL) or the single writer (SQLite) means 25 simultaneous requests get 25
// different counts, so at most `limit` of them are ever let through.

export interface LimitDecision {
  allowed: boolean;
  /** Attempts counted in this window, this one included. */
  hits: number;
  /** Seconds until the window ends (when a refused visitor may try again). */
  retryAfterSeconds: number;
  /** The window this attempt was counted in: pass it to releaseAttempt. */
  windowStartedAt: string;
}

/** Counts one attempt against `key` and says whether it is within `limit` per `windowMs`. */
export async function reserveAttempt(key: string, limit: number, windowMs: number, now = Date.now()): Promise<LimitDecision> {
  const at = new Date(now).toISOString();
  const windowOpenedAfter = new Date(now - windowMs).toISOString();
  const expired = sql<boolean>`rate_limits.window_started_at <= ${windowOpenedAfter}`;
  const row = await getDb()
    .insertInto('rate_limits')
    .values({ key, hits: 1, window_started_at: at })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`CASE WHEN ${expired} THEN 1 ELSE rate_limits.hits + 1 END`,
        window_started_at: sql<string>`CASE WHEN ${expired} THEN ${at} ELSE rate_limits.window_started_at END`,
      }),
    )
    .returning(['hits', 'window_started_at'])
    .executeTakeFirstOrThrow();
  const hits = Number(row.hits);
  const endsAt = Date.parse(row.window_started_at) + windowMs;
  const allowed = hits <= limit;
  return {
    allowed,
    hits,
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((endsAt - now) / 1000)),
    windowStartedAt: row.window_started_at,
  };
}

/**
 * Gives back one attempt reserved under `key` (a sign-in that turned out right, or one another
 * limit refused). With `windowStartedAt` (from the reservation) it gives back only inside that
 * window: once the window has rolled over, the new count never held this attempt, and taking one
 * off it would let one more attempt through than the limit.
 */
export async function releaseAttempt(key: string, windowStartedAt?: string): Promise<void> {
  let query = getDb()
    .updateTable('rate_limits')
    .set({ hits: sql`hits - 1` })
    .where('key', '=', key)
    .where('hits', '>', 0);
  if (windowStartedAt !== undefined) query = query.where('window_started_at', '=', windowStartedAt);
  await query.execute();
}

/** Attempts counted under `key` in its current window, without counting one more. */
export async function attemptsInWindow(key: string, windowMs: number, now = Date.now()): Promise<number> {
  const row = await getDb()
    .selectFrom('rate_limits')
    .select('hits')
    .where('key', '=', key)
    .where('window_started_at', '>', new Date(now - windowMs).toISOString())
    .executeTakeFirst();
  return Number(row?.hits ?? 0);
}

/**
 * Whether `key` has used up its `limit` in the current window, without counting an attempt: the
 * seconds until its window ends (when the next attempt may go on), or undefined when it may go on
 * now. A read, so a visitor over a limit can be refused before anything else is done or written;
 * the attempt itself is still counted by reserveAttempt, which alone decides what is let through.
 */
export async function limitReached(key: string, limit: number, windowMs: number, now = Date.now()): Promise<number | undefined> {
  const row = await getDb()
    .selectFrom('rate_limits')
    .select(['hits', 'window_started_at'])
    .where('key', '=', key)
    .where('window_started_at', '>', new Date(now - windowMs).toISOString())
    .executeTakeFirst();
  if (!row || Number(row.hits) < limit) return undefined;
  return Math.max(1, Math.ceil((Date.parse(row.window_started_at) + windowMs - now) / 1000));
}

/**
 * Removes counters whose window started more than `olderThanMs` ago (housekeeping). The table does
 * not know each key's window, so `olderThanMs` must be at least the longest window in use: a
 * counter removed while its window is still open would start again from nothing.
 */
export async function pruneLimits(olderThanMs = 86_400_000, now = Date.now()): Promise<void> {
  await getDb()
    .deleteFrom('rate_limits')
    .where('window_started_at', '<', new Date(now - olderThanMs).toISOString())
    .execute();
}

/**
 * Takes one of `slots` places under `key`, for work that may run only so many times at once (one
 * person's video chunks being received). Each place is a row of rate_limits (`key#1`, `key#2` …),
 * taken by one atomic upsert that succeeds only when the place is free, so every process and
 * instance counts the same places. A place is held at most `leaseMs`: one whose holder never gave it
 * back (its process stopped) is free again after that. Resolves to the function that gives the place
 * back, or undefined when every place is taken.
 */
export async function takeSlot(
  key: string,
  slots: number,
  leaseMs: number,
  now = Date.now(),
): Promise<(() => Promise<void>) | undefined> {
  const at = new Date(now).toISOString();
  const leaseEndedBefore = new Date(now - leaseMs).toISOString();
  for (let slot = 1; slot <= slots; slot++) {
    const slotKey = `${key}#${slot}`;
    const taken = await getDb()
      .insertInto('rate_limits')
      .values({ key: slotKey, hits: 1, window_started_at: at })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({ hits: 1, window_started_at: at })
          .where((eb) => eb.or([eb('rate_limits.hits', '=', 0), eb('rate_limits.window_started_at', '<=', leaseEndedBefore)])),
      )
      .returning('key')
      .executeTakeFirst();
    if (taken)
      return async () => {
        // Only this holder's lease: once it has ended and someone else took the place, it is theirs.
        await getDb()
          .updateTable('rate_limits')
          .set({ hits: 0 })
          .where('key', '=', slotKey)
          .where('window_started_at', '=', at)
          .execute();
      };
  }
  return undefined;
}

/**
 * The key for a visitor: their IPv4 address, or the /64 network of an IPv6 address (one home or
 * phone holds a whole /64 and can rotate through it), or one shared bucket when it is unknown.
 */
export function visitorKey(clientIp: string): string {
  const ip = clientIp.trim();
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return 'unknown';
  // One spelling per address (inet_ntop's: lower case, zeros compressed, zone dropped, an IPv4-mapped
  // address with its IPv4 part), so `::FFFF:c000:280` and `::ffff:192.0.2.128` are one visitor.
  let canonical: string;
  try {
    canonical = new SocketAddress({ address: ip, family: 'ipv6' }).address;
  } catch {
    return 'unknown';
  }
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(canonical);
  if (mapped) return mapped[1]!;
  const [head = '', tail = ''] = canonical.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = canonical.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups.slice(0, 4).join(':')}::/64`;
}
