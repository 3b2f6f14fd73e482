import { sql, type Kysely, type Selectable } from 'kysely';
import { categoryLabel } from '../../lib/categories.ts';
import { COLLECTION_INFO, type Collection } from '../../lib/collections.ts';
import type { ContentTable, Database } from '../db/schema.ts';
import { getDatabase, type Engine } from '../db/db.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { publicRead } from '../platform/public-reads.server.ts';
import { searchContent } from './search.server.ts';
import { inLanguage } from './translated.server.ts';
import type { Language } from '../../lib/languages.ts';

/** A published story, news article or resource as the public site reads it (spec §3). */
export interface PublicContent {
  id: string;
  collection: Collection;
  title: string;
  summary: string;
  category: string;
  author: string;
  imageUrl: string | null;
  imageAlt: string;
  tags: string[];
  createdAt: string;
  /** Issue 14: it has a sign-language video with captions (the lists' badge). */
  signLanguage: boolean;
  /** Issue 26: the language its words are in (under /lg an item with no Luganda version is shown in English, marked). */
  language: Language;
}

/** The columns a list reads (search.server.ts, `LISTED_COLUMNS`), and what the lists add. */
type ListedRow = Pick<
  Selectable<ContentTable>,
  | 'id'
  | 'collection'
  | 'title'
  | 'summary'
  | 'excerpt'
  | 'category'
  | 'author'
  | 'image_url'
  | 'image_alt'
  | 'tags'
  | 'created_at'
> & { sign_language?: unknown; shown_language?: Language };

export function toPublicContent(row: ListedRow): PublicContent {
  return {
    id: row.id,
    collection: row.collection,
    title: row.title,
    summary: row.summary ?? row.excerpt ?? '',
    category: row.category,
    author: row.author,
    imageUrl: row.image_url,
    imageAlt: row.image_alt ?? '',
    tags: parseList(row.tags),
    createdAt: row.created_at,
    // SQLite answers 1, PostgreSQL true.
    signLanguage: row.sign_language === true || Number(row.sign_language) === 1,
    language: row.shown_language ?? 'en',
  };
}

export function parseList(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** The newest published items of a collection; in another language each as its published version, else in English (issue 26). */
export async function listRecentContent(
  collection: Collection,
  limit: number,
  language: Language = 'en',
): Promise<PublicContent[]> {
  const { rows } = await searchContent({ collection, limit });
  return (await inLanguage(rows, language)).map(toPublicContent);
}

// ---------------------------------------------------------------------------------------------
// The public lists /blog and /news (spec §2, §4): server-side search, category filter and pages.
// docs/decisions/101-list-pagination.md

/** Page 1 holds the featured item and a grid of 12; later pages hold a grid of 12. */
export const FIRST_PAGE_SIZE = 13;
export const PAGE_SIZE = 12;
/** A longer search text is refused with a message (the search box allows no more). */
export const MAX_QUERY_LENGTH = 200;
/** Far beyond any real list; keeps the SQL offset a small number whatever the URL says. */
const MAX_PAGE = 100_000;

export interface ContentPage {
  items: PublicContent[];
  /** Every match, on all pages. */
  total: number;
  page: number;
  pageCount: number;
}

export function pageCountFor(total: number): number {
  return total <= FIRST_PAGE_SIZE ? 1 : 1 + Math.ceil((total - FIRST_PAGE_SIZE) / PAGE_SIZE);
}

function pageWindow(page: number): { offset: number; limit: number } {
  return page <= 1
    ? { offset: 0, limit: FIRST_PAGE_SIZE }
    : { offset: FIRST_PAGE_SIZE + (page - 2) * PAGE_SIZE, limit: PAGE_SIZE };
}

export interface ContentPageOptions {
  collection: Collection;
  query?: string | undefined;
  category?: string | undefined;
  /** Issue 14: only items with a sign-language video. */
  signLanguage?: boolean | undefined;
  /** Issue 26: only items with an easy-read version. */
  easyRead?: boolean | undefined;
  /** 1-based; clamped to the pages that exist. */
  page?: number | undefined;
  /** Issue 26: the reader's language (searched and shown in it where a version is published). */
  language?: Language | undefined;
}

/**
 * One page of a public list, newest first: a LIMIT/OFFSET query on the indexed columns and a count,
 * never the whole table. A page past the end shows the last page.
 */
export async function listContentPage(
  options: ContentPageOptions,
  db: Kysely<Database> = getDatabase().db,
  engine: Engine = getDatabase().engine,
): Promise<ContentPage> {
  const requested = Math.min(Math.max(1, Math.trunc(options.page ?? 1) || 1), MAX_PAGE);
  const fetch = (page: number) =>
    searchContent(
      {
        collection: options.collection,
        query: options.query,
        category: options.category,
        signLanguage: options.signLanguage,
        easyRead: options.easyRead,
        language: options.language,
        ...pageWindow(page),
      },
      db,
      engine,
    );
  let page = requested;
  let result = await fetch(page);
  const pageCount = pageCountFor(result.total);
  if (page > pageCount) {
    page = pageCount;
    if (result.total > 0) result = await fetch(page);
  }
  const shown = await inLanguage(result.rows, options.language ?? 'en', db);
  return { items: shown.map(toPublicContent), total: result.total, page, pageCount };
}

/**
 * The distinct categories that published items of a collection carry (a draft's never shows). Issue
 * 29: read as a skip through the index of public lists, one step per category, rather than a walk
 * of every published item's entry: 650 µs with 5,000 stories became 84 µs.
 */
export function listUsedCategories(collection: Collection, db: Kysely<Database> = getDatabase().db): Promise<readonly string[]> {
  return publicRead(db, `categories:${collection}`, async () => {
    const published = sql`collection = ${collection} AND status = 'published' AND language = 'en'`;
    const { rows } = await sql<{ category: string | null }>`
      WITH RECURSIVE used(category) AS (
        SELECT min(category) FROM content WHERE ${published}
        UNION ALL
        SELECT (SELECT min(category) FROM content WHERE ${published} AND category > used.category)
        FROM used WHERE used.category IS NOT NULL
      )
      SELECT category FROM used WHERE category IS NOT NULL`.execute(db);
    return Object.freeze(rows.map((row) => row.category).filter((category): category is string => Boolean(category)));
  });
}

export type ListProblem = 'query-too-long' | 'unknown-category';

export interface ContentListData {
  /** 'error': the database could not be read (spec §8 "Unable to load ..."). */
  status: 'ok' | 'error';
  /** The search text and category in force, for the search form. */
  q: string;
  category: string;
  /** Issue 14: "Sign language only" (`?sign=1`). */
  signLanguage: boolean;
  /** Issue 26: "Easy read only" (`?easy=1`). */
  easyRead: boolean;
  /** A bad part of the request, explained on the page. */
  problem: ListProblem | null;
  /** The category the visitor asked for when it was unknown (shown, escaped, in the message). */
  rejectedCategory: string;
  /** The dropdown's options: the spec's list, then any other category the items carry. */
  categories: { value: string; label: string }[];
  list: ContentPage;
}

const EMPTY_PAGE: ContentPage = { items: [], total: 0, page: 1, pageCount: 1 };

function categoryOptions(collection: Collection, used: readonly string[]) {
  const base: readonly string[] = COLLECTION_INFO[collection].publicCategories;
  const extra = used.filter((c) => !base.includes(c)).sort((a, b) => categoryLabel(a).localeCompare(categoryLabel(b)));
  return [...base, ...extra].map((value) => ({ value, label: categoryLabel(value) }));
}

/**
 * Everything /blog and /news need from the URL (`?q=…&category=…&page=…`), with the HTTP status to
 * answer with: 400 for an overlong search, 500 (logged) when the database fails, else 200.
 * Bad page numbers fall back to page 1; an unknown category is ignored with a message.
 */
export async function loadContentList(
  collection: Collection,
  url: URL,
  db?: Kysely<Database>,
  engine?: Engine,
  language: Language = 'en',
): Promise<{ data: ContentListData; httpStatus: number }> {
  const rawQuery = (url.searchParams.get('q') ?? '').trim();
  const rawCategory = (url.searchParams.get('category') ?? '').trim();
  const page = /^\d{1,9}$/.test(url.searchParams.get('page') ?? '') ? Number(url.searchParams.get('page')) : 1;
  const data: ContentListData = {
    status: 'ok',
    q: rawQuery.slice(0, MAX_QUERY_LENGTH),
    category: rawCategory,
    signLanguage: url.searchParams.get('sign') === '1',
    easyRead: url.searchParams.get('easy') === '1',
    problem: null,
    rejectedCategory: '',
    categories: categoryOptions(collection, []),
    list: EMPTY_PAGE,
  };
  try {
    const handle = db && engine ? { db, engine } : getDatabase();
    const listPage = (category: string) =>
      listContentPage(
        {
          collection,
          query: rawQuery,
          category: category || undefined,
          signLanguage: data.signLanguage,
          easyRead: data.easyRead,
          page,
          language,
        },
        handle.db,
        handle.engine,
      );
    if (rawQuery.length > MAX_QUERY_LENGTH) {
      const used = await listUsedCategories(collection, handle.db);
      return { data: { ...data, problem: 'query-too-long', categories: categoryOptions(collection, used) }, httpStatus: 400 };
    }
    // Both at once; a category found in neither list had no matches anyway, so it is asked again without it.
    const [used, list] = await Promise.all([listUsedCategories(collection, handle.db), listPage(rawCategory)]);
    data.categories = categoryOptions(collection, used);
    data.list = list;
    if (rawCategory && !data.categories.some((c) => c.value === rawCategory)) {
      data.problem = 'unknown-category';
      data.rejectedCategory = rawCategory.slice(0, 60);
      data.category = '';
      data.list = await listPage('');
    }
    return { data, httpStatus: 200 };
  } catch (error) {
    getLogger().error({ err: error, collection, path: url.pathname }, 'Could not load the content list');
    return { data: { ...data, status: 'error' }, httpStatus: 500 };
  }
}
