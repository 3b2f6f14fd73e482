import { sql, type Selectable } from 'kysely';
import type { ContentTable } from './db/schema.ts';
import { getDb } from './db/db.server.ts';
import { newContentId, nowIso } from './ids.server.ts';
import { storedBody } from './sanitize.server.ts';
import { recordAudit } from './audit.server.ts';
import { removeImageIfUnused } from './media.server.ts';
import { parseList } from './content.server.ts';
import type { StaffUser } from './auth.server.ts';
import { RuleError } from './rules.server.ts';
import { can, type Permission } from '../lib/permissions.ts';
import type { AuditAction } from '../lib/audit.ts';
import { CONTENT_MESSAGES, type ContentInput, type ContentType } from '../lib/content-form.ts';
import { COLLECTION_INFO, DASHBOARD_COLLECTIONS } from '../lib/collections.ts';

// The dashboard's writes to news and blogs (spec §3, §4, §7), with spec §6's rules enforced here.

/** A refusal of a content rule (spec §6): a RuleError with 403 or 404. */
export class ContentRuleError extends RuleError {
  declare readonly status: 403 | 404;
  constructor(message: string, status: 403 | 404) {
    super(message, status);
  }
}

export interface AdminContentItem {
  id: string;
  type: ContentType;
  title: string;
  author: string;
  category: string;
  tags: string[];
  summary: string | null;
  imageUrl: string | null;
  imageAlt: string;
  content: string;
  createdAt: string;
  publishedAt: string;
  updatedAt: string;
}

function toItem(row: Selectable<ContentTable>): AdminContentItem {
  return {
    id: row.id,
    type: row.collection === 'news' ? 'news' : 'blogs',
    title: row.title,
    author: row.author,
    category: row.category,
    tags: parseList(row.tags),
    summary: row[COLLECTION_INFO[row.collection].summaryColumn] ?? null,
    imageUrl: row.image_url,
    imageAlt: row.image_alt ?? '',
    content: row.content,
    createdAt: row.created_at,
    publishedAt: row.published_at,
    updatedAt: row.updated_at,
  };
}

/**
 * spec §7: the newest items of a type, createdAt descending, at most `limit`. Beyond the spec, `q`
 * searches titles; `next` says whether there are more (for Load more).
 */
export async function listContentForAdmin(options: { type: ContentType; limit: number; q?: string | undefined }) {
  let query = getDb().selectFrom('content').selectAll().where('collection', '=', options.type);
  const q = options.q?.trim().slice(0, 100);
  if (q) {
    const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where(sql<boolean>`lower(title) like ${pattern} escape '\\'`);
  }
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit + 1)
    .execute();
  const items = rows.slice(0, options.limit).map(toItem);
  const last = items[items.length - 1];
  return { items, next: rows.length > options.limit && last ? last.id : null };
}

export async function getContentForAdmin(id: string): Promise<AdminContentItem | undefined> {
  if (!/^[A-Za-z0-9_-]{1,120}$/.test(id)) return undefined;
  const row = await getDb()
    .selectFrom('content')
    .selectAll()
    .where('id', '=', id)
    .where('collection', 'in', DASHBOARD_COLLECTIONS)
    .executeTakeFirst();
  return row ? toItem(row) : undefined;
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
  };
}

/** spec §4: publishing creates the item; status is always 'published'; the author comes from the session. */
export async function publishContent(
  actor: StaffUser,
  type: ContentType,
  input: ContentInput,
  ip: string,
): Promise<AdminContentItem> {
  if (!can(actor.role, 'content:create')) throw new ContentRuleError(CONTENT_MESSAGES.forbidden, 403);
  const now = nowIso();
  const id = newContentId(input.title);
  await getDb()
    .insertInto('content')
    .values({
      id,
      collection: type,
      ...fields(type, input),
      author: actor.name,
      author_email: actor.email,
      author_role: actor.role,
      status: 'published',
      created_at: now,
      published_at: now,
      updated_at: now,
    })
    .execute();
  await auditContent(actor, 'content.published', id, ip, { type, title: input.title });
  return (await getContentForAdmin(id))!;
}

/** The stored item `actor` means to change: refused with 403 without `permission`, 404 when there is none. */
async function contentToChange(actor: StaffUser, permission: Permission, id: string): Promise<AdminContentItem> {
  if (!can(actor.role, permission)) throw new ContentRuleError(CONTENT_MESSAGES.forbidden, 403);
  const existing = await getContentForAdmin(id);
  if (!existing) throw new ContentRuleError(CONTENT_MESSAGES.notFound, 404);
  return existing;
}

/** spec §6: every change to content is in the audit trail, with the item's type and title. */
function auditContent(
  actor: StaffUser,
  action: Extract<AuditAction, `content.${string}`>,
  id: string,
  ip: string,
  item: { type: ContentType; title: string },
): Promise<void> {
  return recordAudit({ actor: actor.email, action, target: id, ip, detail: { type: item.type, title: item.title } });
}

/** spec §3: an edit keeps createdAt, publishedAt and the original author; updatedAt changes. */
export async function updateContent(actor: StaffUser, id: string, input: ContentInput, ip: string): Promise<AdminContentItem> {
  const existing = await contentToChange(actor, 'content:edit', id);
  await getDb()
    .updateTable('content')
    .set({ ...fields(existing.type, input), updated_at: nowIso() })
    .where('id', '=', id)
    .execute();
  if (existing.imageUrl && existing.imageUrl !== (input.imageUrl || null)) await removeImageIfUnused(existing.imageUrl);
  await auditContent(actor, 'content.updated', id, ip, { type: existing.type, title: input.title });
  return (await getContentForAdmin(id))!;
}

export async function deleteContent(actor: StaffUser, id: string, ip: string): Promise<AdminContentItem> {
  const existing = await contentToChange(actor, 'content:delete', id);
  await getDb().deleteFrom('content').where('id', '=', id).execute();
  if (existing.imageUrl) await removeImageIfUnused(existing.imageUrl);
  await auditContent(actor, 'content.deleted', id, ip, existing);
  return existing;
}
