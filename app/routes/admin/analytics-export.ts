import { getStaff } from '~/server/http/staff-context.server';
import { analyticsCsv } from '~/server/analytics/report.server';
import { csvFileName } from '~/server/platform/csv-export.server';
import { rangeOf } from '~/lib/analytics';
import type { Route } from './+types/analytics-export';

/**
 * Issue 28: the daily rows of the chosen period as CSV (UTF-8 with a BOM for Excel): whole site for
 * ADMIN and above, an EDITOR's own items for them. Never cached.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const range = rangeOf(new URL(request.url).searchParams);
  if (range.error)
    return new Response(range.error, {
      status: 400,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    });
  const csv = await analyticsCsv(getStaff(context), range);
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${csvFileName('analytics')}"`,
      'Cache-Control': 'no-store',
    },
  });
}
