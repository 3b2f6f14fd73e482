import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { ContentTable, Database } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { newContentId, nowIso } from '../platform/ids.server.ts';
import { HTML_BUDGET_MESSAGE, takeHtmlBudget } from '../platform/html-budget.server.ts';
import { storedBody } from '../platform/sanitize.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import { removeImageIfUnused } from '../media/media.server.ts';
import {
  claimVideo,
  removeVideoIfUnused,
  revisionVideoOf,
  stageVideoWrite,
  videoHasCaptions,
  type PreparedVideo,
} from '../media/video.server.ts';
import { parseList } from './content.server.ts';
import { getRevision, recordRevision, type RevisionSnapshot } from './revisions.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import { RuleError } from '../platform/rule-error.server.ts';
import { can, type Permission } from '../../lib/permissions.ts';
import type { AuditAction } from '../../lib/audit.ts';
import { CONTENT_MESSAGES, type ContentInput, type ContentStatus, type ContentType } from '../../lib/content-form.ts';
import { COLLECTION_INFO, DASHBOARD_COLLECTIONS } from '../../lib/collections.ts';
import { CAPTIONS_MESSAGES, captionsMissing } from '../../lib/webvtt.ts';

// The dashboard's writes to news and blogs (spec §3, §4, §7), with spec §6's rules enforced here, and
// issue 13's states: drafts, scheduled items and published ones (docs/decisions/015-editorial-states.md).

type Db = Kysely<Database> | Transaction<Database>;

/** A refusal of a content rule (spec §6): a RuleError with 400, 403, 404 or 409 (issue 26: a second version in a language). */
export class ContentRuleError extends RuleError {
  declare readonly status: 400 | 403 | 404 | 409 | 429;
  constructor(message: string, status: 400 | 403 | 404 | 409 | 429, field?: string) {
    super(message, status, field);
  }
}

/** Issue 13: the item was saved by someone else after the form was opened at `expected`. */
export class ContentConflictError extends RuleError {
  declare readonly status: 409;
  readonly current: AdminContentItem;
  /** Who saved it last: their name, or "Scheduled publishing" for the job. */
  readonly by: string;
  constructor(current: AdminContentItem, by: string) {
    super('This item was changed by someone else after you opened it.', 409);
    this.current = current;
    this.by = by;
  }
}

export interface AdminContentItem {
  id: string;
  type: ContentType;
  title: string;
  author: string;
  authorEmail: string | null;
  category: string;
  tags: string[];
  summary: string | null;
  imageUrl: string | null;
  imageAlt: string;
  content: string;
  /** Issue 26: the easy-read text ('' for none). */
  easyRead: string;
  status: ContentStatus;
  /** When a scheduled item goes public (UTC); null otherwise. */
  scheduledAt: string | null;
  /** Counts saves; the form sends back the one it was opened at. */
  version: number;
  updatedBy: string | null;
  /** Issue 14: its sign-language video, or null. */
  videoId: string | null;
  createdAt: string;
  publishedAt: string;
  updatedAt: string;
  /** Issue 26: 'en', or the language of a version of `translationOf` (docs/decisions/031-translated-content.md). */
  language: string;
  translationOf: string | null;
}

function toItem(row: Selectable<ContentTable>): AdminContentItem {
  return {
    id: row.id,
    type: row.collection === 'news' ? 'news' : 'blogs',
    title: row.title,
    author: row.author,
    authorEmail: row.author_email,
    category: row.category,
    tags: parseList(row.tags),
    summary: row[COLLECTION_INFO[row.collection].summaryColumn] ?? null,
    imageUrl: row.image_url,
    imageAlt: row.image_alt ?? '',
    content: row.content,
    easyRead: row.easy_read ?? '',
    status: row.status,
    scheduledAt: row.scheduled_at,
    version: Number(row.version),
    updatedBy: row.updated_by,
    videoId: row.video_id,
    createdAt: row.created_at,
    publishedAt: row.published_at,
    updatedAt: row.updated_at,
    language: row.language,
    translationOf: row.translation_of,
  };
}

/**
 * spec §7: the newest items of a type, createdAt descending, at most `limit`. Beyond the spec, `q`
 * searches titles, `status` keeps one state (issue 13); `next` says whether there are more (for Load more).
 */
export async function listContentForAdmin(options: {
  type: ContentType;
  limit: number;
  q?: string | undefined;
  /** One state, or 'unpublished' for drafts and scheduled items together. */
  status?: ContentStatus | 'unpublished' | undefined;
  /** Only this author's items (an AUTHOR's own drafts). */
  authorEmail?: string | undefined;
}) {
  let query = getDb().selectFrom('content').selectAll().where('collection', '=', options.type);
  const q = options.q?.trim().slice(0, 100);
  if (q) {
    const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where(sql<boolean>`lower(title) like ${pattern} escape '\\'`);
  }
  if (options.status === 'unpublished') query = query.where('status', '!=', 'published');
  else if (options.status) query = query.where('status', '=', options.status);
  if (options.authorEmail) query = query.where('author_email', '=', options.authorEmail);
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit + 1)
    .execute();
  const items = rows.slice(0, options.limit).map(toItem);
  const last = items[items.length - 1];
  return { items, next: rows.length > options.limit && last ? last.id : null };
}

export async function getContentForAdmin(id: string, db: Db = getDb()): Promise<AdminContentItem | undefined> {
  if (!/^[A-Za-z0-9_-]{1,120}$/.test(id)) return undefined;
  const row = await db
    .selectFrom('content')
    .selectAll()
    .where('id', '=', id)
    .where('collection', 'in', DASHBOARD_COLLECTIONS)
    .executeTakeFirst();
  return row ? toItem(row) : undefined;
}

/**
 * spec §6 with issue 13: EDITOR and above edit any item; a role that may only create (AUTHOR) edits,
 * schedules and publishes its own items until they are published. A published item is edited by
 * EDITOR and above only.
 */
export function mayEditContent(
  actor: Pick<StaffUser, 'role' | 'email'>,
  item: Pick<AdminContentItem, 'status' | 'authorEmail'>,
): boolean {
  if (can(actor.role, 'content:edit')) return true;
  return (
    can(actor.role, 'content:create') &&
    item.status !== 'published' &&
    !!item.authorEmail &&
    item.authorEmail.toLowerCase() === actor.email.toLowerCase()
  );
}

/** The body is cleaned as it is stored (fields below): refused when its author has sent too much of late. */
function takeCleaningTime(actor: StaffUser, input: ContentInput): void {
  if (!takeHtmlBudget(actor.email, Buffer.byteLength(input.content), 'save').ok)
    throw new ContentRuleError(HTML_BUDGET_MESSAGE, 429);
}

function fields(type: ContentType, input: ContentInput) {
  return {
    title: input.title,
    category: input.category,
    tags: JSON.stringify(input.tags),
    summary: COLLECTION_INFO[type].summaryColumn === 'summary' ? input.summary : null,
    excerpt: COLLECTION_INFO[type].summaryColumn === 'excerpt' ? input.summary : null,
    // Sanitised here, once: pages show the stored body as it is (decision 202).
    ...storedBody(input.content),
    image_url: input.imageUrl || null,
    image_alt: input.imageUrl ? input.imageAlt : null,
    easy_read: input.easyRead || null,
  };
}

/** The item as a revision keeps it (app/server/content/revisions.server.ts), with a description of its video. */
export async function snapshotOf(db: Db, item: AdminContentItem): Promise<RevisionSnapshot> {
  return {
    title: item.title,
    category: item.category,
    tags: item.tags,
    summary: item.summary,
    imageUrl: item.imageUrl,
    imageAlt: item.imageAlt,
    content: item.content,
    easyRead: item.easyRead,
    status: item.status,
    scheduledAt: item.scheduledAt,
    video: await revisionVideoOf(item.videoId, db),
  };
}

/** Issue 14: what a save does to the item's video: keep it (undefined), set another, or remove it (null). */
export interface VideoChange {
  videoId?: string | null | undefined;
  /** The captions and transcript posted for that video, checked (prepareVideoForSave): written by the save. */
  prepared?: PreparedVideo | undefined;
}

/**
 * Issue 14 (WCAG 1.2.2): an item with a video goes public, or is scheduled to, only with captions.
 * Drafts may wait for them.
 */
async function assertCaptioned(db: Db, videoId: string | null, request: SaveRequest): Promise<void> {
  const goesPublic = request.intent !== 'draft';
  const hasCaptions = !!videoId && goesPublic && (await videoHasCaptions(videoId, db));
  if (captionsMissing({ videoId, goesPublic, hasCaptions }))
    throw new ContentRuleError(CAPTIONS_MESSAGES.required, 400, 'captions');
}

/** An item as a save left it, and what the save was (its audit action). */
export type SavedContent = AdminContentItem & { action: Extract<AuditAction, `content.${string}`> };

/** What a save asks for: publish (or update), keep as a draft, or schedule for `scheduledAt` (UTC). */
export type SaveRequest = { intent: 'publish' } | { intent: 'draft' } | { intent: 'schedule'; scheduledAt: string };

/** The new item's state, dates and audit action for a request on a new item. */
function stateOnCreate(request: SaveRequest, now: string) {
  if (request.intent === 'draft')
    // A draft's published_at is a placeholder (the column is required): it is set when it goes public.
    return { status: 'draft', scheduled_at: null, published_at: now, action: 'content.draft_saved', kind: 'draft' } as const;
  if (request.intent === 'schedule')
    return {
      status: 'scheduled',
      scheduled_at: request.scheduledAt,
      published_at: request.scheduledAt,
      action: 'content.scheduled',
      kind: 'scheduled',
    } as const;
  return { status: 'published', scheduled_at: null, published_at: now, action: 'content.published', kind: 'published' } as const;
}

/**
 * spec §4: Publish creates the item, published at once, under the author of the session. Issue 13
 * adds Save draft and Schedule, which create it unpublished.
 */
export async function createContent(
  actor: StaffUser,
  type: ContentType,
  input: ContentInput,
  ip: string,
  request: SaveRequest = { intent: 'publish' },
  video: VideoChange = {},
): Promise<SavedContent> {
  if (!can(actor.role, 'content:create')) throw new ContentRuleError(CONTENT_MESSAGES.forbidden, 403);
  if (request.intent === 'schedule') assertFuture(request.scheduledAt);
  takeCleaningTime(actor, input);
  const now = nowIso();
  const id = newContentId(input.title);
  const state = stateOnCreate(request, now);
  const videoWrite = await stageVideoWrite(video.prepared);
  return getDb()
    .transaction()
    .execute(async (trx) => {
      await videoWrite.write(trx);
      await assertCaptioned(trx, video.videoId ?? null, request);
      if (video.videoId) await claimVideo(trx, video.videoId, { table: 'content', id });
      await trx
        .insertInto('content')
        .values({
          id,
          collection: type,
          ...fields(type, input),
          author: actor.name,
          author_email: actor.email,
          author_role: actor.role,
          status: state.status,
          scheduled_at: state.scheduled_at,
          version: 1,
          video_id: video.videoId ?? null,
          updated_by: actor.email,
          created_at: now,
          published_at: state.published_at,
          updated_at: now,
        })
        .execute();
      const item = (await getContentForAdmin(id, trx))!;
      await recordRevision(trx, {
        contentId: id,
        kind: state.kind,
        actor: revisionActor(actor),
        snapshot: await snapshotOf(trx, item),
      });
      await auditContent(trx, actor, state.action, item, ip, state.scheduled_at ? { scheduledAt: state.scheduled_at } : {});
      return { ...item, action: state.action };
    })
    .finally(videoWrite.finish);
}

/** spec §4: Publish creates the item, published at once (the spec's one action, kept for its callers). */
export function publishContent(actor: StaffUser, type: ContentType, input: ContentInput, ip: string): Promise<SavedContent> {
  return createContent(actor, type, input, ip, { intent: 'publish' });
}

/** The stored item `actor` means to change: refused with 403 without `permission`, 404 when there is none. */
async function contentToChange(
  actor: StaffUser,
  permission: Permission,
  id: string,
  db: Db = getDb(),
): Promise<AdminContentItem> {
  if (!can(actor.role, permission)) throw new ContentRuleError(CONTENT_MESSAGES.forbidden, 403);
  const existing = await getContentForAdmin(id, db);
  if (!existing) throw new ContentRuleError(CONTENT_MESSAGES.notFound, 404);
  return existing;
}

/** spec §6: every change to content is in the audit trail, with the item's type and title. */
export function auditContent(
  db: Db,
  actor: StaffUser | null,
  action: Extract<AuditAction, `content.${string}`>,
  item: { id: string; type: ContentType; title: string },
  ip: string | null,
  extra: Record<string, unknown> = {},
): Promise<void> {
  return recordAudit(
    { actor: actor?.email ?? null, action, target: item.id, ip, detail: { type: item.type, title: item.title, ...extra } },
    db as Kysely<Database>,
  );
}

export const revisionActor = (actor: StaffUser) => ({ email: actor.email, name: actor.name });

/** A schedule must lie ahead: one in the past would publish at once, which Publish is for. */
function assertFuture(scheduledAt: string): void {
  if (!(Date.parse(scheduledAt) > Date.now())) throw new ContentRuleError(CONTENT_MESSAGES.schedulePast, 400, 'scheduleAt');
}

/** The state, dates, audit action and revision kind a request moves an existing item to. */
function transition(existing: AdminContentItem, request: SaveRequest, now: string) {
  const wasPublished = existing.status === 'published';
  if (request.intent === 'publish') {
    // spec §3: an update keeps createdAt and publishedAt. A draft or scheduled item going public takes
    // the moment it does as both, so the lists (newest first by createdAt) show it as new.
    if (wasPublished) return { set: {}, action: 'content.updated', kind: 'updated' } as const;
    return {
      set: { status: 'published', scheduled_at: null, created_at: now, published_at: now },
      action: 'content.published',
      kind: 'published',
    } as const;
  }
  // spec §4: a published item is never unpublished.
  if (wasPublished) throw new ContentRuleError(CONTENT_MESSAGES.neverUnpublished, 400);
  if (request.intent === 'draft')
    return {
      set: { status: 'draft', scheduled_at: null, published_at: existing.createdAt },
      action: existing.status === 'scheduled' ? 'content.unscheduled' : 'content.draft_saved',
      kind: 'draft',
    } as const;
  const rescheduled = existing.status === 'scheduled' && existing.scheduledAt !== request.scheduledAt;
  return {
    set: { status: 'scheduled', scheduled_at: request.scheduledAt, published_at: request.scheduledAt },
    action: rescheduled ? 'content.rescheduled' : 'content.scheduled',
    kind: 'scheduled',
  } as const;
}

/** The name of whoever saved `item` last, for a 409: a staff member's name, or the job's. */
async function lastSavedBy(item: AdminContentItem, db: Db): Promise<string> {
  if (!item.updatedBy) return item.status === 'published' ? 'Scheduled publishing' : 'Someone';
  const user = await db.selectFrom('system_users').select('name').where('email', '=', item.updatedBy).executeTakeFirst();
  return user?.name ?? item.updatedBy;
}

/**
 * Saves a change to an existing item (spec §3: an edit keeps createdAt, publishedAt and the original
 * author; updatedAt changes) and, with issue 13, moves it between states. `expectedVersion` is the
 * version the form was opened at: a newer stored one is a 409 (ContentConflictError), never a silent
 * overwrite. The write is one conditional UPDATE on the version read, so a save racing another (or
 * the scheduled-publishing job) cannot overwrite it either.
 */
export async function saveContent(
  actor: StaffUser,
  id: string,
  input: ContentInput,
  ip: string,
  request: SaveRequest = { intent: 'publish' },
  expectedVersion?: number,
  restoredFrom?: string,
  video: VideoChange = {},
): Promise<SavedContent> {
  if (!can(actor.role, 'content:create') && !can(actor.role, 'content:edit'))
    throw new ContentRuleError(CONTENT_MESSAGES.forbidden, 403);
  takeCleaningTime(actor, input);
  const videoWrite = await stageVideoWrite(video.prepared);
  const { item, previousImage, previousVideo } = await getDb()
    .transaction()
    .execute(async (trx) => {
      const existing = await getContentForAdmin(id, trx);
      if (!existing) throw new ContentRuleError(CONTENT_MESSAGES.notFound, 404);
      if (!mayEditContent(actor, existing)) throw new ContentRuleError(CONTENT_MESSAGES.forbidden, 403);
      if (expectedVersion !== undefined && expectedVersion !== existing.version)
        throw new ContentConflictError(existing, await lastSavedBy(existing, trx));
      const now = nowIso();
      const change = transition(existing, request, now);
      if (request.intent === 'schedule' && !(existing.status === 'scheduled' && existing.scheduledAt === request.scheduledAt))
        assertFuture(request.scheduledAt);
      const videoId = video.videoId === undefined ? existing.videoId : video.videoId;
      // The captions and transcript posted are written only now, once nothing above refused the save.
      await videoWrite.write(trx);
      await assertCaptioned(trx, videoId, request);
      if (videoId && videoId !== existing.videoId) await claimVideo(trx, videoId, { table: 'content', id });
      const result = await trx
        .updateTable('content')
        .set({
          ...fields(existing.type, input),
          ...change.set,
          video_id: videoId,
          version: existing.version + 1,
          updated_by: actor.email,
          updated_at: now,
        })
        .where('id', '=', id)
        .where('version', '=', existing.version)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) {
        const current = (await getContentForAdmin(id, trx))!;
        throw new ContentConflictError(current, await lastSavedBy(current, trx));
      }
      const saved = (await getContentForAdmin(id, trx))!;
      // A save of a form filled from a revision is a restore: its own revision kind, and in the audit
      // log the revision it came from (a change of state keeps its own action).
      const restored = restoredFrom ? await getRevision(id, restoredFrom, trx) : undefined;
      const kind = restored ? 'restored' : change.kind;
      const action: SavedContent['action'] = restored && change.action === 'content.updated' ? 'content.restored' : change.action;
      await recordRevision(trx, { contentId: id, kind, actor: revisionActor(actor), snapshot: await snapshotOf(trx, saved) });
      const detail: Record<string, unknown> = {};
      if (restored) detail.restoredFrom = restored.number;
      if (change.action === 'content.rescheduled') Object.assign(detail, { from: existing.scheduledAt, to: saved.scheduledAt });
      else if (saved.scheduledAt) detail.scheduledAt = saved.scheduledAt;
      if (expectedVersion !== undefined && expectedVersion < existing.version) detail.overwrote = existing.version;
      await auditContent(trx, actor, action, saved, ip, detail);
      return { item: { ...saved, action }, previousImage: existing.imageUrl, previousVideo: existing.videoId };
    })
    .finally(videoWrite.finish);
  if (previousImage && previousImage !== item.imageUrl) await removeImageIfUnused(previousImage);
  // Issue 14: a replaced or removed video goes at once, like a picture.
  if (previousVideo && previousVideo !== item.videoId) await removeVideoIfUnused(previousVideo);
  return item;
}

/** spec §3: an edit keeps createdAt, publishedAt and the original author; updatedAt changes. */
export function updateContent(actor: StaffUser, id: string, input: ContentInput, ip: string): Promise<SavedContent> {
  return saveContent(actor, id, input, ip, { intent: 'publish' });
}

/**
 * Deletes an item. Issue 26: an English item's Luganda and Swahili versions translate it and have no
 * address without it (/lg/blog/<English id>), so they go with it, each in the audit log
 * (docs/decisions/031-translated-content.md); deleting a version deletes only that version.
 */
export async function deleteContent(actor: StaffUser, id: string, ip: string): Promise<AdminContentItem> {
  const existing = await contentToChange(actor, 'content:delete', id);
  const versions = await getDb()
    .transaction()
    .execute(async (trx) => {
      const rows = await trx.selectFrom('content').selectAll().where('translation_of', '=', id).execute();
      await trx.deleteFrom('content').where('translation_of', '=', id).execute();
      await trx.deleteFrom('content').where('id', '=', id).execute();
      for (const row of rows)
        await auditContent(trx, actor, 'content.deleted', toItem(row), ip, { versionOf: id, language: row.language });
      return rows.map(toItem);
    });
  for (const item of [existing, ...versions]) {
    if (item.imageUrl) await removeImageIfUnused(item.imageUrl);
    if (item.videoId) await removeVideoIfUnused(item.videoId);
  }
  await auditContent(getDb(), actor, 'content.deleted', existing, ip);
  return existing;
}
