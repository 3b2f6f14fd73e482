import { ContentRuleError, getContentForAdmin, mayEditContent, type AdminContentItem } from './content-admin.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import { can } from '../../lib/permissions.ts';
import { CONTENT_MESSAGES, isContentType } from '../../lib/content-form.ts';

// Issue 13: who may see an item's history, open its revisions and keep its unsaved form on the server:
// whoever may edit the item (spec §6 with issue 13's own-draft rule, mayEditContent). A new item's
// slot belongs to anyone who may create items.

/** The item whose history `actor` asks for: 404 when there is none, 403 when they may not edit it. */
export async function itemForHistory(actor: StaffUser, id: string): Promise<AdminContentItem> {
  const item = await getContentForAdmin(id);
  if (!item) throw new ContentRuleError(CONTENT_MESSAGES.notFound, 404);
  if (!mayEditContent(actor, item)) throw new ContentRuleError(CONTENT_MESSAGES.forbidden, 403);
  return item;
}

/** An autosave slot `actor` may write: an item they may edit, or "new-<type>" when they may create. */
export async function autosaveTarget(actor: StaffUser, slot: string): Promise<{ contentId: string } | { newType: string }> {
  const type = /^new-(.+)$/.exec(slot)?.[1];
  if (type !== undefined) {
    if (!isContentType(type)) throw new ContentRuleError(CONTENT_MESSAGES.notFound, 404);
    if (!can(actor.role, 'content:create')) throw new ContentRuleError(CONTENT_MESSAGES.forbidden, 403);
    return { newType: type };
  }
  const item = await itemForHistory(actor, slot);
  return { contentId: item.id };
}
