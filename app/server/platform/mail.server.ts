import type { Transporter } from 'nodemailer';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { getConfig } from './config.server.ts';
import { getDb } from '../db/db.server.ts';
import { newId, nowIso } from './ids.server.ts';
import { enqueueJob, wakeJobWorkers, type JobInfo } from './jobs.server.ts';
import { getLogger } from './logger.server.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where the recipient's answer goes (the team's address for an inbox reply). */
  replyTo?: string;
  /** The body holds a secret (a reset link): it is emptied once the mail has gone or has failed for good. */
  carriesSecret?: boolean;
  /** Extra headers, such as List-Unsubscribe on mail to a newsletter subscriber. */
  headers?: Record<string, string>;
  /** Issue 27: small text files sent with it (an event's .ics), kept in the outbox row. */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: string;
}

export const MAIL_JOB = 'mail.send';

/** Tries of a mail job: 30 s, 2 min, 10 min and 1 h apart, then failed (docs/decisions/010). */
const MAIL_ATTEMPTS = 5;
/** A reset link lives an hour, so its mail is not worth trying after that. */
const SECRET_MAIL_ATTEMPTS = 4;

// Bounded so a silent mail server fails the attempt (and it is retried) well inside the job's lease.
const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

let transport: { url: string; send: Transporter } | undefined;

/**
 * nodemailer, loaded the first time a mail goes out: a site without SMTP_URL, and every process
 * that never sends, is spared its memory (about 11 MB).
 */
async function createTransport(options: Record<string, unknown>): Promise<Transporter> {
  const { default: nodemailer } = await import('nodemailer');
  return nodemailer.createTransport(options);
}

/**
 * Keeps the message in the outbox and queues its sending: the caller never waits for the mail server
 * (whose speed would otherwise tell a visitor which addresses have accounts). The worker sends it
 * over SMTP when SMTP_URL is set, retrying with backoff; the outbox row shows the outcome.
 */
export async function sendMail(mail: Mail, db: Kysely<Database> = getDb()): Promise<{ id: string }> {
  const id = newId();
  // Inside the caller's transaction when it has one (the mail goes only if its record is kept).
  const write = (body: (trx: Kysely<Database>) => Promise<void>) =>
    db.isTransaction ? body(db) : db.transaction().execute(body);
  await write(async (trx) => {
    await trx
      .insertInto('mail_outbox')
      .values({
        id,
        to_address: mail.to,
        subject: mail.subject,
        text_body: mail.text,
        html_body: mail.html ?? null,
        reply_to: mail.replyTo ?? null,
        created_at: nowIso(),
        carries_secret: mail.carriesSecret ? 1 : 0,
        headers: mail.headers ? JSON.stringify(mail.headers) : null,
        ...(mail.attachments?.length ? { attachments: JSON.stringify(mail.attachments) } : {}),
      })
      .execute();
    await enqueueJob(
      MAIL_JOB,
      { outboxId: id },
      { db: trx, maxAttempts: mail.carriesSecret ? SECRET_MAIL_ATTEMPTS : MAIL_ATTEMPTS },
    );
  });
  wakeJobWorkers();
  return { id };
}

/**
 * The `mail.send` job: sends one outbox message. The log names recipient and subject only, never the
 * body (it may hold a link that signs someone in). Throws when the mail server refuses, so the job
 * is tried again.
 */
export async function deliverQueuedMail(payload: unknown, job: JobInfo): Promise<void> {
  try {
    const sent = await deliverOnce(payload, job);
    if (sent) for (const listener of deliveryListeners) listener('sent');
  } catch (error) {
    for (const listener of deliveryListeners) listener('failed');
    throw error;
  }
}

/** Who is told of each mail the mail server took or refused (issue 29: /metrics counts them). */
const deliveryListeners = new Set<(outcome: 'sent' | 'failed') => void>();
export function onMailDelivery(listener: (outcome: 'sent' | 'failed') => void): () => void {
  deliveryListeners.add(listener);
  return () => deliveryListeners.delete(listener);
}

/** Proves the SMTP server at SMTP_URL answers and accepts our greeting (issue 29: /healthz?detail). */
export async function checkMailServer(): Promise<void> {
  const url = getConfig().smtpUrl;
  if (!url) throw new Error('SMTP_URL is not set');
  const probe = await createTransport({ url, ...SMTP_TIMEOUTS });
  try {
    await probe.verify();
  } finally {
    probe.close();
  }
}

/** Sends one outbox message; true when the mail server took it, false when there was nothing to send. */
async function deliverOnce(payload: unknown, job: JobInfo): Promise<boolean> {
  const outboxId = (payload as { outboxId?: unknown } | null)?.outboxId;
  if (typeof outboxId !== 'string') throw new Error('A mail job without an outbox id');
  const db = getDb();
  const mail = await db.selectFrom('mail_outbox').selectAll().where('id', '=', outboxId).executeTakeFirst();
  // Gone, or sent by an earlier run whose "done" was lost: nothing left to do.
  if (!mail || mail.sent_at) return false;
  const log = getLogger();
  const config = getConfig();
  if (!config.smtpUrl) {
    log.info({ outboxId, to: mail.to_address, subject: mail.subject }, 'mail kept in the outbox (SMTP_URL is not set)');
    return false;
  }
  if (transport?.url !== config.smtpUrl)
    transport = { url: config.smtpUrl, send: await createTransport({ url: config.smtpUrl, ...SMTP_TIMEOUTS }) };
  const forgetSecret = mail.carries_secret ? { text_body: '', html_body: null } : {};
  try {
    await transport.send.sendMail({
      from: config.mailFrom,
      to: mail.to_address,
      subject: mail.subject,
      text: mail.text_body,
      ...(mail.html_body ? { html: mail.html_body } : {}),
      ...(mail.reply_to ? { replyTo: mail.reply_to } : {}),
      ...(mail.headers ? { headers: JSON.parse(mail.headers) as Record<string, string> } : {}),
      ...(mail.attachments ? { attachments: JSON.parse(mail.attachments) as MailAttachment[] } : {}),
    });
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    const lastTry = job.attempts >= job.maxAttempts;
    await db
      .updateTable('mail_outbox')
      .set({ error: reason, attempts: job.attempts, ...(lastTry ? forgetSecret : {}) })
      .where('id', '=', outboxId)
      .execute();
    // The worker logs the failure (with this error and its cause) and schedules the next attempt.
    throw new Error(`The mail server did not accept the message to ${mail.to_address} (outbox ${outboxId})`, { cause: error });
  }
  await db
    .updateTable('mail_outbox')
    .set({ sent_at: nowIso(), error: null, attempts: job.attempts, ...forgetSecret })
    .where('id', '=', outboxId)
    .execute();
  log.info({ outboxId, to: mail.to_address, subject: mail.subject }, 'mail sent');
  return true;
}

/** One message sent straight over SMTP (a newsletter batch keeps its own record of each). */
export interface DirectMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  headers?: Record<string, string>;
}

/** An open SMTP connection for many messages in a row; close it when the batch is done. */
export interface SmtpSession {
  send(mail: DirectMail): Promise<void>;
  close(): void;
}

/**
 * An SMTP session with the settings the outbox uses (SMTP_URL, MAIL_FROM, the same time limits), one
 * connection reused for every message: the newsletter's batches (newsletter-send.server.ts). Undefined
 * when SMTP_URL is not set.
 */
export function openSmtpSession(): SmtpSession | undefined {
  const config = getConfig();
  if (!config.smtpUrl) return undefined;
  const smtpUrl = config.smtpUrl;
  let pooled: Transporter | undefined;
  let closed = false;
  return {
    async send(mail) {
      if (closed) throw new Error('The SMTP session is closed');
      pooled ??= await createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS, pool: true, maxConnections: 1 });
      await pooled.sendMail({
        from: config.mailFrom,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
        ...(mail.headers ? { headers: mail.headers } : {}),
      });
    },
    close() {
      closed = true;
      pooled?.close();
    },
  };
}
