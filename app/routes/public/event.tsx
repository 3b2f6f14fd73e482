import { data, Form, Link } from 'react-router';
import { ArticleBody } from '~/components/article-body';
import { placesText } from '~/components/event-card';
import { BUTTON, TEXT_LINK } from '~/components/home/styles';
import { Image } from '~/components/image';
import {
  accessFeatures,
  EVENT_LIMITS,
  EVENT_TEXT,
  eventCalendarPath,
  eventJsonLd,
  eventPath,
  formatEventWhen,
  HONEYPOT,
  placesLeft,
  registrationIsOpen,
  type RegistrationErrors,
  type RegistrationField,
  type RegistrationResult,
} from '~/lib/events';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import { truncate } from '~/lib/text';
import { submitRegistration } from '~/server/http/event-form.server';
import { formAnswer } from '~/server/http/rate-limit.server';
import { requestContext } from '~/server/http/request-context.server';
import { getPublicEvent, readEventTimeZone } from '~/server/events/events.server';
import { getConfig } from '~/server/platform/config.server';
import { getSiteInfo } from '~/server/site/site.server';
import { VisitorTextField } from '~/components/visitor-field';
import type { Route } from './+types/event';

// Issue 27: one event: when and where (in the organisation's time zone), access, places left, the
// description, a calendar file, JSON-LD Event, and the registration form, which works as a plain
// post (no JavaScript) and in place with the page script (decision 025).

export async function loader({ params }: Route.LoaderArgs) {
  const event = await getPublicEvent(params.slug);
  if (!event) return data({ event: null }, { status: 404 });
  const [timeZone, site] = await Promise.all([readEventTimeZone(), getSiteInfo()]);
  const jsonLd = eventJsonLd(event, { publicUrl: getConfig().publicUrl, organiser: site.name });
  return {
    event: {
      ...event,
      when: formatEventWhen(event.startsAt, event.endsAt, timeZone),
      deadline: event.registrationDeadline
        ? new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'full', timeStyle: 'short' }).format(
            new Date(event.registrationDeadline),
          )
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
    return pageMeta({ title: EVENT_TEXT.notFound, description: EVENT_TEXT.notFoundDetail, path: '/events', site, noindex: true });
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
  if (!event) {
    return (
      <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
        <h1 className="text-4xl font-bold text-slate-900">{EVENT_TEXT.notFound}</h1>
        <p className="mt-4 text-lg text-slate-700">{EVENT_TEXT.notFoundDetail}</p>
        <Link to="/events" className={`${BUTTON.primary} mt-8`}>
          All events
        </Link>
      </section>
    );
  }
  const access = accessFeatures(event);
  return (
    <article className="mx-auto max-w-7xl px-4 py-12 md:py-16">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <ol className="flex flex-wrap gap-2">
          <li>
            <Link to="/" className="underline-offset-4 hover:underline">
              Home
            </Link>
            <span aria-hidden="true"> /</span>
          </li>
          <li>
            <Link to="/events" className="underline-offset-4 hover:underline">
              Events
            </Link>
            <span aria-hidden="true"> /</span>
          </li>
          <li aria-current="page" className="font-medium text-slate-800">
            {event.title}
          </li>
        </ol>
      </nav>
      <div className="mt-8 grid gap-10 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <h1 className="text-4xl font-extrabold text-balance text-slate-900 md:text-5xl">{event.title}</h1>
          {event.status === 'cancelled' && (
            <p
              role="status"
              className="mt-4 rounded-lg border-l-4 border-red-700 bg-red-50 p-4 text-lg font-semibold text-red-950"
            >
              This event is cancelled.
            </p>
          )}
          <p className="mt-4 text-xl text-slate-700">{event.summary}</p>
          <dl className="mt-6 grid gap-4 rounded-2xl border border-slate-200 bg-white p-6 text-lg shadow-sm sm:grid-cols-2">
            <div>
              <dt className="font-semibold text-slate-900">When</dt>
              <dd className="text-slate-700">
                <time dateTime={event.startsAt}>{event.when}</time>
              </dd>
            </div>
            <div>
              <dt className="font-semibold text-slate-900">Where</dt>
              <dd className="text-slate-700">
                {event.place && <span className="block">{event.place}</span>}
                {event.onlineUrl && (
                  <span className="block">
                    Online:{' '}
                    <a href={event.onlineUrl} className={`${TEXT_LINK} break-all`} rel="noopener noreferrer">
                      {event.onlineUrl}
                    </a>
                  </span>
                )}
              </dd>
            </div>
            <div>
              <dt className="font-semibold text-slate-900">Access</dt>
              <dd className="text-slate-700">{access.length ? access.join(', ') : 'Tell us what you need when you register.'}</dd>
            </div>
            {event.status !== 'cancelled' && (
              <div>
                <dt className="font-semibold text-slate-900">Places</dt>
                <dd className="text-slate-700">
                  {placesText(event)} (of {event.capacity})
                </dd>
              </div>
            )}
          </dl>
          <p className="mt-4">
            <a href={eventCalendarPath(event.slug)} className={TEXT_LINK} download>
              Add to my calendar (.ics)
            </a>
          </p>
          {event.imageUrl && (
            <Image
              src={event.imageUrl}
              alt={event.imageAlt}
              sizes="(min-width: 1024px) 66vw, 100vw"
              className="mt-8 rounded-2xl shadow-sm"
            />
          )}
          <ArticleBody html={event.description} className="mt-8" />
        </div>
        <div>
          {actionData?.status === 'registered' ? (
            <Registered result={actionData} />
          ) : event.open ? (
            <RegistrationForm result={actionData} full={placesLeft(event) === 0} deadline={event.deadline} />
          ) : (
            <section aria-labelledby="register-title" className="rounded-2xl border border-slate-200 bg-slate-50 p-6">
              <h2 id="register-title" className="text-2xl font-bold text-slate-900">
                Registration
              </h2>
              <p className="mt-3 text-lg text-slate-700">
                {event.status === 'cancelled' ? 'This event is cancelled.' : EVENT_TEXT.closed}
              </p>
              <Link to="/contact?subject=Training" className={`${TEXT_LINK} mt-4 inline-block`}>
                Ask us about training
              </Link>
            </section>
          )}
        </div>
      </div>
    </article>
  );
}

function Registered({ result }: { result: Extract<RegistrationResult, { status: 'registered' }> }) {
  const confirmed = result.place === 'confirmed';
  return (
    <section
      aria-labelledby="registered-title"
      className={`rounded-2xl border p-6 shadow-sm ${confirmed ? 'border-emerald-300 bg-emerald-50 text-emerald-950' : 'border-amber-300 bg-amber-50 text-amber-950'}`}
    >
      <h2 id="registered-title" tabIndex={-1} data-focus="" className="text-2xl font-bold outline-none">
        {confirmed ? EVENT_TEXT.confirmedTitle : EVENT_TEXT.waitingTitle}
      </h2>
      <p className="mt-3 text-lg">
        {confirmed
          ? `Thank you, ${result.name}. Your place is booked.`
          : `Thank you, ${result.name}. The event is full, so you are on the waiting list. If a place comes free, it goes to the first person waiting and we will tell you at once.`}
      </p>
      {result.mailed && (
        <p className="mt-3 text-lg">
          We have sent you an email with the details, a calendar file and a link to cancel if you cannot come.
        </p>
      )}
      {result.cancelUrl && (
        <p className="mt-3 text-lg">
          Keep this private link to cancel if you cannot come (it works once):{' '}
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
        {full ? 'Join the waiting list' : 'Register'}
      </h2>
      <p className="mt-2 text-slate-700">
        {full
          ? 'All places are taken. Register to join the waiting list: places that come free go to the first person waiting.'
          : 'Free of charge. Give an email address or a phone number (or both).'}
      </p>
      {deadline && <p className="mt-2 text-slate-700">Registration closes {deadline}.</p>}
      <p className="mt-2 text-sm text-slate-600">
        We use your details only for this event (to confirm your place, tell you of changes and remind you the day before).
      </p>
      {result && (
        <div
          role="alert"
          tabIndex={-1}
          data-focus={firstInvalid ? undefined : ''}
          className="mt-4 rounded-lg border-l-4 border-red-700 bg-red-50 p-4 font-medium text-red-950 outline-none"
        >
          {result.message}
        </div>
      )}
      <Form
        method="post"
        noValidate
        data-enhance="swap"
        data-sending={EVENT_TEXT.sending}
        data-failed={EVENT_TEXT.failed}
        className="mt-4 space-y-4"
      >
        <VisitorTextField {...field('name')} label="Name" autoComplete="name" maxLength={EVENT_LIMITS.name} />
        <VisitorTextField
          {...field('email')}
          label="Email (or phone below)"
          type="email"
          autoComplete="email"
          maxLength={EVENT_LIMITS.email}
          optional
        />
        <VisitorTextField
          {...field('phone')}
          label="Phone (or email above)"
          type="tel"
          autoComplete="tel"
          maxLength={EVENT_LIMITS.phone}
          optional
        />
        <VisitorTextField
          {...field('accessNeeds')}
          label="Access needs (optional)"
          hint="For example an interpreter, captions, step-free access or a support person."
          maxLength={EVENT_LIMITS.accessNeeds}
          multiline
          rows={4}
          optional
        />
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label htmlFor="event-website">Website (leave this empty)</label>
          <input id="event-website" name={HONEYPOT} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <button type="submit" className={`${BUTTON.accent} w-full`}>
          {full ? 'Join the waiting list' : EVENT_TEXT.register}
        </button>
      </Form>
    </section>
  );
}
