import type { Kysely, Selectable } from 'kysely';
import { EVENT_TEXT, type AdminEvent, type EventErrors, type EventFormValues, type PublicEvent } from '../../lib/events.ts';
import { can } from '../../lib/permissions.ts';
import { zonedToUtc } from '../../lib/schedule.ts';
import type { Database, EventTable } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import { newId, nowIso } from '../platform/ids.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { publicContentChanged } from '../platform/public-changes.server.ts';
import { RuleError } from '../platform/rule-error.server.ts';
import { sanitizeArticleHtml } from '../platform/sanitize.server.ts';
import { htmlToText } from '../platform/html.server.ts';
import { readSiteSettings } from '../site/site-settings.server.ts';
import { timeZoneOr } from '../../lib/schedule.ts';
import { removeImageIfUnused } from '../media/media.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';

// Issue 27, part 2: events as staff write them and the public pages read them
// (docs/decisions/028-events.md). Drafts follow the content rules: a role that may only draft
// (AUTHOR) adds drafts and edits its own until they are published; EDITOR and above edit any event
// and publish. Every write is audited.

/** A refusal of an event rule: 400 bad input, 403 not allowed, 404 no such event. */
export class EventRuleError extends RuleError {}

type Db = Kysely<Database>;

function toEvent(row: Selectable<EventTable>, waiting = 0): AdminEvent {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    summary: row.summary,
    description: row.description,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    place: row.place,
    onlineUrl: row.online_url,
    capacity: Number(row.capacity),
    taken: Number(row.taken),
    confirmed: Number(row.taken),
    waiting,
    signLanguage: Number(row.sign_language) === 1,
    captioning: Number(row.captioning) === 1,
    stepFree: Number(row.step_free) === 1,
    imageUrl: row.image_url,
    imageAlt: row.image_alt ?? '',
    registrationOpen: Number(row.registration_open) === 1,
    registrationDeadline: row.registration_deadline,
    status: row.status,
    updatedAt: row.updated_at,
    demo: Number(row.demo) === 1,
    authorEmail: row.author_email,
  };
}

/** The organisation's time zone (Site settings), in which events are entered and shown. */
export async function readEventTimeZone(db: Db = getDb()): Promise<string> {
  try {
    const { values } = await readSiteSettings(['timeZone'], db);
    return timeZoneOr(values.timeZone);
  } catch {
    return timeZoneOr(undefined);
  }
}

async function waitingCounts(db: Db, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('event_registrations')
    .select(['event_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('event_id', 'in', ids)
    .where('status', '=', 'waiting')
    .groupBy('event_id')
    .execute();
  return new Map(rows.map((row) => [row.event_id, Number(row.n)]));
}

async function withWaiting(db: Db, rows: Selectable<EventTable>[]): Promise<AdminEvent[]> {
  const counts = await waitingCounts(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toEvent(row, counts.get(row.id) ?? 0));
}

/**
 * The public list: published and cancelled events that have not ended (soonest first), or those
 * that have (most recent first), at most `limit`.
 */
export async function listPublicEvents(
  options: { past?: boolean; limit?: number; now?: number } = {},
  db: Db = getDb(),
): Promise<PublicEvent[]> {
  const at = new Date(options.now ?? Date.now()).toISOString();
  let query = db.selectFrom('events').selectAll().where('status', 'in', ['published', 'cancelled']);
  query = options.past
    ? query.where('ends_at', '<=', at).orderBy('starts_at', 'desc')
    : query.where('ends_at', '>', at).orderBy('starts_at', 'asc');
  const rows = await query
    .orderBy('id')
    .limit(options.limit ?? 50)
    .execute();
  return withWaiting(db, rows);
}

/** The next events for the home page: published, not yet ended, not cancelled. */
export async function listNextEvents(limit = 3, db: Db = getDb()): Promise<PublicEvent[]> {
  try {
    const rows = await db
      .selectFrom('events')
      .selectAll()
      .where('status', '=', 'published')
      .where('ends_at', '>', nowIso())
      .orderBy('starts_at', 'asc')
      .orderBy('id')
      .limit(limit)
      .execute();
    return await withWaiting(db, rows);
  } catch (error) {
    getLogger().error({ err: error }, 'the next events could not be read');
    return [];
  }
}

const SLUG = /^[a-z0-9-]{1,80}$/;

/** A published or cancelled event by its address; undefined for a draft or none. */
export async function getPublicEvent(slug: string, db: Db = getDb()): Promise<PublicEvent | undefined> {
  if (!SLUG.test(slug)) return undefined;
  const row = await db
    .selectFrom('events')
    .selectAll()
    .where('slug', '=', slug)
    .where('status', 'in', ['published', 'cancelled'])
    .executeTakeFirst();
  return row ? (await withWaiting(db, [row]))[0] : undefined;
}

export async function listEventsForAdmin(db: Db = getDb()): Promise<AdminEvent[]> {
  const rows = await db.selectFrom('events').selectAll().orderBy('starts_at', 'desc').orderBy('id').limit(500).execute();
  return withWaiting(db, rows);
}

export async function getEventForAdmin(id: string, db: Db = getDb()): Promise<AdminEvent | undefined> {
  if (id.length > 100) return undefined;
  const row = await db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? (await withWaiting(db, [row]))[0] : undefined;
}

/** spec §6 with issue 27: whether `actor` may edit `event` (its words and times). */
export function mayEditEvent(
  actor: Pick<StaffUser, 'role' | 'email'>,
  event: Pick<AdminEvent, 'status' | 'authorEmail'>,
): boolean {
  if (event.status === 'cancelled') return false;
  if (can(actor.role, 'events:publish')) return true;
  return can(actor.role, 'events:draft') && event.status === 'draft' && event.authorEmail === actor.email;
}

// ---------------------------------------------------------------------------------------------

const SLUG_MAX = 60;

/** A title as an address: lower-case letters and digits joined by single hyphens. */
export function eventSlug(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > SLUG_MAX) break;
    slug = next;
  }
  return slug || words[0]?.slice(0, SLUG_MAX) || 'event';
}

async function freeSlug(db: Db, title: string, startsAt: string): Promise<string> {
  const base = `${eventSlug(title)}-${startsAt.slice(0, 10)}`;
  const rows = await db
    .selectFrom('events')
    .select('slug')
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
    .execute();
  const taken = new Set(rows.map((row) => row.slug));
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  return slug;
}

/** The checked form turned into columns; field errors for what only makes sense together. */
export function eventColumns(
  input: EventFormValues,
  timeZone: string,
): { ok: true; columns: ReturnType<typeof columnsOf> } | { ok: false; errors: EventErrors } {
  const errors: EventErrors = {};
  const startsAt = zonedToUtc(input.startDate, input.startTime, timeZone);
  const endsAt = zonedToUtc(input.endDate, input.endTime, timeZone);
  if (!startsAt) errors.startDate = EVENT_TEXT.startInvalid;
  if (!endsAt) errors.endDate = EVENT_TEXT.endInvalid;
  if (startsAt && endsAt && endsAt <= startsAt) errors.endDate = EVENT_TEXT.endBeforeStart;
  if (!input.place && !input.onlineUrl) errors.place = EVENT_TEXT.placeRequired;
  let deadline: string | null = null;
  if (input.deadlineDate || input.deadlineTime) {
    const at =
      input.deadlineDate && input.deadlineTime ? zonedToUtc(input.deadlineDate, input.deadlineTime, timeZone) : undefined;
    if (!at) errors.deadlineDate = EVENT_TEXT.deadlineInvalid;
    else if (startsAt && at > startsAt) errors.deadlineDate = EVENT_TEXT.deadlineAfterStart;
    else deadline = at;
  }
  const description = sanitizeArticleHtml(input.description);
  if (!htmlToText(description).trim()) errors.description = EVENT_TEXT.descriptionRequired;
  if (input.imageUrl && !input.imageAlt) errors.imageAlt = EVENT_TEXT.altRequired;
  if (Object.keys(errors).length > 0 || !startsAt || !endsAt) return { ok: false, errors };
  return { ok: true, columns: columnsOf(input, description, startsAt, endsAt, deadline) };
}

function columnsOf(input: EventFormValues, description: string, startsAt: string, endsAt: string, deadline: string | null) {
  return {
    title: input.title,
    summary: input.summary,
    description,
    starts_at: startsAt,
    ends_at: endsAt,
    place: input.place,
    online_url: input.onlineUrl,
    capacity: input.capacity,
    sign_language: input.signLanguage ? 1 : 0,
    captioning: input.captioning ? 1 : 0,
    step_free: input.stepFree ? 1 : 0,
    image_url: input.imageUrl || null,
    image_alt: input.imageUrl ? input.imageAlt : null,
    registration_open: input.registrationOpen ? 1 : 0,
    registration_deadline: deadline,
  };
}

export type EventColumns = ReturnType<typeof columnsOf>;

/** Adds an event: a draft, or published at once for a role that may publish. */
export async function createEvent(
  actor: StaffUser,
  columns: EventColumns,
  intent: 'draft' | 'publish',
  ip: string,
  db: Db = getDb(),
): Promise<AdminEvent> {
  if (!can(actor.role, 'events:draft')) throw new EventRuleError(EVENT_TEXT.forbidden, 403);
  if (intent === 'publish' && !can(actor.role, 'events:publish')) throw new EventRuleError(EVENT_TEXT.publishForbidden, 403);
  const id = newId();
  const now = nowIso();
  for (let attempt = 0; ; attempt++) {
    const slug = await freeSlug(db, columns.title, columns.starts_at);
    const result = await db
      .insertInto('events')
      .values({
        id,
        slug,
        ...columns,
        status: intent === 'publish' ? 'published' : 'draft',
        author_email: actor.email,
        created_at: now,
        updated_at: now,
        updated_by: actor.email,
      })
      .onConflict((oc) => oc.column('slug').doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) break;
    if (attempt >= 4) throw new Error('no free address for a new event');
  }
  await recordAudit(
    {
      actor: actor.email,
      action: intent === 'publish' ? 'event.published' : 'event.draft_saved',
      target: id,
      ip,
      detail: { title: columns.title },
    },
    db,
  );
  if (intent === 'publish') publicContentChanged();
  return (await getEventForAdmin(id, db))!;
}

/**
 * Changes an event's words and times. Places may grow (the waiting list moves up: `fillPlaces`,
 * called by the caller after this save) but never fall below the places already taken. A published
 * event is never turned back into a draft.
 */
export async function updateEvent(
  actor: StaffUser,
  id: string,
  columns: EventColumns,
  intent: 'draft' | 'publish',
  ip: string,
  db: Db = getDb(),
): Promise<AdminEvent> {
  const existing = await getEventForAdmin(id, db);
  if (!existing) throw new EventRuleError(EVENT_TEXT.notFound, 404);
  if (existing.status === 'cancelled') throw new EventRuleError(EVENT_TEXT.alreadyCancelled, 400);
  if (!mayEditEvent(actor, existing)) throw new EventRuleError(EVENT_TEXT.editForbidden, 403);
  const publishing = intent === 'publish' || existing.status === 'published';
  if (publishing && !can(actor.role, 'events:publish')) throw new EventRuleError(EVENT_TEXT.publishForbidden, 403);
  // Conditional on the places taken now, so a registration arriving meanwhile is never pushed out.
  const result = await db
    .updateTable('events')
    .set({ ...columns, status: publishing ? 'published' : 'draft', updated_at: nowIso(), updated_by: actor.email })
    .where('id', '=', id)
    .where('taken', '<=', columns.capacity)
    .where('status', '!=', 'cancelled')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    const now = await getEventForAdmin(id, db);
    if (now && now.taken > columns.capacity) throw new EventRuleError(EVENT_TEXT.capacityBelowTaken(now.taken), 400, 'capacity');
    throw new EventRuleError(EVENT_TEXT.alreadyCancelled, 400);
  }
  const action = existing.status === 'draft' && publishing ? 'event.published' : 'event.updated';
  await recordAudit({ actor: actor.email, action, target: id, ip, detail: { title: columns.title } }, db);
  if (existing.imageUrl && existing.imageUrl !== columns.image_url) await removeImageIfUnused(existing.imageUrl);
  if (publishing) publicContentChanged();
  return (await getEventForAdmin(id, db))!;
}
