import { data, redirect } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { RuleError } from '~/server/platform/rule-error.server';
import { ruleResponse } from '~/server/http/rules.server';
import { deleteUser, getUser } from '~/server/staff/users.server';
import { flashCookie } from '~/server/http/flash.server';
import { clientIp } from '~/server/http/request-info.server';
import { getLogger } from '~/server/platform/logger.server';
import { deleteConfirmText, USER_MESSAGES } from '~/lib/users';
import { AccessRestricted, ACCESS_RESTRICTED_TITLE } from '~/components/admin/access-restricted';
import { DeleteConfirmation } from '~/components/admin/delete-confirmation';
import type { Route } from './+types/user-delete';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = ({ loaderData }) =>
  dashboardMeta(
    loaderData?.refusal ? ACCESS_RESTRICTED_TITLE : loaderData ? `Delete user: ${loaderData.target.name}` : 'Delete user',
  );

/** The confirmation page used when JavaScript is off (with it, a dialog on the list asks). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const actor = getStaff(context);
  const target = await getUser(params.id);
  if (!target) throw data({ error: 'User not found' }, { status: 404 });
  const refusal =
    target.id === actor.id ? USER_MESSAGES.deleteSelf : target.role === 'SUPER_ADMIN' ? USER_MESSAGES.deleteSuperAdmin : null;
  return { target: { name: target.name, email: target.email }, refusal };
}

export async function action({ params, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  try {
    await deleteUser(actor, params.id, clientIp(context));
  } catch (error) {
    // Deleted meanwhile (in another tab, by another session): back to the list, which no longer has them.
    if (error instanceof RuleError && error.status === 404)
      return redirect('/admin/users', {
        headers: { 'Set-Cookie': flashCookie({ type: 'error', message: USER_MESSAGES.deleteFailed }) },
      });
    if (error instanceof RuleError)
      return ruleResponse(error, { headers: { 'Set-Cookie': flashCookie({ type: 'error', message: error.message }) } });
    getLogger().error({ err: error }, 'deleting a user failed');
    return data({ ok: false, message: USER_MESSAGES.deleteFailed, errors: {} }, { status: 500 });
  }
  return redirect('/admin/users', {
    headers: { 'Set-Cookie': flashCookie({ type: 'success', message: USER_MESSAGES.deleted }) },
  });
}

export default function UserDelete({ loaderData, actionData }: Route.ComponentProps) {
  const { target, refusal } = loaderData;
  if (refusal) return <AccessRestricted message={refusal} />;
  return (
    <DeleteConfirmation
      question={deleteConfirmText(target.name, target.email)}
      cancelTo="/admin/users"
      error={actionData?.message}
    />
  );
}
