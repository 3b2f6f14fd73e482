import { useState } from 'react';
import { data, Link } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { contentAnswer, saveContentForm } from '~/server/http/content-form.server';
import { listContentForAdmin } from '~/server/content/content-admin.server';
import { readEditorialTimeZone } from '~/server/content/scheduled-publishing.server';
import { isContentType, STATUS_LABELS } from '~/lib/content-form';
import { COLLECTION_INFO } from '~/lib/collections';
import { formatInTimeZone } from '~/lib/schedule';
import { ContentForm, EMPTY_CONTENT, NEW_ITEM, saveThroughServer, type ContentFormValues } from '~/components/admin/content-form';
import { checkVideoTools } from '~/server/media/video-tools.server';
import { VIDEO_MESSAGES } from '~/lib/video-upload';
import type { Route } from './+types/content-new';
import { dashboardMeta } from '~/lib/seo';

/** Issue 13: how many of one's own unpublished items the page lists beside the form. */
const OWN_DRAFTS_SHOWN = 20;

export const meta: Route.MetaFunction = ({ params }) => dashboardMeta(params.type === 'news' ? 'Add Story' : 'Add Blog');

export async function loader({ params, context }: Route.LoaderArgs) {
  const user = getStaff(context);
  if (!isContentType(params.type)) throw data({ error: 'Unknown content type' }, { status: 404 });
  // Issue 13: one's own drafts and scheduled items of this type, to go back to (an AUTHOR has no Manage Content).
  const [timeZone, own, tools] = await Promise.all([
    readEditorialTimeZone(),
    listContentForAdmin({ type: params.type, limit: OWN_DRAFTS_SHOWN, status: 'unpublished', authorEmail: user.email }),
    // Issue 14: whether this server can process a sign-language video, and if not why.
    checkVideoTools(),
  ]);
  const videoUnavailable = tools.available ? null : `${VIDEO_MESSAGES.unavailable}: ${tools.reason}`;
  const drafts = own.items.map((item) => ({
    id: item.id,
    title: item.title,
    status: STATUS_LABELS[item.status],
    when: item.scheduledAt ? formatInTimeZone(item.scheduledAt, timeZone) : null,
  }));
  return { type: params.type, author: user.name, timeZone, drafts, videoUnavailable };
}

/** The form, posted by the browser itself (no JavaScript) or by its fetcher (through clientAction). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = getStaff(context);
  if (!isContentType(params.type)) throw data({ error: 'Unknown content type' }, { status: 404 });
  return contentAnswer(await saveContentForm(request, context, user, { mode: 'create', type: params.type }));
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return saveThroughServer(serverAction);
}

export default function ContentNew({ loaderData, actionData }: Route.ComponentProps) {
  const [generation, setGeneration] = useState(0);
  const { type, author, timeZone, drafts, videoUnavailable } = loaderData;
  // After a failed plain post the typed values come back; after a success the form starts empty.
  const initial: ContentFormValues = actionData && !actionData.ok ? { ...EMPTY_CONTENT, ...actionData.values } : EMPTY_CONTENT;
  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">{type === 'news' ? 'Add Story' : 'Add Blog'}</h1>
      {/* The tabs keep the spec's names; the public site names the two lists otherwise. */}
      <p className="mt-1 mb-6 text-slate-700">
        Appears on the website under{' '}
        <a href={COLLECTION_INFO[type].path} target="_blank" rel="noreferrer" className="font-semibold text-indigo-800 underline">
          {COLLECTION_INFO[type].label}
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
        .
      </p>
      <ContentForm
        key={`${type}-${generation}-${actionData ? 'posted' : 'fresh'}`}
        type={type}
        mode="create"
        author={author}
        initial={initial}
        result={actionData}
        onCreated={() => setGeneration((g) => g + 1)}
        editorial={{ ...NEW_ITEM, timeZone }}
        videoUnavailable={videoUnavailable}
      />
      {drafts.length > 0 && (
        <section aria-labelledby="own-drafts" className="mt-10 max-w-4xl">
          <h2 id="own-drafts" className="text-xl font-bold text-slate-900">
            Your drafts and scheduled {type === 'news' ? 'stories' : 'blog posts'}
          </h2>
          <ul className="mt-3 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
            {drafts.map((draft) => (
              <li key={draft.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
                <Link
                  to={`/admin/content/${draft.id}/edit`}
                  className="font-semibold text-indigo-900 underline-offset-2 hover:underline"
                >
                  {draft.title}
                </Link>
                <span className="text-sm text-slate-700">
                  {draft.status}
                  {draft.when && ` · ${draft.when}`}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
