import { data, redirect, type RouterContextProvider } from 'react-router';
import { clientIp } from './request-info.server.ts';
import { parseForm } from './forms.server.ts';
import { flashCookie } from './flash.server.ts';
import { ContentRuleError, mayEditContent } from '../content/content-admin.server.ts';
import {
  CONTENT_FORM_MAX_BYTES,
  CONTENT_POST_SCHEMA,
  contentFailure,
  saveContentPost,
  type SaveResult,
  type SaveTarget,
} from '../content/content-save.server.ts';
import { createPreviewLink } from '../content/preview-links.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import { CONTENT_MESSAGES, type ContentAnswer, type ContentType } from '../../lib/content-form.ts';

// The content form's HTTP half: read the post within its limit, hand it to the one save
// (app/server/content/content-save.server.ts), and answer the form or redirect.

/** Reads the content form's post: 411/413/415 refusals are answered here, before any rule runs. */
export async function saveContentForm(
  request: Request,
  context: Readonly<RouterContextProvider>,
  actor: StaffUser,
  target: SaveTarget,
): Promise<SaveResult> {
  return saveRead(await readContentPost(request), context, actor, target);
}

function readContentPost(request: Request) {
  return parseForm(request, CONTENT_POST_SCHEMA, {
    maxBytes: CONTENT_FORM_MAX_BYTES,
    tooLargeMessage: CONTENT_MESSAGES.contentTooLong,
  });
}

function saveRead(
  form: Awaited<ReturnType<typeof readContentPost>>,
  context: Readonly<RouterContextProvider>,
  actor: StaffUser,
  target: SaveTarget,
): Promise<SaveResult> | SaveResult {
  if (!form.ok && form.refused) return contentFailure(target, form.values, form.status, form.formError, {}, form.headers);
  return saveContentPost(form, actor, target, clientIp(context));
}

/**
 * The edit form's action: a save, or "Copy preview link", a small form of its own posted to the
 * same address with intent=preview-link.
 */
export async function contentEditAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
  actor: StaffUser,
  target: { type: ContentType; id: string },
) {
  const form = await readContentPost(request);
  if (form.ok && form.values.intent === 'preview-link') {
    try {
      const link = await createPreviewLink(actor, target.id, clientIp(context));
      return {
        ok: true,
        status: 200,
        message: CONTENT_MESSAGES.previewLinkMade,
        errors: {},
        values: {},
        previewUrl: link.url,
      } satisfies ContentAnswer;
    } catch (error) {
      if (!(error instanceof ContentRuleError)) throw error;
      return data({ ok: false, status: error.status, message: error.message, errors: {}, values: {} } satisfies ContentAnswer, {
        status: error.status,
      });
    }
  }
  const restoredFrom = new URL(request.url).searchParams.get('restore') ?? undefined;
  const result = await saveRead(form, context, actor, { mode: 'edit', ...target, restoredFrom });
  // An AUTHOR who publishes their own draft may no longer edit it (spec §6): the form closes, and
  // they return to their Add Story or Add Blog page with the message.
  if (result.ok && !mayEditContent(actor, result.item))
    return redirect(`/admin/content/new/${result.item.type}`, {
      status: 303,
      headers: { 'Set-Cookie': flashCookie({ type: 'success', message: result.message, toast: true }) },
    });
  return contentAnswer(result);
}

/**
 * The action's answer for the form (the same for a plain post and a fetcher), with its status. A new
 * item saved as a draft or scheduled opens in its edit form (where it can be saved again, previewed
 * and published), with the message carried across the redirect.
 */
export function contentAnswer(result: SaveResult) {
  if (result.ok) {
    if (result.mode === 'create' && result.intent !== 'publish')
      return redirect(`/admin/content/${encodeURIComponent(result.item.id)}/edit`, {
        status: 303,
        headers: { 'Set-Cookie': flashCookie({ type: 'success', message: result.message, toast: true }) },
      });
    return {
      ok: true,
      status: 200,
      message: result.message,
      errors: {},
      values: {},
      version: result.item.version,
    } satisfies ContentAnswer;
  }
  const { headers, ...answer } = result;
  return data(answer satisfies ContentAnswer, { status: result.status, headers });
}

/** A refusal made before the form is read (the role may not use the form). */
export function contentRefusal(status: 403, message: string) {
  return data({ ok: false, status, message, errors: {}, values: {} } satisfies ContentAnswer, { status });
}
