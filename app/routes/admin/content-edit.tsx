import { data, Link } from 'react-router';
import { getStaff } from '~/server/staff-context.server';
import { can } from '~/lib/permissions';
import { getContentForAdmin } from '~/server/content-admin.server';
import { contentAnswer, saveContentForm } from '~/server/content-form.server';
import { ContentForm, saveThroughServer, type ContentFormValues } from '~/components/admin/content-form';
import { CONTENT_MESSAGES } from '~/lib/content-form';
import type { Route } from './+types/content-edit';

export async function loader({ params, context }: Route.LoaderArgs) {
  const item = await getContentForAdmin(params.id);
  if (!item) throw data({ error: CONTENT_MESSAGES.notFound }, { status: 404 });
  const initial: ContentFormValues = {
    title: item.title,
    category: item.category,
    tags: item.tags.join(', '),
    summary: item.summary ?? '',
    imageUrl: item.imageUrl ?? '',
    imageAlt: item.imageAlt,
    content: item.content,
  };
  // Issue 12: a published item can be sent to the newsletter's subscribers.
  const canSend = can(getStaff(context).role, 'newsletter:send');
  return { id: item.id, type: item.type, author: item.author, initial, canSend };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  const item = await getContentForAdmin(params.id);
  if (!item) throw data({ error: CONTENT_MESSAGES.notFound }, { status: 404 });
  return contentAnswer(await saveContentForm(request, context, actor, { mode: 'edit', type: item.type, id: item.id }));
}

/** With JavaScript the form's fetcher comes here (an item deleted meanwhile is told in the form). */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return saveThroughServer(serverAction);
}

export default function ContentEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { id, type, author, canSend } = loaderData;
  // After a failed plain post, show what was typed, not what is stored.
  const initial = actionData && !actionData.ok ? { ...loaderData.initial, ...actionData.values } : loaderData.initial;
  return (
    <>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">{type === 'news' ? 'Edit Story' : 'Edit Blog'}</h1>
        {canSend && (
          <Link
            to={`/admin/newsletter/${id}`}
            className="inline-flex min-h-11 items-center rounded-lg border-2 border-slate-300 bg-white px-4 font-semibold text-slate-800 hover:bg-slate-100"
          >
            Send to subscribers
          </Link>
        )}
      </div>
      <ContentForm
        key={`${id}-${actionData ? 'posted' : 'loaded'}`}
        type={type}
        mode="edit"
        author={author}
        initial={initial}
        result={actionData}
        onCreated={() => undefined}
      />
    </>
  );
}
