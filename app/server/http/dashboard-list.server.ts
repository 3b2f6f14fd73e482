import type { RouterContextProvider } from 'react-router';
import type { DashboardList, ListFilter, ListPage } from '../platform/dashboard-list.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import { getStaff } from './staff-context.server.ts';
import { clientIp } from './request-info.server.ts';

// A dashboard list's two addresses (platform/dashboard-list.server.ts): its screen and its CSV
// download, both filtered by the address's `status` and `q`.

/** The page of `list` its address asks for: the filter (`status`, `q`) and the cursor (`after`, else `before`). */
export async function readListPage<View extends string, Item>(
  list: DashboardList<View, string, Item>,
  actor: StaffUser,
  request: Request,
): Promise<{ filter: ListFilter<View>; page: ListPage<Item> }> {
  const params = new URL(request.url).searchParams;
  const filter = list.filterFromParams(params);
  const page = await list.page(actor, { filter, after: params.get('after'), before: params.get('before') });
  return { filter, page };
}

/**
 * The rows of `list` its address shows (its search and status filter apply) as CSV for a
 * spreadsheet: UTF-8 with a BOM for Excel, streamed a page at a time however many there are,
 * formula-like cells neutralised, never cached.
 */
export function csvDownload<View extends string>(
  list: DashboardList<View, string, unknown>,
  request: Request,
  context: Readonly<RouterContextProvider>,
): Response {
  const filter = list.filterFromParams(new URL(request.url).searchParams);
  const body = list.exportCsv(getStaff(context), filter, clientIp(context));
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${list.exportFileName()}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
