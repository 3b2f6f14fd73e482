import { data, Form, Link, redirect } from 'react-router';
import { requireSuperAdmin } from '~/server/auth.server';
import { deleteUser, getUser, UserRuleError } from '~/server/users.server';
import { flashCookie } from '~/server/flash.server';
import { clientIp } from '~/server/request-info.server';
import { getLogger } from '~/server/logger.server';
import { deleteConfirmText, USER_MESSAGES } from '~/lib/users';
import { AccessRestricted } from '~/components/admin/access-restricted';
import type { Route } from './+types/user-delete';

/** The confirmation page used when JavaScript is off (with it, a dialog on the list asks). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const actor = await requireSuperAdmin(request, USER_MESSAGES.deleteForbidden);
  const target = await getUser(params.id);
  if (!target) throw data({ error: 'User not found' }, { status: 404 });
  const refusal =
    target.id === actor.id ? USER_MESSAGES.deleteSelf : target.role === 'SUPER_ADMIN' ? USER_MESSAGES.deleteSuperAdmin : null;
  return { target: { name: target.name, email: target.email }, refusal };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireSuperAdmin(request, USER_MESSAGES.deleteForbidden);
  try {
    await deleteUser(actor, params.id, clientIp(context));
  } catch (error) {
    if (error instanceof UserRuleError) {
      return data(
        { error: error.message },
        { status: error.status, headers: { 'Set-Cookie': flashCookie({ type: 'error', message: error.message }) } },
      );
    }
    getLogger().error({ err: error }, 'deleting a user failed');
    return data({ error: USER_MESSAGES.deleteFailed }, { status: 500 });
  }
  return redirect('/admin/users', {
    headers: { 'Set-Cookie': flashCookie({ type: 'success', message: USER_MESSAGES.deleted }) },
  });
}

export default function UserDelete({ loaderData, actionData }: Route.ComponentProps) {
  const { target, refusal } = loaderData;
  if (refusal) return <AccessRestricted message={refusal} />;
  return (
    <section
      aria-labelledby="delete-title"
      className="mx-auto max-w-lg rounded-2xl border border-slate-200 bg-white p-8 shadow-sm"
    >
      <h1 id="delete-title" className="text-2xl font-bold text-slate-900">
        Confirm delete
      </h1>
      {actionData?.error && (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 p-3 font-medium text-red-900">
          {actionData.error}
        </p>
      )}
      <p className="mt-4 text-slate-800">{deleteConfirmText(target.name, target.email)}</p>
      <div className="mt-6 flex gap-3">
        <Link
          to="/admin/users"
          className="rounded-lg border-2 border-slate-300 px-4 py-2 font-semibold text-slate-800 hover:bg-slate-100"
        >
          Cancel
        </Link>
        <Form method="post">
          <button type="submit" className="rounded-lg bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800">
            Delete
          </button>
        </Form>
      </div>
    </section>
  );
}
