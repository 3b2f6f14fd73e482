import { requirePermission } from '~/server/auth.server';
import { getContentForAdmin } from '~/server/content-admin.server';
import { saveContentForm } from '~/server/content-form.server';
import { isContentType } from '~/lib/content-form';
import type { Route } from './+types/content-save';

export function loader() {
  return Response.json({ error: 'Use POST.' }, { status: 405 });
}

/** The content form's JavaScript path: the same checks as the plain post, answered in JSON. */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requirePermission(request, new URL(request.url).searchParams.get('id') ? 'content:edit' : 'content:create');
  const url = new URL(request.url);
  const id = url.searchParams.get('id');
  // An edit is checked against the stored item's own type (its categories), whatever the URL says.
  const existing = id ? await getContentForAdmin(id) : undefined;
  const type = existing?.type ?? url.searchParams.get('type');
  if (!isContentType(type)) return Response.json({ ok: false, message: 'Unknown content type.' }, { status: 400 });
  const result = await saveContentForm(request, context, actor, id ? { mode: 'edit', type, id } : { mode: 'create', type });
  return Response.json(result, { status: result.status });
}
