import { data, Link, redirect } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { saveServiceForm } from '~/server/http/service-form.server';
import { flashCookie } from '~/server/http/flash.server';
import { checkVideoTools } from '~/server/media/video-tools.server';
import { serviceCreated } from '~/lib/services';
import { VIDEO_MESSAGES } from '~/lib/video-upload';
import { EMPTY_SERVICE, ServiceForm } from '~/components/admin/service-form';
import type { Route } from './+types/service-new';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = () => dashboardMeta('Add service');

export async function loader() {
  // Issue 14: whether this server can process a sign-language video, and if not why.
  const tools = await checkVideoTools();
  return { videoUnavailable: tools.available ? null : `${VIDEO_MESSAGES.unavailable}: ${tools.reason}` };
}

/** The form, with or without JavaScript: back to the list with 'Service "{title}" created successfully!'. */
export async function action({ request, context }: Route.ActionArgs) {
  const result = await saveServiceForm(request, context, getStaff(context), { mode: 'create' });
  if (!result.ok) return data(result.failure, { status: result.status, headers: result.headers });
  return redirect('/admin/services', {
    status: 303,
    headers: { 'Set-Cookie': flashCookie({ type: 'success', message: serviceCreated(result.service.title), toast: true }) },
  });
}

export default function ServiceNew({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <p className="mb-2">
        <Link to="/admin/services" className="font-semibold text-indigo-800 underline underline-offset-4">
          All services
        </Link>
      </p>
      <h1 className="mb-6 text-2xl font-bold text-slate-900">Add service</h1>
      <ServiceForm
        key={actionData ? JSON.stringify(actionData.values) : 'fresh'}
        mode="create"
        initial={{ ...EMPTY_SERVICE, ...actionData?.values }}
        failure={actionData}
        videoUnavailable={loaderData.videoUnavailable}
      />
    </>
  );
}
