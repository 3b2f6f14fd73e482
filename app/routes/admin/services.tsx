import { data, Link } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { listServicesForAdmin, moveService, moveServiceSchema } from '~/server/content/services.server';
import { parseForm } from '~/server/http/forms.server';
import { clientIp } from '~/server/http/request-info.server';
import { can } from '~/lib/permissions';
import { SERVICE_MESSAGES, serviceMoved } from '~/lib/services';
import { ServiceList, type MoveAnswer } from '~/components/admin/service-list';
import { failureAnswer } from '~/server/http/rules.server';
import type { Route } from './+types/services';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = () => dashboardMeta('Services');

export async function loader({ context }: Route.LoaderArgs) {
  const user = getStaff(context);
  const canDelete = can(user.role, 'services:delete');
  return { services: await listServicesForAdmin(), canDelete };
}

/** Move up / Move down (a form per button, so it works without JavaScript). */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(request, moveServiceSchema, { maxBytes: 2_000 });
  if (!form.ok) {
    const message = form.refused ? form.formError : SERVICE_MESSAGES.moveFailed;
    return data({ ok: false, message } satisfies MoveAnswer, { status: form.status, headers: form.headers });
  }
  const { id, direction } = form.values;
  try {
    const moved = await moveService(getStaff(context), id, direction, clientIp(context));
    const message = serviceMoved(moved.service.title, moved.position, moved.count);
    return { ok: true, message, id, direction } satisfies MoveAnswer;
  } catch (error) {
    return failureAnswer(error, SERVICE_MESSAGES.moveFailed, 'moving a service failed');
  }
}

/** The Services tab: the stored services in the order the public page shows them. */
export default function Services({ loaderData, actionData }: Route.ComponentProps) {
  const { services, canDelete } = loaderData;
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold text-slate-900">Services</h1>
        <Link
          to="/admin/services/new"
          className="rounded-lg bg-indigo-800 px-5 py-2.5 font-semibold text-white hover:bg-indigo-900"
        >
          Add service
        </Link>
      </div>
      <p className="mt-2 max-w-3xl text-slate-700">
        The{' '}
        <a href="/services" className="font-medium text-indigo-800 underline underline-offset-4">
          services page
        </a>{' '}
        shows them in this order. Move a service up or down to change it.
      </p>
      <ServiceList services={services} canDelete={canDelete} answer={actionData} />
    </>
  );
}
