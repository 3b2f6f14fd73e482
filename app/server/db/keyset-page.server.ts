import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { ID_PATTERN } from '../../lib/ids.ts';

// The dashboard's long lists (the inbox, the subscribers) newest first, paged by their
// (created_at, id) key in either direction: a page costs the same at the start of 10,000 rows as at
// the end, which OFFSET cannot promise. The key is carried in the address as an opaque cursor.

export interface KeysetRow {
  created_at: string;
  id: string;
}

interface Cursor {
  createdAt: string;
  id: string;
}

const ISO_PATTERN = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`).toString('base64url');
}

/** A cursor from the address; anything else (edited, truncated) reads as none, so the first page shows. */
export function decodeCursor(value: string | null | undefined): Cursor | undefined {
  if (!value || value.length > 200) return undefined;
  const [createdAt = '', id = '', ...rest] = Buffer.from(value, 'base64url').toString('utf8').split('|');
  return rest.length === 0 && ISO_PATTERN.test(createdAt) && ID_PATTERN.test(id) ? { createdAt, id } : undefined;
}

/** `text` as a LIKE pattern (with `escape '\'`) that matches it anywhere, its wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Reads rows of one filtered list: those past `key` (none for the first page), ordered by
 * (created_at, id) in `order`, at most `limit`.
 */
export type KeysetReader<Row extends KeysetRow> = (
  key: RawBuilder<SqlBool> | undefined,
  order: 'asc' | 'desc',
  limit: number,
) => Promise<Row[]>;

export interface KeysetPage<Row> {
  rows: Row[];
  /** Cursor of the page of older rows (`after`), if there is one. */
  older: string | null;
  /** Cursor of the page of newer rows (`before`), if there is one. */
  newer: string | null;
  /** Rows matching the filter, all pages. */
  total: number;
}

function past(direction: '<' | '>', row: Cursor): RawBuilder<SqlBool> {
  return sql<SqlBool>`(created_at, id) ${sql.raw(direction)} (${row.createdAt}, ${row.id})`;
}

/**
 * One page, newest first: `after` asks for the page older than a cursor, `before` for the page newer
 * than one. `count` is asked only when there is more than one page (a search that matches little
 * would otherwise scan twice).
 */
export async function readKeysetPage<Row extends KeysetRow>(
  read: KeysetReader<Row>,
  count: () => Promise<number>,
  options: { after?: string | null | undefined; before?: string | null | undefined; limit: number },
): Promise<KeysetPage<Row>> {
  const { limit } = options;
  const after = decodeCursor(options.after);
  const before = after ? undefined : decodeCursor(options.before);
  // The extra row tells whether there is another page in the direction of travel.
  const rows = before
    ? (await read(past('>', before), 'asc', limit + 1)).reverse()
    : await read(after && past('<', after), 'desc', limit + 1);
  const more = rows.length > limit;
  const page = before ? rows.slice(rows.length - Math.min(rows.length, limit)) : rows.slice(0, limit);
  const first = page[0];
  const last = page.at(-1);
  const keyOf = (row: KeysetRow): Cursor => ({ createdAt: row.created_at, id: row.id });
  const exists = async (direction: '<' | '>', row: KeysetRow) =>
    (await read(past(direction, keyOf(row)), direction === '<' ? 'desc' : 'asc', 1)).length > 0;

  const older = last && (before ? await exists('<', last) : more) ? encodeCursor(keyOf(last)) : null;
  const newer = first && (before ? more : after !== undefined && (await exists('>', first))) ? encodeCursor(keyOf(first)) : null;
  const total = older || newer ? await count() : page.length;
  return { rows: page, older, newer, total };
}

/** Every row of a filtered list, newest first, in batches of `size`: an export of any length in little memory. */
export async function* keysetBatches<Row extends KeysetRow>(read: KeysetReader<Row>, size: number): AsyncGenerator<Row[]> {
  let key: RawBuilder<SqlBool> | undefined;
  for (;;) {
    const rows = await read(key, 'desc', size);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < size) return;
    const last = rows.at(-1)!;
    key = past('<', { createdAt: last.created_at, id: last.id });
  }
}
