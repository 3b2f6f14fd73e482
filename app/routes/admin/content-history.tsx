import { Link } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { itemForHistory } from '~/server/content/revision-access.server';
import { listRevisions } from '~/server/content/revisions.server';
import { readEditorialTimeZone } from '~/server/content/scheduled-publishing.server';
import { formatInTimeZone } from '~/lib/schedule';
import { revisionActorLabel, revisionKindLabel } from '~/lib/revisions';
import { loaderRefusal } from '~/server/http/rules.server';
import type { Route } from './+types/content-history';
import { dashboardMeta } from '~/lib/seo';

// Issue 13: an item's History: every save (who, when, what kind), newest first. Each opens as the
// public page would show it, with a word comparison against the current text.

export const meta: Route.MetaFunction = ({ loaderData }) =>
  dashboardMeta(loaderData ? `History: ${loaderData.item.title}` : 'History');

export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    const item = await itemForHistory(getStaff(context), params.id);
    const [revisions, timeZone] = await Promise.all([listRevisions(item.id), readEditorialTimeZone()]);
    return {
      item: { id: item.id, title: item.title, type: item.type },
      revisions: revisions.map((r) => ({
        id: r.id,
        number: r.number,
        kind: revisionKindLabel(r.kind),
        by: revisionActorLabel(r),
        at: r.createdAt,
        when: formatInTimeZone(r.createdAt, timeZone),
      })),
    };
  } catch (error) {
    throw loaderRefusal(error);
  }
}

const buttonClass =
  'inline-flex min-h-11 items-center rounded-lg border-2 border-slate-300 bg-white px-4 font-semibold text-slate-800 hover:bg-slate-100';

export default function ContentHistory({ loaderData }: Route.ComponentProps) {
  const { item, revisions } = loaderData;
  return (
    <>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">History</h1>
          <p className="mt-1 break-words text-slate-700">{item.title}</p>
        </div>
        <Link to={`/admin/content/${item.id}/edit`} className={buttonClass}>
          Back to the form
        </Link>
      </div>
      {revisions.length === 0 ? (
        <p className="rounded-2xl border border-slate-200 bg-white p-6 text-slate-700 shadow-sm">No saved versions yet.</p>
      ) : (
        <ol aria-label="Saved versions, newest first" className="space-y-3">
          {revisions.map((revision, index) => (
            <li
              key={revision.id}
              className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
            >
              <div className="min-w-0">
                <p className="font-semibold text-slate-900">
                  {revision.kind} by {revision.by}
                  {index === 0 && (
                    <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-sm font-medium text-emerald-900">
                      Current version
                    </span>
                  )}
                </p>
                <p className="text-sm text-slate-700">
                  <time dateTime={revision.at}>{revision.when}</time>
                  <span aria-hidden="true"> · </span>
                  <span>Version {revision.number}</span>
                </p>
              </div>
              <Link
                to={`/admin/content/${item.id}/history/${revision.id}`}
                aria-label={`View version ${revision.number}: ${revision.kind} by ${revision.by}, ${revision.when}`}
                className={buttonClass}
              >
                View
              </Link>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
