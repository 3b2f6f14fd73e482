import { redirect } from 'react-router';
import { requireUser } from '~/server/auth.server';
import { getUser, updateUser } from '~/server/users.server';
import { flashCookie } from '~/server/flash.server';
import { clientIp } from '~/server/request-info.server';
import { readUserForm, schemaFailure, userFormFailure } from '~/server/user-form.server';
import { getLogger } from '~/server/logger.server';
import { updateUserSchema, USER_MESSAGES, userUpdated } from '~/lib/users';
import { homePathFor } from '~/lib/permissions';
import { UserForm } from '~/components/admin/user-form';
import type { Route } from './+types/profile';

/** spec §6: every user may edit their own card (name, bio, picture; never their own role). */
export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireUser(request);
  const me = await getUser(actor.id);
  if (!me) throw redirect('/admin?signedOut=account-removed');
  return { me };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireUser(request);
  const fields = await readUserForm(request, actor.email);
  // The role is never taken from this form.
  const parsed = updateUserSchema.safeParse({ ...fields, role: undefined });
  if (!parsed.success) return schemaFailure(parsed.error.issues);
  try {
    const user = await updateUser(actor, actor.id, parsed.data, clientIp(context));
    const back = actor.isSuperAdmin ? '/admin/users' : homePathFor(actor.role);
    return redirect(back, { headers: { 'Set-Cookie': flashCookie({ type: 'success', message: userUpdated(user.name) }) } });
  } catch (error) {
    if (!(error instanceof Error && 'status' in error)) getLogger().error({ err: error }, 'updating a profile failed');
    return userFormFailure(error, USER_MESSAGES.updateFailed);
  }
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { me } = loaderData;
  return (
    <>
      <h1 className="mb-6 text-2xl font-bold text-slate-900">My profile</h1>
      <UserForm mode="edit" values={me} errors={actionData?.errors} roleLocked cancelTo="/admin" />
    </>
  );
}
