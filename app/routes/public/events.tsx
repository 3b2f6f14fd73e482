import { Link } from 'react-router';
import { EventCard, type EventListItem } from '~/components/event-card';
import { PageHero } from '~/components/home/page-hero';
import { TEXT_LINK } from '~/components/home/styles';
import { formatEventWhen } from '~/lib/events';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import { listPublicEvents, readEventTimeZone } from '~/server/events/events.server';
import { getLogger } from '~/server/platform/logger.server';
import type { Route } from './+types/events';

// Issue 27: trainings and events. Upcoming ones first (soonest first); past ones at /events?past.

export async function loader({ request }: Route.LoaderArgs) {
  const past = new URL(request.url).searchParams.has('past');
  try {
    const [events, timeZone] = await Promise.all([listPublicEvents({ past }), readEventTimeZone()]);
    const items: EventListItem[] = events.map((event) => ({
      ...event,
      when: formatEventWhen(event.startsAt, event.endsAt, timeZone),
    }));
    return { past, events: items, failed: false };
  } catch (error) {
    getLogger().error({ err: error }, 'the events could not be read');
    return { past, events: [] as EventListItem[], failed: true };
  }
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  pageMeta({
    title: loaderData?.past ? 'Past events' : 'Trainings and events',
    description:
      'Sign-language classes for parents and teachers, awareness courses for employers and community events. Register for a place online.',
    path: loaderData?.past ? '/events?past' : '/events',
    site: siteFromMatches(matches),
  });

export default function Events({ loaderData }: Route.ComponentProps) {
  const { past, events, failed } = loaderData;
  return (
    <>
      <PageHero
        id="events-title"
        kicker="Start training"
        title={past ? 'Past events' : 'Trainings and events'}
        intro="Sign-language classes for parents and teachers, awareness courses for employers, and events led by Deaf trainers. Every event says what access it offers; tell us what you need when you register."
      />
      <section aria-labelledby="events-list-title" className="mx-auto max-w-7xl px-4 py-12 md:py-16">
        <h2 id="events-list-title" className="text-2xl font-bold text-slate-900">
          {past ? 'Events that have taken place' : 'Upcoming events'}
        </h2>
        {failed ? (
          <p role="alert" className="mt-6 text-lg text-slate-700">
            Unable to load events. Please try again later.
          </p>
        ) : events.length === 0 ? (
          <p className="mt-6 text-lg text-slate-700">
            {past ? 'No past events yet.' : 'No events are planned right now. Please check again soon, or '}
            {!past && (
              <Link to="/contact?subject=Training" className={TEXT_LINK}>
                ask us about training
              </Link>
            )}
            {!past && '.'}
          </p>
        ) : (
          <ul className="mt-8 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
            {events.map((event) => (
              <li key={event.id}>
                <EventCard event={event} />
              </li>
            ))}
          </ul>
        )}
        <p className="mt-10">
          {past ? (
            <Link to="/events" className={TEXT_LINK}>
              Upcoming events
            </Link>
          ) : (
            <Link to="/events?past" className={TEXT_LINK}>
              Past events
            </Link>
          )}
        </p>
      </section>
    </>
  );
}
