import { redirect } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { createUser } from '~/server/staff/users.server';
import { flashCookie } from '~/server/http/flash.server';
import { clientIp } from '~/server/http/request-info.server';
import { createUserForm, readUserForm, userFormFailure } from '~/server/http/user-form.server';
import { DEFAULT_ROLE } from '~/lib/permissions';
import { USER_MESSAGES, userCreated } from '~/lib/users';
import { UserForm } from '~/components/admin/user-form';
import { UserSubnav } from '~/components/admin/user-subnav';
import type { Route } from './+types/user-new';
import { dashboardMeta } from '~/lib/seo';

// spec §2: only the super admin (users:manage) sees the Add New User form; the admin middleware
// answers anyone else with the spec's words (./access.ts). The loader sends nothing: it is there so
// that every visit, in the browser too, passes that middleware.
export const meta: Route.MetaFunction = () => dashboardMeta('Add New User');

export function loader() {
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  const form = await readUserForm(request, createUserForm, actor.email);
  if (!form.ok) return form.failure;
  try {
    const user = await createUser(actor, form.values, clientIp(context));
    return redirect('/admin/users', {
      headers: { 'Set-Cookie': flashCookie({ type: 'success', message: userCreated(user.name) }) },
    });
  } catch (error) {
    return userFormFailure(error, USER_MESSAGES.createFailed, 'creating a user failed');
  }
}

export default function UserNew({ actionData }: Route.ComponentProps) {
  return (
    <>
      <UserSubnav />
      <h1 className="mb-6 text-2xl font-bold text-slate-900">Add New User</h1>
      <UserForm
        mode="create"
        values={{ name: '', email: '', role: DEFAULT_ROLE, bio: '', profilePicture: null }}
        errors={actionData?.errors}
        roleLocked={false}
        cancelTo="/admin/users"
      />
    </>
  );
}
