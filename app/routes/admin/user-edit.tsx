import { data, Link, redirect } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { RuleError } from '~/server/platform/rule-error.server';
import { assertMayEdit, getUser, updateUser } from '~/server/staff/users.server';
import { flashCookie } from '~/server/http/flash.server';
import { clientIp } from '~/server/http/request-info.server';
import { readUserForm, updateUserForm, userFormFailure } from '~/server/http/user-form.server';
import { USER_MESSAGES, userUpdated } from '~/lib/users';
import { AccessRestricted, ACCESS_RESTRICTED_TITLE } from '~/components/admin/access-restricted';
import { UserForm } from '~/components/admin/user-form';
import { UserSubnav } from '~/components/admin/user-subnav';
import type { Route } from './+types/user-edit';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = ({ loaderData }) =>
  dashboardMeta(
    loaderData?.restricted ? ACCESS_RESTRICTED_TITLE : loaderData?.target ? `Edit User: ${loaderData.target.name}` : 'Edit User',
  );

export async function loader({ params, context }: Route.LoaderArgs) {
  const actor = getStaff(context);
  const target = await getUser(params.id);
  if (!target) throw data({ error: 'User not found' }, { status: 404 });
  if (target.id === actor.id) throw redirect('/admin/profile');
  try {
    assertMayEdit(actor, target);
  } catch (error) {
    if (error instanceof RuleError) return data({ restricted: error.message, target: null }, { status: error.status });
    throw error;
  }
  return { restricted: null, target };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  // Refuse before reading the form, so nothing (not even an attached picture) is stored for a refused edit.
  const target = await getUser(params.id);
  if (!target) return data({ errors: { form: USER_MESSAGES.updateFailed } }, { status: 404 });
  try {
    assertMayEdit(actor, target);
  } catch (error) {
    return userFormFailure(error, USER_MESSAGES.updateFailed, 'checking who may edit a user failed');
  }
  const form = await readUserForm(request, updateUserForm, actor.email);
  if (!form.ok) return form.failure;
  try {
    const user = await updateUser(actor, params.id, form.values, clientIp(context));
    return redirect('/admin/users', {
      headers: { 'Set-Cookie': flashCookie({ type: 'success', message: userUpdated(user.name) }) },
    });
  } catch (error) {
    return userFormFailure(error, USER_MESSAGES.updateFailed, 'updating a user failed');
  }
}

export default function UserEdit({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.restricted || !loaderData.target)
    return <AccessRestricted message={loaderData.restricted ?? USER_MESSAGES.updateForbidden} />;
  const { target } = loaderData;
  return (
    <>
      <UserSubnav />
      <h1 className="mb-6 text-2xl font-bold text-slate-900">Edit User</h1>
      <UserForm mode="edit" values={target} errors={actionData?.errors} roleLocked={false} cancelTo="/admin/users" />
      {/* Issue 25: someone who lost their phone and their recovery codes. */}
      <p className="mt-6">
        <Link to={`/admin/users/${target.id}/two-factor`} className="font-medium text-indigo-800 underline underline-offset-4">
          Locked out? Reset their second sign-in step
        </Link>
      </p>
    </>
  );
}
