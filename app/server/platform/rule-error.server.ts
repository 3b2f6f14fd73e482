/**
 * A service's refusal under a rule of the spec (§5, §6): the message the person is shown (the spec's
 * own words where it has them), the HTTP status the refusal deserves and, when the refusal concerns
 * one field of a form, that field. Services throw it (or a subclass); routes never build answers for
 * it themselves but hand it to `ruleResponse` or `flashRefusal` (app/server/http/rules.server.ts).
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
