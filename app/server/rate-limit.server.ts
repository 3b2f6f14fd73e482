import { isIPv4, isIPv6, SocketAddress } from 'node:net';
import { data, type HeadersFunction } from 'react-router';

// Per-visitor limits for public forms (contact, newsletter): a sliding window kept in memory.
// One process serves the site, so memory is the right store; a restart forgets the counts, which is
// harmless for limits measured in minutes (docs/decisions/401-contact-form.md).

export interface RateLimitOptions {
  /** Most attempts allowed inside the window. */
  limit: number;
  windowMs: number;
  /** Most visitors tracked at once; the longest-idle are forgotten first. */
  maxKeys?: number;
  now?: () => number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Attempts left in the window after this one. */
  remaining: number;
  /** Seconds until the next attempt would be allowed (0 when allowed). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts one attempt for `key` and says whether it is within the limit. Refused attempts do not count. */
  attempt(key: string): RateLimitDecision;
  /** Forgets every count (tests). */
  reset(): void;
  /** Visitors currently tracked. */
  size(): number;
}

export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const { limit, windowMs, maxKeys = 10_000, now = Date.now } = options;
  // key → times of the attempts still inside the window, oldest first. Map order = least recently used.
  const hits = new Map<string, number[]>();

  function prune(at: number): void {
    for (const [key, times] of hits) {
      if ((times.at(-1) ?? 0) <= at - windowMs) hits.delete(key);
    }
  }

  return {
    attempt(key) {
      const at = now();
      const recent = (hits.get(key) ?? []).filter((t) => t > at - windowMs);
      hits.delete(key);
      if (recent.length >= limit) {
        hits.set(key, recent);
        const retryAfterSeconds = Math.max(1, Math.ceil((recent[0]! + windowMs - at) / 1000));
        return { allowed: false, remaining: 0, retryAfterSeconds };
      }
      recent.push(at);
      hits.set(key, recent);
      if (hits.size > maxKeys) {
        prune(at);
        for (const oldest of hits.keys()) {
          if (hits.size <= maxKeys) break;
          hits.delete(oldest);
        }
      }
      return { allowed: true, remaining: limit - recent.length, retryAfterSeconds: 0 };
    },
    reset() {
      hits.clear();
    },
    size() {
      return hits.size;
    },
  };
}

const registry = new Map<string, RateLimiter>();

/** The process's limiter called `name`, created with `options` on first use. */
export function getRateLimiter(name: string, options: RateLimitOptions): RateLimiter {
  let limiter = registry.get(name);
  if (!limiter) {
    limiter = createRateLimiter(options);
    registry.set(name, limiter);
  }
  return limiter;
}

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
