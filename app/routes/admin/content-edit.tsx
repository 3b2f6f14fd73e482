import { data, Link } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { can } from '~/lib/permissions';
import { getContentForAdmin, mayEditContent } from '~/server/content/content-admin.server';
import { contentEditAction } from '~/server/http/content-form.server';
import { readEditorialTimeZone } from '~/server/content/scheduled-publishing.server';
import { ContentForm, saveThroughServer, type ContentFormValues, type EditorialState } from '~/components/admin/content-form';
import { CONTENT_MESSAGES, STATUS_LABELS } from '~/lib/content-form';
import { VIDEO_MESSAGES } from '~/lib/video-upload';
import { formatInTimeZone, utcToZoned } from '~/lib/schedule';
import { formValuesOf, revisionForRestore } from '~/server/content/revisions.server';
import { REVISION_MESSAGES } from '~/lib/revisions';
import { getVideoFormState } from '~/server/media/video.server';
import { checkVideoTools } from '~/server/media/video-tools.server';
import { itemNumbers, maySeeItemNumbers } from '~/server/analytics/report.server';
import { flushAnalytics } from '~/server/analytics/counting.server';
import { ItemNumbersPanel } from '~/components/admin/item-numbers';
import { languagesPanelFor } from '~/server/content/content-versions.server';
import { getPublicLanguages } from '~/server/site/site.server';
import { LanguagesPanel } from '~/components/admin/languages-panel';
import { LANGUAGE_NAMES, isPrefixedLanguage } from '~/lib/languages';
import type { Route } from './+types/content-edit';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = ({ loaderData }) =>
  dashboardMeta(
    loaderData
      ? `${loaderData.type === 'news' ? 'Edit Story' : 'Edit Blog'}${loaderData.languageName ? ` (${loaderData.languageName} version)` : ''}: ${loaderData.initial.title}`
      : 'Edit',
  );

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const item = await getContentForAdmin(params.id);
  if (!item) throw data({ error: CONTENT_MESSAGES.notFound }, { status: 404 });
  // Issue 13: an AUTHOR opens only their own items, until published (the service's rule).
  if (!mayEditContent(getStaff(context), item)) throw data({ error: CONTENT_MESSAGES.forbidden }, { status: 403 });
  let initial: ContentFormValues = formValuesOf(item);
  // Issue 12: a published item can be sent to the newsletter's subscribers.
  // Issue 26: the newsletter is in English; a version is not sent on its own.
  const canSend = can(getStaff(context).role, 'newsletter:send') && item.status === 'published' && item.language === 'en';
  const timeZone = await readEditorialTimeZone();
  const scheduled = item.scheduledAt ? utcToZoned(item.scheduledAt, timeZone) : { date: '', time: '' };
  const editorial: EditorialState = {
    status: item.status,
    version: item.version,
    timeZone,
    scheduleDate: scheduled.date,
    scheduleTime: scheduled.time,
    scheduledLabel: item.scheduledAt ? formatInTimeZone(item.scheduledAt, timeZone) : null,
  };
  // Issue 13: "Restore this version" fills the form from a revision; nothing is saved until the form is.
  let restored: { message: string; imageGone: boolean } | null = null;
  const restoreId = new URL(request.url).searchParams.get('restore');
  if (restoreId) {
    const found = await revisionForRestore(item.id, restoreId);
    if (!found) throw data({ error: REVISION_MESSAGES.revisionNotFound }, { status: 404 });
    initial = found.values;
    restored = {
      message: REVISION_MESSAGES.restoredFrom(formatInTimeZone(found.revision.createdAt, timeZone)),
      imageGone: found.imageGone,
    };
  }
  // Issue 14: its sign-language video, and whether this server can process one.
  // Issue 28: its own visit counts, for whoever may see them (ADMIN and above, or its EDITOR).
  // Issue 26: its versions in other languages (or, for a version, its English item and siblings).
  const [video, tools, numbers, languages, offered] = await Promise.all([
    getVideoFormState(item.videoId),
    checkVideoTools(),
    maySeeItemNumbers(getStaff(context), item.authorEmail) ? flushAnalytics().then(() => itemNumbers(item.id)) : null,
    languagesPanelFor(item),
    getPublicLanguages(),
  ]);
  const videoUnavailable = tools.available ? null : `${VIDEO_MESSAGES.unavailable}: ${tools.reason}`;
  return {
    id: item.id,
    type: item.type,
    author: item.author,
    initial,
    canSend,
    editorial,
    restored,
    video,
    videoUnavailable,
    numbers,
    languages,
    offered,
    languageName: isPrefixedLanguage(item.language) ? LANGUAGE_NAMES[item.language] : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  const item = await getContentForAdmin(params.id);
  if (!item) throw data({ error: CONTENT_MESSAGES.notFound }, { status: 404 });
  return contentEditAction(request, context, actor, { type: item.type, id: item.id });
}

/** With JavaScript the form's fetcher comes here (an item deleted meanwhile is told in the form). */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return saveThroughServer(serverAction);
}

export default function ContentEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { id, type, author, canSend, editorial, video, videoUnavailable, numbers, languages, offered, languageName } = loaderData;
  // Once the restored version is saved (a plain post), the notice has done its work.
  const restored = actionData?.ok ? null : loaderData.restored;
  // After a failed plain post, show what was typed, not what is stored.
  const initial = actionData && !actionData.ok ? { ...loaderData.initial, ...actionData.values } : loaderData.initial;
  return (
    <>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">
            {type === 'news' ? 'Edit Story' : 'Edit Blog'}
            {languageName && <> ({languageName} version)</>}
          </h1>
          {/* Issue 13: where the item stands. */}
          <p className="mt-1 text-slate-700">
            Status: <strong>{editorial.status ? STATUS_LABELS[editorial.status] : ''}</strong>
            {editorial.scheduledLabel && <> · goes public {editorial.scheduledLabel}</>}
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          <Link
            to={`/admin/content/${id}/history`}
            className="inline-flex min-h-11 items-center rounded-lg border-2 border-slate-300 bg-white px-4 font-semibold text-slate-800 hover:bg-slate-100"
          >
            History
          </Link>
          {canSend && (
            <Link
              to={`/admin/newsletter/${id}`}
              className="inline-flex min-h-11 items-center rounded-lg border-2 border-slate-300 bg-white px-4 font-semibold text-slate-800 hover:bg-slate-100"
            >
              Send to subscribers
            </Link>
          )}
        </div>
      </div>
      {numbers && <ItemNumbersPanel numbers={numbers} />}
      <LanguagesPanel panel={languages} itemId={id} offered={offered} />
      {restored && (
        <div role="status" className="mb-6 max-w-4xl rounded-lg border-l-4 border-indigo-700 bg-indigo-50 p-4 text-indigo-950">
          <p className="font-medium">{restored.message}</p>
          {restored.imageGone && <p className="mt-1">{REVISION_MESSAGES.imageGoneRestored}</p>}
        </div>
      )}
      <ContentForm
        key={`${id}-${actionData ? 'posted' : 'loaded'}`}
        itemId={id}
        restoredVersion={Boolean(restored)}
        type={type}
        mode="edit"
        author={author}
        initial={initial}
        result={actionData}
        onCreated={() => undefined}
        editorial={editorial}
        video={video}
        videoUnavailable={videoUnavailable}
      />
    </>
  );
}
