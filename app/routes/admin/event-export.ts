import { data } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { clientIp } from '~/server/http/request-info.server';
import { failureOf } from '~/server/http/rules.server';
import { getEventForAdmin } from '~/server/events/events.server';
import { exportRegistrationsCsv } from '~/server/events/registrations.server';
import type { Route } from './+types/event-export';

/** One event's registrations as CSV (UTF-8 with a BOM for Excel, formula-like cells neutralised, never cached). */
export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    const event = await getEventForAdmin(params.id);
    const csv = await exportRegistrationsCsv(getStaff(context), params.id, clientIp(context));
    return new Response(`\uFEFF${csv}`, {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="registrations-${event?.slug ?? 'event'}.csv"`,
        'Cache-Control': 'no-store',
      },
    });
  } catch (error) {
    const { message, status } = failureOf(error, 'The export did not work. Please try again.', 'exporting registrations failed');
    throw data({ error: message }, { status });
  }
}
