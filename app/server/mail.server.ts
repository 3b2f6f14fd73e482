import nodemailer from 'nodemailer';
import { getConfig } from './config.server.ts';
import { getDb } from './db/db.server.ts';
import { newId, nowIso } from './ids.server.ts';
import { getLogger } from './logger.server.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

let transport: ReturnType<typeof nodemailer.createTransport> | undefined;

/**
 * Every message is kept in the outbox table; with SMTP_URL it is also sent over SMTP (and marked
 * sent or failed). The log names recipient and subject only, never the body (it may hold a link
 * that signs someone in).
 */
export async function sendMail(mail: Mail): Promise<{ id: string; sent: boolean }> {
  const config = getConfig();
  const db = getDb();
  const id = newId();
  await db
    .insertInto('mail_outbox')
    .values({
      id,
      to_address: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html ?? null,
      created_at: nowIso(),
    })
    .execute();
  if (!config.smtpUrl) {
    getLogger().info({ outboxId: id, to: mail.to, subject: mail.subject }, 'mail kept in the outbox (SMTP_URL is not set)');
    return { id, sent: false };
  }
  transport ??= nodemailer.createTransport(config.smtpUrl);
  try {
    await transport.sendMail({ from: config.mailFrom, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    await db.updateTable('mail_outbox').set({ sent_at: nowIso() }).where('id', '=', id).execute();
    getLogger().info({ outboxId: id, to: mail.to, subject: mail.subject }, 'mail sent');
    return { id, sent: true };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await db
      .updateTable('mail_outbox')
      .set({ error: reason.slice(0, 500) })
      .where('id', '=', id)
      .execute();
    getLogger().error({ outboxId: id, to: mail.to, reason }, 'mail could not be sent');
    throw new Error('The mail server did not accept the message', { cause: error });
  }
}
