import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { newId, nowIso } from '../platform/ids.server.ts';
import { isStoredImage } from '../media/media.server.ts';
import { MEDIA_URL_PREFIX } from '../media/storage.server.ts';
import {
  AUTOSAVE_FIELDS,
  REVISIONS_KEPT,
  type AutosaveValues,
  type RevisionKind,
  type RevisionSnapshot,
  type RevisionVideo,
} from '../../lib/revisions.ts';

// Issue 13: every save of an item keeps a full snapshot, and each staff member has one autosave slot
// per item (docs/decisions/016-revisions-and-autosave.md). History is never rewritten: a restore is a
// new revision. Revisions and slots go with their item (foreign keys with ON DELETE CASCADE).

export type { RevisionSnapshot };

type Db = Kysely<Database> | Transaction<Database>;

export interface RevisionActor {
  email: string;
  name: string;
}

export interface RevisionInput {
  contentId: string;
  kind: RevisionKind;
  /** null: nobody pressed a button (the scheduled-publishing job). */
  actor: RevisionActor | null;
  snapshot: RevisionSnapshot;
}

/** One line of an item's history. */
export interface RevisionSummary {
  id: string;
  number: number;
  kind: Exclude<RevisionKind, 'autosave'>;
  actorName: string | null;
  actorEmail: string | null;
  createdAt: string;
}

export interface Revision extends RevisionSummary {
  snapshot: RevisionSnapshot;
}

/** Days a slot nobody came back to is kept; a form left open longer saves it again. */
export const AUTOSAVE_KEPT_DAYS = 30;

/**
 * Stores a snapshot of an item as just saved. Call it inside the save's transaction, after the item's
 * row is written: on PostgreSQL that write holds the row's lock, so two saves of one item number their
 * revisions one after the other. Keeps the newest REVISIONS_KEPT and the first. A save by a person also
 * empties that person's autosave slot for the item (and for a new item of its type, on its first save):
 * what the slot kept is now saved.
 *
 * kind 'autosave' writes the actor's autosave slot instead of a revision.
 */
export async function recordRevision(db: Db, input: RevisionInput): Promise<void> {
  const now = nowIso();
  if (input.kind === 'autosave') {
    if (!input.actor) throw new Error('An autosave belongs to a staff member');
    await writeAutosave(db, input.actor.email, input.contentId, input.contentId, formValuesOf(input.snapshot), now);
    return;
  }
  const last = await db
    .selectFrom('content_revisions')
    .select((eb) => eb.fn.max('number').as('number'))
    .where('content_id', '=', input.contentId)
    .executeTakeFirst();
  const number = Number(last?.number ?? 0) + 1;
  await db
    .insertInto('content_revisions')
    .values({
      id: newId(),
      content_id: input.contentId,
      number,
      kind: input.kind,
      actor_email: input.actor?.email ?? null,
      actor_name: input.actor?.name ?? null,
      snapshot: JSON.stringify(input.snapshot),
      created_at: now,
    })
    .execute();
  // The newest REVISIONS_KEPT, and number 1: the first is never removed, so it is always number 1.
  if (number > REVISIONS_KEPT + 1) {
    await db
      .deleteFrom('content_revisions')
      .where('content_id', '=', input.contentId)
      .where('number', '>', 1)
      .where('number', '<=', number - REVISIONS_KEPT)
      .execute();
  }
  if (input.actor) {
    const slots = [input.contentId];
    if (number === 1) {
      const item = await db.selectFrom('content').select('collection').where('id', '=', input.contentId).executeTakeFirst();
      if (item) slots.push(`new-${item.collection}`);
    }
    await db.deleteFrom('content_autosaves').where('staff_email', '=', input.actor.email).where('slot', 'in', slots).execute();
  }
}

function toSummary(row: {
  id: string;
  number: number;
  kind: string;
  actor_name: string | null;
  actor_email: string | null;
  created_at: string;
}): RevisionSummary {
  return {
    id: row.id,
    number: Number(row.number),
    kind: row.kind as RevisionSummary['kind'],
    actorName: row.actor_name,
    actorEmail: row.actor_email,
    createdAt: row.created_at,
  };
}

/** An item's history, newest first. */
export async function listRevisions(contentId: string, db: Db = getDb()): Promise<RevisionSummary[]> {
  const rows = await db
    .selectFrom('content_revisions')
    .select(['id', 'number', 'kind', 'actor_name', 'actor_email', 'created_at'])
    .where('content_id', '=', contentId)
    .orderBy('number', 'desc')
    .execute();
  return rows.map(toSummary);
}

const REVISION_ID = /^[0-9a-f-]{36}$/;

/** One revision of one item; undefined when the id is not a revision of that item. */
export async function getRevision(contentId: string, revisionId: string, db: Db = getDb()): Promise<Revision | undefined> {
  if (!REVISION_ID.test(revisionId)) return undefined;
  const row = await db
    .selectFrom('content_revisions')
    .selectAll()
    .where('content_id', '=', contentId)
    .where('id', '=', revisionId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { ...toSummary(row), snapshot: parseSnapshot(row.snapshot) };
}

function parseSnapshot(json: string): RevisionSnapshot {
  const value = JSON.parse(json) as Partial<RevisionSnapshot>;
  return {
    title: String(value.title ?? ''),
    category: String(value.category ?? ''),
    tags: Array.isArray(value.tags) ? value.tags.map(String) : [],
    summary: value.summary ?? null,
    imageUrl: value.imageUrl ?? null,
    imageAlt: String(value.imageAlt ?? ''),
    content: String(value.content ?? ''),
    // Absent in revisions saved before easy read existed.
    ...(value.easyRead === undefined ? {} : { easyRead: String(value.easyRead) }),
    status: String(value.status ?? 'published'),
    scheduledAt: value.scheduledAt ?? null,
    ...(value.video === undefined ? {} : { video: parseVideo(value.video) }),
  };
}

function parseVideo(value: unknown): RevisionVideo | null {
  if (!value || typeof value !== 'object') return null;
  const video = value as Partial<RevisionVideo>;
  return {
    id: String(video.id ?? ''),
    name: String(video.name ?? ''),
    durationSeconds: typeof video.durationSeconds === 'number' ? video.durationSeconds : null,
    captions: video.captions === true,
  };
}

/**
 * A revision made ready for the form. An uploaded image removed since (a later save replaced it and
 * nothing else showed it) cannot come back: the form gets no image, and `imageGone` says so.
 */
export async function revisionForRestore(
  contentId: string,
  revisionId: string,
): Promise<{ revision: Revision; values: AutosaveValues; imageGone: boolean } | undefined> {
  const revision = await getRevision(contentId, revisionId);
  if (!revision) return undefined;
  const values = formValuesOf(revision.snapshot);
  const url = revision.snapshot.imageUrl;
  const imageGone = Boolean(url?.startsWith(MEDIA_URL_PREFIX) && !(await isStoredImage(url)));
  if (imageGone) Object.assign(values, { imageUrl: '', imageAlt: '' });
  return { revision, values, imageGone };
}

/** A stored item or a snapshot of one as the form's fields. */
export function formValuesOf(
  snapshot: Pick<RevisionSnapshot, 'title' | 'category' | 'tags' | 'summary' | 'imageUrl' | 'imageAlt' | 'content' | 'easyRead'>,
): AutosaveValues {
  return {
    title: snapshot.title,
    category: snapshot.category,
    tags: snapshot.tags.join(', '),
    summary: snapshot.summary ?? '',
    imageUrl: snapshot.imageUrl ?? '',
    imageAlt: snapshot.imageAlt,
    content: snapshot.content,
    easyRead: snapshot.easyRead ?? '',
  };
}

// ---- The autosave slot: one row per staff member and item (or new item of a type), overwritten.

export interface AutosaveSlot {
  values: AutosaveValues;
  savedAt: string;
}

async function writeAutosave(
  db: Db,
  staffEmail: string,
  slot: string,
  contentId: string | null,
  values: AutosaveValues,
  now: string,
): Promise<void> {
  const json = JSON.stringify(values);
  await db
    .insertInto('content_autosaves')
    .values({ staff_email: staffEmail, slot, content_id: contentId, form_values: json, saved_at: now })
    .onConflict((oc) => oc.columns(['staff_email', 'slot']).doUpdateSet({ form_values: json, saved_at: now }))
    .execute();
}

/**
 * Removes slots nobody came back to for a month: whoever left them has long since typed it again or
 * let it go. Run by the editorial job (scheduled-publishing.server.ts), not on every autosave.
 */
export async function pruneStaleAutosaves(db: Db = getDb(), now = Date.now()): Promise<void> {
  const stale = new Date(now - AUTOSAVE_KEPT_DAYS * 86_400_000).toISOString();
  await db.deleteFrom('content_autosaves').where('saved_at', '<', stale).execute();
}

/** Keeps a staff member's unsaved form: `contentId` for an existing item, null for a new one of `slot`. */
export async function saveAutosave(
  staffEmail: string,
  target: { contentId: string } | { newType: string },
  values: AutosaveValues,
  db: Db = getDb(),
): Promise<string> {
  const now = nowIso();
  const slot = 'contentId' in target ? target.contentId : `new-${target.newType}`;
  await writeAutosave(db, staffEmail, slot, 'contentId' in target ? target.contentId : null, values, now);
  return now;
}

export async function getAutosave(staffEmail: string, slot: string, db: Db = getDb()): Promise<AutosaveSlot | undefined> {
  const row = await db
    .selectFrom('content_autosaves')
    .select(['form_values', 'saved_at'])
    .where('staff_email', '=', staffEmail)
    .where('slot', '=', slot)
    .executeTakeFirst();
  if (!row) return undefined;
  const parsed = JSON.parse(row.form_values) as Partial<Record<string, unknown>>;
  const values = Object.fromEntries(AUTOSAVE_FIELDS.map((f) => [f, String(parsed[f] ?? '')])) as unknown as AutosaveValues;
  return { values, savedAt: row.saved_at };
}

export async function discardAutosave(staffEmail: string, slot: string, db: Db = getDb()): Promise<void> {
  await db.deleteFrom('content_autosaves').where('staff_email', '=', staffEmail).where('slot', '=', slot).execute();
}
