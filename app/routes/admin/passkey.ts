import {
  passkeySignInOptions,
  secondStepPasskeyOptions,
  signInWithPasskey,
  completeSecondStep,
} from '~/server/staff/auth.server';
import { readCookie } from '~/server/staff/sessions.server';
import { challengeCookieName, passkeyCookieName } from '~/server/staff/two-factor.server';
import { clientIp } from '~/server/http/request-info.server';
import { readJsonBody } from '~/server/http/json-body.server';
import { homePathFor } from '~/lib/permissions';
import { safeRedirect, SIGN_IN_MESSAGES } from '~/lib/auth';
import { PASSKEY_MESSAGES, TWO_FACTOR_MESSAGES } from '~/lib/two-factor';
import type { Route } from './+types/passkey';

// Issue 25: the browser's half of a passkey sign-in, as JSON (WebAuthn needs JavaScript; the forms
// of the sign-in and second-step screens work without it). `intent`:
//   options / sign-in            "Sign in with a passkey" (no password)
//   step-options / step          a passkey as the second step after a password

export function loader() {
  return Response.json({ error: 'Use POST.' }, { status: 405 });
}

function withCookies(body: unknown, cookies: string[], status = 200) {
  const headers = new Headers({ 'Cache-Control': 'no-store' });
  for (const cookie of cookies) headers.append('Set-Cookie', cookie);
  return Response.json(body, { status, headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  const body = await readJsonBody(request);
  const ip = clientIp(context);
  const userAgent = request.headers.get('user-agent');
  const redirectTo = typeof body.redirectTo === 'string' ? body.redirectTo : '';
  switch (body.intent) {
    case 'options': {
      const { options, cookie } = await passkeySignInOptions();
      return withCookies({ options }, [cookie]);
    }
    case 'sign-in': {
      const result = await signInWithPasskey({
        token: readCookie(request, passkeyCookieName()),
        response: body.response,
        ip,
        userAgent,
        request,
      });
      if (result.status === 'ok')
        return withCookies({ redirect: safeRedirect(redirectTo, homePathFor(result.user.role)) }, result.cookies);
      if (result.status === 'rate-limited') return Response.json({ error: SIGN_IN_MESSAGES.tooManyAttempts }, { status: 429 });
      if (result.status === 'disabled') return Response.json({ error: SIGN_IN_MESSAGES.disabled }, { status: 403 });
      if (result.status === 'expired') return Response.json({ error: PASSKEY_MESSAGES.expired }, { status: 410 });
      return Response.json({ error: PASSKEY_MESSAGES.refused }, { status: 401 });
    }
    case 'step-options': {
      const options = await secondStepPasskeyOptions(readCookie(request, challengeCookieName()));
      if (!options) return Response.json({ error: TWO_FACTOR_MESSAGES.expired }, { status: 410 });
      return Response.json({ options }, { headers: { 'Cache-Control': 'no-store' } });
    }
    case 'step': {
      const result = await completeSecondStep({
        challengeToken: readCookie(request, challengeCookieName()),
        passkey: body.response ?? null,
        rememberDevice: body.rememberDevice === true,
        ip,
        userAgent,
        request,
      });
      if (result.status === 'ok')
        return withCookies({ redirect: safeRedirect(redirectTo, homePathFor(result.user.role)) }, result.cookies);
      if (result.status === 'rate-limited') return Response.json({ error: SIGN_IN_MESSAGES.tooManyAttempts }, { status: 429 });
      if (result.status === 'disabled') return Response.json({ error: SIGN_IN_MESSAGES.disabled }, { status: 403 });
      if (result.status === 'expired') return Response.json({ error: TWO_FACTOR_MESSAGES.expired }, { status: 410 });
      return Response.json({ error: PASSKEY_MESSAGES.refused }, { status: 401 });
    }
    default:
      return Response.json({ error: 'Unknown request.' }, { status: 400 });
  }
}
