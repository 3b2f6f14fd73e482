import { PageLink } from '~/components/page-link';
import { accessFeatures, eventPath, placesLeft, type PublicEvent } from '~/lib/events';
import { textAround, translator, useI18n, type Translate } from '~/lib/i18n/i18n';
import { TEXT_LINK } from '~/components/home/styles';

// Issue 27: one event in a list (/events and the home page): its title, when (formatted on the
// server in the organisation's time zone), where, the places left and the accessibility it offers.

export type EventListItem = PublicEvent & { when: string };

export function placesText(
  event: Pick<PublicEvent, 'capacity' | 'taken' | 'status' | 'registrationOpen'>,
  t: Translate = translator('en'),
): string {
  if (event.status === 'cancelled') return t('events.cancelled');
  const left = placesLeft(event);
  if (left === 0) return t('events.full');
  return t('events.placesLeft', { count: left });
}

export function EventCard({ event, headingLevel = 'h3' }: { event: EventListItem; headingLevel?: 'h2' | 'h3' }) {
  const Heading = headingLevel;
  const { t, tx, english } = useI18n();
  // Decision 051: the words are the page's language's where the event has a published version in it;
  // else English, marked so a screen reader says them so (the hidden "for <title>" too).
  const wordsLang = event.textLanguage === 'en' ? english : undefined;
  const detailsFor = textAround(t, 'events.detailsFor', 'title');
  const access = accessFeatures(event).map(tx);
  return (
    <article className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <p className="text-sm font-semibold text-indigo-800">
        <time dateTime={event.startsAt}>{event.when}</time>
      </p>
      <Heading lang={wordsLang} className="mt-2 text-xl font-bold text-slate-900">
        <PageLink to={eventPath(event.slug)} className="hover:underline">
          {event.title}
        </PageLink>
      </Heading>
      {event.status === 'cancelled' && (
        <p className="mt-2 inline-block self-start rounded-full bg-red-100 px-3 py-1 text-sm font-semibold text-red-900">
          {t('events.cancelled')}
        </p>
      )}
      <p lang={wordsLang} className="mt-3 text-slate-700">
        {event.summary}
      </p>
      <dl className="mt-4 space-y-1 text-sm text-slate-700">
        <div>
          <dt className="inline font-semibold">{t('events.where')}</dt>
          <dd className="inline">
            {event.place && <span lang={wordsLang}>{event.place}</span>}
            {event.place && event.onlineUrl ? t('events.and') : ''}
            {event.onlineUrl ? t('events.online') : ''}
          </dd>
        </div>
        {event.status !== 'cancelled' && (
          <div>
            <dt className="inline font-semibold">{t('events.places')}</dt>
            <dd className="inline">{placesText(event, t)}</dd>
          </div>
        )}
        {access.length > 0 && (
          <div>
            <dt className="inline font-semibold">{t('events.access')}</dt>
            <dd className="inline">{access.join(', ')}</dd>
          </div>
        )}
      </dl>
      <p className="mt-auto pt-4">
        <PageLink to={eventPath(event.slug)} className={TEXT_LINK}>
          {t('events.details')}
          <span className="sr-only">
            {detailsFor[0]}
            <span lang={wordsLang}>{event.title}</span>
            {detailsFor[1]}
          </span>
        </PageLink>
      </p>
    </article>
  );
}
