import { useState } from 'react';
import { data } from 'react-router';
import { requireSection } from '~/server/auth.server';
import { saveContentForm } from '~/server/content-form.server';
import { accessRestrictedText } from '~/lib/permissions';
import { isContentType } from '~/lib/content-form';
import { AccessRestricted } from '~/components/admin/access-restricted';
import { ContentForm, EMPTY_CONTENT, type ContentFormValues } from '~/components/admin/content-form';
import type { Route } from './+types/content-new';

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user, allowed } = await requireSection(request, params.type === 'news' ? 'addNews' : 'addBlog');
  if (!isContentType(params.type)) throw data({ error: 'Unknown content type' }, { status: 404 });
  if (!allowed) return data({ restricted: accessRestrictedText(user.role), type: params.type, author: '' }, { status: 403 });
  return { restricted: null, type: params.type, author: user.name };
}

/** The form posted without JavaScript (with it, the form saves through /admin/content/save). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, allowed } = await requireSection(request, params.type === 'news' ? 'addNews' : 'addBlog');
  if (!isContentType(params.type)) throw data({ error: 'Unknown content type' }, { status: 404 });
  if (!allowed)
    return data(
      { ok: false, message: accessRestrictedText(user.role), errors: {}, values: {} as Record<string, string> },
      { status: 403 },
    );
  const result = await saveContentForm(request, context, user, { mode: 'create', type: params.type });
  if (result.ok) return { ok: true, message: result.message, errors: {}, values: {} as Record<string, string> };
  return data({ ok: false, message: result.message, errors: result.errors, values: result.values }, { status: result.status });
}

export default function ContentNew({ loaderData, actionData }: Route.ComponentProps) {
  const [generation, setGeneration] = useState(0);
  if (loaderData.restricted) return <AccessRestricted message={loaderData.restricted} />;
  const { type, author } = loaderData;
  // After a failed plain post the typed values come back; after a success the form starts empty.
  const initial: ContentFormValues = actionData && !actionData.ok ? { ...EMPTY_CONTENT, ...actionData.values } : EMPTY_CONTENT;
  return (
    <>
      <h1 className="mb-6 text-2xl font-bold text-slate-900">{type === 'news' ? 'Add Story' : 'Add Blog'}</h1>
      <ContentForm
        key={`${type}-${generation}-${actionData ? 'posted' : 'fresh'}`}
        type={type}
        mode="create"
        author={author}
        initial={initial}
        result={actionData}
        onCreated={() => setGeneration((g) => g + 1)}
      />
    </>
  );
}
