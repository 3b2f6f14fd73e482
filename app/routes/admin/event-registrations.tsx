import { isPrefixedLanguage, STAFF_LANGUAGE_NAMES } from '~/lib/languages';
import { data, Form, Link } from 'react-router';
import { z } from 'zod';
import { Banner } from '~/components/admin/banner';
import { Field, inputClass } from '~/components/admin/form';
import { EVENT_LIMITS, EVENT_TEXT, eventMessageSchema, eventPath, formatEventWhen } from '~/lib/events';
import { getStaff } from '~/server/http/staff-context.server';
import { parseForm } from '~/server/http/forms.server';
import { clientIp } from '~/server/http/request-info.server';
import { failureOf } from '~/server/http/rules.server';
import { getEventForAdmin, readEventTimeZone } from '~/server/events/events.server';
import {
  cancelEvent,
  listRegistrations,
  messageRegistrants,
  setAttended,
  setRegistrationOpen,
} from '~/server/events/registrations.server';
import type { Route } from './+types/event-registrations';
import { dashboardMeta } from '~/lib/seo';

// Issue 27, part 5: one event's attendees and waiting list, attendance, a message to everyone
// registered, closing registration, cancelling the event and the CSV export. Every form works
// without JavaScript; the server checks `events:manage` for each (registrations.server.ts).

export const meta: Route.MetaFunction = ({ loaderData }) =>
  dashboardMeta(loaderData ? `Registrations: ${loaderData.event.title}` : 'Registrations');

export async function loader({ params, context }: Route.LoaderArgs) {
  const actor = getStaff(context);
  const event = await getEventForAdmin(params.id);
  if (!event) throw data({ error: EVENT_TEXT.notFound }, { status: 404 });
  const [registrations, timeZone] = await Promise.all([listRegistrations(actor, event.id), readEventTimeZone()]);
  return {
    event: {
      id: event.id,
      slug: event.slug,
      title: event.title,
      status: event.status,
      capacity: event.capacity,
      taken: event.taken,
      registrationOpen: event.registrationOpen,
      when: formatEventWhen(event.startsAt, event.endsAt, timeZone),
    },
    registrations,
  };
}

const actionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('attended'), registration: z.string().max(100), attended: z.enum(['yes', 'no']) }),
  z.object({ intent: z.literal('registration'), open: z.enum(['yes', 'no']) }),
  eventMessageSchema,
  z.object({
    intent: z.literal('cancel'),
    confirm: z.literal('yes', 'Please tick the box to confirm that everyone registered is told the event is cancelled.'),
  }),
]);

const INTENTS = ['attended', 'registration', 'message', 'cancel'] as const;
type Intent = (typeof INTENTS)[number];
type Answer = {
  ok: boolean;
  /** The form that answered: its message shows beside it, where the staff member is. */
  intent?: Intent;
  /** A sent message's own mark: its form starts empty again, so it is not sent twice by mistake. */
  sent?: string;
  message: string;
  errors?: Record<string, string | undefined>;
  values?: { subject?: string; message?: string };
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await parseForm(request, actionSchema, { maxBytes: 32_000 });
  if (!form.ok) {
    const errors = form.refused ? {} : (form.fieldErrors as Record<string, string | undefined>);
    const message = form.refused ? form.formError : (Object.values(errors).find(Boolean) ?? 'Please check the form.');
    const intent = INTENTS.find((one) => one === form.values.intent);
    return data(
      {
        ok: false,
        intent,
        message,
        errors,
        values: { subject: form.values.subject, message: form.values.message },
      } satisfies Answer,
      {
        status: form.status,
        headers: form.headers,
      },
    );
  }
  const actor = getStaff(context);
  const ip = clientIp(context);
  const values = form.values;
  try {
    switch (values.intent) {
      case 'attended':
        await setAttended(actor, params.id, values.registration, values.attended === 'yes', ip);
        return {
          ok: true,
          message: values.attended === 'yes' ? 'Marked as attended.' : 'Marked as not attended.',
        } satisfies Answer;
      case 'registration':
        await setRegistrationOpen(actor, params.id, values.open === 'yes', ip);
        return {
          ok: true,
          message: values.open === 'yes' ? 'Registration is open.' : 'Registration is closed.',
        } satisfies Answer;
      case 'message': {
        const count = await messageRegistrants(actor, params.id, values, ip);
        return {
          ok: true,
          intent: 'message',
          sent: new Date().toISOString(),
          message: count === 1 ? 'Message queued for 1 person.' : `Message queued for ${count} people.`,
        } satisfies Answer;
      }
      case 'cancel': {
        const count = await cancelEvent(actor, params.id, ip);
        return {
          ok: true,
          intent: 'cancel',
          message: `The event is cancelled; ${count === 1 ? '1 person is' : `${count} people are`} being told by email.`,
        } satisfies Answer;
      }
    }
  } catch (error) {
    const { message, status } = failureOf(error, 'That did not work. Please try again.', 'an event action failed');
    return data({ ok: false, intent: values.intent, message } satisfies Answer, { status });
  }
}

const STATUS = { confirmed: 'Has a place', waiting: 'Waiting', cancelled: 'Cancelled' } as const;

export default function EventRegistrations({ loaderData, actionData }: Route.ComponentProps) {
  const { event, registrations } = loaderData;
  const answer = actionData as Answer | undefined;
  const confirmed = registrations.filter((r) => r.status === 'confirmed');
  const waiting = registrations.filter((r) => r.status === 'waiting');
  const cancelled = registrations.filter((r) => r.status === 'cancelled');
  const live = event.status !== 'cancelled';
  // A message or a cancellation answers in its own section (once cancelled, that section is gone: at the top).
  const beside = live && (answer?.intent === 'message' || answer?.intent === 'cancel') ? answer.intent : undefined;
  const banner = (where: Intent | undefined) =>
    answer && beside === where ? (
      <div className="mt-4">
        <Banner key={answer.message} type={answer.ok ? 'success' : 'error'} message={answer.message} autoClose={answer.ok} />
      </div>
    ) : null;
  return (
    <>
      <p className="mb-2">
        <Link to="/admin/events" className="font-semibold text-indigo-800 underline underline-offset-4">
          All events
        </Link>
      </p>
      <h1 className="text-2xl font-bold break-words text-slate-900">Registrations: {event.title}</h1>
      <p className="mt-1 text-slate-700">
        {event.when} · {event.taken} of {event.capacity} places taken, {waiting.length} waiting
        {event.status === 'cancelled'
          ? ' · Cancelled'
          : event.registrationOpen
            ? ' · Registration open'
            : ' · Registration closed'}{' '}
        ·{' '}
        <a href={eventPath(event.slug)} className="font-medium text-indigo-800 underline underline-offset-4">
          Public page
        </a>
      </p>
      {banner(undefined)}
      <div className="mt-4 flex flex-wrap gap-3">
        <a
          href={`/admin/events/${event.id}/export`}
          className="inline-flex min-h-11 items-center rounded-lg border-2 border-indigo-800 px-4 font-semibold text-indigo-900"
          download
        >
          Export CSV
        </a>
        {live && (
          <Form method="post">
            <input type="hidden" name="intent" value="registration" />
            <input type="hidden" name="open" value={event.registrationOpen ? 'no' : 'yes'} />
            <button type="submit" className="min-h-11 rounded-lg border-2 border-indigo-800 px-4 font-semibold text-indigo-900">
              {event.registrationOpen ? 'Close registration' : 'Open registration'}
            </button>
          </Form>
        )}
      </div>
      <List title={`Attendees (${confirmed.length})`} id="attendees" rows={confirmed} attendance={live} />
      <List title={`Waiting list (${waiting.length})`} id="waiting" rows={waiting} attendance={false} />
      {cancelled.length > 0 && (
        <List title={`Cancelled (${cancelled.length})`} id="cancelled" rows={cancelled} attendance={false} />
      )}
      {live && (
        <section
          aria-labelledby="message-title"
          className="mt-10 max-w-3xl rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
        >
          <h2 id="message-title" className="text-xl font-bold text-slate-900">
            Message everyone registered
          </h2>
          <p className="mt-1 text-slate-700">
            Sent by email to everyone with a place or waiting who gave an address. Each gets a greeting and the event’s details in
            the language they registered in; your words go as you write them.
          </p>
          {banner('message')}
          <Form key={answer?.sent ?? 'message'} method="post" className="mt-4 space-y-4">
            <input type="hidden" name="intent" value="message" />
            <Field id="subject" label="Subject" required error={answer?.errors?.subject}>
              {(control) => (
                <input
                  {...control}
                  name="subject"
                  maxLength={EVENT_LIMITS.subject}
                  defaultValue={answer?.ok ? '' : (answer?.values?.subject ?? '')}
                  className={inputClass(Boolean(answer?.errors?.subject))}
                />
              )}
            </Field>
            <Field id="message" label="Message" required error={answer?.errors?.message}>
              {(control) => (
                <textarea
                  {...control}
                  name="message"
                  rows={6}
                  maxLength={EVENT_LIMITS.message}
                  defaultValue={answer?.ok ? '' : (answer?.values?.message ?? '')}
                  className={inputClass(Boolean(answer?.errors?.message))}
                />
              )}
            </Field>
            <button type="submit" className="min-h-11 rounded-lg bg-indigo-800 px-5 font-semibold text-white hover:bg-indigo-900">
              Send message
            </button>
          </Form>
        </section>
      )}
      {live && (
        <section aria-labelledby="cancel-title" className="mt-10 max-w-3xl rounded-2xl border border-red-200 bg-red-50 p-6">
          <h2 id="cancel-title" className="text-xl font-bold text-red-950">
            Cancel this event
          </h2>
          <p className="mt-1 text-red-950">
            Registration stops, the event shows as cancelled, and everyone registered is told by email. This cannot be undone.
          </p>
          {banner('cancel')}
          <Form method="post" className="mt-4 space-y-3">
            <input type="hidden" name="intent" value="cancel" />
            <label className="flex min-h-11 items-center gap-3 text-red-950">
              <input
                type="checkbox"
                name="confirm"
                value="yes"
                aria-invalid={answer?.errors?.confirm ? true : undefined}
                className="h-5 w-5"
              />
              Yes, cancel the event and tell everyone
            </label>
            <button type="submit" className="min-h-11 rounded-lg bg-red-800 px-5 font-semibold text-white hover:bg-red-900">
              Cancel event
            </button>
          </Form>
        </section>
      )}
    </>
  );
}

function List({
  title,
  id,
  rows,
  attendance,
}: {
  title: string;
  id: string;
  rows: Route.ComponentProps['loaderData']['registrations'];
  attendance: boolean;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="mt-8">
      <h2 id={`${id}-title`} className="text-xl font-bold text-slate-900">
        {title}
      </h2>
      {rows.length === 0 ? (
        <p className="mt-2 text-slate-700">Nobody yet.</p>
      ) : (
        <div className="relative mt-3 overflow-x-auto">
          <table className="min-w-full border-collapse text-left text-sm">
            <thead>
              <tr className="border-b border-slate-300">
                <th scope="col" className="p-2">
                  No.
                </th>
                <th scope="col" className="p-2">
                  Name
                </th>
                <th scope="col" className="p-2">
                  Contact
                </th>
                <th scope="col" className="p-2">
                  Access needs
                </th>
                <th scope="col" className="p-2">
                  {attendance ? 'Attended' : 'Status'}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} className="border-b border-slate-200 align-top">
                  <td className="p-2">{row.seq}</td>
                  <td className="p-2 break-words">
                    {row.name}
                    {isPrefixedLanguage(row.language) && (
                      <span className="block text-slate-700">Registered in {STAFF_LANGUAGE_NAMES[row.language]}</span>
                    )}
                  </td>
                  <td className="p-2 break-all">{[row.email, row.phone].filter(Boolean).join(', ')}</td>
                  <td className="p-2 break-words">{row.accessNeeds}</td>
                  <td className="p-2">
                    {attendance ? (
                      <Form method="post">
                        <input type="hidden" name="intent" value="attended" />
                        <input type="hidden" name="registration" value={row.id} />
                        <input type="hidden" name="attended" value={row.attended ? 'no' : 'yes'} />
                        <button
                          type="submit"
                          aria-pressed={row.attended}
                          className="min-h-11 rounded-lg border-2 border-slate-300 px-3 font-semibold"
                        >
                          {row.attended ? 'Attended ✓' : 'Mark attended'}
                          <span className="sr-only"> for {row.name}</span>
                        </button>
                      </Form>
                    ) : (
                      STATUS[row.status]
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
