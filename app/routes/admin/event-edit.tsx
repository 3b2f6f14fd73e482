import { data, Link, redirect } from 'react-router';
import { EventForm } from '~/components/admin/event-form';
import { LanguageVersionsPanel } from '~/components/admin/language-versions';
import { VERSION_LANGUAGES, VERSION_NAMES } from '~/lib/versions';
import { EVENT_TEXT, type EventFormShown } from '~/lib/events';
import { listEventVersions } from '~/server/events/event-versions.server';
import { can } from '~/lib/permissions';
import { utcToZoned } from '~/lib/schedule';
import { getStaff } from '~/server/http/staff-context.server';
import { saveEventForm } from '~/server/http/event-form.server';
import { flashCookie } from '~/server/http/flash.server';
import { clientIp } from '~/server/http/request-info.server';
import { getEventForAdmin, mayEditEvent, readEventTimeZone } from '~/server/events/events.server';
import type { Route } from './+types/event-edit';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = ({ loaderData }) =>
  dashboardMeta(loaderData ? `Edit event: ${loaderData.title}` : 'Edit event');

export async function loader({ params, context }: Route.LoaderArgs) {
  const actor = getStaff(context);
  const event = await getEventForAdmin(params.id);
  if (!event) throw data({ error: EVENT_TEXT.notFound }, { status: 404 });
  if (!mayEditEvent(actor, event))
    throw data({ error: event.status === 'cancelled' ? EVENT_TEXT.alreadyCancelled : EVENT_TEXT.editForbidden }, { status: 403 });
  const timeZone = await readEventTimeZone();
  const start = utcToZoned(event.startsAt, timeZone);
  const end = utcToZoned(event.endsAt, timeZone);
  const deadline = event.registrationDeadline ? utcToZoned(event.registrationDeadline, timeZone) : { date: '', time: '' };
  const initial: EventFormShown = {
    title: event.title,
    summary: event.summary,
    description: event.description,
    startDate: start.date,
    startTime: start.time,
    endDate: end.date,
    endTime: end.time,
    place: event.place,
    onlineUrl: event.onlineUrl,
    capacity: String(event.capacity),
    deadlineDate: deadline.date,
    deadlineTime: deadline.time,
    imageUrl: event.imageUrl ?? '',
    imageAlt: event.imageAlt,
    signLanguage: event.signLanguage,
    captioning: event.captioning,
    stepFree: event.stepFree,
    registrationOpen: event.registrationOpen,
  };
  const canPublish = can(actor.role, 'events:publish');
  // Decision 051: its Luganda and Swahili versions, for the roles that may change them.
  const versions = canPublish ? await listEventVersions(event.id) : [];
  const languages = canPublish
    ? VERSION_LANGUAGES.map((language) => ({
        language,
        name: VERSION_NAMES[language],
        status: versions.find((v) => v.language === language)?.status ?? null,
      }))
    : [];
  return { id: event.id, title: event.title, status: event.status, initial, canPublish, timeZone, languages };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const result = await saveEventForm(request, getStaff(context), { mode: 'edit', id: params.id }, clientIp(context));
  if (!result.ok) return data(result.failure, { status: result.status, headers: result.headers });
  const { event, madePublic } = result;
  const message = madePublic
    ? `Event "${event.title}" published.`
    : `${event.status === 'published' ? 'Event' : 'Draft'} "${event.title}" saved.`;
  return redirect('/admin/events', {
    status: 303,
    headers: { 'Set-Cookie': flashCookie({ type: 'success', message, toast: true }) },
  });
}

export default function EventEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { id, title, status, initial, canPublish, timeZone, languages } = loaderData;
  return (
    <>
      <p className="mb-2">
        <Link to="/admin/events" className="font-semibold text-indigo-800 underline underline-offset-4">
          All events
        </Link>
      </p>
      <h1 className="mb-6 text-2xl font-bold break-words text-slate-900">Edit event: {title}</h1>
      {languages.length > 0 && <LanguageVersionsPanel basePath={`/admin/events/${id}`} languages={languages} />}
      <EventForm
        key={actionData ? JSON.stringify(actionData.values) : 'loaded'}
        initial={actionData ? { ...initial, ...actionData.values } : initial}
        failure={actionData}
        canPublish={canPublish}
        isPublished={status === 'published'}
        timeZone={timeZone}
      />
    </>
  );
}
