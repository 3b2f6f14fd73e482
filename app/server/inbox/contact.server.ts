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
  type ContactMessageInput,
  type ContactResult,
  type ContactValues,
} from '../../lib/contact.ts';
import type { Database } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { newId, nowIso } from '../platform/ids.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { limitVisitorPost, visitorOverLimit, type FormAnswer, type VisitorRefusal } from '../http/rate-limit.server.ts';
import { parseForm } from '../http/forms.server.ts';
import { getConfig } from '../platform/config.server.ts';
import { sendMail } from '../platform/mail.server.ts';
import { getSiteInfo } from '../site/site.server.ts';
import { formatMessageTime, oneLine } from '../../lib/messages.ts';

// spec §3 Contact message and §7 Send contact: validated on the server, stored with the server's
// time. Bots are turned away by a honeypot field and a per-address limit; oversized posts by a byte
// cap counted before the body is parsed. Logs never hold the sender's address or words. A stored
// message is also mailed to the organisation's address (issue 11), queued after it is stored: a mail
// that cannot be queued is logged and the visitor is still told "sent" (docs/decisions/501-inbox.md).

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

  let saved: { id: string; createdAt: string };
  try {
    saved = await saveContactMessage(message, options.db);
    log.info({ contactId: saved.id, hasPhone: message.phone !== null }, 'contact message stored');
  } catch (error) {
    log.error({ err: error, form: 'contact' }, 'contact message could not be stored');
    return { status: 503, result: { status: 'failed', message: CONTACT_TEXT.failed, values } };
  }
  try {
    await notifyTeam({ ...message, ...saved }, options.db);
  } catch (error) {
    // The message is stored and shows in the inbox; only the mail about it is missing.
    log.error({ err: error, contactId: saved.id }, 'the team could not be told of a new contact message by mail');
  }
  return { status: 200, result: { status: 'sent' } };
}

type StoredMessage = ContactMessageInput & { id: string; createdAt: string };

/** The mail that tells the organisation's address of a new message: every field, and a link to it in the inbox. */
export function notificationMail(message: StoredMessage, site: { email: string; publicUrl: string }) {
  const link = `${site.publicUrl.replace(/(?<!\/)\/+$/, '')}/admin/messages/${message.id}`;
  const text = [
    'A new message was sent through the contact page of the website.',
    '',
    // One line each, as in the headers: a visitor's line break cannot forge a line of this mail.
    `Name: ${oneLine(message.name)}`,
    `Email: ${oneLine(message.email)}`,
    `Phone: ${message.phone ? oneLine(message.phone) : 'not given'}`,
    `Subject: ${oneLine(message.subject)}`,
    `Received: ${formatMessageTime(message.createdAt)} (Kampala time)`,
    '',
    'Message:',
    message.message,
    '',
    `Read it and reply in the dashboard: ${link}`,
    'Replying to this email writes to the sender directly; a reply from the dashboard is kept with the message.',
  ].join('\n');
  return {
    to: site.email,
    replyTo: message.email,
    subject: `New message: ${oneLine(message.subject)}`,
    text,
  };
}

/** Queues the notification: a row in the outbox and a job, never a wait for the mail server. */
async function notifyTeam(message: StoredMessage, db: Kysely<Database> = getDb()): Promise<void> {
  const site = await getSiteInfo();
  await sendMail(notificationMail(message, { email: site.email, publicUrl: getConfig().publicUrl }), db);
}
