import { getStaff } from '~/server/http/staff-context.server';
import { exportFileName, exportMessages, filterFromParams } from '~/server/inbox/messages.server';
import { clientIp } from '~/server/http/request-info.server';
import type { Route } from './+types/messages-export';

/**
 * The list's messages (its search and status filter apply) as CSV for a spreadsheet: UTF-8 with a
 * BOM for Excel, streamed a page at a time, formula-like cells neutralised, never cached.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const filter = filterFromParams(new URL(request.url).searchParams);
  const body = exportMessages(getStaff(context), filter, clientIp(context));
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${exportFileName()}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
