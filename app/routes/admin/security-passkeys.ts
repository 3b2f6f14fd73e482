import { getStaff } from '~/server/http/staff-context.server';
import { clientIp } from '~/server/http/request-info.server';
import { readJsonBody } from '~/server/http/json-body.server';
import { ruleFailure } from '~/server/http/rules.server';
import { RuleError } from '~/server/platform/rule-error.server';
import { readCookie } from '~/server/staff/sessions.server';
import { passkeyCookie, passkeyCookieName } from '~/server/staff/two-factor.server';
import { finishPasskeyRegistration, passkeyRegistrationOptions } from '~/server/staff/passkeys.server';
import type { Route } from './+types/security-passkeys';

// Issue 25: adding a passkey on My sign-in, as JSON for the browser's WebAuthn call. `intent`:
// options (the challenge, kept server-side) and finish (the authenticator's answer and a name).

export function loader() {
  return Response.json({ error: 'Use POST.' }, { status: 405 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const me = getStaff(context);
  const body = await readJsonBody(request);
  try {
    if (body.intent === 'options') {
      const { token, options } = await passkeyRegistrationOptions(me);
      return Response.json({ options }, { headers: { 'Set-Cookie': passkeyCookie(token), 'Cache-Control': 'no-store' } });
    }
    if (body.intent === 'finish') {
      const passkey = await finishPasskeyRegistration(
        me,
        {
          token: readCookie(request, passkeyCookieName()),
          response: body.response,
          name: typeof body.name === 'string' ? body.name : '',
        },
        clientIp(context),
      );
      return Response.json({ passkey }, { headers: { 'Set-Cookie': passkeyCookie(null) } });
    }
  } catch (error) {
    if (error instanceof RuleError) return Response.json({ error: ruleFailure(error).message }, { status: error.status });
    throw error;
  }
  return Response.json({ error: 'Unknown request.' }, { status: 400 });
}
