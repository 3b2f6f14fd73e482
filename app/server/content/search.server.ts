import { sql, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Collection } from '../../lib/collections.ts';
import type { Database } from '../db/schema.ts';
import { getDatabase } from '../db/db.server.ts';
import type { Engine } from '../db/db.server.ts';

// The one full-text search function. SQLite answers through the FTS5 table `content_fts`,
// PostgreSQL through the generated tsvector column `content.search` and its GIN index.

const MAX_TERMS = 8;
/**
 * Eight words of any sensible length fit. The list pages refuse longer queries with a message
 * (content.server.ts); this cut, made before the query is normalised and split, holds for any caller.
 */
const QUERY_READ_MAX = 400;

/** Words of a visitor's query, lower-cased, letters and digits only (safe for both engines). */
export function searchTerms(query: string): string[] {
  const words =
    query
      .slice(0, QUERY_READ_MAX)
      .toLowerCase()
      .normalize('NFKC')
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_TERMS);
}

export interface SearchOptions {
  collection: Collection;
  query?: string | undefined;
  category?: string | undefined;
  /** Issue 14: only items with a sign-language video visitors can watch. */
  signLanguage?: boolean | undefined;
  /** Issue 26: only items with an easy-read version. */
  easyRead?: boolean | undefined;
  limit: number;
  offset?: number;
}

type ContentQuery = SelectQueryBuilder<Database, 'content', object>;

/**
 * Issue 14: the item's sign-language video is processed and has its captions (what the badge and the
 * "Sign language only" filter mean).
 */
function hasWatchableVideo(eb: ExpressionBuilder<Database, 'content'>) {
  return eb.exists(
    eb
      .selectFrom('videos')
      .select('videos.id')
      .whereRef('videos.id', '=', 'content.video_id')
      .where('videos.status', '=', 'ready')
      .where('videos.captions_key', 'is not', null),
  );
}

/** Narrows a content query to rows matching every word of `query` (as a prefix). */
async function whereMatches(query: ContentQuery, db: Kysely<Database>, engine: Engine, terms: string[]): Promise<ContentQuery> {
  if (terms.length === 0) return query;
  if (engine === 'sqlite') {
    const match = terms.map((t) => `"${t}"*`).join(' ');
    // `seq` is the row number the search index is keyed by (SQLite only, not in the typed schema).
    return query.where(sql<boolean>`content.seq IN (SELECT rowid FROM content_fts WHERE content_fts MATCH ${match})`);
  }
  const tsquery = terms.map((t) => `${t}:*`).join(' & ');
  // PostgreSQL leaves stop words ("the", "how", "to") out of the index, so a search of nothing but
  // stop words would match nothing at all; like SQLite, it then lists everything instead.
  const { rows } = await sql<{ words: number }>`SELECT numnode(to_tsquery('english', ${tsquery})) AS words`.execute(db);
  if (Number(rows[0]?.words ?? 0) === 0) return query;
  return query.where(sql<boolean>`content.search @@ to_tsquery('english', ${tsquery})`);
}

/**
 * Published content of one collection, newest first, optionally searched and filtered by category.
 * Drafts and scheduled items are never found (issue 13): every public list, feed and count reads here.
 */
export async function searchContent(
  options: SearchOptions,
  db: Kysely<Database> = getDatabase().db,
  engine: Engine = getDatabase().engine,
) {
  let query: ContentQuery = db
    .selectFrom('content')
    .where('content.collection', '=', options.collection)
    .where('content.status', '=', 'published');
  if (options.category) query = query.where('content.category', '=', options.category);
  if (options.signLanguage) query = query.where(hasWatchableVideo);
  if (options.easyRead) query = query.where('content.easy_read', 'is not', null);
  query = await whereMatches(query, db, engine, searchTerms(options.query ?? ''));
  const [rows, count] = await Promise.all([
    query
      .selectAll('content')
      .select((eb) => hasWatchableVideo(eb).as('sign_language'))
      .orderBy('content.created_at', 'desc')
      .orderBy('content.id', 'desc')
      .limit(options.limit)
      .offset(options.offset ?? 0)
      .execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
