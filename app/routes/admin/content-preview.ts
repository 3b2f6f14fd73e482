import { z } from 'zod';
import { formRefusal, parseForm } from '~/server/http/forms.server';
import { getStaff } from '~/server/http/staff-context.server';
import { HTML_BUDGET_MESSAGE, takeHtmlBudget } from '~/server/platform/html-budget.server';
import { sanitizeArticleHtml } from '~/server/platform/sanitize.server';
import { CONTENT_MAX_BYTES, CONTENT_MESSAGES, isContentTooLong } from '~/lib/content-form';
import type { Route } from './+types/content-preview';

export function loader() {
  return Response.json({ error: 'Use POST.' }, { status: 405 });
}

const previewSchema = z.object({ content: z.string().catch('') });

/**
 * The live preview: unsaved input, so it goes through the very sanitiser every saved body went
 * through. The body's size is checked before anything parses it; the sanitiser itself stops at
 * markup nested too deep for its parser, so no preview costs more than a linear pass.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(request, previewSchema, {
    maxBytes: CONTENT_MAX_BYTES + 16_000,
    tooLargeMessage: CONTENT_MESSAGES.contentTooLong,
  });
  // The schema takes anything (a missing or odd body previews as nothing): only the body itself is refused.
  if (!form.ok) return form.refused ? formRefusal(form) : Response.json({ html: '' });
  const html = form.values.content;
  if (isContentTooLong(html)) return Response.json({ error: CONTENT_MESSAGES.contentTooLong }, { status: 413 });
  // Cleaning holds this thread: each account may have only so much cleaned at a time (decision 047).
  const budget = takeHtmlBudget(getStaff(context).email, Buffer.byteLength(html), 'preview');
  if (!budget.ok)
    return Response.json(
      { error: HTML_BUDGET_MESSAGE },
      { status: 429, headers: { 'Retry-After': String(budget.retryAfterSeconds) } },
    );
  return Response.json({ html: sanitizeArticleHtml(html) });
}
