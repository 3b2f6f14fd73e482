import { useState, type FormEvent } from 'react';
import { data, Form, Link, redirect, useSearchParams } from 'react-router';
import { allowSignedOut, signIn } from '~/server/auth.server';
import { clientIp, readForm } from '~/server/request-info.server';
import { getLogger } from '~/server/logger.server';
import { homePathFor } from '~/lib/permissions';
import { isSignedOutReason, safeRedirect, SIGN_IN_MESSAGES, SIGNED_OUT_REASONS, signInSchema } from '~/lib/auth';
import { useHydrated } from '~/lib/use-hydrated';
import { Banner } from '~/components/admin/banner';
import { Field } from '~/components/admin/form';
import { AuthCard, fieldClass, primaryButton } from '~/components/admin/auth-card';
import type { Route } from './+types/sign-in';

export const meta: Route.MetaFunction = () => [{ title: 'Staff sign in | TDG Uganda' }, { name: 'robots', content: 'noindex' }];
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers({ 'Cache-Control': 'no-store' });
  const retryAfter = actionHeaders.get('Retry-After');
  if (retryAfter) headers.set('Retry-After', retryAfter);
  return headers;
};

export async function loader({ request }: Route.LoaderArgs) {
  const current = await allowSignedOut(request);
  const url = new URL(request.url);
  if (current.status === 'signed-in') {
    throw redirect(safeRedirect(url.searchParams.get('redirectTo'), homePathFor(current.user.role)));
  }
  const reason = current.reason ?? url.searchParams.get('signedOut');
  return { notice: isSignedOutReason(reason) ? SIGNED_OUT_REASONS[reason] : null };
}

/** The sign-in form posted without JavaScript. */
export async function action({ request, context }: Route.ActionArgs) {
  await allowSignedOut(request);
  const form = await readForm(request, 8_192);
  const email = String(form.get('email') ?? '').slice(0, 254);
  const parsed = signInSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success)
    return data({ error: parsed.error.issues[0]?.message ?? SIGN_IN_MESSAGES.unexpected, email }, { status: 400 });
  try {
    const result = await signIn({ ...parsed.data, ip: clientIp(context), userAgent: request.headers.get('user-agent'), request });
    if (result.status === 'invalid') return data({ error: SIGN_IN_MESSAGES.invalidCredentials, email }, { status: 401 });
    if (result.status === 'disabled') return data({ error: SIGN_IN_MESSAGES.disabled, email }, { status: 403 });
    if (result.status === 'rate-limited')
      return data(
        { error: SIGN_IN_MESSAGES.tooManyAttempts, email },
        { status: 429, headers: { 'Retry-After': String(result.retryAfterSeconds) } },
      );
    const to = safeRedirect(form.get('redirectTo'), homePathFor(result.user.role));
    return redirect(to, { headers: { 'Set-Cookie': result.cookie } });
  } catch (error) {
    getLogger().error({ err: error }, 'sign-in failed');
    return data({ error: SIGN_IN_MESSAGES.lookupFailed, email }, { status: 500 });
  }
}

type Phase = 'idle' | 'authenticating' | 'signing-in' | 'success';

function fieldError(name: 'email' | 'password', value: string): string | undefined {
  const shape = signInSchema.shape[name];
  const result = shape.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}

/** spec §9: a 500 ms pause precedes the sign-in call. */
const PAUSE_MS = 500;

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  const [params] = useSearchParams();
  const [email, setEmail] = useState(actionData?.email ?? '');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState({ email: false, password: false });
  const [showPassword, setShowPassword] = useState(false);
  const [phase, setPhase] = useState<Phase>('idle');
  const [error, setError] = useState<string | null>(actionData?.error ?? null);

  const emailError = touched.email ? fieldError('email', email) : undefined;
  const passwordError = touched.password ? fieldError('password', password) : undefined;
  const busy = phase !== 'idle';

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched({ email: true, password: true });
    if (fieldError('email', email) || fieldError('password', password)) return;
    const body = new FormData(event.currentTarget);
    setError(null);
    setPhase('authenticating');
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    setPhase('signing-in');
    try {
      const response = await fetch('/admin/session', { method: 'POST', body, credentials: 'same-origin' });
      const result = (await response.json().catch(() => ({}))) as { ok?: boolean; redirectTo?: string; error?: string };
      if (response.ok && result.ok && result.redirectTo) {
        setPhase('success');
        window.location.assign(result.redirectTo);
        return;
      }
      setError(result.error ?? SIGN_IN_MESSAGES.unexpected);
    } catch {
      setError(SIGN_IN_MESSAGES.network);
    }
    setPhase('idle');
  }

  return (
    <AuthCard title="Admin Dashboard" intro="Sign in with your staff account." back={{ to: '/', label: '← Back to website' }}>
      <div className="mt-6 space-y-3">
        {loaderData.notice && <Banner type="warning" message={loaderData.notice} autoClose={false} />}
        {error && <Banner key={error + phase} type="error" message={error} autoClose={false} />}
        {phase === 'success' && <Banner type="success" message={SIGN_IN_MESSAGES.success} autoClose={false} />}
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
                className={`${fieldClass(Boolean(passwordError))} pr-24`}
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
          {phase === 'authenticating'
            ? 'Authenticating...'
            : phase === 'signing-in' || phase === 'success'
              ? 'Signing in...'
              : 'Sign in'}
        </button>
      </Form>
    </AuthCard>
  );
}
