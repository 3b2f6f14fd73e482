import { sql, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Collection } from '../../lib/collections.ts';
import type { Language } from '../../lib/languages.ts';
import type { Database } from '../db/schema.ts';
import { getDatabase } from '../db/db.server.ts';
import type { Engine } from '../db/db.server.ts';
import { publicRead } from '../platform/public-reads.server.ts';

// The one full-text search function. SQLite answers through the FTS5 table `content_fts`,
// PostgreSQL through the generated tsvector column `content.search` and its GIN index.

const MAX_TERMS = 8;
/**
 * Issue 29: a word this long or longer also finds words it begins; a shorter one only itself. As
 * the start of words, "a" or "co" matches most of the index: eight such words took SQLite 146 ms
 * for one count of 5,000 stories, holding a worker that long. Whole, they take under 1 ms.
 */
export const PREFIX_MIN_LENGTH = 3;
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
  /**
   * Issue 26: the reader's language. The list is always of English items (a version has no place of
   * its own); under /lg or /sw a search matches an item by its published version's words, or by its
   * English words when it has none (docs/decisions/031-translated-content.md).
   */
  language?: Language | undefined;
  limit: number;
  offset?: number;
}

type ContentQuery = SelectQueryBuilder<Database, 'content', object>;

/** A category is a short slug; a count for a longer one a visitor made up is not kept. */
const MAX_KEPT_CATEGORY_LENGTH = 60;

/**
 * What a list shows of each item (app/server/content/content.server.ts, `toPublicContent`). Issue 29:
 * not its text, which is most of a row: 13 whole rows took SQLite 137 µs, these columns 37 µs.
 */
export const LISTED_COLUMNS = [
  'content.id',
  'content.collection',
  'content.title',
  'content.summary',
  'content.excerpt',
  'content.category',
  'content.author',
  'content.image_url',
  'content.image_alt',
  'content.tags',
  'content.created_at',
] as const;

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

/**
 * SQLite: the word the search index holds in its `scope` column for a collection's published
 * English items (migration 0020), so that the index alone tells which of them match.
 */
export function searchScope(collection: Collection): string {
  return `s${collection}xpublishedxen0`;
}

/** SQLite: an FTS5 query for every word of `terms` in the texts (never `scope`), within `scope` if given. */
function ftsMatch(terms: string[], scope?: string): string {
  const words = `{title summary body tags} : (${terms.map((t) => (t.length >= PREFIX_MIN_LENGTH ? `"${t}"*` : `"${t}"`)).join(' ')})`;
  return scope ? `scope : "${scope}" AND ${words}` : words;
}

/**
 * The condition "the row `alias` matches every word of `terms`" (PREFIX_MIN_LENGTH), or null when
 * the words match everything. SQLite: `scope`, when given, narrows the index's answer to the rows
 * the outer query keeps anyway.
 */
async function matchCondition(
  alias: 'content' | 'version',
  db: Kysely<Database>,
  engine: Engine,
  terms: string[],
  config: 'english' | 'simple',
  scope?: string,
) {
  if (terms.length === 0) return null;
  if (engine === 'sqlite') {
    // `seq` is the row number the search index is keyed by (SQLite only, not in the typed schema).
    return sql<boolean>`${sql.ref(`${alias}.seq`)} IN (SELECT rowid FROM content_fts WHERE content_fts MATCH ${ftsMatch(terms, scope)})`;
  }
  const tsquery = terms.map((t) => (t.length >= PREFIX_MIN_LENGTH ? `${t}:*` : t)).join(' & ');
  // PostgreSQL leaves stop words ("the", "how", "to") out of the index, so a search of nothing but
  // stop words would match nothing at all; like SQLite, it then lists everything instead.
  // Issue 26: a Luganda or Swahili row is indexed with 'simple' (migration 0018), and searched so.
  if (config === 'english') {
    const { rows } = await sql<{ words: number }>`SELECT numnode(to_tsquery('english', ${tsquery})) AS words`.execute(db);
    if (Number(rows[0]?.words ?? 0) === 0) return null;
    return sql<boolean>`${sql.ref(`${alias}.search`)} @@ to_tsquery('english', ${tsquery})`;
  }
  return sql<boolean>`${sql.ref(`${alias}.search`)} @@ to_tsquery('simple', ${tsquery})`;
}

/**
 * Narrows a query of English items to those matching every word of `query` (PREFIX_MIN_LENGTH). Issue 26:
 * in another language, an item matches by its published version's words, or by its English words
 * when it has no published version in that language.
 */
async function whereMatches(
  query: ContentQuery,
  db: Kysely<Database>,
  engine: Engine,
  terms: string[],
  language: Language,
  scope: string,
): Promise<ContentQuery> {
  if (language === 'en') {
    const english = await matchCondition('content', db, engine, terms, 'english', scope);
    return english ? query.where(english) : query;
  }
  const english = await matchCondition('content', db, engine, terms, 'english');
  const own = await matchCondition('version', db, engine, terms, 'simple');
  if (!own) return query;
  const version = (eb: ExpressionBuilder<Database, 'content'>) =>
    eb
      .selectFrom('content as version')
      .select('version.id')
      .whereRef('version.translation_of', '=', 'content.id')
      .where('version.language', '=', language)
      .where('version.status', '=', 'published');
  return query.where((eb) =>
    eb.or([eb.exists(version(eb).where(own)), eb.and([eb.not(eb.exists(version(eb))), english ?? sql<boolean>`true`])]),
  );
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
    .where('content.status', '=', 'published')
    // Issue 26: every public list, feed and count is of English items; versions are shown in their place.
    .where('content.language', '=', 'en');
  if (options.category) query = query.where('content.category', '=', options.category);
  if (options.signLanguage) query = query.where(hasWatchableVideo);
  if (options.easyRead) query = query.where('content.easy_read', 'is not', null);
  const terms = searchTerms(options.query ?? '');
  const language = options.language ?? 'en';
  const scope = searchScope(options.collection);
  query = await whereMatches(query, db, engine, terms, language, scope);
  // Issue 29, SQLite: a search of English items with no other filter is counted by the index alone.
  const indexCounts =
    engine === 'sqlite' &&
    terms.length > 0 &&
    language === 'en' &&
    !options.category &&
    !options.signLanguage &&
    !options.easyRead;
  // A list without words is counted the same way on every render until something public changes.
  const countList = () => query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  const [rows, count] = await Promise.all([
    query
      .select(LISTED_COLUMNS)
      .select((eb) => hasWatchableVideo(eb).as('sign_language'))
      .orderBy('content.created_at', 'desc')
      .orderBy('content.id', 'desc')
      .limit(options.limit)
      .offset(options.offset ?? 0)
      .execute(),
    indexCounts
      ? sql<{ n: number }>`SELECT count(*) AS n FROM content_fts WHERE content_fts MATCH ${ftsMatch(terms, scope)}`
          .execute(db)
          .then(({ rows: [counted] }) => counted!)
      : terms.length === 0 && (options.category ?? '').length <= MAX_KEPT_CATEGORY_LENGTH
        ? publicRead(
            db,
            `count:${options.collection}:${options.category ?? ''}:${options.signLanguage ? 1 : 0}:${options.easyRead ? 1 : 0}`,
            countList,
          )
        : countList(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Issue 29: the search index's daily tidy, once across every process (registerRecurringJob). */
export const SEARCH_TIDY_JOB = 'content.search-tidy';
export const SEARCH_TIDY_EVERY_MS = 24 * 60 * 60_000;
/** Index pages written per step of the tidy: about 10 ms of a worker's time on a small server. */
const TIDY_PAGES_PER_STEP = 100;
/** More steps than an index of a million stories needs; the tidy never runs away. */
const TIDY_MAX_STEPS = 100_000;

/**
 * Issue 29, SQLite: merges the search index's pieces into one, a few pages at a time. FTS5 writes
 * each change as a small piece of its own and merges them only now and then, so a search read
 * dozens of pieces: on 10,000 stories, merged, a word's count took 0.8 ms instead of 1.3, and eight
 * three-letter words 6.5 ms instead of 12.5. A negative `merge` run until it changes nothing is
 * FTS5's `optimize` in steps (https://sqlite.org/fts5.html#the_merge_command); the worker answers
 * requests between them. PostgreSQL's index needs nothing of the kind. Returns the steps that did work.
 */
export async function tidySearchIndex(
  db: Kysely<Database> = getDatabase().db,
  engine: Engine = getDatabase().engine,
  pagesPerStep = TIDY_PAGES_PER_STEP,
): Promise<number> {
  if (engine !== 'sqlite') return 0;
  for (let step = 0; step < TIDY_MAX_STEPS; step++) {
    // One connection for the three statements, so that no other write counts as the merge's.
    const changes = await db.connection().execute(async (connection) => {
      const total = async () => Number((await sql<{ n: number }>`SELECT total_changes() AS n`.execute(connection)).rows[0]!.n);
      const before = await total();
      await sql`INSERT INTO content_fts (content_fts, rank) VALUES ('merge', ${-pagesPerStep})`.execute(connection);
      return (await total()) - before;
    });
    if (changes < 2) return step;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return TIDY_MAX_STEPS;
}
