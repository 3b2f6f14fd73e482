import { data } from 'react-router';

/**
 * A service's refusal under a rule of the spec (§5, §6): the message the person is shown (the spec's
 * own words where it has them), the HTTP status the refusal deserves and, when the refusal concerns
 * one field of a form, that field. Services throw it (or a subclass); routes never build these
 * answers themselves but hand the error to `ruleResponse`.
 */
export class RuleError extends Error {
  readonly status: RuleStatus;
  readonly field: string | undefined;
  constructor(message: string, status: RuleStatus = 400, field?: string) {
    super(message);
    this.status = status;
    this.field = field;
  }
}

/** 400 bad input, 403 not allowed, 404 no such thing, 409 already exists, 410 gone, 413 too large. */
export type RuleStatus = 400 | 403 | 404 | 409 | 410 | 413 | 429;

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
