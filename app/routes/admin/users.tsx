import { data, Form, Link, redirect } from 'react-router';
import { z } from 'zod';
import { getStaff } from '~/server/http/staff-context.server';
import { getUser, listUsers } from '~/server/staff/users.server';
import { sendPasswordResetLink } from '~/server/staff/password-reset.server';
import { flashCookie } from '~/server/http/flash.server';
import { clientIp } from '~/server/http/request-info.server';
import { parseForm } from '~/server/http/forms.server';
import { getLogger } from '~/server/platform/logger.server';
import { deleteConfirmText, resetSent, USER_MESSAGES } from '~/lib/users';
import { formatDate } from '~/lib/format';
import { Avatar } from '~/components/admin/avatar';
import { ConfirmDelete } from '~/components/admin/confirm-delete';
import { RoleBadge } from '~/components/admin/role-badge';
import { UserSubnav } from '~/components/admin/user-subnav';
import { Banner } from '~/components/admin/banner';
import type { Route } from './+types/users';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = () => dashboardMeta('System Users');

export async function loader({ context }: Route.LoaderArgs) {
  const user = getStaff(context);
  try {
    return { users: await listUsers(), me: user.id, error: null };
  } catch (error) {
    getLogger().error({ err: error }, 'listing users failed');
    return data({ users: [], me: user.id, error: USER_MESSAGES.loadFailed }, { status: 500 });
  }
}

/** The Send password reset button's form. */
const resetRequestSchema = z.object({ intent: z.literal('reset'), userId: z.string() });

/** Sends a password reset link to another user (super admin only, spec §6). */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  const form = await parseForm(request, resetRequestSchema, { maxBytes: 4_096 });
  if (!form.ok)
    return data({ error: form.refused ? form.formError : 'Unknown request.' }, { status: form.status, headers: form.headers });
  const target = await getUser(form.values.userId);
  if (!target) return data({ error: USER_MESSAGES.resetFailed }, { status: 404 });
  try {
    const sent = await sendPasswordResetLink(target.email, { actor: actor.email, ip: clientIp(context) });
    if (!sent) throw new Error('no link sent');
    return redirect('/admin/users', {
      headers: { 'Set-Cookie': flashCookie({ type: 'success', message: resetSent(target.email) }) },
    });
  } catch (error) {
    getLogger().error({ err: error, target: target.email }, 'password reset failed');
    return redirect('/admin/users', {
      headers: { 'Set-Cookie': flashCookie({ type: 'error', message: USER_MESSAGES.resetFailed }) },
    });
  }
}

const smallButton = 'inline-flex items-center rounded-lg px-3 py-1.5 text-sm font-semibold';

export default function Users({ loaderData, actionData }: Route.ComponentProps) {
  const { users, me } = loaderData;
  // A refused reset (the user was deleted meanwhile, say) answers here, with JavaScript or without.
  const error = actionData?.error ?? loaderData.error;
  return (
    <>
      <UserSubnav />
      <h1 className="text-2xl font-bold text-slate-900">System Users ({users.length})</h1>
      {error && (
        <div className="mt-4">
          <Banner type="error" message={error} autoClose={false} />
        </div>
      )}
      <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {users.map((u) => {
          const isMe = u.id === me;
          const isSuper = u.role === 'SUPER_ADMIN';
          return (
            <li key={u.id} className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <div className="flex items-start gap-4">
                <Avatar name={u.name} src={u.profilePicture} />
                <div className="min-w-0 flex-1">
                  <h2 className="flex flex-wrap items-center gap-2 text-lg font-bold text-slate-900">
                    <span className="break-words">{u.name}</span>
                    {isMe && <span className="rounded-full bg-amber-300 px-2 py-0.5 text-xs font-bold text-slate-900">You</span>}
                  </h2>
                  <p className="text-sm break-all text-slate-700">{u.email}</p>
                  <p className="mt-2">
                    <RoleBadge role={u.role} />
                  </p>
                </div>
              </div>
              {u.bio && <p className="mt-4 text-slate-700">{u.bio}</p>}
              <dl className="mt-4 grid grid-cols-2 gap-2 text-sm">
                <div>
                  <dt className="text-slate-600">Created</dt>
                  <dd className="font-medium text-slate-900">{formatDate(u.createdAt, 'short')}</dd>
                </div>
                <div>
                  <dt className="text-slate-600">Last login</dt>
                  <dd className="font-medium text-slate-900">{u.lastLogin ? formatDate(u.lastLogin, 'short') : 'Never'}</dd>
                </div>
              </dl>
              <div className="mt-auto flex flex-wrap gap-2 pt-5">
                <Link
                  to={isMe ? '/admin/profile' : `/admin/users/${u.id}/edit`}
                  className={`${smallButton} bg-indigo-800 text-white hover:bg-indigo-900`}
                >
                  Edit<span className="sr-only"> {u.name}</span>
                </Link>
                {!isMe && !isSuper && (
                  <>
                    <Form method="post">
                      <input type="hidden" name="intent" value="reset" />
                      <input type="hidden" name="userId" value={u.id} />
                      <button
                        type="submit"
                        className={`${smallButton} bg-white text-indigo-900 ring-1 ring-slate-300 hover:bg-indigo-50`}
                      >
                        Send password reset<span className="sr-only"> to {u.name}</span>
                      </button>
                    </Form>
                    <ConfirmDelete
                      href={`/admin/users/${u.id}/delete`}
                      label="Delete"
                      itemName={u.name}
                      question={deleteConfirmText(u.name, u.email)}
                      buttonClass={`${smallButton} bg-red-700 text-white hover:bg-red-800`}
                    />
                  </>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </>
  );
}
