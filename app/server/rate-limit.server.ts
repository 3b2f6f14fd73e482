import { isIPv4, isIPv6, SocketAddress } from 'node:net';
import { data, type HeadersFunction } from 'react-router';
import { limitReached, reserveAttempt } from './limits.server.ts';
import { getLogger } from './logger.server.ts';

// What public forms share about limits: the key a visitor is counted under, and how an action
// answers. The counts themselves live in the database (limits.server.ts), so every process and
// instance counts the same attempts (docs/decisions/018-many-instances.md).

/**
 * The key for a visitor: their IPv4 address, or the /64 network of an IPv6 address (one home or
 * phone holds a whole /64 and can rotate through it), or one shared bucket when it is unknown.
 */
export function visitorKey(clientIp: string): string {
  const ip = clientIp.trim();
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return 'unknown';
  // One spelling per address (inet_ntop's: lower case, zeros compressed, zone dropped, an IPv4-mapped
  // address with its IPv4 part), so `::FFFF:c000:280` and `::ffff:192.0.2.128` are one visitor.
  let canonical: string;
  try {
    canonical = new SocketAddress({ address: ip, family: 'ipv6' }).address;
  } catch {
    return 'unknown';
  }
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(canonical);
  if (mapped) return mapped[1]!;
  const [head = '', tail = ''] = canonical.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = canonical.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups.slice(0, 4).join(':')}::/64`;
}

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
  form: 'contact' | 'newsletter',
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
  form: 'contact' | 'newsletter',
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
