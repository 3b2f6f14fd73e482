import { requirePermission } from '~/server/auth.server';
import { readForm } from '~/server/request-info.server';
import { sanitizeArticleHtml } from '~/server/sanitize.server';
import { CONTENT_MAX_BYTES, CONTENT_MESSAGES } from '~/lib/content-form';
import type { Route } from './+types/content-preview';

export function loader() {
  return Response.json({ error: 'Use POST.' }, { status: 405 });
}

/** The live preview: the body through the very sanitiser the public article page uses. */
export async function action({ request }: Route.ActionArgs) {
  await requirePermission(request, 'content:create');
  const form = await readForm(request, CONTENT_MAX_BYTES + 16_000, CONTENT_MESSAGES.contentTooLong);
  return Response.json({ html: sanitizeArticleHtml(String(form.get('content') ?? '')) });
}
