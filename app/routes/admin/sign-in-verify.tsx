import { z } from 'zod';
import { data, Form, redirect, useNavigation, useSearchParams } from 'react-router';
import { completeSecondStep, pendingSecondStep } from '~/server/staff/auth.server';
import { readCookie } from '~/server/staff/sessions.server';
import { challengeCookie, challengeCookieName } from '~/server/staff/two-factor.server';
import { getCurrentStaff } from '~/server/http/staff-context.server';
import { clientIp } from '~/server/http/request-info.server';
import { parseForm } from '~/server/http/forms.server';
import { flashCookie } from '~/server/http/flash.server';
import { homePathFor } from '~/lib/permissions';
import { safeRedirect, SIGN_IN_MESSAGES } from '~/lib/auth';
import { firstError } from '~/lib/forms';
import { PASSKEY_MESSAGES, TWO_FACTOR_MESSAGES, totpCodeField } from '~/lib/two-factor';
import { Banner } from '~/components/admin/banner';
import { PasskeySignInButton } from '~/components/admin/passkey';
import { Field } from '~/components/admin/form';
import { AuthCard, fieldClass, primaryButton } from '~/components/admin/auth-card';
import type { Route } from './+types/sign-in-verify';
import { dashboardMeta } from '~/lib/seo';

// Issue 25: the second step of a sign-in, after a right password. Works without JavaScript: two plain
// forms (a code from the app, or a recovery code), each posted to the action below.

export const meta: Route.MetaFunction = () => dashboardMeta('Second step | Staff sign in');
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers({ 'Cache-Control': 'no-store' });
  const retryAfter = actionHeaders.get('Retry-After');
  if (retryAfter) headers.set('Retry-After', retryAfter);
  return headers;
};

function expiredAnswer(redirectTo: string | null) {
  const query = new URLSearchParams({ step: 'expired' });
  if (redirectTo) query.set('redirectTo', redirectTo);
  return redirect(`/admin?${query.toString()}`, { headers: { 'Set-Cookie': challengeCookie(null) } });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const current = getCurrentStaff(context);
  const url = new URL(request.url);
  if (current.status === 'signed-in')
    throw redirect(safeRedirect(url.searchParams.get('redirectTo'), homePathFor(current.user.role)));
  const pending = await pendingSecondStep(readCookie(request, challengeCookieName()));
  if (!pending) throw expiredAnswer(safeRedirect(url.searchParams.get('redirectTo'), '') || null);
  return pending;
}

const schema = z.discriminatedUnion('method', [
  z.object({
    method: z.literal('totp'),
    code: totpCodeField,
    rememberDevice: z.preprocess((v) => v === 'on', z.boolean()),
    redirectTo: z.string().optional(),
  }),
  z.object({
    method: z.literal('recovery'),
    recoveryCode: z
      .string({ message: TWO_FACTOR_MESSAGES.recoveryRequired })
      .trim()
      .min(1, TWO_FACTOR_MESSAGES.recoveryRequired)
      .max(40, TWO_FACTOR_MESSAGES.wrongRecoveryCode),
    rememberDevice: z.preprocess((v) => v === 'on', z.boolean()),
    redirectTo: z.string().optional(),
  }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(request, schema, { maxBytes: 4_096 });
  const method = form.values.method === 'recovery' ? 'recovery' : 'totp';
  if (!form.ok)
    return data(
      { error: firstError(form) ?? SIGN_IN_MESSAGES.unexpected, method },
      { status: form.status, headers: form.headers },
    );
  const values = form.values;
  const result = await completeSecondStep({
    challengeToken: readCookie(request, challengeCookieName()),
    ...(values.method === 'totp' ? { code: values.code } : { recoveryCode: values.recoveryCode }),
    rememberDevice: values.rememberDevice,
    ip: clientIp(context),
    userAgent: request.headers.get('user-agent'),
    request,
  });
  switch (result.status) {
    case 'expired':
      return expiredAnswer(safeRedirect(values.redirectTo, '') || null);
    case 'disabled':
      return data(
        { error: SIGN_IN_MESSAGES.disabled, method },
        { status: 403, headers: { 'Set-Cookie': challengeCookie(null) } },
      );
    case 'rate-limited':
      return data(
        { error: SIGN_IN_MESSAGES.tooManyAttempts, method },
        { status: 429, headers: { 'Retry-After': String(result.retryAfterSeconds) } },
      );
    case 'invalid':
      return data(
        {
          error:
            result.method === 'recovery'
              ? TWO_FACTOR_MESSAGES.wrongRecoveryCode
              : result.method === 'passkey'
                ? PASSKEY_MESSAGES.refused
                : TWO_FACTOR_MESSAGES.wrongCode,
          method,
        },
        { status: 401 },
      );
    case 'ok': {
      const headers = new Headers();
      for (const cookie of result.cookies) headers.append('Set-Cookie', cookie);
      if (result.recoveryCodesLeft !== undefined)
        headers.append(
          'Set-Cookie',
          flashCookie({ type: 'warning', message: TWO_FACTOR_MESSAGES.recoveryCodeUsed(result.recoveryCodesLeft) }),
        );
      return redirect(safeRedirect(values.redirectTo, homePathFor(result.user.role)), { headers });
    }
  }
}

function RememberDevice({ id }: { id: string }) {
  return (
    <label className="inline-flex items-center gap-2 text-slate-800">
      <input id={id} type="checkbox" name="rememberDevice" className="h-5 w-5 rounded border-slate-400 accent-indigo-800" />
      Don&apos;t ask again on this device for 30 days
    </label>
  );
}

export default function SignInVerify({ loaderData, actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const redirectTo = params.get('redirectTo') ?? '';
  const error = busy ? null : (actionData?.error ?? null);
  const recoveryOpen = actionData?.method === 'recovery';
  return (
    <AuthCard title="Second step" intro={`Signing in as ${loaderData.email}.`}>
      <div className="mt-6 space-y-3">{error && <Banner type="error" message={error} autoClose={false} />}</div>
      {loaderData.passkeys && (
        <div className="mt-6">
          <PasskeySignInButton
            step
            redirectTo={redirectTo}
            rememberDevice={() => (document.getElementById('remember-device-code') as HTMLInputElement | null)?.checked ?? false}
          />
        </div>
      )}
      {loaderData.totp && (
        <>
          <Form method="post" className="mt-6 space-y-5">
            <input type="hidden" name="method" value="totp" />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <Field
              id="code"
              label="Code from your authenticator app"
              note="Open the app on your phone and enter the 6 digits it shows for this site."
              error={!recoveryOpen && error ? error : undefined}
            >
              {(control) => (
                <input
                  {...control}
                  name="code"
                  type="text"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="[0-9 ]*"
                  maxLength={7}
                  required
                  className={fieldClass(!recoveryOpen && Boolean(error))}
                />
              )}
            </Field>
            <RememberDevice id="remember-device-code" />
            <button type="submit" disabled={busy} className={primaryButton}>
              {busy ? 'Checking...' : 'Continue'}
            </button>
          </Form>
        </>
      )}
      <details className="mt-8 rounded-lg border border-slate-300 p-4" open={recoveryOpen}>
        <summary className="cursor-pointer font-semibold text-indigo-800">Use a recovery code instead</summary>
        <Form method="post" className="mt-4 space-y-5">
          <input type="hidden" name="method" value="recovery" />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <Field
            id="recovery-code"
            label="Recovery code"
            note="One of the ten codes you saved when you set up the second step, like abcde-23456. Each works once."
            error={recoveryOpen && error ? error : undefined}
          >
            {(control) => (
              <input
                {...control}
                name="recoveryCode"
                type="text"
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                maxLength={40}
                required
                className={fieldClass(recoveryOpen && Boolean(error))}
              />
            )}
          </Field>
          <RememberDevice id="remember-device-recovery" />
          <button type="submit" disabled={busy} className={primaryButton}>
            {busy ? 'Checking...' : 'Use recovery code'}
          </button>
        </Form>
      </details>
    </AuthCard>
  );
}
