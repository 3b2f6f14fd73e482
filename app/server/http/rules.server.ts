import { data, redirect } from 'react-router';
import { RuleError, type RuleStatus } from '../platform/rule-error.server.ts';
import { flashCookie } from './flash.server.ts';
import { getLogger } from '../platform/logger.server.ts';

// The one way a route turns what a service threw into an answer: a rule's refusal is told in its own
// words with its own status; anything else is logged and told with the route's "did not work" words
// and a 500. Routes pick the shape (a form's failure, a flash with the list, the error page) and never
// write the catch themselves.

/** What a form's action answers for a refusal. `errors.form` is the message for the whole form. */
export interface RuleFailure {
  ok: false;
  message: string;
  errors: Record<string, string>;
}

export function ruleFailure(error: RuleError): RuleFailure {
  const errors: Record<string, string> = { form: error.message };
  if (error.field) errors[error.field] = error.message;
  return { ok: false, message: error.message, errors };
}

/** The one way an action answers a RuleError: the failure with the refusal's status (and any extra headers). */
export function ruleResponse(error: RuleError, init: { headers?: HeadersInit } = {}) {
  return data(ruleFailure(error), { status: error.status, ...init });
}

/** What went wrong, for the person: a rule's refusal as it is, or (logged as `what`) `failed` with a 500. */
export function failureOf(
  error: unknown,
  failed: string,
  what: string,
  detail: Record<string, unknown> = {},
): { message: string; status: RuleStatus | 500 } {
  if (error instanceof RuleError) return { message: error.message, status: error.status };
  getLogger().error({ err: error, ...detail }, what);
  return { message: failed, status: 500 };
}

/** A failed action's answer `{ ok: false, message, …extra }` with the failure's status. */
export function failureAnswer<Extra extends Record<string, unknown>>(
  error: unknown,
  failed: string,
  what: string,
  extra: Extra = {} as Extra,
) {
  const { message, status } = failureOf(error, failed, what);
  return data({ ok: false as const, message, ...extra }, { status });
}

/**
 * A failure told with the list it came from (spec §8: the failure is reported and the list reloads):
 * a redirect (303) carrying `message(reason)` as an error toast.
 */
export function redirectWithFailure(
  to: string,
  error: unknown,
  failed: string,
  what: string,
  message: (reason: string) => string,
) {
  const reason = failureOf(error, failed, what).message;
  return redirect(to, {
    status: 303,
    headers: { 'Set-Cookie': flashCookie({ type: 'error', message: message(reason), toast: true }) },
  });
}

/** What a loader throws for what a service threw: a rule's refusal as the dashboard's error page (its words, its status), anything else as it is. */
export function loaderRefusal(error: unknown): unknown {
  return error instanceof RuleError ? data({ error: error.message }, { status: error.status }) : error;
}
