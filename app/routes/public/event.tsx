import { data, Form } from 'react-router';
import { PageLink } from '~/components/page-link';
import { ArticleBody } from '~/components/article-body';
import { NotTranslated } from '~/components/easy-read';
import { placesText } from '~/components/event-card';
import { BUTTON, TEXT_LINK } from '~/components/home/styles';
import { Image } from '~/components/image';
import {
  accessFeatures,
  EVENT_LIMITS,
  eventCalendarPath,
  eventJsonLd,
  eventPath,
  eventLocale,
  formatEventWhen,
  HONEYPOT,
  placesLeft,
  registrationIsOpen,
  type RegistrationErrors,
  type RegistrationField,
  type RegistrationResult,
} from '~/lib/events';
import { metaTranslator, useI18n } from '~/lib/i18n/i18n';
import { languageOfPath } from '~/lib/languages';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import { truncate } from '~/lib/text';
import { submitRegistration } from '~/server/http/event-form.server';
import { formAnswer } from '~/server/http/rate-limit.server';
import { requestContext } from '~/server/http/request-context.server';
import { eventsInLanguage } from '~/server/events/event-versions.server';
import { getPublicEvent, readEventTimeZone } from '~/server/events/events.server';
import { getConfig } from '~/server/platform/config.server';
import { getSiteInfo } from '~/server/site/site.server';
import { VisitorTextField } from '~/components/visitor-field';
import type { Route } from './+types/event';

// Issue 27: one event: when and where (in the organisation's time zone), access, places left, the
// description, a calendar file, JSON-LD Event, and the registration form, which works as a plain
// post (no JavaScript) and in place with the page script (decision 025).

export async function loader({ params, request }: Route.LoaderArgs) {
  const language = languageOfPath(new URL(request.url).pathname);
  const found = await getPublicEvent(params.slug);
  if (!found) return data({ event: null }, { status: 404 });
  // Decision 051: in the page's language where the event has a published version there.
  const [[event], timeZone, site] = await Promise.all([eventsInLanguage([found], language), readEventTimeZone(), getSiteInfo()]);
  if (!event) return data({ event: null }, { status: 404 });
  const jsonLd = eventJsonLd(event, { publicUrl: getConfig().publicUrl, organiser: site.name, language });
  return {
    event: {
      ...event,
      when: formatEventWhen(event.startsAt, event.endsAt, timeZone, language),
      deadline: event.registrationDeadline
        ? new Intl.DateTimeFormat(eventLocale(language), {
            timeZone,
            dateStyle: 'full',
            timeStyle: 'short',
            hourCycle: 'h23',
          }).format(new Date(event.registrationDeadline))
        : null,
      open: registrationIsOpen(event),
    },
    jsonLd,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const site = siteFromMatches(matches);
  const event = loaderData?.event;
  if (!event)
    return pageMeta({
      title: metaTranslator(site)('events.notFound'),
      description: metaTranslator(site)('events.notFoundDetail'),
      path: '/events',
      site,
      noindex: true,
    });
  return pageMeta({
    title: event.title,
    description: truncate(event.summary, 160),
    path: eventPath(event.slug),
    site,
    image: event.imageUrl,
    imageAlt: event.imageAlt,
    jsonLd: [loaderData.jsonLd],
  });
};

/** A plain post or the page script's; the answer is a page either way. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const answer = await submitRegistration({ request, clientIp: context.get(requestContext).clientIp, slug: params.slug });
  // The answer may show a cancellation link: never kept by a cache, never sent on as a referrer.
  return formAnswer({ ...answer, headers: { ...answer.headers, 'Cache-Control': 'no-store', 'Referrer-Policy': 'same-origin' } });
}

export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  const headers = new Headers(loaderHeaders);
  for (const name of ['Retry-After', 'Cache-Control', 'Referrer-Policy', 'Connection']) {
    const value = actionHeaders.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
}

export default function EventPage({ loaderData, actionData }: Route.ComponentProps) {
  const { event } = loaderData;
  const { t, tx, english, language } = useI18n();
  if (!event) {
    return (
      <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
        <h1 className="text-4xl font-bold text-slate-900">{t('events.notFound')}</h1>
        <p className="mt-4 text-lg text-slate-700">{t('events.notFoundDetail')}</p>
        <PageLink to="/events" className={`${BUTTON.primary} mt-8`}>
          {t('events.allEvents')}
        </PageLink>
      </section>
    );
  }
  const access = accessFeatures(event).map(tx);
  // Decision 051: the event's words are the page's language's where it has a published version in it.
  const wordsLang = event.textLanguage === 'en' ? english : undefined;
  return (
    <article className="mx-auto max-w-7xl px-4 py-12 md:py-16">
      <nav aria-label={t('events.breadcrumb')} className="text-sm text-slate-600">
        <ol className="flex flex-wrap gap-2">
          <li>
            <PageLink to="/" className="underline-offset-4 hover:underline">
              {t('events.home')}
            </PageLink>
            <span aria-hidden="true"> /</span>
          </li>
          <li>
            <PageLink to="/events" className="underline-offset-4 hover:underline">
              {t('events.events')}
            </PageLink>
            <span aria-hidden="true"> /</span>
          </li>
          <li aria-current="page" lang={wordsLang} className="font-medium text-slate-800">
            {event.title}
          </li>
        </ol>
      </nav>
      <div className="mt-8 grid gap-10 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <NotTranslated textLanguage={event.textLanguage} />
          <h1 lang={wordsLang} className="text-4xl font-extrabold text-balance text-slate-900 md:text-5xl">
            {event.title}
          </h1>
          {event.status === 'cancelled' && (
            <p
              role="status"
              className="mt-4 rounded-lg border-l-4 border-red-700 bg-red-50 p-4 text-lg font-semibold text-red-950"
            >
              {t('events.isCancelled')}
            </p>
          )}
          <p lang={wordsLang} className="mt-4 text-xl text-slate-700">
            {event.summary}
          </p>
          <dl className="mt-6 grid gap-4 rounded-2xl border border-slate-200 bg-white p-6 text-lg shadow-sm sm:grid-cols-2">
            <div>
              <dt className="font-semibold text-slate-900">{t('events.when')}</dt>
              <dd className="text-slate-700">
                <time dateTime={event.startsAt}>{event.when}</time>
              </dd>
            </div>
            <div>
              <dt className="font-semibold text-slate-900">{t('events.whereTitle')}</dt>
              <dd className="text-slate-700">
                {event.place && (
                  <span lang={wordsLang} className="block">
                    {event.place}
                  </span>
                )}
                {event.onlineUrl && (
                  <span className="block">
                    {t('events.onlineColon')}{' '}
                    <a href={event.onlineUrl} className={`${TEXT_LINK} break-all`} rel="noopener noreferrer">
                      {event.onlineUrl}
                    </a>
                  </span>
                )}
              </dd>
            </div>
            <div>
              <dt className="font-semibold text-slate-900">{t('events.accessTitle')}</dt>
              <dd className="text-slate-700">{access.length ? access.join(', ') : t('events.accessNone')}</dd>
            </div>
            {event.status !== 'cancelled' && (
              <div>
                <dt className="font-semibold text-slate-900">{t('events.placesTitle')}</dt>
                <dd className="text-slate-700">
                  {t('events.ofCapacity', { places: placesText(event, t), capacity: event.capacity })}
                </dd>
              </div>
            )}
          </dl>
          <p className="mt-4">
            <a href={eventCalendarPath(event.slug, language)} className={TEXT_LINK} download>
              {t('events.addToCalendar')}
            </a>
          </p>
          {event.imageUrl && (
            <Image
              src={event.imageUrl}
              alt={event.imageAlt}
              lang={wordsLang}
              sizes="(min-width: 1024px) 66vw, 100vw"
              className="mt-8 rounded-2xl shadow-sm"
            />
          )}
          <div lang={wordsLang}>
            <ArticleBody html={event.description} className="mt-8" />
          </div>
        </div>
        <div>
          {actionData?.status === 'registered' ? (
            <Registered result={actionData} />
          ) : event.open ? (
            <RegistrationForm result={actionData} full={placesLeft(event) === 0} deadline={event.deadline} />
          ) : (
            <section aria-labelledby="register-title" className="rounded-2xl border border-slate-200 bg-slate-50 p-6">
              <h2 id="register-title" className="text-2xl font-bold text-slate-900">
                {t('events.registration')}
              </h2>
              <p className="mt-3 text-lg text-slate-700">
                {event.status === 'cancelled' ? t('events.isCancelled') : t('events.closed')}
              </p>
              <PageLink to="/contact?subject=Training" className={`${TEXT_LINK} mt-4 inline-block`}>
                {t('events.askTrainingTitle')}
              </PageLink>
            </section>
          )}
        </div>
      </div>
    </article>
  );
}

function Registered({ result }: { result: Extract<RegistrationResult, { status: 'registered' }> }) {
  const confirmed = result.place === 'confirmed';
  const { t } = useI18n();
  return (
    <section
      aria-labelledby="registered-title"
      className={`rounded-2xl border p-6 shadow-sm ${confirmed ? 'border-emerald-300 bg-emerald-50 text-emerald-950' : 'border-amber-300 bg-amber-50 text-amber-950'}`}
    >
      {/* `autofocus` as the forms' first field to fix has (decision 401): without the page script too, the
          answer, far down a phone's page, is where the reader lands. */}
      <h2 id="registered-title" tabIndex={-1} data-focus="" {...{ autoFocus: true }} className="text-2xl font-bold outline-none">
        {confirmed ? t('events.confirmedTitle') : t('events.waitingTitle')}
      </h2>
      <p className="mt-3 text-lg">
        {confirmed ? t('events.booked', { name: result.name }) : t('events.waiting', { name: result.name })}
      </p>
      {result.mailed && <p className="mt-3 text-lg">{confirmed ? t('events.mailed') : t('events.mailedWaiting')}</p>}
      {result.phoneAgain && <p className="mt-3 text-lg">{t('events.phoneAgain')}</p>}
      {result.cancelUrl && (
        <p className="mt-3 text-lg">
          {t('events.keepLink')}{' '}
          <a href={result.cancelUrl} className="font-semibold break-all underline">
            {result.cancelUrl}
          </a>
        </p>
      )}
    </section>
  );
}

function RegistrationForm({
  result,
  full,
  deadline,
}: {
  result: Exclude<RegistrationResult, { status: 'registered' }> | undefined;
  full: boolean;
  deadline: string | null;
}) {
  const { t, tx } = useI18n();
  const errors: RegistrationErrors = result?.status === 'invalid' ? result.errors : {};
  const values = result?.values;
  const firstInvalid = (['name', 'email', 'phone', 'accessNeeds'] as const).find((f) => errors[f]);
  const field = (name: RegistrationField) => ({
    id: `register-${name}`,
    name,
    error: errors[name],
    defaultValue: values?.[name] ?? '',
    focus: name === firstInvalid,
  });
  return (
    <section aria-labelledby="register-title" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="register-title" className="text-2xl font-bold text-slate-900">
        {full ? t('events.joinWaiting') : t('events.register')}
      </h2>
      <p className="mt-2 text-slate-700">{full ? t('events.allTaken') : t('events.free')}</p>
      {deadline && <p className="mt-2 text-slate-700">{t('events.closes', { deadline })}</p>}
      <p className="mt-2 text-sm text-slate-600">{t('events.detailsUse')}</p>
      {result && (
        <div
          role="alert"
          tabIndex={-1}
          data-focus={firstInvalid ? undefined : ''}
          className="mt-4 rounded-lg border-l-4 border-red-700 bg-red-50 p-4 font-medium text-red-950 outline-none"
        >
          {tx(result.message)}
        </div>
      )}
      <Form
        method="post"
        noValidate
        data-enhance="swap"
        data-sending={t('events.sending')}
        data-failed={t('events.failed')}
        className="mt-4 space-y-4"
      >
        <VisitorTextField {...field('name')} label={t('contact.name')} autoComplete="name" maxLength={EVENT_LIMITS.name} />
        <VisitorTextField
          {...field('email')}
          label={t('events.emailField')}
          type="email"
          autoComplete="email"
          maxLength={EVENT_LIMITS.email}
          optional
        />
        <VisitorTextField
          {...field('phone')}
          label={t('events.phoneField')}
          type="tel"
          autoComplete="tel"
          maxLength={EVENT_LIMITS.phone}
          optional
        />
        <VisitorTextField
          {...field('accessNeeds')}
          label={t('events.accessNeeds')}
          hint={t('events.accessHint')}
          maxLength={EVENT_LIMITS.accessNeeds}
          multiline
          rows={4}
          optional
        />
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label htmlFor="event-website">{t('contact.honeypot')}</label>
          <input id="event-website" name={HONEYPOT} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <button type="submit" className={`${BUTTON.accent} w-full`}>
          {full ? t('events.joinWaiting') : t('events.register')}
        </button>
      </Form>
    </section>
  );
}
