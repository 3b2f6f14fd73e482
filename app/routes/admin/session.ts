import { allowSignedOut, signIn } from '~/server/auth.server';
import { clientIp, readForm } from '~/server/request-info.server';
import { homePathFor } from '~/lib/permissions';
import { safeRedirect, SIGN_IN_MESSAGES, signInSchema } from '~/lib/auth';
import { getLogger } from '~/server/logger.server';
import type { Route } from './+types/session';

// The sign-in endpoint the sign-in screen calls with JavaScript (JSON in, JSON out). Without
// JavaScript the screen posts to /admin itself; both use signIn().

export function loader() {
  return Response.json({ error: 'Use POST.' }, { status: 405 });
}

export async function action({ request, context }: Route.ActionArgs) {
  await allowSignedOut(request);
  const form = await readForm(request, 8_192);
  const parsed = signInSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success)
    return Response.json({ error: parsed.error.issues[0]?.message ?? SIGN_IN_MESSAGES.unexpected }, { status: 400 });
  try {
    const result = await signIn({ ...parsed.data, ip: clientIp(context), userAgent: request.headers.get('user-agent'), request });
    if (result.status === 'invalid') return Response.json({ error: SIGN_IN_MESSAGES.invalidCredentials }, { status: 401 });
    if (result.status === 'disabled') return Response.json({ error: SIGN_IN_MESSAGES.disabled }, { status: 403 });
    if (result.status === 'rate-limited')
      return Response.json(
        { error: SIGN_IN_MESSAGES.tooManyAttempts },
        { status: 429, headers: { 'Retry-After': String(result.retryAfterSeconds) } },
      );
    const redirectTo = safeRedirect(form.get('redirectTo'), homePathFor(result.user.role));
    return Response.json(
      { ok: true, redirectTo, message: SIGN_IN_MESSAGES.success },
      { headers: { 'Set-Cookie': result.cookie } },
    );
  } catch (error) {
    getLogger().error({ err: error }, 'sign-in failed');
    return Response.json({ error: SIGN_IN_MESSAGES.lookupFailed }, { status: 500 });
  }
}
