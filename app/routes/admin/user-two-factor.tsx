import { data, Form, Link, redirect } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { clientIp } from '~/server/http/request-info.server';
import { flashCookie } from '~/server/http/flash.server';
import { ruleResponse } from '~/server/http/rules.server';
import { RuleError } from '~/server/platform/rule-error.server';
import { getUser } from '~/server/staff/users.server';
import { resetTwoFactor, twoFactorStatus } from '~/server/staff/two-factor.server';
import { TWO_FACTOR_MESSAGES } from '~/lib/two-factor';
import { Banner } from '~/components/admin/banner';
import type { Route } from './+types/user-two-factor';
import { dashboardMeta } from '~/lib/seo';

// Issue 25: the super admin resets the second step of someone locked out (a lost phone, no codes left).

export const meta: Route.MetaFunction = () => dashboardMeta('Reset second step');

export async function loader({ params }: Route.LoaderArgs) {
  const user = await getUser(params.id);
  if (!user) throw data({ error: TWO_FACTOR_MESSAGES.noSuchUser }, { status: 404 });
  const status = await twoFactorStatus(user.id);
  return { user: { id: user.id, name: user.name, email: user.email }, status };
}

export async function action({ params, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  try {
    await resetTwoFactor(actor, params.id, clientIp(context));
  } catch (error) {
    if (error instanceof RuleError) return ruleResponse(error);
    throw error;
  }
  return redirect('/admin/users', {
    headers: {
      'Set-Cookie': flashCookie({ type: 'success', message: 'Their second step was reset; they have been told by email.' }),
    },
  });
}

export default function UserTwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  const { user, status } = loaderData;
  const has = status.enabled || status.recoveryCodesLeft > 0;
  return (
    <>
      <h1 className="mb-4 text-2xl font-bold text-slate-900">Reset the second step of {user.name}</h1>
      {actionData && 'message' in actionData && <Banner type="error" message={actionData.message} autoClose={false} />}
      <div className="max-w-xl space-y-4 rounded-xl border border-slate-200 bg-white p-6">
        <p className="text-slate-800">
          {user.email} has{' '}
          {has
            ? `${status.totp ? 'an authenticator app' : 'no authenticator app'}, ${status.passkeys} passkey${status.passkeys === 1 ? '' : 's'} and ${status.recoveryCodesLeft} recovery code${status.recoveryCodesLeft === 1 ? '' : 's'}.`
            : 'no second step set up.'}
        </p>
        <p className="text-slate-800">
          Resetting removes all of them and every remembered device. They will sign in with their password alone (or be asked to
          set a second step up again, if their role must use one), and are told by email.
        </p>
        <div className="flex flex-wrap gap-3">
          {has && (
            <Form method="post">
              <button type="submit" className="rounded-lg bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800">
                Reset their second step
              </button>
            </Form>
          )}
          <Link to="/admin/users" className="rounded-lg border border-slate-400 px-4 py-2 font-semibold text-slate-900">
            Cancel
          </Link>
        </div>
      </div>
    </>
  );
}
