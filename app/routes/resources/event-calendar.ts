import { isVersionLanguage } from '~/lib/versions';
import { eventCalendar } from '~/lib/events';
import { eventsInLanguage } from '~/server/events/event-versions.server';
import { getPublicEvent } from '~/server/events/events.server';
import { getConfig } from '~/server/platform/config.server';
import { getSiteInfo } from '~/server/site/site.server';
import type { Route } from './+types/event-calendar';

// Issue 27: an event as a calendar file (RFC 5545), for "Add to my calendar". Asked for from a page in
// Luganda or Swahili (`?language=lg`), in its published version's words and linking to that page
// (decision 051).

export async function loader({ params, request }: Route.LoaderArgs) {
  const found = await getPublicEvent(params.slug);
  if (!found) return new Response('Event not found\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const asked = new URL(request.url).searchParams.get('language');
  const language = isVersionLanguage(asked) ? asked : 'en';
  const [event] = await eventsInLanguage([found], language);
  const publicUrl = getConfig().publicUrl;
  const site = await getSiteInfo();
  const body = eventCalendar(event!, { publicUrl, host: new URL(publicUrl).host, organiser: site.name, language });
  return new Response(body, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': `attachment; filename="${event!.slug}.ics"`,
      'Cache-Control': 'public, max-age=300',
    },
  });
}
