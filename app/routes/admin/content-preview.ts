import { requirePermission } from '~/server/auth.server';
import { readForm } from '~/server/request-info.server';
import { sanitizeArticleHtml } from '~/server/sanitize.server';
import { CONTENT_MAX_BYTES, CONTENT_MESSAGES, isContentTooLong } from '~/lib/content-form';
import type { Route } from './+types/content-preview';

export function loader() {
  return Response.json({ error: 'Use POST.' }, { status: 405 });
}

/**
 * The live preview: unsaved input, so it goes through the very sanitiser every saved body went
 * through. The body's size is checked before anything parses it; the sanitiser itself stops at
 * markup nested too deep for its parser, so no preview costs more than a linear pass.
 */
export async function action({ request }: Route.ActionArgs) {
  await requirePermission(request, 'content:create');
  const form = await readForm(request, CONTENT_MAX_BYTES + 16_000, CONTENT_MESSAGES.contentTooLong);
  const content = form.get('content');
  const html = typeof content === 'string' ? content : '';
  if (isContentTooLong(html)) return Response.json({ error: CONTENT_MESSAGES.contentTooLong }, { status: 413 });
  return Response.json({ html: sanitizeArticleHtml(html) });
}
