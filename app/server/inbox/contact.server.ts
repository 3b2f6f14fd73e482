import type { Kysely } from 'kysely';
import type { ContactMessageInput } from '../../lib/contact.ts';
import type { Database } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { newId, nowIso } from '../platform/ids.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { getConfig } from '../platform/config.server.ts';
import { sendMail } from '../platform/mail.server.ts';
import { getSiteInfo } from '../site/site.server.ts';
import { formatMessageTime, oneLine } from '../../lib/messages.ts';
import { writtenFromLine, type Language } from '../../lib/languages.ts';

// spec §3 Contact message and §7 Send contact: a message the contact form has checked (its action
// reads the post, turns bots away and applies the per-address limit) is stored with the server's
// time. Logs never hold the sender's address or words. A stored message is also mailed to the
// organisation's address (issue 11), queued after it is stored: a mail that cannot be queued is
// logged and the visitor is still told "sent" (docs/decisions/501-inbox.md).

/** Stores one message from the contact form; `created_at` is the server's time (spec §7). */
export async function saveContactMessage(
  input: ContactMessageInput,
  db: Kysely<Database> = getDb(),
  /** The language of the page it was sent from. */
  language: Language = 'en',
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
    language,
  };
  await db.insertInto('contacts').values(row).execute();
  return { id: row.id, createdAt: row.created_at };
}

/**
 * A checked message from the contact form: stored, then the organisation's address is told of it by
 * a queued mail. Throws when the message cannot be stored; a mail that cannot be queued is logged
 * and the message stays stored (it shows in the inbox).
 */
export async function receiveContactMessage(
  message: ContactMessageInput,
  db?: Kysely<Database>,
  language: Language = 'en',
): Promise<{ id: string; createdAt: string }> {
  const log = getLogger();
  const saved = await saveContactMessage(message, db, language);
  log.info({ contactId: saved.id, hasPhone: message.phone !== null }, 'contact message stored');
  try {
    await notifyTeam({ ...message, ...saved, language }, db);
  } catch (error) {
    // The message is stored and shows in the inbox; only the mail about it is missing.
    log.error({ err: error, contactId: saved.id }, 'the team could not be told of a new contact message by mail');
  }
  return saved;
}

type StoredMessage = ContactMessageInput & { id: string; createdAt: string; language?: Language };

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
    ...[writtenFromLine(message.language)].filter((line) => line !== undefined),
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
