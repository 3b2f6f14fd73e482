import { data } from 'react-router';
import { getStaff } from '~/server/staff-context.server';
import { getContentForAdmin } from '~/server/content-admin.server';
import { contentAnswer, saveContentForm } from '~/server/content-form.server';
import { ContentForm, saveThroughServer, type ContentFormValues } from '~/components/admin/content-form';
import { CONTENT_MESSAGES } from '~/lib/content-form';
import type { Route } from './+types/content-edit';

export async function loader({ params }: Route.LoaderArgs) {
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
  return { id: item.id, type: item.type, author: item.author, initial };
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
  const { id, type, author } = loaderData;
  // After a failed plain post, show what was typed, not what is stored.
  const initial = actionData && !actionData.ok ? { ...loaderData.initial, ...actionData.values } : loaderData.initial;
  return (
    <>
      <h1 className="mb-6 text-2xl font-bold text-slate-900">{type === 'news' ? 'Edit Story' : 'Edit Blog'}</h1>
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
