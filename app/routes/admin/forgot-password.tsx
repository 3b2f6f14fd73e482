import { data, Form, useNavigation } from 'react-router';
import { z } from 'zod';
import { forgotPasswordAddressWait, requestPasswordReset } from '~/server/staff/password-reset.server';
import { clientIp, discardBody } from '~/server/http/request-info.server';
import { parseForm } from '~/server/http/forms.server';
import { getLogger } from '~/server/platform/logger.server';
import { SIGN_IN_MESSAGES } from '~/lib/auth';
import { AuthCard, fieldClass, primaryButton } from '~/components/admin/auth-card';
import { Banner } from '~/components/admin/banner';
import { EmailField } from '~/components/admin/form';
import type { Route } from './+types/forgot-password';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = () => dashboardMeta('Forgot password');
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers({ 'Cache-Control': 'no-store' });
  // A refused post's Retry-After, kept on the document answer of a plain (no-JavaScript) post.
  const retryAfter = actionHeaders.get('Retry-After');
  if (retryAfter) headers.set('Retry-After', retryAfter);
  return headers;
};

export const FORGOT_PASSWORD_SENT =
  'If an account exists for that email address, we have sent it a link to set a new password. The link works once and for one hour.';
export const FORGOT_PASSWORD_FAILED = 'Your request could not be handled just now. Please try again in a few minutes.';

/** The answer to a refused request, with the wait in words ("in 1 minute", "in 42 minutes"). */
export function forgotPasswordLimited(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many password reset requests have been made from this network or for this email address. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}

export function loader() {
  return null;
}

const schema = z.object({ email: z.string().trim().toLowerCase().max(254).pipe(z.email()) });

/** The answer to a request refused by a limit: the wait in words, and in Retry-After. */
function limitedAnswer(retryAfterSeconds: number, headers: Record<string, string> = {}) {
  return data(
    { sent: false, error: forgotPasswordLimited(retryAfterSeconds) },
    { status: 429, headers: { ...headers, 'Retry-After': String(retryAfterSeconds) } },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  // An address that has used up its requests is answered before the form is read (only dropped).
  const wait = await forgotPasswordAddressWait(clientIp(context));
  if (wait !== undefined) return limitedAnswer(wait, await discardBody(request));
  const form = await parseForm(request, schema, { maxBytes: 4_096 });
  if (!form.ok) {
    const error = form.refused ? form.formError : SIGN_IN_MESSAGES.emailInvalid;
    return data({ sent: false, error }, { status: form.status, headers: form.headers });
  }
  try {
    // Only counts and queues: the account is looked up and mailed in the background, so the answer
    // and its timing are the same for every address.
    const outcome = await requestPasswordReset({ email: form.values.email, ip: clientIp(context) });
    if (outcome.status === 'limited') return limitedAnswer(outcome.retryAfterSeconds);
  } catch (error) {
    getLogger().error({ err: error }, 'password reset request could not be queued');
    return data({ sent: false, error: FORGOT_PASSWORD_FAILED }, { status: 503 });
  }
  return { sent: true, error: null };
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === 'submitting';
  return (
    <AuthCard
      title="Forgot your password?"
      intro="Enter the email address of your staff account and we will email you a link to set a new password."
    >
      <div className="mt-6">
        {actionData?.sent && <Banner type="success" message={FORGOT_PASSWORD_SENT} autoClose={false} />}
        {actionData?.error && <Banner type="error" message={actionData.error} autoClose={false} />}
      </div>
      {!actionData?.sent && (
        <Form method="post" className="mt-6 space-y-5">
          <EmailField
            id="email"
            label="Email address"
            autoComplete="username"
            className={fieldClass(Boolean(actionData?.error))}
          />
          <button type="submit" disabled={busy} className={primaryButton}>
            {busy ? 'Sending...' : 'Send reset link'}
          </button>
        </Form>
      )}
    </AuthCard>
  );
}
