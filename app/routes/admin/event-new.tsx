import { data, Link, redirect } from 'react-router';
import { EventForm, EMPTY_EVENT } from '~/components/admin/event-form';
import { can } from '~/lib/permissions';
import { getStaff } from '~/server/http/staff-context.server';
import { saveEventForm } from '~/server/http/event-form.server';
import { flashCookie } from '~/server/http/flash.server';
import { clientIp } from '~/server/http/request-info.server';
import { readEventTimeZone } from '~/server/events/events.server';
import type { Route } from './+types/event-new';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = () => dashboardMeta('Add event');

export async function loader({ context }: Route.LoaderArgs) {
  return { canPublish: can(getStaff(context).role, 'events:publish'), timeZone: await readEventTimeZone() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const result = await saveEventForm(request, getStaff(context), { mode: 'create' }, clientIp(context));
  if (!result.ok) return data(result.failure, { status: result.status, headers: result.headers });
  const message = result.madePublic ? `Event "${result.event.title}" published.` : `Draft "${result.event.title}" saved.`;
  return redirect('/admin/events', {
    status: 303,
    headers: { 'Set-Cookie': flashCookie({ type: 'success', message, toast: true }) },
  });
}

export default function EventNew({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <p className="mb-2">
        <Link to="/admin/events" className="font-semibold text-indigo-800 underline underline-offset-4">
          All events
        </Link>
      </p>
      <h1 className="mb-6 text-2xl font-bold text-slate-900">Add event</h1>
      <EventForm
        key={actionData ? JSON.stringify(actionData.values) : 'new'}
        initial={actionData ? { ...EMPTY_EVENT, ...actionData.values } : EMPTY_EVENT}
        failure={actionData}
        canPublish={loaderData.canPublish}
        isPublished={false}
        timeZone={loaderData.timeZone}
      />
    </>
  );
}
