import { data, redirect } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { deleteService, getServiceForAdmin, listServicesForAdmin } from '~/server/content/services.server';
import { flashCookie } from '~/server/http/flash.server';
import { clientIp } from '~/server/http/request-info.server';
import { SERVICE_MESSAGES, serviceDeleted, serviceDeleteQuestion } from '~/lib/services';
import { DeleteConfirmation } from '~/components/admin/delete-confirmation';
import { redirectWithFailure } from '~/server/http/rules.server';
import type { Route } from './+types/service-delete';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = () => dashboardMeta('Delete service');

/** The confirmation page used without JavaScript (with it, a dialog on the list asks). */
export async function loader({ params }: Route.LoaderArgs) {
  const service = await getServiceForAdmin(params.id);
  if (!service) throw data({ error: SERVICE_MESSAGES.notFound }, { status: 404 });
  const last = (await listServicesForAdmin()).length === 1;
  return { question: serviceDeleteQuestion(service.title, last) };
}

/** SUPER_ADMIN and ADMIN only (services:delete): the access table refuses anyone else, and so does the service. */
export async function action({ params, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  try {
    const service = await deleteService(actor, params.id, clientIp(context));
    return redirect('/admin/services', {
      status: 303,
      headers: { 'Set-Cookie': flashCookie({ type: 'success', message: serviceDeleted(service.title), toast: true }) },
    });
  } catch (error) {
    // Told with the list (a flash), which shows what is there now.
    return redirectWithFailure(
      '/admin/services',
      error,
      'Please try again.',
      'deleting a service failed',
      SERVICE_MESSAGES.deleteFailed,
    );
  }
}

export default function ServiceDelete({ loaderData }: Route.ComponentProps) {
  return <DeleteConfirmation question={loaderData.question} cancelTo="/admin/services" />;
}
