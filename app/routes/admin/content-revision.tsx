import { data, Link } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { itemForHistory } from '~/server/content/revision-access.server';
import { revisionForRestore } from '~/server/content/revisions.server';
import { readEditorialTimeZone } from '~/server/content/scheduled-publishing.server';
import { compareVersions } from '~/server/content/word-diff.server';
import { categoryLabel } from '~/lib/categories';
import { formatInTimeZone } from '~/lib/schedule';
import { summaryLabelOf } from '~/lib/content-form';
import { REVISION_MESSAGES, revisionActorLabel, revisionKindLabel, revisionVideoNote } from '~/lib/revisions';
import { formatDuration } from '~/lib/video';
import { ArticleBody } from '~/components/article-body';
import { Image } from '~/components/image';
import { FieldChanges } from '~/components/admin/word-comparison';
import { loaderRefusal } from '~/server/http/rules.server';
import type { Route } from './+types/content-revision';
import { dashboardMeta } from '~/lib/seo';

// Issue 13: one revision, rendered as the public page would show it, with a word comparison against
// the item's current text and "Restore this version", which fills the form (nothing is saved yet).

export const meta: Route.MetaFunction = ({ loaderData }) =>
  dashboardMeta(loaderData ? `Version ${loaderData.revision.number}: ${loaderData.revision.heading}` : 'Version');

export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    const item = await itemForHistory(getStaff(context), params.id);
    const found = await revisionForRestore(item.id, params.revisionId);
    if (!found) throw data({ error: REVISION_MESSAGES.revisionNotFound }, { status: 404 });
    const { revision, imageGone } = found;
    const timeZone = await readEditorialTimeZone();
    const then = revision.snapshot;
    const summaryLabel = summaryLabelOf(item.type);
    return {
      item: { id: item.id, type: item.type },
      revision: {
        id: revision.id,
        number: revision.number,
        heading: `${revisionKindLabel(revision.kind)} by ${revisionActorLabel(revision)}`,
        at: revision.createdAt,
        when: formatInTimeZone(revision.createdAt, timeZone),
        snapshot: then,
        categoryLabel: categoryLabel(then.category),
      },
      imageGone,
      summaryLabel,
      changes: compareVersions(then, item, summaryLabel),
      imageChanged: (then.imageUrl ?? '') !== (item.imageUrl ?? ''),
      videoNote: revisionVideoNote(then.video, item.videoId),
    };
  } catch (error) {
    throw loaderRefusal(error);
  }
}

const buttonClass =
  'inline-flex min-h-11 items-center rounded-lg border-2 border-slate-300 bg-white px-4 font-semibold text-slate-800 hover:bg-slate-100';

export default function ContentRevision({ loaderData }: Route.ComponentProps) {
  const { item, revision, changes, imageChanged, imageGone, summaryLabel, videoNote } = loaderData;
  const then = revision.snapshot;
  return (
    <>
      <div className="mb-6 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold text-slate-900">
            Version {revision.number}: {revision.heading}
          </h1>
          <p className="mt-1 text-slate-700">
            <time dateTime={revision.at}>{revision.when}</time>
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          <Link
            to={`/admin/content/${item.id}/edit?restore=${revision.id}`}
            className="inline-flex min-h-11 items-center rounded-lg bg-indigo-800 px-4 font-semibold text-white hover:bg-indigo-900"
          >
            Restore this version
          </Link>
          <Link to={`/admin/content/${item.id}/history`} className={buttonClass}>
            Back to history
          </Link>
        </div>
      </div>

      <section aria-labelledby="comparison-title" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="comparison-title" className="text-xl font-bold text-slate-900">
          Compared with the current text
        </h2>
        {changes.length === 0 && !imageChanged && !videoNote ? (
          <p className="mt-3 text-slate-700">This version is the same as the current text.</p>
        ) : (
          <>
            {changes.length > 0 && <FieldChanges changes={changes} before="this version" after="the current text" />}
            {(imageChanged || videoNote) && (
              <dl className="mt-4 space-y-4">
                {imageChanged && (
                  <div>
                    <dt className="font-semibold text-slate-900">Featured image</dt>
                    <dd className="mt-1 text-slate-800">This version has a different featured image.</dd>
                  </div>
                )}
                {videoNote && (
                  <div>
                    <dt className="font-semibold text-slate-900">Sign-language video</dt>
                    <dd className="mt-1 text-slate-800">{videoNote}</dd>
                  </div>
                )}
              </dl>
            )}
          </>
        )}
      </section>

      <section aria-labelledby="version-title" className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:p-8">
        <h2 id="version-title" className="text-sm font-semibold tracking-wide text-slate-600 uppercase">
          This version as the page shows it
        </h2>
        <article className="mx-auto mt-6 max-w-3xl">
          <p className="inline-block rounded-full bg-indigo-100 px-3 py-1 text-sm font-semibold text-indigo-900">
            <span className="sr-only">Category: </span>
            {revision.categoryLabel}
          </p>
          <p className="mt-5 text-3xl leading-tight font-extrabold text-balance text-slate-900 md:text-5xl">{then.title}</p>
          {then.summary && (
            <p className="mt-5 text-xl leading-relaxed text-slate-700">
              <span className="sr-only">{summaryLabel}: </span>
              {then.summary}
            </p>
          )}
          {then.video && (
            <p className="mt-5 text-slate-700">
              Sign-language video: “{then.video.name}”
              {then.video.durationSeconds !== null && ` (${formatDuration(then.video.durationSeconds)})`},{' '}
              {then.video.captions ? 'with captions' : 'without captions'}
            </p>
          )}
          {imageGone && <p className="mt-8 rounded-lg bg-amber-50 p-4 text-amber-950">{REVISION_MESSAGES.imageGone}</p>}
          {then.imageUrl && !imageGone && (
            <Image
              src={then.imageUrl}
              alt={then.imageAlt}
              width={1600}
              height={900}
              sizes="(min-width: 768px) 720px, calc(100vw - 2rem)"
              className="mt-8 rounded-2xl"
            />
          )}
          <ArticleBody html={then.content} className="mt-10" />
          {then.tags.length > 0 && (
            <ul aria-label="Tags" className="mt-10 flex flex-wrap gap-2">
              {then.tags.map((tag) => (
                <li key={tag} className="rounded-full bg-slate-100 px-3 py-1 text-sm font-medium text-slate-700">
                  #{tag}
                </li>
              ))}
            </ul>
          )}
        </article>
      </section>
    </>
  );
}
