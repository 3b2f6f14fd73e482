import { data } from 'react-router';
import type { RuleError } from '../platform/rule-error.server.ts';

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
