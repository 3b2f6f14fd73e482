import { Link, redirect } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { getUser, updateUser } from '~/server/staff/users.server';
import { flashCookie } from '~/server/http/flash.server';
import { clientIp } from '~/server/http/request-info.server';
import { profileForm, readUserForm, userFormFailure } from '~/server/http/user-form.server';
import { USER_MESSAGES, userUpdated } from '~/lib/users';
import { can, homePathFor } from '~/lib/permissions';
import { UserForm } from '~/components/admin/user-form';
import type { Route } from './+types/profile';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = () => dashboardMeta('My profile');

/** spec §6: every user may edit their own card (name, bio, picture; never their own role). */
export async function loader({ context }: Route.LoaderArgs) {
  const actor = getStaff(context);
  const me = await getUser(actor.id);
  if (!me) throw redirect('/admin?signedOut=account-removed');
  return { me };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  // The role is never taken from this form.
  const form = await readUserForm(request, profileForm, actor.email);
  if (!form.ok) return form.failure;
  try {
    const user = await updateUser(actor, actor.id, form.values, clientIp(context));
    const back = can(actor.role, 'users:manage') ? '/admin/users' : homePathFor(actor.role);
    return redirect(back, { headers: { 'Set-Cookie': flashCookie({ type: 'success', message: userUpdated(user.name) }) } });
  } catch (error) {
    return userFormFailure(error, USER_MESSAGES.updateFailed, 'updating a profile failed');
  }
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { me } = loaderData;
  return (
    <>
      <h1 className="mb-2 text-2xl font-bold text-slate-900">My profile</h1>
      <p className="mb-6">
        <Link to="/admin/security" className="font-medium text-indigo-800 underline underline-offset-4">
          My sign-in: second step, sessions and remembered devices
        </Link>
      </p>
      <UserForm mode="edit" values={me} errors={actionData?.errors} roleLocked cancelTo="/admin" />
    </>
  );
}
