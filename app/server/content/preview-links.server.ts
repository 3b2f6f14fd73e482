import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { nowIso } from '../platform/ids.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import { getConfig } from '../platform/config.server.ts';
import { listRelatedArticles, readArticle, readArticleAuthor } from './articles.server.ts';
import { ContentRuleError, getContentForAdmin, mayEditContent } from './content-admin.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import { articlePath } from '../../lib/collections.ts';
import { CONTENT_MESSAGES } from '../../lib/content-form.ts';
import type { ArticleAuthor, ArticleView, RelatedArticle } from '../../lib/article.ts';

// Issue 13, preview links (docs/decisions/015-editorial-states.md): for a draft or scheduled item, an
// unguessable link that shows the page as it will look. Only the SHA-256 of its token is stored, so a
// copy of the database opens nothing. It works for 7 days, or until the item is published, when it
// leads to the public page instead.

export const PREVIEW_LINK_DAYS = 7;
const TOKEN_BYTES = 32;
/** base64url of 32 bytes. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** The public path of a preview link. */
export const previewPath = (token: string) => `/preview/${token}`;

/**
 * Makes a preview link for an unpublished item `actor` may edit (spec §6 with issue 13's own-draft
 * rule). Returns its full address; the token is not kept anywhere but in it.
 */
export async function createPreviewLink(
  actor: StaffUser,
  contentId: string,
  ip: string,
  db: Kysely<Database> = getDb(),
): Promise<{ url: string; expiresAt: string }> {
  const item = await getContentForAdmin(contentId, db);
  if (!item) throw new ContentRuleError(CONTENT_MESSAGES.notFound, 404);
  if (!mayEditContent(actor, item)) throw new ContentRuleError(CONTENT_MESSAGES.forbidden, 403);
  if (item.status === 'published') throw new ContentRuleError(CONTENT_MESSAGES.previewOnlyUnpublished, 400);
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  const now = nowIso();
  const expiresAt = new Date(Date.parse(now) + PREVIEW_LINK_DAYS * 24 * 60 * 60_000).toISOString();
  await db
    .insertInto('preview_links')
    .values({ token_hash: hashOf(token), content_id: item.id, created_by: actor.email, created_at: now, expires_at: expiresAt })
    .execute();
  await recordAudit(
    {
      actor: actor.email,
      action: 'content.preview_link_created',
      target: item.id,
      ip,
      detail: { type: item.type, title: item.title, expiresAt },
    },
    db,
  );
  return { url: `${getConfig().publicUrl}${previewPath(token)}`, expiresAt };
}

export type PreviewResult =
  | { kind: 'preview'; article: ArticleView; author: ArticleAuthor; related: RelatedArticle[]; expiresAt: string }
  /** The item is published now: the link leads to its public page. */
  | { kind: 'published'; path: string }
  /** Unknown, expired, or its item deleted. */
  | { kind: 'missing' };

/** What a preview link shows now. */
export async function openPreviewLink(
  token: string | undefined,
  db: Kysely<Database> = getDb(),
  now = Date.now(),
): Promise<PreviewResult> {
  if (!token || !TOKEN_PATTERN.test(token)) return { kind: 'missing' };
  const link = await db
    .selectFrom('preview_links')
    .innerJoin('content', 'content.id', 'preview_links.content_id')
    .select(['preview_links.expires_at', 'content.id', 'content.collection', 'content.status'])
    .where('preview_links.token_hash', '=', hashOf(token))
    .executeTakeFirst();
  if (!link) return { kind: 'missing' };
  if (link.status === 'published') return { kind: 'published', path: articlePath(link.collection, encodeURIComponent(link.id)) };
  if (Date.parse(link.expires_at) <= now) return { kind: 'missing' };
  const found = await readArticle(link.collection, link.id, db, { includeUnpublished: true });
  if (!found) return { kind: 'missing' };
  const [author, related] = await Promise.all([readArticleAuthor(found.authorEmail, db), listRelatedArticles(found.article, db)]);
  return { kind: 'preview', article: found.article, author, related, expiresAt: link.expires_at };
}

/** Removes links past their time: they open nothing any more (the scheduled-publishing job calls it). */
export async function pruneExpiredPreviewLinks(db: Kysely<Database> = getDb(), now = Date.now()): Promise<void> {
  await db.deleteFrom('preview_links').where('expires_at', '<', new Date(now).toISOString()).execute();
}
