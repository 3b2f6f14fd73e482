import type { Kysely } from 'kysely';

// The few helpers migrations share. Like the migrations, they are history: never change what one
// of them does (a new need gets a new helper), or an old migration would come to mean something else.

/** Migrations describe the past, so they never use the current typed schema. */
export type Db = Kysely<any>;

/** The column type of every text column. */
export const text = 'text' as const;

/**
 * Kysely runs each PostgreSQL migration in a transaction; on SQLite it does not, so a migration's
 * body runs in one here.
 */
export function inTransaction(db: Db, body: (trx: Db) => Promise<void>): Promise<void> {
  return db.isTransaction ? body(db) : db.transaction().execute(body);
}

/** A JSON list of tags as stored; anything else reads as none. */
export function parseTags(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

/** `items` in lists of at most `size`. */
export function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
