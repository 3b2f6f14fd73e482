import { eventCalendar } from '~/lib/events';
import { getPublicEvent } from '~/server/events/events.server';
import { getConfig } from '~/server/platform/config.server';
import { getSiteInfo } from '~/server/site/site.server';
import type { Route } from './+types/event-calendar';

// Issue 27: an event as a calendar file (RFC 5545), for "Add to my calendar".

export async function loader({ params }: Route.LoaderArgs) {
  const event = await getPublicEvent(params.slug);
  if (!event) return new Response('Event not found\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const publicUrl = getConfig().publicUrl;
  const site = await getSiteInfo();
  const body = eventCalendar(event, { publicUrl, host: new URL(publicUrl).host, organiser: site.name });
  return new Response(body, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': `attachment; filename="${event.slug}.ics"`,
      'Cache-Control': 'public, max-age=300',
    },
  });
}
