import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { newContentId, nowIso } from '../platform/ids.server.ts';
import { recordRevision } from './revisions.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import {
  auditContent,
  ContentRuleError,
  getContentForAdmin,
  mayEditContent,
  revisionActor,
  snapshotOf,
  type AdminContentItem,
} from './content-admin.server.ts';
import { CONTENT_MESSAGES } from '../../lib/content-form.ts';
import { isPrefixedLanguage, type PrefixedLanguage } from '../../lib/languages.ts';
import {
  VERSION_LANGUAGES,
  VERSION_MESSAGES,
  versionName,
  type VersionState,
  type VersionSummary,
} from '../../lib/content-versions.ts';

// Issue 26, items 4 and 5: Luganda and Swahili versions of stories, news and resources
// (docs/decisions/031-translated-content.md). A version is a content row of its own, with `language`
// and `translation_of` (the English item's id): its own words, state, schedule, revisions, autosave
// and video, saved and published through the same rules as any item, so publishing one never
// publishes another. Public pages address it by its English item's id under the language's prefix.

/** Each version language with its version's id and state, for an English item's Languages panel. */
export async function listVersions(englishId: string, db: Kysely<Database> = getDb()): Promise<VersionSummary[]> {
  const rows = await db
    .selectFrom('content')
    .select(['id', 'language', 'status'])
    .where('translation_of', '=', englishId)
    .execute();
  return VERSION_LANGUAGES.map((language) => {
    const row = rows.find((r) => r.language === language);
    return { language, name: versionName(language), id: row?.id ?? null, state: (row?.status ?? 'none') as VersionState };
  });
}

/** What the edit screen shows about languages: an English item's versions, or a version's English item and siblings. */
export type LanguagesPanel =
  | { kind: 'english'; versions: VersionSummary[] }
  | { kind: 'version'; language: PrefixedLanguage; english: { id: string; title: string }; versions: VersionSummary[] };

export async function languagesPanelFor(item: AdminContentItem, db: Kysely<Database> = getDb()): Promise<LanguagesPanel> {
  if (!item.translationOf || !isPrefixedLanguage(item.language))
    return { kind: 'english', versions: await listVersions(item.id, db) };
  const english = await db.selectFrom('content').select(['id', 'title']).where('id', '=', item.translationOf).executeTakeFirst();
  return {
    kind: 'version',
    language: item.language,
    english: english ?? { id: item.translationOf, title: '' },
    versions: await listVersions(item.translationOf, db),
  };
}

/**
 * Adds a draft version of an English item in `language`, filled with the English title, summary,
 * body and easy read for the translator to replace; its picture, category and tags are the English
 * item's, its byline the English author's. Whoever may edit the English item may add one (spec §6
 * with issue 13); publishing it is the ordinary publishing rule. An unknown language, a missing item,
 * a version of a version and a second version in one language are refused (4xx, nothing written).
 */
export async function createVersion(
  actor: StaffUser,
  englishId: string,
  language: unknown,
  ip: string,
): Promise<AdminContentItem> {
  if (!isPrefixedLanguage(language)) throw new ContentRuleError(VERSION_MESSAGES.unknownLanguage, 400, 'language');
  const english = await getContentForAdmin(englishId);
  if (!english) throw new ContentRuleError(VERSION_MESSAGES.missingItem, 404);
  if (english.translationOf || english.language !== 'en') throw new ContentRuleError(VERSION_MESSAGES.ofVersion, 400);
  if (!mayEditContent(actor, english)) throw new ContentRuleError(CONTENT_MESSAGES.forbidden, 403);
  return getDb()
    .transaction()
    .execute(async (trx) => {
      const source = await trx.selectFrom('content').selectAll().where('id', '=', englishId).executeTakeFirst();
      if (!source) throw new ContentRuleError(VERSION_MESSAGES.missingItem, 404);
      const taken = await trx
        .selectFrom('content')
        .select('id')
        .where('translation_of', '=', englishId)
        .where('language', '=', language)
        .executeTakeFirst();
      if (taken) throw new ContentRuleError(VERSION_MESSAGES.exists, 409);
      const now = nowIso();
      const id = newContentId(`${source.title} ${language}`);
      await trx
        .insertInto('content')
        .values({
          id,
          collection: source.collection,
          title: source.title,
          summary: source.summary,
          excerpt: source.excerpt,
          content: source.content,
          search_text: source.search_text,
          easy_read: source.easy_read,
          category: source.category,
          tags: source.tags,
          author: source.author,
          author_email: source.author_email,
          author_role: source.author_role,
          image_url: source.image_url,
          image_alt: source.image_alt,
          // A draft's published_at is a placeholder until it goes public (as createContent's).
          status: 'draft',
          scheduled_at: null,
          version: 1,
          video_id: null,
          updated_by: actor.email,
          created_at: now,
          published_at: now,
          updated_at: now,
          language,
          translation_of: englishId,
          demo: source.demo,
        })
        .execute();
      const item = (await getContentForAdmin(id, trx))!;
      await recordRevision(trx, {
        contentId: id,
        kind: 'draft',
        actor: revisionActor(actor),
        snapshot: await snapshotOf(trx, item),
      });
      await auditContent(trx, actor, 'content.version_created', item, ip, { versionOf: englishId, language });
      return item;
    });
}
