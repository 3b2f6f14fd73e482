import { Link } from 'react-router';
import { listAudit } from '~/server/platform/audit.server';
import { readEditorialTimeZone } from '~/server/content/scheduled-publishing.server';
import { auditActionLabel } from '~/lib/audit';
import type { Route } from './+types/audit';
import { dashboardMeta } from '~/lib/seo';

const PAGE = 50;

export const meta: Route.MetaFunction = () => dashboardMeta('Audit Log');

export async function loader({ request }: Route.LoaderArgs) {
  const before = new URL(request.url).searchParams.get('before') ?? undefined;
  const safeBefore = before && /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(before) ? before : undefined;
  const [rows, timeZone] = await Promise.all([listAudit({ limit: PAGE + 1, before: safeBefore }), readEditorialTimeZone()]);
  const next = rows.length > PAGE ? rows[PAGE - 1]!.at : null;
  return { rows: rows.slice(0, PAGE), next, timeZone };
}

function describe(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .map(([key, value]) => {
      if (value && typeof value === 'object' && 'from' in value && 'to' in value) {
        const change = value as { from: unknown; to: unknown };
        return `${key}: ${String(change.from)} → ${String(change.to)}`;
      }
      return `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`;
    })
    .join('; ');
}

/** The audit log, read-only and newest first (super admin). */
const COLUMNS = ['Time', 'Action', 'Actor', 'Target', 'Detail', 'Address'] as const;

export default function Audit({ loaderData }: Route.ComponentProps) {
  // In the organisation's time zone (Site settings), as every other screen of the dashboard shows times.
  const timeFormat = new Intl.DateTimeFormat('en-US', {
    dateStyle: 'medium',
    timeStyle: 'medium',
    hourCycle: 'h23',
    timeZone: loaderData.timeZone,
  });
  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">Audit Log</h1>
      <p className="mt-1 text-slate-600">
        Sign-ins, account changes and content changes, newest first. Times are {loaderData.timeZone} time.
      </p>
      {/* On a phone the table scrolls sideways: a labelled region that takes focus, so arrow keys scroll it. */}
      <div
        role="region"
        aria-label="Audit log entries"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must take focus (WCAG 2.1.1)
        tabIndex={0}
        className="relative mt-6 overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm focus:ring-4 focus:ring-indigo-300 focus:outline-none"
      >
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Audit log entries</caption>
          <thead className="bg-slate-100 text-slate-800">
            <tr>
              {COLUMNS.map((column) => (
                <th key={column} scope="col" className="px-4 py-3">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {loaderData.rows.map((row) => (
              <tr key={row.id} className="border-t border-slate-200 align-top">
                <td className="px-4 py-3 whitespace-nowrap text-slate-800">
                  <time dateTime={row.at}>{timeFormat.format(new Date(row.at))}</time>
                </td>
                <td className="px-4 py-3 font-medium text-slate-900">{auditActionLabel(row.action)}</td>
                <td className="px-4 py-3 break-all text-slate-800">{row.actor ?? '—'}</td>
                <td className="px-4 py-3 break-all text-slate-800">{row.target ?? '—'}</td>
                <td className="px-4 py-3 text-slate-700">{describe(row.detail)}</td>
                <td className="px-4 py-3 text-slate-700">{row.ip ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {loaderData.next && (
        <Link
          to={`?before=${encodeURIComponent(loaderData.next)}`}
          className="mt-4 inline-block font-semibold text-indigo-800 underline"
        >
          Older entries
        </Link>
      )}
    </>
  );
}
