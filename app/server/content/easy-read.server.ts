import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { isArticleId } from '../../lib/article.ts';
import { articlePath, type Collection } from '../../lib/collections.ts';
import { isServiceId } from '../../lib/services.ts';
import type { Language } from '../../lib/languages.ts';

// Issue 26 item 6: the public easy-read page of a story, news item, resource or service
// (`<its address>/easy-read`, decision 033). Only what is public has one: a published item, a stored
// service; anything else, or one without an easy read, is not found.

export interface EasyReadPage {
  title: string;
  text: string;
  /** The language the title and text are written in (a page in Luganda may show English). */
  textLanguage: string;
  /** The full text's address (in English; links are put in the page's language by the layout). */
  fullPath: string;
}

export type EasyReadTarget = { kind: 'content'; collection: Collection; id: string } | { kind: 'service'; id: string };

/** The easy-read page's words, or undefined when there are none to show (404). */
export async function readEasyReadPage(
  target: EasyReadTarget,
  language: Language = 'en',
  db: Kysely<Database> = getDb(),
): Promise<EasyReadPage | undefined> {
  if (target.kind === 'content') {
    if (!isArticleId(target.id)) return undefined;
    const row = await db
      .selectFrom('content')
      .select(['title', 'easy_read', 'language'])
      .where('collection', '=', target.collection)
      .where('id', '=', target.id)
      .where('status', '=', 'published')
      .executeTakeFirst();
    if (!row?.easy_read) return undefined;
    return {
      title: row.title,
      text: row.easy_read,
      textLanguage: row.language,
      fullPath: articlePath(target.collection, target.id),
    };
  }
  if (!isServiceId(target.id)) return undefined;
  const row = await db.selectFrom('services').select(['title', 'easy_read']).where('id', '=', target.id).executeTakeFirst();
  if (!row) return undefined;
  const fullPath = `/services/${target.id}`;
  // Issue 26 item 4: a published version in the page's language shows its own easy read.
  if (language !== 'en') {
    const version = await db
      .selectFrom('service_translations')
      .select(['title', 'easy_read'])
      .where('service_id', '=', target.id)
      .where('language', '=', language)
      .where('status', '=', 'published')
      .executeTakeFirst();
    if (version?.easy_read) return { title: version.title, text: version.easy_read, textLanguage: language, fullPath };
  }
  if (!row.easy_read) return undefined;
  return { title: row.title, text: row.easy_read, textLanguage: 'en', fullPath };
}
