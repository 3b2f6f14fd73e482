import { Link } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { listEventsForAdmin, mayEditEvent, readEventTimeZone } from '~/server/events/events.server';
import { can } from '~/lib/permissions';
import { eventPath, formatEventWhen } from '~/lib/events';
import type { Route } from './+types/events';
import { dashboardMeta } from '~/lib/seo';

// Issue 27: the Events section: every event (newest start first), its state and its places.

export const meta: Route.MetaFunction = () => dashboardMeta('Events');

export async function loader({ context }: Route.LoaderArgs) {
  const actor = getStaff(context);
  const [events, timeZone] = await Promise.all([listEventsForAdmin(), readEventTimeZone()]);
  return {
    events: events.map((event) => ({
      id: event.id,
      slug: event.slug,
      title: event.title,
      status: event.status,
      when: formatEventWhen(event.startsAt, event.endsAt, timeZone),
      capacity: event.capacity,
      taken: event.taken,
      waiting: event.waiting,
      registrationOpen: event.registrationOpen,
      mayEdit: mayEditEvent(actor, event),
    })),
    canManage: can(actor.role, 'events:manage'),
  };
}

const STATUS = { draft: 'Draft', published: 'Published', cancelled: 'Cancelled' } as const;

export default function AdminEvents({ loaderData }: Route.ComponentProps) {
  const { events, canManage } = loaderData;
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold text-slate-900">Events</h1>
        <Link
          to="/admin/events/new"
          className="rounded-lg bg-indigo-800 px-5 py-2.5 font-semibold text-white hover:bg-indigo-900"
        >
          Add event
        </Link>
      </div>
      <p className="mt-2 max-w-3xl text-slate-700">
        Trainings and events on the{' '}
        <a href="/events" className="font-medium text-indigo-800 underline underline-offset-4">
          events page
        </a>
        . People register there; when an event is full they join its waiting list.
      </p>
      {events.length === 0 ? (
        <p className="mt-8 text-lg text-slate-700">No events yet.</p>
      ) : (
        <ul className="mt-6 space-y-4">
          {events.map((event) => (
            <li key={event.id} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
              <h2 className="text-lg font-bold break-words text-slate-900">{event.title}</h2>
              <p className="text-slate-700">{event.when}</p>
              <p className="mt-1 text-sm text-slate-700">
                <span className="font-semibold">{STATUS[event.status]}</span>
                {' · '}
                {event.taken} of {event.capacity} places taken{event.waiting ? `, ${event.waiting} waiting` : ''}
                {event.status === 'published' && !event.registrationOpen ? ' · Registration closed' : ''}
              </p>
              <p className="mt-3 flex flex-wrap gap-x-5 gap-y-2">
                {event.mayEdit && (
                  <Link
                    to={`/admin/events/${event.id}/edit`}
                    className="font-semibold text-indigo-800 underline underline-offset-4"
                  >
                    Edit<span className="sr-only"> {event.title}</span>
                  </Link>
                )}
                {canManage && (
                  <Link
                    to={`/admin/events/${event.id}/registrations`}
                    className="font-semibold text-indigo-800 underline underline-offset-4"
                  >
                    Registrations<span className="sr-only"> for {event.title}</span>
                  </Link>
                )}
                {event.status !== 'draft' && (
                  <a href={eventPath(event.slug)} className="font-semibold text-indigo-800 underline underline-offset-4">
                    View<span className="sr-only"> {event.title}</span>
                  </a>
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
