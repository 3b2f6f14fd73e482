import { languageOfPath } from '../../lib/languages.ts';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { NEWSLETTER_MESSAGES, newsletterSchema, type NewsletterResult } from '../../lib/newsletter.ts';
import type { Database } from '../db/schema.ts';
import { queueSubscription, SOURCE_MAX } from '../newsletter/newsletter.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { parseForm } from './forms.server.ts';
import { limitVisitorPost, visitorOverLimit, type FormAnswer } from './rate-limit.server.ts';

// Every newsletter box posts to /newsletter (issue 12, docs/decisions/505-newsletter.md): the address
// is checked, the visitor's posts are counted, and a valid address is handed to the newsletter
// (app/server/newsletter/newsletter.server.ts), which only queues it. The answer is the same for
// every valid address, and says where "back" is for a post made without JavaScript.

const MAX_BODY_BYTES = 8 * 1024;
/** Generous, because many phones on one mobile network share an address. */
export const NEWSLETTER_RATE_LIMIT = { limit: 20, windowMs: 10 * 60_000 } as const;

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

/** The box as posted: the address, and the page it sits on (cut to length: it only says where "back" is). */
const newsletterFormSchema = newsletterSchema.extend({
  source: z
    .string()
    .optional()
    .transform((source) => source?.trim().slice(0, SOURCE_MAX)),
});

export type NewsletterAnswer = NewsletterResult & { back: string };

function answer(status: keyof typeof NEWSLETTER_MESSAGES, back: string, message?: string): NewsletterAnswer {
  return { status, message: message ?? NEWSLETTER_MESSAGES[status], back };
}

export const NEWSLETTER_RATE_LIMITED =
  'You have tried to subscribe several times in a short time. Please wait 10 minutes and try again.';
export const NEWSLETTER_TOO_LARGE = 'That request was too large. Please enter just your email address and try again.';

/**
 * The /newsletter action: every outcome is an answer for the visitor, never a thrown error. A valid
 * address is only queued (one row in `jobs`), so the answer and its timing are the same for an
 * address we have never seen, one waiting for confirmation, a subscriber and an unsubscribed one.
 */
export async function submitNewsletterForm(options: {
  request: Request;
  clientIp: string;
  db?: Kysely<Database>;
}): Promise<FormAnswer<NewsletterAnswer>> {
  // A visitor already over the limit is known before the body is read: the address is not checked
  // or counted again (the form is still read, for the page to go back to).
  const over = await visitorOverLimit('newsletter', options.clientIp, NEWSLETTER_RATE_LIMIT);
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
  if (over) {
    const back = backPath(form.ok ? form.values.source : form.values.source?.trim().slice(0, SOURCE_MAX), options.request);
    return { ...over, result: answer('failed', back, NEWSLETTER_RATE_LIMITED) };
  }
  if (!form.ok) {
    const back = backPath(form.values.source?.trim().slice(0, SOURCE_MAX), options.request);
    return { status: 400, result: answer('invalid', back) };
  }
  const parsed = form.values;
  const back = backPath(parsed.source, options.request);

  const limited = await limitVisitorPost('newsletter', options.clientIp, NEWSLETTER_RATE_LIMIT);
  if (limited)
    return { ...limited, result: answer('failed', back, limited.status === 429 ? NEWSLETTER_RATE_LIMITED : undefined) };

  try {
    // In the page's language: the confirmation is written in it, and links to its pages.
    await queueSubscription({ ...parsed, language: languageOfPath(new URL(options.request.url).pathname) }, options.db);
    return { status: 200, result: answer('received', back) };
  } catch (error) {
    getLogger().error({ err: error, form: 'newsletter' }, 'newsletter subscription could not be queued');
    return { status: 503, result: answer('failed', back) };
  }
}
