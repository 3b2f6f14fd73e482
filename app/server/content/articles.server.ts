import type { Kysely, Selectable } from 'kysely';
import type { ContentTable, Database } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { getFounderProfile } from '../site/founder.server.ts';
import { parseList } from './content.server.ts';
import { readSignLanguageMarkup } from '../media/sign-language-markup.server.ts';
import {
  isArticleId,
  RELATED_SUMMARY_MAX,
  type ArticleAuthor,
  type ArticleView,
  type RelatedArticle,
} from '../../lib/article.ts';
import type { Collection } from '../../lib/collections.ts';
import { isLanguage, type Language } from '../../lib/languages.ts';
import { inLanguage, publishedLanguagesOf } from './translated.server.ts';
import { readTimeLabel, truncate } from '../../lib/text.ts';

// The article page's reads (spec §2 "Article page", §7 "Read one article" and "Related articles").

type ContentRow = Selectable<ContentTable>;

/** spec §7 / §9: 3 related articles shown; the queries are limited to 4 and 6. */
export const RELATED_SHOWN = 3;
export const RELATED_SAME_CATEGORY_LIMIT = 4;
export const RELATED_TOP_UP_LIMIT = 6;

/**
 * One published article by collection and id; undefined when there is none (a draft or scheduled
 * item answers 404 to visitors, issue 13; only a preview link reads it). The body is shown as
 * stored: every writer stores it sanitised (docs/decisions/202-article-html-sanitising.md), so it
 * is not sanitised again here, and its read time comes from the text the writer derived from it.
 */
export async function readArticle(
  collection: Collection,
  id: string,
  db: Kysely<Database> = getDb(),
  options: { includeUnpublished?: boolean; language?: Language } = {},
): Promise<{ article: ArticleView; authorEmail: string | null } | undefined> {
  if (!isArticleId(id)) return undefined;
  let query = db.selectFrom('content').selectAll().where('collection', '=', collection).where('id', '=', id);
  // Issue 26: a public address names an English item; a version is read through it (a preview link reads any row).
  if (!options.includeUnpublished) query = query.where('status', '=', 'published').where('language', '=', 'en');
  const stored = await query.executeTakeFirst();
  if (!stored) return undefined;
  const language = options.includeUnpublished ? 'en' : (options.language ?? 'en');
  const [[row], versions] = await Promise.all([
    inLanguage([stored], language, db),
    options.includeUnpublished ? Promise.resolve([]) : publishedLanguagesOf(stored.id, db),
  ]);
  return {
    article: {
      id: row!.id,
      collection: row!.collection,
      title: row!.title,
      summary: row!.summary ?? row!.excerpt ?? '',
      category: row!.category,
      html: row!.content,
      readTime: readTimeLabel(row!.search_text),
      imageUrl: safeImageUrl(row!.image_url),
      imageAlt: row!.image_alt ?? '',
      tags: parseList(row!.tags),
      createdAt: row!.created_at,
      updatedAt: row!.updated_at,
      video: await readSignLanguageMarkup(row!.video_id, db),
      language: options.includeUnpublished && isLanguage(stored.language) ? stored.language : row!.shown_language,
      versions,
      easyRead: Boolean(row!.easy_read) && row!.status === 'published',
    },
    authorEmail: row!.author_email,
  };
}

/**
 * spec §3: the author's staff profile (matched by email); when there is none, the founder, as the
 * home and About pages show them (settings key founder_email, see founder.server.ts).
 */
export async function readArticleAuthor(authorEmail: string | null, db: Kysely<Database> = getDb()): Promise<ArticleAuthor> {
  const user = authorEmail
    ? await db
        .selectFrom('system_users')
        .select(['name', 'title', 'bio', 'full_bio', 'profile_picture', 'social_links'])
        .where('email', '=', authorEmail.trim().toLowerCase())
        .executeTakeFirst()
    : undefined;
  if (user) {
    const { name, title, bio, full_bio, profile_picture } = user;
    return toAuthor({ name, title, bio, fullBio: full_bio, picture: profile_picture, social: parseObject(user.social_links) });
  }
  const founder = await getFounderProfile(db);
  return toAuthor({ ...founder, picture: founder.pictureUrl });
}

function toAuthor(profile: {
  name: string;
  title: string;
  bio: string;
  fullBio: string;
  picture: string | null;
  social: Record<string, unknown>;
}): ArticleAuthor {
  return {
    name: profile.name,
    title: profile.title,
    bio: profile.bio,
    fullBio: profile.fullBio || profile.bio,
    picture: safeImageUrl(profile.picture),
    twitter: safeWebUrl(profile.social.twitter),
    linkedin: safeWebUrl(profile.social.linkedin),
  };
}

/**
 * spec §7, exactly: same collection and category, newest first, limit 4, excluding the current one;
 * if fewer than 3, the newest 6 of the collection top the list up (skipping the current one and
 * duplicates); the first 3 are kept.
 */
export async function listRelatedArticles(
  current: { id: string; collection: Collection; category: string },
  db: Kysely<Database> = getDb(),
  language: Language = 'en',
): Promise<RelatedArticle[]> {
  const newest = () =>
    db
      .selectFrom('content')
      .selectAll()
      .where('collection', '=', current.collection)
      .where('status', '=', 'published')
      .where('language', '=', 'en')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc');
  const related: ContentRow[] = await newest()
    .where('category', '=', current.category)
    .where('id', '!=', current.id)
    .limit(RELATED_SAME_CATEGORY_LIMIT)
    .execute();
  if (related.length < RELATED_SHOWN) {
    const seen = new Set([current.id, ...related.map((r) => r.id)]);
    for (const row of await newest().limit(RELATED_TOP_UP_LIMIT).execute()) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      related.push(row);
    }
  }
  return (await inLanguage(related.slice(0, RELATED_SHOWN), language, db)).map(toRelated);
}

function toRelated(row: ContentRow & { shown_language: Language }): RelatedArticle {
  return {
    language: row.shown_language,
    id: row.id,
    collection: row.collection,
    title: row.title,
    summary: truncate(row.summary ?? row.excerpt ?? '', RELATED_SUMMARY_MAX),
    category: row.category,
    imageUrl: safeImageUrl(row.image_url),
    imageAlt: row.image_alt ?? '',
    createdAt: row.created_at,
  };
}

export type ArticlePageResult =
  { status: 200; article: ArticleView; author: ArticleAuthor; related: RelatedArticle[] } | { status: 404 } | { status: 500 };

/**
 * Everything the article page shows. A missing (or impossible) id is a 404; a failed read is a 500,
 * logged; a failure of the related articles is only logged (spec §8) and the page shows none.
 */
export async function loadArticlePage(
  collection: Collection,
  id: string | undefined,
  db?: Kysely<Database>,
  language: Language = 'en',
): Promise<ArticlePageResult> {
  if (!isArticleId(id)) return { status: 404 };
  const log = getLogger();
  let found: Awaited<ReturnType<typeof readArticle>>;
  let author: ArticleAuthor;
  try {
    const database = db ?? getDb();
    found = await readArticle(collection, id, database, { language });
    if (!found) return { status: 404 };
    author = await readArticleAuthor(found.authorEmail, database);
  } catch (error) {
    log.error({ err: error, collection, id }, 'article read failed');
    return { status: 500 };
  }
  let related: RelatedArticle[] = [];
  try {
    related = await listRelatedArticles(found.article, db ?? getDb(), language);
  } catch (error) {
    log.error({ err: error, collection, id }, 'related articles read failed');
  }
  return { status: 200, article: found.article, author, related };
}

function parseObject(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Profile links come from a staff form: only http(s) addresses become links. */
export function safeWebUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 500) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Images are our own uploads (/media/...) or http(s) addresses; anything else is dropped. */
function safeImageUrl(value: string | null): string | null {
  if (!value) return null;
  if (value.startsWith('/media/') && !value.includes('..')) return value;
  return safeWebUrl(value);
}
