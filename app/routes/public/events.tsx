import { PageLink } from '~/components/page-link';
import { EventCard, type EventListItem } from '~/components/event-card';
import { PageHero } from '~/components/home/page-hero';
import { TEXT_LINK } from '~/components/home/styles';
import { formatEventWhen } from '~/lib/events';
import { metaTranslator, useI18n } from '~/lib/i18n/i18n';
import { languageOfPath } from '~/lib/languages';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import { eventsInLanguage } from '~/server/events/event-versions.server';
import { listPublicEvents, readEventTimeZone } from '~/server/events/events.server';
import { getLogger } from '~/server/platform/logger.server';
import type { Route } from './+types/events';

// Issue 27: trainings and events. Upcoming ones first (soonest first); past ones at /events?past.

export async function loader({ request }: Route.LoaderArgs) {
  const past = new URL(request.url).searchParams.has('past');
  const language = languageOfPath(new URL(request.url).pathname);
  try {
    const [listed, timeZone] = await Promise.all([listPublicEvents({ past }), readEventTimeZone()]);
    // Decision 051: each in the page's language where it has a published version there.
    const events = await eventsInLanguage(listed, language);
    const items: EventListItem[] = events.map((event) => ({
      ...event,
      when: formatEventWhen(event.startsAt, event.endsAt, timeZone, language),
    }));
    return { past, events: items, failed: false };
  } catch (error) {
    getLogger().error({ err: error }, 'the events could not be read');
    return { past, events: [] as EventListItem[], failed: true };
  }
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const site = siteFromMatches(matches);
  const t = metaTranslator(site);
  return pageMeta({
    title: loaderData?.past ? t('events.pastTitle') : t('events.title'),
    description: t('meta.events.description'),
    path: loaderData?.past ? '/events?past' : '/events',
    site,
  });
};

export default function Events({ loaderData }: Route.ComponentProps) {
  const { past, events, failed } = loaderData;
  const { t } = useI18n();
  return (
    <>
      <PageHero
        id="events-title"
        kicker={t('events.kicker')}
        title={past ? t('events.pastTitle') : t('events.title')}
        intro={t('events.intro')}
      />
      <section aria-labelledby="events-list-title" className="mx-auto max-w-7xl px-4 py-12 md:py-16">
        <h2 id="events-list-title" className="text-2xl font-bold text-slate-900">
          {past ? t('events.pastHeading') : t('events.upcoming')}
        </h2>
        {failed ? (
          <p role="alert" className="mt-6 text-lg text-slate-700">
            {t('events.loadFailed')}
          </p>
        ) : events.length === 0 ? (
          <p className="mt-6 text-lg text-slate-700">
            {past ? t('events.noPast') : t('events.nonePlanned')}
            {!past && (
              <PageLink to="/contact?subject=Training" className={TEXT_LINK}>
                {t('events.askTraining')}
              </PageLink>
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
            <PageLink to="/events" className={TEXT_LINK}>
              {t('events.upcoming')}
            </PageLink>
          ) : (
            <PageLink to="/events?past" className={TEXT_LINK}>
              {t('events.pastTitle')}
            </PageLink>
          )}
        </p>
      </section>
    </>
  );
}
