import type { Kysely } from 'kysely';
import {
  CONTACT_FIELDS,
  CONTACT_MAX_BODY_BYTES,
  CONTACT_RATE_LIMIT,
  CONTACT_TEXT,
  contactSchema,
  HONEYPOT_FIELD,
  type ContactFieldErrors,
  type ContactMessageInput,
  type ContactResult,
  type ContactValues,
} from '../lib/contact.ts';
import type { Database } from './db/schema.ts';
import { getDb } from './db/db.server.ts';
import { newId, nowIso } from './ids.server.ts';
import { getLogger } from './logger.server.ts';
import { getRateLimiter, visitorKey, type FormAnswer, type RateLimiter } from './rate-limit.server.ts';
import { BodyTooLargeError, discardBody, readBodyWithinLimit } from './request-info.server.ts';

// spec §3 Contact message and §7 Send contact: validated on the server, stored with the server's
// time. Bots are turned away by a honeypot field and a per-address limit; oversized posts by a byte
// cap counted before the body is parsed. Logs never hold the sender's address or words.

export { BodyTooLargeError };

export class UnreadableFormError extends Error {
  override name = 'UnreadableFormError';
  /** What the 400 answer must be sent with (see discardBody). */
  readonly headers: Record<string, string>;
  constructor(headers: Record<string, string> = {}) {
    super('The form could not be read');
    this.headers = headers;
  }
}

/**
 * The posted form, kept only up to `maxBytes`. A larger body is read to its end and dropped (up to
 * DRAIN_LIMIT_BYTES), so the connection can carry the 413 and the visitor's next request; beyond
 * that the refusal's headers say `Connection: close` (request-info.server.ts).
 */
export async function readFormWithinLimit(request: Request, maxBytes: number): Promise<FormData> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(contentType)) {
    throw new UnreadableFormError(await discardBody(request));
  }
  const body = await readBodyWithinLimit(request, maxBytes);
  try {
    return await new Response(body, { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    throw new UnreadableFormError();
  }
}

/** Stores one message from the contact form; `created_at` is the server's time (spec §7). */
export async function saveContactMessage(
  input: ContactMessageInput,
  db: Kysely<Database> = getDb(),
): Promise<{ id: string; createdAt: string }> {
  const row = {
    id: newId(),
    name: input.name,
    email: input.email,
    phone: input.phone,
    subject: input.subject,
    message: input.message,
    created_at: nowIso(),
    read_at: null,
  };
  await db.insertInto('contacts').values(row).execute();
  return { id: row.id, createdAt: row.created_at };
}

export function contactRateLimiter(): RateLimiter {
  return getRateLimiter('contact', CONTACT_RATE_LIMIT);
}

export type ContactSubmission = FormAnswer<ContactResult>;

const EMPTY_VALUES: ContactValues = { name: '', email: '', phone: '', subject: '', message: '' };

/** The contact form's action: every outcome is an answer for the visitor, never a thrown error. */
export async function submitContactForm(options: {
  request: Request;
  clientIp: string;
  db?: Kysely<Database>;
  limiter?: RateLimiter;
}): Promise<ContactSubmission> {
  const log = getLogger();
  let form: FormData;
  try {
    form = await readFormWithinLimit(options.request, CONTACT_MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      log.warn({ form: 'contact' }, 'contact message refused: too large');
      return {
        status: 413,
        result: { status: 'refused', message: CONTACT_TEXT.tooLarge, values: EMPTY_VALUES },
        headers: error.headers,
      };
    }
    const headers = error instanceof UnreadableFormError ? error.headers : {};
    return { status: 400, result: { status: 'failed', message: CONTACT_TEXT.failed, values: EMPTY_VALUES }, headers };
  }

  const values = { ...EMPTY_VALUES };
  for (const field of CONTACT_FIELDS) {
    const value = form.get(field);
    values[field] = typeof value === 'string' ? value : '';
  }

  const honeypot = form.get(HONEYPOT_FIELD);
  if (typeof honeypot !== 'string' || honeypot.trim() !== '') {
    log.warn({ form: 'contact' }, 'contact message refused: honeypot filled');
    return { status: 400, result: { status: 'refused', message: CONTACT_TEXT.automated, values } };
  }

  const parsed = contactSchema.safeParse(values);
  if (!parsed.success) {
    const errors: ContactFieldErrors = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof ContactFieldErrors;
      errors[field] ??= issue.message;
    }
    return { status: 400, result: { status: 'invalid', message: CONTACT_TEXT.invalid, errors, values } };
  }

  const decision = (options.limiter ?? contactRateLimiter()).attempt(visitorKey(options.clientIp));
  if (!decision.allowed) {
    log.warn({ form: 'contact' }, 'contact message refused: rate limit');
    return {
      status: 429,
      result: { status: 'refused', message: CONTACT_TEXT.rateLimited, values },
      headers: { 'Retry-After': String(decision.retryAfterSeconds) },
    };
  }

  try {
    const saved = await saveContactMessage(parsed.data, options.db);
    log.info({ contactId: saved.id, hasPhone: parsed.data.phone !== null }, 'contact message stored');
    return { status: 200, result: { status: 'sent' } };
  } catch (error) {
    log.error({ err: error, form: 'contact' }, 'contact message could not be stored');
    return { status: 503, result: { status: 'failed', message: CONTACT_TEXT.failed, values } };
  }
}
