import { data, type HeadersFunction } from 'react-router';
import { limitReached, reserveAttempt, visitorKey } from '../platform/limits.server.ts';
import { getLogger } from '../platform/logger.server.ts';

// What public forms share about limits: the key a visitor is counted under, and how an action
// answers. The counts themselves live in the database (limits.server.ts), so every process and
// instance counts the same attempts (docs/decisions/018-many-instances.md).

/** Why a public form's post goes no further: over its limit (429), or not countable (503). */
export interface VisitorRefusal {
  status: 429 | 503;
  headers: Record<string, string>;
}

/**
 * Counts a public form's post against its visitor's limit, in the database (rate_limits), so every
 * process and instance counts the same posts. Undefined when the post may go on. A count that cannot
 * be written refuses with 503 rather than let every post through.
 */
export async function limitVisitorPost(
  form: 'contact' | 'newsletter' | 'application' | 'event',
  clientIp: string,
  rule: { limit: number; windowMs: number },
): Promise<VisitorRefusal | undefined> {
  let decision;
  try {
    decision = await reserveAttempt(`${form}:${visitorKey(clientIp)}`, rule.limit, rule.windowMs);
  } catch (error) {
    getLogger().error({ err: error, form }, `${form} post could not be counted against the limit`);
    return { status: 503, headers: {} };
  }
  if (decision.allowed) return undefined;
  getLogger().warn({ form }, `${form} post refused: rate limit`);
  return { status: 429, headers: { 'Retry-After': String(decision.retryAfterSeconds) } };
}

/**
 * Before a public form's body is read: a visitor already over the form's limit is refused (429)
 * without the post being checked, stored or counted again, so a flood of refused posts costs one
 * read each. Undefined when the post may go on to limitVisitorPost, which counts it and alone
 * decides; also when the count cannot be read (limitVisitorPost then answers).
 */
export async function visitorOverLimit(
  form: 'contact' | 'newsletter' | 'application' | 'event',
  clientIp: string,
  rule: { limit: number; windowMs: number },
): Promise<VisitorRefusal | undefined> {
  let retryAfterSeconds;
  try {
    retryAfterSeconds = await limitReached(`${form}:${visitorKey(clientIp)}`, rule.limit, rule.windowMs);
  } catch {
    return undefined;
  }
  if (retryAfterSeconds === undefined) return undefined;
  getLogger().warn({ form }, `${form} post refused: rate limit`);
  return { status: 429, headers: { 'Retry-After': String(retryAfterSeconds) } };
}

/** What a public form's action decided: the result for the page, its HTTP status and any headers. */
export interface FormAnswer<T> {
  status: number;
  result: T;
  headers?: Record<string, string>;
}

/** The action's return value for a FormAnswer (the same for a plain post and a .data submission). */
export function formAnswer<T>(answer: FormAnswer<T>) {
  return data(answer.result, { status: answer.status, headers: answer.headers ?? {} });
}

/** A route's `headers`: a document answer to a limited post keeps the action's Retry-After. */
export const retryAfterHeaders: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('Retry-After');
  return retryAfter ? { 'Retry-After': retryAfter } : new Headers();
};
