import { PageLink } from '~/components/page-link';
import { EventCard, type EventListItem } from '~/components/event-card';
import { useI18n } from '~/lib/i18n/i18n';
import { TEXT_LINK } from './styles';

/** Issue 27: the next events, after the action cards; left out when none are planned. */
export function NextEvents({ events }: { events: EventListItem[] }) {
  const { t } = useI18n();
  if (events.length === 0) return null;
  return (
    <section aria-labelledby="next-events" className="mx-auto max-w-7xl px-4 pt-16 md:pt-24">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h2 id="next-events" className="text-3xl font-bold text-slate-900 md:text-4xl">
          {t('home.nextEvents')}
        </h2>
        <PageLink to="/events" className={TEXT_LINK}>
          {t('home.allEvents')}
        </PageLink>
      </div>
      <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {events.map((event) => (
          <li key={event.id}>
            <EventCard event={event} />
          </li>
        ))}
      </ul>
    </section>
  );
}
