import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { z } from 'zod';
import { checkResetToken, resetPassword } from '~/server/staff/password-reset.server';
import { RuleError } from '~/server/platform/rule-error.server';
import { ruleResponse } from '~/server/http/rules.server';
import { clientIp } from '~/server/http/request-info.server';
import { flashCookie, readFlash } from '~/server/http/flash.server';
import { parseForm } from '~/server/http/forms.server';
import { firstError } from '~/lib/forms';
import { PASSWORD_MAX, PASSWORD_MIN, SIGN_IN_MESSAGES } from '~/lib/auth';
import { USER_MESSAGES } from '~/lib/users';
import { secretLinkHeaders } from '~/lib/secret-link';
import { AuthCard, fieldClass, primaryButton } from '~/components/admin/auth-card';
import { Banner } from '~/components/admin/banner';
import { NewPasswordField } from '~/components/admin/form';
import type { Route } from './+types/reset-password';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = () => dashboardMeta('Set a new password');
// The link carries a secret (app/lib/secret-link.ts).
export const headers = secretLinkHeaders;

export const RESET_MESSAGES = {
  invalidLink: 'This link has expired or has already been used. Please ask for a new one.',
  mismatch: 'The two passwords do not match.',
  done: 'Your new password is set, and every other session of your account has been signed out. Please sign in.',
} as const;

export async function loader({ params, request }: Route.LoaderArgs) {
  // Just used (the action's redirect below): the page says the password is set, with 200, not 410.
  const { flash, clear } = readFlash(request);
  if (flash?.type === 'success' && flash.message === RESET_MESSAGES.done)
    return data({ valid: false, email: null, done: true }, { headers: { 'Set-Cookie': clear! } });
  const state = await checkResetToken(params.token);
  if (state.status !== 'valid') return data({ valid: false, email: null, done: false }, { status: 410 });
  return { valid: true, email: state.email, done: false };
}

const schema = z
  .object({
    password: z
      .string()
      .min(1, SIGN_IN_MESSAGES.passwordRequired)
      .min(PASSWORD_MIN, SIGN_IN_MESSAGES.passwordShort)
      .max(PASSWORD_MAX),
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { message: RESET_MESSAGES.mismatch, path: ['confirm'] });

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await parseForm(request, schema, { maxBytes: 4_096 });
  if (!form.ok)
    return data({ error: firstError(form) ?? USER_MESSAGES.updateFailed }, { status: form.status, headers: form.headers });
  try {
    const ok = await resetPassword(params.token, form.values.password, clientIp(context));
    if (!ok) return data({ error: RESET_MESSAGES.invalidLink }, { status: 410 });
  } catch (error) {
    if (error instanceof RuleError) return ruleResponse(error);
    throw error;
  }
  // Shown after a redirect, so that a reload does not post again and the page answers 200.
  return redirect(new URL(request.url).pathname, {
    status: 303,
    headers: { 'Set-Cookie': flashCookie({ type: 'success', message: RESET_MESSAGES.done }) },
  });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === 'submitting';
  // A refused password comes back as a RuleError's failure (message), the rest as { error }; a set one
  // is a redirect, and the loader says so.
  const failure = actionData ? ('error' in actionData ? actionData.error : actionData.message) : null;
  if (loaderData.done) {
    return (
      <AuthCard title="Password set">
        <div className="mt-6">
          <Banner type="success" message={RESET_MESSAGES.done} autoClose={false} />
        </div>
      </AuthCard>
    );
  }
  if (!loaderData.valid) {
    return (
      <AuthCard title="Set a new password">
        <div className="mt-6 space-y-4">
          <Banner type="error" message={RESET_MESSAGES.invalidLink} autoClose={false} />
          <Link to="/admin/forgot-password" className="inline-block font-semibold text-indigo-800 underline underline-offset-4">
            Ask for a new link
          </Link>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Set a new password" intro={`For ${loaderData.email}. At least 6 characters; avoid common passwords.`}>
      <div className="mt-6">{failure && <Banner type="error" message={failure} autoClose={false} />}</div>
      <Form method="post" className="mt-6 space-y-5">
        <input type="text" name="username" value={loaderData.email ?? ''} autoComplete="username" readOnly hidden />
        <NewPasswordField id="password" label="New password" className={fieldClass(false)} />
        <NewPasswordField id="confirm" label="Repeat the new password" className={fieldClass(false)} />
        <button type="submit" disabled={busy} className={primaryButton}>
          {busy ? 'Saving...' : 'Set password'}
        </button>
      </Form>
    </AuthCard>
  );
}
