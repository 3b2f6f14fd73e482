import { useState } from 'react';
import { data } from 'react-router';
import { getStaff, isAllowed } from '~/server/staff-context.server';
import { contentAnswer, contentRefusal, saveContentForm } from '~/server/content-form.server';
import { accessRestrictedText } from '~/lib/permissions';
import { isContentType } from '~/lib/content-form';
import { AccessRestricted } from '~/components/admin/access-restricted';
import { ContentForm, EMPTY_CONTENT, saveThroughServer, type ContentFormValues } from '~/components/admin/content-form';
import type { Route } from './+types/content-new';

export function loader({ params, context }: Route.LoaderArgs) {
  const user = getStaff(context);
  if (!isContentType(params.type)) throw data({ error: 'Unknown content type' }, { status: 404 });
  if (!isAllowed(context))
    return data({ restricted: accessRestrictedText(user.role), type: params.type, author: '' }, { status: 403 });
  return { restricted: null, type: params.type, author: user.name };
}

/** The form, posted by the browser itself (no JavaScript) or by its fetcher (through clientAction). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = getStaff(context);
  if (!isContentType(params.type)) throw data({ error: 'Unknown content type' }, { status: 404 });
  if (!isAllowed(context)) return contentRefusal(403, accessRestrictedText(user.role));
  return contentAnswer(await saveContentForm(request, context, user, { mode: 'create', type: params.type }));
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return saveThroughServer(serverAction);
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
