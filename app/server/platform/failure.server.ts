import { randomBytes } from 'node:crypto';
import { getLogger } from './logger.server.ts';

// spec §8: a save that fails for no reason of the form's says 'Please try again or contact support if
// the problem persists.' followed by the error. Staff get the error in their words (what a database
// or disk answer means, never its text, which can name tables and files), and a reference that is
// also on the log line, for whoever runs the site to find it (docs/decisions/048-failure-reference.md).

/** A database or file system answer that staff can act on or pass on, by its code (SQLite, PostgreSQL, Node). */
const KNOWN: { codes: readonly string[]; reason: string }[] = [
  { codes: ['SQLITE_FULL', 'ENOSPC', '53100'], reason: 'The server’s disk is full.' },
  { codes: ['SQLITE_BUSY', 'SQLITE_LOCKED', '40001', '40P01', '55P03'], reason: 'The database was busy.' },
  { codes: ['SQLITE_READONLY', '25006'], reason: 'The database cannot be written to.' },
  { codes: ['EROFS', 'EACCES', 'EPERM'], reason: 'The server cannot write its files.' },
  { codes: ['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'XX001', 'XX002'], reason: 'The database is damaged.' },
  {
    codes: ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', '57P01', '57P03', '08000', '08003', '08006'],
    reason: 'The database could not be reached.',
  },
];
const UNKNOWN = 'Something unexpected went wrong on the server.';

/** The error's code, or the code of the error it wraps (`cause`), a few levels down. */
function codeOf(error: unknown): string | undefined {
  for (let at = error, depth = 0; at && typeof at === 'object' && depth < 4; at = (at as { cause?: unknown }).cause, depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** What went wrong in staff's words: by the code's family (SQLITE_FULL also covers SQLITE_FULL_…). */
export function failureReason(error: unknown): string {
  const code = codeOf(error);
  if (!code) return UNKNOWN;
  const family = code.startsWith('SQLITE_') ? code.split('_').slice(0, 2).join('_') : code;
  return KNOWN.find((known) => known.codes.includes(family))?.reason ?? UNKNOWN;
}

/**
 * Logs an unexpected failure with a new reference and returns the words for staff: the reason and
 * the reference, e.g. 'The server’s disk is full. (Reference 3F9A1C2E.)'.
 */
export function reportFailure(error: unknown, what: string): string {
  const reference = randomBytes(4).toString('hex').toUpperCase();
  getLogger().error({ err: error, reference }, what);
  return `${failureReason(error)} (Reference ${reference}.)`;
}
