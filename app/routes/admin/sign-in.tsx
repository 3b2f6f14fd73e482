import { useEffect, useRef, useState, type FormEvent } from 'react';
import { z } from 'zod';
import { data, Form, isRouteErrorResponse, Link, redirect, useLocation, useNavigation, useSearchParams } from 'react-router';
import { signIn, signInAddressWait } from '~/server/staff/auth.server';
import { getCurrentStaff } from '~/server/http/staff-context.server';
import { readCookie } from '~/server/staff/sessions.server';
import { deviceCookieName } from '~/server/staff/two-factor.server';
import { clientIp } from '~/server/http/request-info.server';
import { parseForm } from '~/server/http/forms.server';
import { getLogger } from '~/server/platform/logger.server';
import { homePathFor } from '~/lib/permissions';
import { isSignedOutReason, safeRedirect, SIGN_IN_MESSAGES, SIGNED_OUT_REASONS, signInSchema } from '~/lib/auth';
import { checkFormSync, firstError } from '~/lib/forms';
import { useHydrated } from '~/lib/use-hydrated';
import { TWO_FACTOR_MESSAGES } from '~/lib/two-factor';
import { Banner } from '~/components/admin/banner';
import { PasskeySignInButton } from '~/components/admin/passkey';
import { Field } from '~/components/admin/form';
import { AuthCard, fieldClass, primaryButton } from '~/components/admin/auth-card';
import type { Route } from './+types/sign-in';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = () => dashboardMeta('Staff sign in');
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers({ 'Cache-Control': 'no-store' });
  const retryAfter = actionHeaders.get('Retry-After');
  if (retryAfter) headers.set('Retry-After', retryAfter);
  return headers;
};

export function loader({ request, context }: Route.LoaderArgs) {
  const current = getCurrentStaff(context);
  const url = new URL(request.url);
  if (current.status === 'signed-in') {
    throw redirect(safeRedirect(url.searchParams.get('redirectTo'), homePathFor(current.user.role)));
  }
  const reason = current.reason ?? url.searchParams.get('signedOut');
  // Issue 25: a second step left too long (or already used) sends the person back here, told why.
  const stepExpired = url.searchParams.get('step') === 'expired' ? TWO_FACTOR_MESSAGES.expired : null;
  return { notice: isSignedOutReason(reason) ? SIGNED_OUT_REASONS[reason] : stepExpired };
}

const signInFormSchema = signInSchema.extend({ redirectTo: z.string().optional() });

/** The sign-in form, posted by the browser itself (no JavaScript) or through clientAction below. */
export async function action({ request, context }: Route.ActionArgs) {
  // An address that has used up its failures is known before the form is read: no password is
  // checked and nothing is counted (the form is still read, to fill the email in again).
  const wait = await signInAddressWait(clientIp(context));
  const form = await parseForm(request, signInFormSchema, { maxBytes: 8_192 });
  if (wait !== undefined)
    return data(
      { error: SIGN_IN_MESSAGES.tooManyAttempts, email: (form.values.email ?? '').slice(0, 254) },
      { status: 429, headers: { ...(form.ok ? {} : form.headers), 'Retry-After': String(wait) } },
    );
  if (!form.ok) {
    const email = (form.values.email ?? '').slice(0, 254);
    return data(
      { error: firstError(form) ?? SIGN_IN_MESSAGES.unexpected, email },
      { status: form.status, headers: form.headers },
    );
  }
  const { redirectTo, ...credentials } = form.values;
  const email = credentials.email;
  try {
    const result = await signIn({
      ...credentials,
      ip: clientIp(context),
      userAgent: request.headers.get('user-agent'),
      request,
      deviceToken: readCookie(request, deviceCookieName()),
    });
    if (result.status === 'invalid') return data({ error: SIGN_IN_MESSAGES.invalidCredentials, email }, { status: 401 });
    if (result.status === 'disabled') return data({ error: SIGN_IN_MESSAGES.disabled, email }, { status: 403 });
    if (result.status === 'rate-limited')
      return data(
        { error: SIGN_IN_MESSAGES.tooManyAttempts, email },
        { status: 429, headers: { 'Retry-After': String(result.retryAfterSeconds) } },
      );
    if (result.status === 'second-step') {
      // Issue 25: the password was right; the second step comes next, on its own screen.
      const back = safeRedirect(redirectTo, '');
      return redirect(`/admin/verify${back ? `?redirectTo=${encodeURIComponent(back)}` : ''}`, {
        headers: { 'Set-Cookie': result.challengeCookie },
      });
    }
    const to = safeRedirect(redirectTo, homePathFor(result.user.role));
    return redirect(to, { headers: { 'Set-Cookie': result.cookie } });
  } catch (error) {
    getLogger().error({ err: error }, 'sign-in failed');
    return data({ error: SIGN_IN_MESSAGES.lookupFailed, email }, { status: 500 });
  }
}

/** spec §9: a 500 ms pause precedes the sign-in call. */
const PAUSE_MS = 500;

/**
 * With JavaScript the <Form> comes here: the spec's pause ("Authenticating..."), then the action
 * above ("Signing in..."). A redirect (signed in) is React Router's to follow; a lost connection
 * becomes the spec's network message, answered with an error status so nothing is reloaded.
 */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  try {
    return await serverAction();
  } catch (error) {
    if (error instanceof Response) throw error;
    if (isRouteErrorResponse(error)) return data({ error: SIGN_IN_MESSAGES.unexpected, email: '' }, { status: error.status });
    return data({ error: SIGN_IN_MESSAGES.network, email: '' }, { status: 503 });
  }
}

/** The browser's instant check uses the schema the action checks with. */
const credentialsSchema = signInSchema.pick({ email: true, password: true });

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const location = useLocation();
  const [email, setEmail] = useState(actionData?.email ?? '');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState({ email: false, password: false });
  const [showPassword, setShowPassword] = useState(false);
  // Which half of a submission is under way: the pause, or the call itself.
  const [stage, setStage] = useState<'authenticating' | 'signing-in'>('authenticating');
  const stageTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(stageTimer.current), []);

  const checked = checkFormSync(credentialsSchema, { email, password });
  const problems = checked.ok ? {} : checked.fieldErrors;
  const emailError = touched.email ? problems.email : undefined;
  const passwordError = touched.password ? problems.password : undefined;
  // This screen has one form, so a submission under way is this one's.
  const busy = navigation.state !== 'idle' && navigation.formMethod !== undefined;
  // Signed in: the answer was a redirect, and the dashboard is loading.
  const success = busy && navigation.state === 'loading' && navigation.location.pathname !== location.pathname;
  const error = busy ? null : (actionData?.error ?? null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    setTouched({ email: true, password: true });
    if (!checked.ok) return event.preventDefault();
    setStage('authenticating');
    clearTimeout(stageTimer.current);
    stageTimer.current = setTimeout(() => setStage('signing-in'), PAUSE_MS);
  }

  return (
    <AuthCard title="Admin Dashboard" intro="Sign in with your staff account." back={{ to: '/', label: '← Back to website' }}>
      <div className="mt-6 space-y-3">
        {loaderData.notice && <Banner type="warning" message={loaderData.notice} autoClose={false} />}
        {error && <Banner type="error" message={error} autoClose={false} />}
        {success && <Banner type="success" message={SIGN_IN_MESSAGES.success} autoClose={false} />}
      </div>

      <Form method="post" noValidate={hydrated} onSubmit={hydrated ? onSubmit : undefined} className="mt-6 space-y-5">
        <input type="hidden" name="redirectTo" value={params.get('redirectTo') ?? ''} />
        <Field id="email" label="Email address" error={emailError}>
          {(control) => (
            <input
              {...control}
              name="email"
              type="email"
              autoComplete="username"
              required
              maxLength={254}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              onBlur={() => setTouched((t) => ({ ...t, email: true }))}
              className={fieldClass(Boolean(emailError))}
            />
          )}
        </Field>
        <Field id="password" label="Password" error={passwordError}>
          {(control) => (
            <div className="relative">
              <input
                {...control}
                name="password"
                type={showPassword ? 'text' : 'password'}
                autoComplete="current-password"
                required
                minLength={6}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                onBlur={() => setTouched((t) => ({ ...t, password: true }))}
                className={`${fieldClass(Boolean(passwordError))} pr-36`}
              />
              {hydrated && (
                <button
                  type="button"
                  onClick={() => setShowPassword((v) => !v)}
                  aria-pressed={showPassword}
                  aria-controls="password"
                  className="absolute inset-y-1 right-1 rounded-md px-3 text-sm font-semibold text-indigo-800 hover:bg-indigo-50"
                >
                  {showPassword ? 'Hide password' : 'Show password'}
                </button>
              )}
            </div>
          )}
        </Field>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <label className="inline-flex items-center gap-2 text-slate-800">
            <input type="checkbox" name="remember" className="h-5 w-5 rounded border-slate-400 accent-indigo-800" />
            Remember me
          </label>
          <Link to="/admin/forgot-password" className="font-medium text-indigo-800 underline underline-offset-4">
            Forgot password?
          </Link>
        </div>
        <button type="submit" disabled={busy || (hydrated && (!email || !password))} className={primaryButton}>
          {!busy ? 'Sign in' : success || stage === 'signing-in' ? 'Signing in...' : 'Authenticating...'}
        </button>
      </Form>
      {/* Issue 25: a passkey signs in without a password (shown once scripts run and the browser can). */}
      <div className="mt-6">
        <PasskeySignInButton redirectTo={params.get('redirectTo') ?? ''} />
      </div>
    </AuthCard>
  );
}
