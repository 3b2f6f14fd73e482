// Issue 29: what public pages read the same way on every render (a list's count and categories, the
// site settings) is kept in memory, beside the page cache and under its rule (docs/decisions/402): it
// is forgotten whenever what visitors see changes (`onPublicContentChanged`, every process through the
// cache bus) and after the same five minutes, which bound a change nobody announces (manual SQL).
// A search's count is never kept: its words make every address new.
//
// Only the database the site serves from keeps reads (`keepPublicReads`, called by server/app.ts). A
// service test's own database is read afresh each time, so a test that writes rows directly and
// reads them back never sees an earlier answer.
import { onPublicContentChanged } from './public-changes.server.ts';

/** The page cache's own time to live (server/page-cache.ts). */
export const PUBLIC_READS_TTL_MS = 5 * 60_000;
/** Far more than the site's lists, filters and settings groups; past it, everything is read again. */
const MAX_ENTRIES = 500;

interface Entry {
  value: Promise<unknown>;
  /** The change count when the read started: a change since makes it stale. */
  changes: number;
  at: number;
}

const kept = new WeakMap<object, Map<string, Entry>>();
let changes = 0;
let listening: (() => void) | undefined;

/** Keeps public reads made through `db` (the serving database); returns a function that stops it. */
export function keepPublicReads(db: object): () => void {
  kept.set(db, new Map());
  listening ??= onPublicContentChanged(() => {
    changes += 1;
  });
  return () => {
    kept.delete(db);
  };
}

/**
 * `read()`'s answer for `key`, kept while nothing public changes. Requests at once share one read; a
 * read that fails is not kept. A read started before a change is never kept past it.
 */
export function publicRead<T>(db: object, key: string, read: () => Promise<T>, now: () => number = Date.now): Promise<T> {
  const entries = kept.get(db);
  if (!entries) return read();
  const entry = entries.get(key);
  if (entry && entry.changes === changes && now() - entry.at < PUBLIC_READS_TTL_MS) return entry.value as Promise<T>;
  if (entries.size >= MAX_ENTRIES) entries.clear();
  const value = read();
  const fresh: Entry = { value, changes, at: now() };
  entries.set(key, fresh);
  value.catch(() => {
    if (entries.get(key) === fresh) entries.delete(key);
  });
  return value;
}
