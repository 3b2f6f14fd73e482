import type { Kysely } from 'kysely';
import { z } from 'zod';
import { NEWSLETTER_MESSAGES, newsletterSchema, type NewsletterResult } from '../lib/newsletter.ts';
import type { Database } from './db/schema.ts';
import { getDb } from './db/db.server.ts';
import { parseForm } from './forms.server.ts';
import { newId, nowIso } from './ids.server.ts';
import { getLogger } from './logger.server.ts';
import { getRateLimiter, visitorKey, type FormAnswer, type RateLimiter } from './rate-limit.server.ts';

// The newsletter boxes (spec §2 /news and article page): the address is stored once, lower-cased;
// subscribing again is a friendly "already", not an error (docs/decisions/403-newsletter.md).

const MAX_BODY_BYTES = 8 * 1024;
/** Generous, because many phones on one mobile network share an address. */
export const NEWSLETTER_RATE_LIMIT = { limit: 20, windowMs: 10 * 60_000 } as const;

/**
 * Adds `email` (already validated and lower-cased) to the list. Two requests racing with the same
 * address are settled by the unique index: one inserts, the other answers 'already'.
 */
export async function subscribeToNewsletter(
  input: { email: string; source?: string | null | undefined },
  db: Kysely<Database> = getDb(),
): Promise<'subscribed' | 'already'> {
  const result = await db
    .insertInto('newsletter_subscribers')
    .values({ id: newId(), email: input.email, source: input.source || null, created_at: nowIso() })
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0 ? 'subscribed' : 'already';
}

/** A path on this site to send the visitor back to, or undefined when `value` is not one. */
export function safeLocalPath(value: string | null | undefined): string | undefined {
  if (!value || value.length > 200 || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return;
  if (/[\p{Cc}\s\\]/u.test(value)) return;
  return value;
}

/** Where "back" goes after a plain (no-JavaScript) post: the box's source path, the same-site referrer, or home. */
export function backPath(source: string | undefined, request: Request): string {
  const fromSource = safeLocalPath(source);
  if (fromSource) return fromSource;
  const referer = request.headers.get('referer');
  if (referer) {
    try {
      const here = new URL(request.url);
      const there = new URL(referer);
      if (there.origin === here.origin && there.pathname !== here.pathname)
        return safeLocalPath(there.pathname + there.search) ?? '/';
    } catch {
      // A malformed Referer is ignored.
    }
  }
  return '/';
}

const SOURCE_MAX = 200;

/** The box as posted: the address, and the page it sits on (cut to length: it only says where "back" is). */
const newsletterFormSchema = newsletterSchema.extend({
  source: z
    .string()
    .optional()
    .transform((source) => source?.trim().slice(0, SOURCE_MAX)),
});

export function newsletterRateLimiter(): RateLimiter {
  return getRateLimiter('newsletter', NEWSLETTER_RATE_LIMIT);
}

export type NewsletterAnswer = NewsletterResult & { back: string };

function answer(status: keyof typeof NEWSLETTER_MESSAGES, back: string, message?: string): NewsletterAnswer {
  return { status, message: message ?? NEWSLETTER_MESSAGES[status], back };
}

export const NEWSLETTER_RATE_LIMITED =
  'You have tried to subscribe several times in a short time. Please wait 10 minutes and try again.';
export const NEWSLETTER_TOO_LARGE = 'That request was too large. Please enter just your email address and try again.';

/** The /newsletter action: every outcome is an answer for the visitor, never a thrown error. */
export async function submitNewsletterForm(options: {
  request: Request;
  clientIp: string;
  db?: Kysely<Database>;
  limiter?: RateLimiter;
}): Promise<FormAnswer<NewsletterAnswer>> {
  const log = getLogger();
  const form = await parseForm(options.request, newsletterFormSchema, {
    maxBytes: MAX_BODY_BYTES,
    tooLargeMessage: NEWSLETTER_TOO_LARGE,
    requireLength: false,
  });
  if (!form.ok && form.refused) {
    const back = backPath(undefined, options.request);
    if (form.status === 413) return { status: 413, result: answer('invalid', back, NEWSLETTER_TOO_LARGE), headers: form.headers };
    return { status: 400, result: answer('invalid', back), headers: form.headers };
  }
  if (!form.ok) {
    const back = backPath(form.values.source?.trim().slice(0, SOURCE_MAX), options.request);
    return { status: 400, result: answer('invalid', back) };
  }
  const parsed = form.values;
  const back = backPath(parsed.source, options.request);

  const decision = (options.limiter ?? newsletterRateLimiter()).attempt(visitorKey(options.clientIp));
  if (!decision.allowed) {
    log.warn({ form: 'newsletter' }, 'newsletter subscription refused: rate limit');
    return {
      status: 429,
      result: answer('failed', back, NEWSLETTER_RATE_LIMITED),
      headers: { 'Retry-After': String(decision.retryAfterSeconds) },
    };
  }

  try {
    const outcome = await subscribeToNewsletter({ email: parsed.email, source: parsed.source }, options.db);
    // The source is text the visitor sent: the log says only whether the box named its page.
    log.info({ form: 'newsletter', outcome, fromPage: Boolean(parsed.source) }, 'newsletter subscription');
    return { status: 200, result: answer(outcome, back) };
  } catch (error) {
    log.error({ err: error, form: 'newsletter' }, 'newsletter subscription could not be stored');
    return { status: 503, result: answer('failed', back) };
  }
}
