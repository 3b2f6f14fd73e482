import { languageOfPath } from '../../lib/languages.ts';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  CONTACT_FIELDS,
  CONTACT_MAX_BODY_BYTES,
  CONTACT_RATE_LIMIT,
  CONTACT_TEXT,
  contactSchema,
  HONEYPOT_FIELD,
  type ContactFieldErrors,
  type ContactResult,
  type ContactValues,
} from '../../lib/contact.ts';
import type { Database } from '../db/schema.ts';
import { receiveContactMessage } from '../inbox/contact.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { parseForm } from './forms.server.ts';
import { limitVisitorPost, visitorOverLimit, type FormAnswer, type VisitorRefusal } from './rate-limit.server.ts';

// spec §7 Send contact: the contact form as posted, checked on the server. Bots are turned away by a
// honeypot field and a per-address limit; oversized posts by a byte cap counted before the body is
// parsed. A message that passes is handed to the inbox (app/server/inbox/contact.server.ts), which
// stores it and tells the organisation's address. Logs never hold the sender's address or words.

export type ContactSubmission = FormAnswer<ContactResult>;

/** The contact form as posted: the message and the honeypot, which must be present and empty. */
const contactFormSchema = contactSchema.extend({ [HONEYPOT_FIELD]: z.string().optional() });

const EMPTY_VALUES: ContactValues = { name: '', email: '', phone: '', subject: '', message: '' };

/** The contact form's action: every outcome is an answer for the visitor, never a thrown error. */
export async function submitContactForm(options: {
  request: Request;
  clientIp: string;
  db?: Kysely<Database>;
}): Promise<ContactSubmission> {
  const log = getLogger();
  // A visitor already over the limit is known before the body is read: their post is not checked,
  // stored or counted again (the form is still read, to show what they typed).
  const over = await visitorOverLimit('contact', options.clientIp, CONTACT_RATE_LIMIT);
  const form = await parseForm(options.request, contactFormSchema, {
    maxBytes: CONTACT_MAX_BODY_BYTES,
    tooLargeMessage: CONTACT_TEXT.tooLarge,
    // Counted as it streams in: a visitor's browser, or a bot, may send it in pieces.
    requireLength: false,
  });
  if (!form.ok && form.refused) {
    if (form.status === 413) {
      log.warn({ form: 'contact' }, 'contact message refused: too large');
      return {
        status: 413,
        result: { status: 'refused', message: CONTACT_TEXT.tooLarge, values: EMPTY_VALUES },
        headers: form.headers,
      };
    }
    return {
      status: 400,
      result: { status: 'failed', message: CONTACT_TEXT.failed, values: EMPTY_VALUES },
      headers: form.headers,
    };
  }

  // What the form shows again: as posted, or once checked (trimmed).
  const values = { ...EMPTY_VALUES };
  for (const field of CONTACT_FIELDS) values[field] = form.values[field] ?? '';
  const limitAnswer = (limited: VisitorRefusal): ContactSubmission => ({
    ...limited,
    result:
      limited.status === 429
        ? { status: 'refused', message: CONTACT_TEXT.rateLimited, values }
        : { status: 'failed', message: CONTACT_TEXT.failed, values },
  });
  if (over) return limitAnswer(over);

  const honeypot = form.values[HONEYPOT_FIELD];
  if (honeypot === undefined || honeypot.trim() !== '') {
    log.warn({ form: 'contact' }, 'contact message refused: honeypot filled');
    return { status: 400, result: { status: 'refused', message: CONTACT_TEXT.automated, values } };
  }

  if (!form.ok) {
    const errors: ContactFieldErrors = form.fieldErrors;
    return { status: 400, result: { status: 'invalid', message: CONTACT_TEXT.invalid, errors, values } };
  }
  const { [HONEYPOT_FIELD]: _, ...message } = form.values;

  const limited = await limitVisitorPost('contact', options.clientIp, CONTACT_RATE_LIMIT);
  if (limited) return limitAnswer(limited);

  try {
    // Stored, then the team is told by a queued mail; a mail that cannot be queued still answers "sent".
    // Staff see which pages it came from, to answer in that language.
    await receiveContactMessage(message, options.db, languageOfPath(new URL(options.request.url).pathname));
  } catch (error) {
    log.error({ err: error, form: 'contact' }, 'contact message could not be stored');
    return { status: 503, result: { status: 'failed', message: CONTACT_TEXT.failed, values } };
  }
  return { status: 200, result: { status: 'sent' } };
}
