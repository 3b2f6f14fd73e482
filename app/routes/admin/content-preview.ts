import { z } from 'zod';
import { formRefusal, parseForm } from '~/server/http/forms.server';
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
export async function action({ request }: Route.ActionArgs) {
  const form = await parseForm(request, previewSchema, {
    maxBytes: CONTENT_MAX_BYTES + 16_000,
    tooLargeMessage: CONTENT_MESSAGES.contentTooLong,
  });
  // The schema takes anything (a missing or odd body previews as nothing): only the body itself is refused.
  if (!form.ok) return form.refused ? formRefusal(form) : Response.json({ html: '' });
  const html = form.values.content;
  if (isContentTooLong(html)) return Response.json({ error: CONTENT_MESSAGES.contentTooLong }, { status: 413 });
  return Response.json({ html: sanitizeArticleHtml(html) });
}
