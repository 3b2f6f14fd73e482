import type { Kysely, Selectable } from 'kysely';
import { EVENT_VERSION_MESSAGES, type EventVersion, type EventVersionInput } from '../../lib/event-versions.ts';
import { isVersionLanguage, type VersionIntent, type VersionLanguage } from '../../lib/versions.ts';
import { EVENT_TEXT, type PublicEvent } from '../../lib/events.ts';
import { can } from '../../lib/permissions.ts';
import type { Database, EventTranslationTable } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import { htmlToText } from '../platform/html.server.ts';
import { nowIso } from '../platform/ids.server.ts';
import { publicContentChanged } from '../platform/public-changes.server.ts';
import { sanitizeArticleHtml } from '../platform/sanitize.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import { EventRuleError, getEventForAdmin } from './events.server.ts';

// Decision 051: an event's Luganda and Swahili versions, one row of event_translations per event and
// language, drafted and published on its own. Changing them takes what publishing events takes
// (events:publish); every write is audited and checked against the version the form was opened at
// (409, as a service's versions). The public pages, the calendar file and the registrants' mails
// read the published ones.

type Db = Kysely<Database>;

function toVersion(row: Selectable<EventTranslationTable>): EventVersion {
  return {
    language: row.language as VersionLanguage,
    title: row.title,
    summary: row.summary,
    description: row.description,
    place: row.place,
    imageAlt: row.image_alt,
    status: row.status === 'published' ? 'published' : 'draft',
    version: Number(row.version),
    updatedAt: row.updated_at,
  };
}

/** The versions an event has, by language. */
export async function listEventVersions(eventId: string, db: Db = getDb()): Promise<EventVersion[]> {
  const rows = await db.selectFrom('event_translations').selectAll().where('event_id', '=', eventId).execute();
  return rows.filter((row) => isVersionLanguage(row.language)).map(toVersion);
}

export async function getEventVersion(
  eventId: string,
  language: VersionLanguage,
  db: Db = getDb(),
): Promise<EventVersion | undefined> {
  const row = await db
    .selectFrom('event_translations')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('language', '=', language)
    .executeTakeFirst();
  return row ? toVersion(row) : undefined;
}

/**
 * Saves a version (as a draft, or published), or unpublishes it, in one transaction with its audit
 * entry. `expectedVersion`: the version the form was opened at (undefined for a form that opened on no
 * version); a different stored one is a 409 and changes nothing. The description is cleaned as the
 * event's is, and must keep some words.
 */
export async function saveEventVersion(options: {
  actor: StaffUser;
  eventId: string;
  language: string;
  intent: VersionIntent;
  input?: EventVersionInput | undefined;
  expectedVersion: number | undefined;
  ip: string;
  db?: Db;
}): Promise<EventVersion> {
  const { actor, eventId, language, intent, input, expectedVersion, ip, db = getDb() } = options;
  if (!can(actor.role, 'events:publish')) throw new EventRuleError(EVENT_VERSION_MESSAGES.forbidden, 403);
  if (!isVersionLanguage(language)) throw new EventRuleError(EVENT_VERSION_MESSAGES.unknownLanguage, 404);
  const event = await getEventForAdmin(eventId, db);
  if (!event) throw new EventRuleError(EVENT_TEXT.notFound, 404);
  if (event.status === 'cancelled') throw new EventRuleError(EVENT_TEXT.alreadyCancelled, 400);
  let words:
    Omit<Selectable<EventTranslationTable>, 'event_id' | 'language' | 'version' | 'created_at' | 'published_at'> | undefined;
  const now = nowIso();
  if (intent !== 'unpublish') {
    if (!input) throw new EventRuleError(EVENT_TEXT.fixErrors, 400);
    const description = sanitizeArticleHtml(input.description);
    if (!htmlToText(description).trim()) throw new EventRuleError(EVENT_TEXT.descriptionRequired, 400, 'description');
    words = {
      title: input.title,
      summary: input.summary,
      description,
      place: input.place,
      image_alt: input.imageAlt,
      status: intent === 'publish' ? 'published' : 'draft',
      updated_by: actor.email,
      updated_at: now,
    };
  }
  const saved = await db.transaction().execute(async (trx) => {
    // The row is locked (PostgreSQL) or the database written (SQLite) before it is compared.
    await trx
      .updateTable('event_translations')
      .set((eb) => ({ version: eb.ref('version') }))
      .where('event_id', '=', eventId)
      .where('language', '=', language)
      .execute();
    const current = await getEventVersion(eventId, language, trx);
    if ((current?.version ?? 0) !== (expectedVersion ?? 0)) throw new EventRuleError(EVENT_VERSION_MESSAGES.conflict, 409);
    if (intent === 'unpublish') {
      if (!current) throw new EventRuleError(EVENT_VERSION_MESSAGES.noVersion, 400);
      await trx
        .updateTable('event_translations')
        .set({ status: 'draft', version: current.version + 1, updated_by: actor.email, updated_at: now })
        .where('event_id', '=', eventId)
        .where('language', '=', language)
        .execute();
    } else if (current) {
      await trx
        .updateTable('event_translations')
        .set({ ...words!, version: current.version + 1, ...(intent === 'publish' ? { published_at: now } : {}) })
        .where('event_id', '=', eventId)
        .where('language', '=', language)
        .execute();
    } else {
      // Two first saves at once: the one that inserts second finds the row there, as a stale form would.
      const inserted = await trx
        .insertInto('event_translations')
        .values({
          event_id: eventId,
          language,
          ...words!,
          version: 1,
          created_at: now,
          published_at: intent === 'publish' ? now : null,
        })
        .onConflict((oc) => oc.columns(['event_id', 'language']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) throw new EventRuleError(EVENT_VERSION_MESSAGES.conflict, 409);
    }
    const action =
      intent === 'publish'
        ? 'event.version_published'
        : intent === 'unpublish'
          ? 'event.version_unpublished'
          : 'event.version_saved';
    await recordAudit({ actor: actor.email, action, target: eventId, ip, detail: { language, title: event.title } }, trx);
    return { before: current, after: (await getEventVersion(eventId, language, trx))! };
  });
  // What visitors see changes when a published version is written or taken down.
  if (saved.after.status === 'published' || saved.before?.status === 'published') publicContentChanged();
  return saved.after;
}

/** The published versions of these events, in `language` or in every language, each with its event's id. */
async function publishedVersions(ids: string[], db: Db, language?: VersionLanguage): Promise<[string, EventVersion][]> {
  if (ids.length === 0) return [];
  let query = db.selectFrom('event_translations').selectAll().where('event_id', 'in', ids).where('status', '=', 'published');
  if (language) query = query.where('language', '=', language);
  const rows = await query.execute();
  return rows.filter((row) => isVersionLanguage(row.language)).map((row) => [row.event_id, toVersion(row)]);
}

/** An event in a version's words: its place and picture description where the version gives them. */
export function eventInVersion<T extends PublicEvent>(event: T, version: EventVersion | undefined, language: string): T {
  if (language === 'en') return event;
  if (!version) return { ...event, textLanguage: 'en' };
  return {
    ...event,
    title: version.title,
    summary: version.summary,
    description: version.description,
    place: version.place || event.place,
    imageAlt: version.imageAlt || event.imageAlt,
    textLanguage: language,
    // The event as read in the version changed when either did (its calendar file's SEQUENCE).
    updatedAt: version.updatedAt > event.updatedAt ? version.updatedAt : event.updatedAt,
  };
}

/**
 * Events in a page's language: each with a published version in it shows that version's words; the
 * others keep their English words, marked `textLanguage: 'en'` so the page says so.
 */
export async function eventsInLanguage<T extends PublicEvent>(events: T[], language: string, db: Db = getDb()): Promise<T[]> {
  if (language === 'en' || events.length === 0) return events;
  const versions = new Map(
    isVersionLanguage(language)
      ? await publishedVersions(
          events.map((event) => event.id),
          db,
          language,
        )
      : [],
  );
  return events.map((event) => eventInVersion(event, versions.get(event.id), language));
}

/** One event in each language its registrants read (their mails): the published versions, else English. */
export async function eventForLanguages<T extends PublicEvent>(event: T, db: Db = getDb()): Promise<(language: string) => T> {
  const versions = new Map<string, EventVersion>(
    (await publishedVersions([event.id], db)).map(([, version]) => [version.language, version]),
  );
  return (language) => {
    if (language === 'en') return event;
    const version = versions.get(language);
    // A mail is in one language: without a version, the event's English words, unmarked.
    return version ? eventInVersion(event, version, language) : event;
  };
}
