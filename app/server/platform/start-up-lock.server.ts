import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/db.server.ts';

// First-start work (migrations, the super admin, the built-in services, the demo content) runs in
// one process at a time: instances behind a load balancer, or cluster workers on one machine, may
// all start at the same moment on an empty database. The first takes the lock and does the work;
// the others wait for it, then find everything done (docs/decisions/018-many-instances.md).
//
// PostgreSQL: a session advisory lock, on a connection kept for it alone, named after the schema
// (tests run many schemas in one database). SQLite: an exclusive transaction on a small lock file
// beside the database; not the database itself, which the work must be free to write. Either lock
// goes with its connection, so a process that dies holding it frees it at once.

/** The file next to the SQLite database whose exclusive lock is the start-up lock. */
export const START_UP_LOCK_FILE = 'start-up.lock';

/** How long a starting process waits for another one's first-start work before giving up. */
export const START_UP_LOCK_WAIT_MS = 5 * 60_000;
const RETRY_MS = 100;

export class StartUpLockTimeout extends Error {
  override name = 'StartUpLockTimeout';
}

function timedOut(waitMs: number): StartUpLockTimeout {
  return new StartUpLockTimeout(
    `Another process has been starting the site on this database for over ${Math.round(waitMs / 1000)} s; ` +
      'check its log, or stop it and start again',
  );
}

/** Runs `work` while holding the start-up lock of `handle`'s database; waits (without blocking) for it. */
export async function withStartUpLock<T>(
  handle: DatabaseHandle,
  dataDir: string,
  work: () => Promise<T>,
  waitMs = START_UP_LOCK_WAIT_MS,
): Promise<T> {
  return handle.engine === 'postgres' ? withAdvisoryLock(handle, work, waitMs) : withLockFile(dataDir, work, waitMs);
}

async function withAdvisoryLock<T>(handle: DatabaseHandle, work: () => Promise<T>, waitMs: number): Promise<T> {
  return handle.db.connection().execute(async (connection) => {
    const key = sql`hashtext('tdg:start-up:' || current_schema())`;
    const deadline = Date.now() + waitMs;
    // pg_try_advisory_lock in a loop rather than pg_advisory_lock, so a wait has an end and a message.
    for (;;) {
      const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_lock(${key}) AS locked`.execute(connection);
      if (rows[0]?.locked) break;
      if (Date.now() >= deadline) throw timedOut(waitMs);
      await sleep(RETRY_MS);
    }
    try {
      return await work();
    } finally {
      await sql`SELECT pg_advisory_unlock(${key})`.execute(connection).catch(() => undefined);
    }
  });
}

async function withLockFile<T>(dataDir: string, work: () => Promise<T>, waitMs: number): Promise<T> {
  // No busy timeout: SQLite's would wait by blocking this thread, and with it a holder in the same
  // process (tests, or a worker's own retry). The loop below waits without blocking.
  const lock = new SQLite(path.join(dataDir, START_UP_LOCK_FILE), { timeout: 0 });
  try {
    const deadline = Date.now() + waitMs;
    for (;;) {
      try {
        lock.exec('BEGIN EXCLUSIVE');
        break;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code !== 'SQLITE_BUSY' && code !== 'SQLITE_LOCKED') throw error;
        if (Date.now() >= deadline) throw timedOut(waitMs);
        await sleep(RETRY_MS);
      }
    }
    try {
      return await work();
    } finally {
      lock.exec('ROLLBACK');
    }
  } finally {
    lock.close();
  }
}
