import type { Kysely, Selectable } from 'kysely';
import type { ContentTable, Database } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import type { Language, PrefixedLanguage } from '../../lib/languages.ts';
import { VERSION_LANGUAGES } from '../../lib/content-versions.ts';
import type { Collection } from '../../lib/collections.ts';

// Issue 26, items 4 and 5: the public side of translated content (docs/decisions/031-translated-content.md).
// Public pages list English items; under /lg or /sw each is shown as its published version in that
// language, else in English, marked. A version is public only with its English item (its address is
// the English item's id under the language's prefix).

type ContentRow = Selectable<ContentTable>;

/** The published versions in `language` of the given English items, by English id. */
export async function publishedVersions(
  englishIds: readonly string[],
  language: Language,
  db: Kysely<Database> = getDb(),
): Promise<Map<string, ContentRow>> {
  if (language === 'en' || englishIds.length === 0) return new Map();
  // At most one version per item and language (a unique index): the published ones are picked here,
  // since a condition on the status would lead SQLite to walk every published row instead.
  const rows = await db
    .selectFrom('content')
    .selectAll()
    .where('translation_of', 'in', [...englishIds])
    .where('language', '=', language)
    .execute();
  return new Map(rows.filter((row) => row.status === 'published').map((row) => [row.translation_of!, row]));
}

/** What a published version puts in place of its English item's: its words, picture and video. */
const VERSION_FIELDS = [
  'title',
  'summary',
  'excerpt',
  'content',
  'search_text',
  'easy_read',
  'tags',
  'image_url',
  'image_alt',
  'video_id',
  'updated_at',
] as const satisfies readonly (keyof ContentRow)[];

/**
 * English rows shown in `language` (issue 26 item 5): each takes its published version's words,
 * picture and video, keeping the English id, collection, category and date (lists stay in the English
 * order); `language` says which it is, so a page marks an English one `lang="en"`. A row read with
 * fewer columns (a list's, issue 29) takes only those it has.
 */
export async function inLanguage<Row extends Pick<ContentRow, 'id'> & Partial<Pick<ContentRow, (typeof VERSION_FIELDS)[number]>>>(
  rows: Row[],
  language: Language,
  db: Kysely<Database> = getDb(),
): Promise<(Row & { shown_language: Language })[]> {
  const versions = await publishedVersions(
    rows.map((row) => row.id),
    language,
    db,
  );
  return rows.map((row) => {
    const version = versions.get(row.id);
    if (!version) return { ...row, shown_language: 'en' as Language };
    const shown: Row & { shown_language: Language } = { ...row, shown_language: language };
    for (const field of VERSION_FIELDS) if (field in row) Object.assign(shown, { [field]: version[field] });
    return shown;
  });
}

/** The languages an English item is published in besides English, for its page's links. */
export async function publishedLanguagesOf(englishId: string, db: Kysely<Database> = getDb()): Promise<PrefixedLanguage[]> {
  const rows = await db
    .selectFrom('content')
    .select('language')
    .where('translation_of', '=', englishId)
    .where('status', '=', 'published')
    .execute();
  return VERSION_LANGUAGES.filter((language) => rows.some((row) => row.language === language));
}

/** A language's newest published versions of a collection, for its feed (/lg/blog/rss.xml). */
export async function listPublishedVersions(
  collection: Collection,
  language: PrefixedLanguage,
  limit: number,
  db: Kysely<Database> = getDb(),
): Promise<ContentRow[]> {
  return (
    db
      .selectFrom('content')
      .selectAll()
      .where('collection', '=', collection)
      .where('language', '=', language)
      .where('status', '=', 'published')
      .where('translation_of', 'is not', null)
      // A version is public with its English item (the address is the English item's).
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('content as english')
            .select('english.id')
            .whereRef('english.id', '=', 'content.translation_of')
            .where('english.status', '=', 'published'),
        ),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute()
  );
}
