import { sql, type Kysely, type Selectable } from 'kysely';
import type { ContentTable, Database } from '../db/schema.ts';
import { getConfig } from '../platform/config.server.ts';
import { getDb } from '../db/db.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import { newId, nowIso } from '../platform/ids.server.ts';
import { enqueueJob, wakeJobWorkers, type JobInfo } from '../platform/jobs.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { openSmtpSession, sendMail } from '../platform/mail.server.ts';
import {
  renderNewsletter,
  snapshotFor,
  snapshotOf,
  type MailSite,
  type NewsletterSnapshot,
  type RenderedNewsletter,
} from './newsletter-mail.server.ts';
import { mailSite, signingKey, unsubscribeUrlFor } from './newsletter.server.ts';
import { inLanguage } from '../content/translated.server.ts';
import { mailLanguages } from '../site/interface-texts.server.ts';
import { PREFIXED_LANGUAGES, type PrefixedLanguage } from '../../lib/languages.ts';
import { readSetting, writeSetting } from '../platform/settings.server.ts';
import { RuleError } from '../platform/rule-error.server.ts';
import { DASHBOARD_COLLECTIONS } from '../../lib/collections.ts';
import { can } from '../../lib/permissions.ts';
import { NEWSLETTER_TEXT, SEND_RATE, type DeliveryStatus, type SendStatus } from '../../lib/newsletter.ts';
import { ID_PATTERN } from '../../lib/ids.ts';

// Sending a published story or news item to the confirmed subscribers (issue 12,
// docs/decisions/505-newsletter.md). Confirming a send writes one delivery row per recipient under
// the key (item, subscriber), so nobody can get an item twice, and queues the first batch. Each
// batch is a job that sends a few mails over one SMTP connection, then queues the next at the time
// the sending speed allows. A delivery is marked 'sending' before the SMTP conversation and 'sent'
// after it: one found 'sending' by a later batch was interrupted by a stopped process and is
// recorded as failed, never sent again (it may have gone). Progress is the deliveries' counts.

export const NEWSLETTER_BATCH_JOB = 'newsletter.batch';
/** Most mails in one batch, so a batch is a few seconds and other mail (a password reset) is not held up. */
export const BATCH_MAX = 20;
/** Tries of one address whose mail server said "not now" (4xx). */
export const DELIVERY_ATTEMPTS = 3;
/** Tries of a batch whose mail server cannot be reached: 30 s, 2 min, 10 min, 1 h, then 6-hourly (about a day). */
const BATCH_JOB_ATTEMPTS = 8;
const RATE_SETTING = 'newsletter_rate_per_minute';
export const INTERRUPTED =
  'Sending was interrupted (the server stopped during this email). It is not sent again, so nobody receives it twice.';
const ERROR_MAX = 500;
/** Failed addresses listed on the screen. */
export const FAILURES_SHOWN = 50;

function assertMaySend(actor: StaffUser): void {
  if (!can(actor.role, 'newsletter:send')) throw new RuleError(NEWSLETTER_TEXT.sendForbidden, 403);
}

// ---------------------------------------------------------------------------------------------
// The sending speed.

export async function getSendRate(db: Kysely<Database> = getDb()): Promise<number> {
  const stored = await readSetting<unknown>(db, RATE_SETTING);
  return typeof stored === 'number' && Number.isInteger(stored) && stored >= SEND_RATE.min && stored <= SEND_RATE.max
    ? stored
    : SEND_RATE.default;
}

export async function setSendRate(actor: StaffUser, rate: number, ip: string | null): Promise<number> {
  assertMaySend(actor);
  if (!Number.isInteger(rate) || rate < SEND_RATE.min || rate > SEND_RATE.max)
    throw new RuleError(`Please enter a whole number from ${SEND_RATE.min} to ${SEND_RATE.max}.`, 400, 'rate');
  const from = await getSendRate();
  await writeSetting(getDb(), RATE_SETTING, rate);
  await recordAudit({ actor: actor.email, action: 'newsletter.rate_changed', target: null, ip, detail: { from, to: rate } });
  return rate;
}

// ---------------------------------------------------------------------------------------------
// The item.

type ItemRow = Selectable<ContentTable>;

/** A published story or news item by id, or undefined. */
export async function getSendableItem(id: string, db: Kysely<Database> = getDb()): Promise<ItemRow | undefined> {
  if (!ID_PATTERN.test(id)) return undefined;
  return (
    db
      .selectFrom('content')
      .selectAll()
      .where('id', '=', id)
      .where('collection', 'in', DASHBOARD_COLLECTIONS)
      .where('status', '=', 'published')
      // Issue 26: the newsletter is in English; a version is not sent on its own.
      .where('language', '=', 'en')
      .executeTakeFirst()
  );
}

/**
 * The item's snapshot, with its published version in each language the site offers (decision 050):
 * subscribers who asked in that language get it, the words around it in that language, and its page.
 */
async function snapshotWithVersions(item: ItemRow, site: MailSite, db: Kysely<Database>): Promise<NewsletterSnapshot> {
  const snapshot = snapshotOf(item, site);
  const versions: Partial<Record<PrefixedLanguage, NewsletterSnapshot>> = {};
  const languageOf = await mailLanguages(db);
  for (const language of PREFIXED_LANGUAGES) {
    if (languageOf(language) !== language) continue;
    const [shown] = await inLanguage([item], language, db);
    if (shown?.shown_language === language) versions[language] = snapshotOf(shown, site, language);
  }
  return Object.keys(versions).length ? { ...snapshot, versions } : snapshot;
}

async function requireItem(id: string): Promise<ItemRow> {
  const item = await getSendableItem(id);
  if (!item) throw new RuleError(NEWSLETTER_TEXT.itemNotFound, 404);
  return item;
}

/** The id whose unsubscribe link goes in previews and test mails: signed, so its page works, but no subscriber has it. */
const SAMPLE_SUBSCRIBER = 'sample-not-a-subscriber';

/** The mail as a subscriber would get it now, with a sample unsubscribe link (the preview and the test send). */
export async function previewNewsletter(
  itemId: string,
  options: { test?: boolean } = {},
): Promise<RenderedNewsletter & { item: ItemRow }> {
  const item = await requireItem(itemId);
  const db = getDb();
  const snapshot = snapshotOf(item, await mailSite(db));
  return { ...renderNewsletter(snapshot, unsubscribeUrlFor(await signingKey(db), SAMPLE_SUBSCRIBER), options), item };
}

/** Sends the mail, marked as a test, to the staff member's own address through the mail queue. */
export async function sendTestNewsletter(actor: StaffUser, itemId: string, ip: string | null): Promise<string> {
  assertMaySend(actor);
  const mail = await previewNewsletter(itemId, { test: true });
  const site = await mailSite();
  await sendMail({
    to: actor.email,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    headers: mail.headers,
    replyTo: site.email,
  });
  await recordAudit({
    actor: actor.email,
    action: 'newsletter.test_sent',
    target: itemId,
    ip,
    detail: { title: mail.item.title, to: actor.email },
  });
  return actor.email;
}

// ---------------------------------------------------------------------------------------------
// Who would receive it, and starting.

/** Confirmed subscribers who have not received `contentId` (nor are due to): who a send would reach now. */
export async function countRecipients(contentId: string, db: Kysely<Database> = getDb()): Promise<number> {
  const { n } = await db
    .selectFrom('newsletter_subscribers as s')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('s.status', '=', 'confirmed')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('newsletter_deliveries as d')
            .select('d.subscriber_id')
            .where('d.content_id', '=', contentId)
            .whereRef('d.subscriber_id', '=', 's.id'),
        ),
      ),
    )
    .executeTakeFirstOrThrow();
  return Number(n);
}

async function activeSendOf(contentId: string, db: Kysely<Database> = getDb()) {
  return db
    .selectFrom('newsletter_sends')
    .select(['id'])
    .where('content_id', '=', contentId)
    .where('status', '=', 'sending')
    .executeTakeFirst();
}

/**
 * Starts sending `itemId` to every confirmed subscriber who has not had it: the send, one queued
 * delivery each (the (item, subscriber) key skips anyone who has one) and the first batch, in one
 * transaction. Returns the send and how many it will reach.
 */
export async function startNewsletterSend(
  actor: StaffUser,
  itemId: string,
  ip: string | null,
): Promise<{ sendId: string; recipients: number }> {
  assertMaySend(actor);
  const item = await requireItem(itemId);
  if (!getConfig().smtpUrl) throw new RuleError(NEWSLETTER_TEXT.noMailServer, 409);
  if (await activeSendOf(item.id)) throw new RuleError(NEWSLETTER_TEXT.alreadySending, 409);
  const db = getDb();
  const snapshot = await snapshotWithVersions(item, await mailSite(db), db);
  const sendId = newId();
  const recipients = await db.transaction().execute(async (trx) => {
    const at = nowIso();
    await trx
      .insertInto('newsletter_sends')
      .values({
        id: sendId,
        content_id: item.id,
        subject: snapshot.title,
        snapshot: JSON.stringify(snapshot),
        status: 'sending',
        recipients: 0,
        created_by: actor.email,
        created_at: at,
      })
      .execute();
    const inserted = await trx
      .insertInto('newsletter_deliveries')
      .columns(['content_id', 'subscriber_id', 'send_id', 'status', 'attempts', 'updated_at'])
      .expression((eb) =>
        eb
          .selectFrom('newsletter_subscribers')
          .select([
            sql.lit(item.id).as('content_id'),
            'id',
            sql.lit(sendId).as('send_id'),
            sql.lit('queued').as('status'),
            sql.lit(0).as('attempts'),
            sql.lit(at).as('updated_at'),
          ])
          .where('status', '=', 'confirmed'),
      )
      .onConflict((oc) => oc.columns(['content_id', 'subscriber_id']).doNothing())
      .executeTakeFirst();
    const count = Number(inserted.numInsertedOrUpdatedRows ?? 0);
    if (count === 0) throw new RuleError(NEWSLETTER_TEXT.nobodyToSend, 409);
    const jobId = await enqueueJob(NEWSLETTER_BATCH_JOB, { sendId }, { db: trx, maxAttempts: BATCH_JOB_ATTEMPTS });
    await trx.updateTable('newsletter_sends').set({ recipients: count, batch_job_id: jobId }).where('id', '=', sendId).execute();
    await recordAudit(
      {
        actor: actor.email,
        action: 'newsletter.sent',
        target: item.id,
        ip,
        detail: { title: item.title, recipients: count, sendId },
      },
      trx,
    );
    return count;
  });
  wakeJobWorkers();
  getLogger().info({ sendId, contentId: item.id, recipients }, 'newsletter sending started');
  return { sendId, recipients };
}

// ---------------------------------------------------------------------------------------------
// The batches.

type SmtpFailure = 'server' | 'temporary' | 'permanent';

/**
 * What an SMTP error means for the address. 'server': the mail server could not be reached or
 * refused us (nothing of this message went): the batch stops and is tried again later. 'temporary':
 * the server answered 4xx ("not now"), so it did not take the message: it may be tried again.
 * 'permanent': a 5xx refusal, or a failure after the message may have been taken: never again.
 */
export function classifySmtpError(error: unknown): SmtpFailure {
  const { code, command, responseCode } = (error ?? {}) as { code?: unknown; command?: unknown; responseCode?: unknown };
  if (code === 'ECONNECTION' || code === 'EAUTH' || command === 'CONN') return 'server';
  if (typeof responseCode === 'number' && responseCode >= 400 && responseCode < 500) return 'temporary';
  return 'permanent';
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, ERROR_MAX);
}

/** Marks the deliveries a stopped process left in the middle of their SMTP conversation. */
async function recordInterrupted(db: Kysely<Database>, sendId: string): Promise<number> {
  const result = await db
    .updateTable('newsletter_deliveries')
    .set({ status: 'failed', error: INTERRUPTED, updated_at: nowIso() })
    .where('send_id', '=', sendId)
    .where('status', '=', 'sending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * The `newsletter.batch` job: up to min(BATCH_MAX, speed) mails of one send, then the next batch
 * queued for when the speed allows, or the send finished. Only the batch the send names runs, so a
 * send never has two batches at once (a stale or duplicate job ends at once).
 */
export async function runNewsletterBatch(payload: unknown, job: JobInfo): Promise<void> {
  const sendId = (payload as { sendId?: unknown } | null)?.sendId;
  if (typeof sendId !== 'string') throw new Error('A newsletter batch without a send id');
  const db = getDb();
  const log = getLogger();
  const send = await db.selectFrom('newsletter_sends').selectAll().where('id', '=', sendId).executeTakeFirst();
  if (!send || send.status !== 'sending' || send.batch_job_id !== job.id) return;
  const interrupted = await recordInterrupted(db, sendId);
  if (interrupted)
    log.warn({ sendId, interrupted }, 'newsletter deliveries interrupted by a stopped process were recorded as failed');

  const rate = await getSendRate(db);
  const size = Math.min(BATCH_MAX, rate);
  const due = await db
    .selectFrom('newsletter_deliveries')
    .select(['content_id', 'subscriber_id'])
    .where('send_id', '=', sendId)
    .where('status', '=', 'queued')
    .orderBy('subscriber_id')
    .limit(size)
    .execute();
  const finish = async () => {
    await db
      .updateTable('newsletter_sends')
      .set({ status: 'finished', finished_at: nowIso(), batch_job_id: null })
      .where('id', '=', sendId)
      .where('status', '=', 'sending')
      .where('batch_job_id', '=', job.id)
      .execute();
    log.info({ sendId }, 'newsletter sending finished');
  };
  if (due.length === 0) return finish();
  const session = openSmtpSession();
  if (!session) throw new Error('SMTP_URL is not set: the newsletter waits until a mail server is set');
  const snapshot = JSON.parse(send.snapshot) as NewsletterSnapshot;
  // Read for each batch: a language turned off since sending started is not written in.
  const languageOf = await mailLanguages(db);
  const key = await signingKey(db);
  const started = Date.now();
  let attempted = 0;
  try {
    for (const delivery of due) {
      const one = db
        .updateTable('newsletter_deliveries')
        .where('content_id', '=', delivery.content_id)
        .where('subscriber_id', '=', delivery.subscriber_id);
      // Claimed before the SMTP conversation: if the process stops during it, the row says so.
      const claimed = await one
        .set({ status: 'sending', attempts: sql<number>`attempts + 1`, updated_at: nowIso() })
        .where('status', '=', 'queued')
        .returning(['attempts'])
        .executeTakeFirst();
      if (!claimed) continue;
      // Read now, not at the batch's start: an address unsubscribed a second ago is not written to.
      const subscriber = await db
        .selectFrom('newsletter_subscribers')
        .select(['email', 'status', 'language'])
        .where('id', '=', delivery.subscriber_id)
        .executeTakeFirst();
      if (!subscriber || subscriber.status !== 'confirmed') {
        await one.set({ status: 'skipped', error: null, updated_at: nowIso() }).execute();
        continue;
      }
      attempted++;
      // The item's version in the language they asked in, while there is one; else the English item.
      const theirs = snapshotFor(snapshot, languageOf(subscriber.language));
      const mail = renderNewsletter(theirs, unsubscribeUrlFor(key, delivery.subscriber_id, theirs.language));
      try {
        await session.send({
          to: subscriber.email,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          headers: mail.headers,
          replyTo: snapshot.site.email,
        });
      } catch (error) {
        const kind = classifySmtpError(error);
        if (kind === 'server') {
          // Nothing of this message went: it waits for the batch's next try.
          await one
            .set({ status: 'queued', attempts: sql<number>`attempts - 1`, error: errorText(error), updated_at: nowIso() })
            .execute();
          throw new Error(`The mail server could not be reached for newsletter ${sendId}`, { cause: error });
        }
        const again = kind === 'temporary' && Number(claimed.attempts) < DELIVERY_ATTEMPTS;
        await one.set({ status: again ? 'queued' : 'failed', error: errorText(error), updated_at: nowIso() }).execute();
        log.warn({ sendId, subscriberId: delivery.subscriber_id, kind, again }, 'a newsletter mail was refused');
        continue;
      }
      await one.set({ status: 'sent', error: null, updated_at: nowIso() }).execute();
    }
  } finally {
    session.close();
  }
  const left = await db
    .selectFrom('newsletter_deliveries')
    .select('subscriber_id')
    .where('send_id', '=', sendId)
    .where('status', '=', 'queued')
    .limit(1)
    .executeTakeFirst();
  if (!left) return finish();
  // The next batch when the speed allows: `attempted` mails at `rate` a minute from this batch's start.
  const runAt = new Date(Math.max(Date.now(), started + Math.ceil((attempted * 60_000) / rate)));
  await db.transaction().execute(async (trx) => {
    const next = await enqueueJob(NEWSLETTER_BATCH_JOB, { sendId }, { db: trx, runAt, maxAttempts: BATCH_JOB_ATTEMPTS });
    await trx
      .updateTable('newsletter_sends')
      .set({ batch_job_id: next })
      .where('id', '=', sendId)
      .where('status', '=', 'sending')
      .where('batch_job_id', '=', job.id)
      .execute();
  });
  wakeJobWorkers();
}

// ---------------------------------------------------------------------------------------------
// Progress, stopping and resuming.

export interface SendFailure {
  email: string;
  error: string;
}

export interface SendProgress {
  id: string;
  status: SendStatus;
  subject: string;
  recipients: number;
  counts: Record<DeliveryStatus, number>;
  createdAt: string;
  createdBy: string;
  finishedAt: string | null;
  /** Why sending is not moving, when its batch failed for good (the mail server could not be reached). */
  stalled: string | null;
  /** The last problem of a batch that is waiting to try again. */
  retrying: string | null;
  failures: SendFailure[];
}

const emptyCounts = (): Record<DeliveryStatus, number> => ({ queued: 0, sending: 0, sent: 0, failed: 0, skipped: 0 });

/** The sends of `contentId`, newest first, each with its counts; the failures of the newest. */
export async function listSends(contentId: string, limit = 10, db: Kysely<Database> = getDb()): Promise<SendProgress[]> {
  const sends = await db
    .selectFrom('newsletter_sends')
    .select(['id', 'status', 'subject', 'recipients', 'created_at', 'created_by', 'finished_at', 'batch_job_id'])
    .where('content_id', '=', contentId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  if (sends.length === 0) return [];
  const ids = sends.map((s) => s.id);
  const counts = await db
    .selectFrom('newsletter_deliveries')
    .select(['send_id', 'status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('send_id', 'in', ids)
    .groupBy(['send_id', 'status'])
    .execute();
  const jobIds = sends.map((s) => s.batch_job_id).filter((id): id is string => id !== null);
  const jobs = jobIds.length
    ? await db.selectFrom('jobs').select(['id', 'status', 'last_error', 'attempts']).where('id', 'in', jobIds).execute()
    : [];
  const newest = sends[0]!;
  const failures = await db
    .selectFrom('newsletter_deliveries as d')
    .innerJoin('newsletter_subscribers as s', 's.id', 'd.subscriber_id')
    .select(['s.email', 'd.error'])
    .where('d.send_id', '=', newest.id)
    .where('d.status', '=', 'failed')
    .orderBy('s.email')
    .limit(FAILURES_SHOWN)
    .execute();
  return sends.map((send) => {
    const byStatus = emptyCounts();
    for (const row of counts) if (row.send_id === send.id && row.status in byStatus) byStatus[row.status] = Number(row.n);
    const job = jobs.find((j) => j.id === send.batch_job_id);
    const sending = send.status === 'sending';
    // A batch job that failed for good, or is gone (removed by housekeeping), moves nothing any more.
    const stalled = sending && (!job || job.status === 'failed') ? (job?.last_error ?? 'The sending job is missing.') : null;
    const retrying = sending && job?.status === 'queued' && job.last_error ? job.last_error : null;
    return {
      id: send.id,
      status: send.status,
      subject: send.subject,
      recipients: Number(send.recipients),
      counts: byStatus,
      createdAt: send.created_at,
      createdBy: send.created_by,
      finishedAt: send.finished_at,
      stalled,
      retrying,
      failures: send.id === newest.id ? failures.map((f) => ({ email: f.email, error: f.error ?? '' })) : [],
    };
  });
}

async function requireSend(sendId: string, itemId: string) {
  if (!ID_PATTERN.test(sendId)) throw new RuleError(NEWSLETTER_TEXT.notSending, 404);
  const send = await getDb()
    .selectFrom('newsletter_sends')
    .selectAll()
    .where('id', '=', sendId)
    .where('content_id', '=', itemId)
    .executeTakeFirst();
  if (!send) throw new RuleError(NEWSLETTER_TEXT.notSending, 404);
  return send;
}

/**
 * Stops a send: nobody else receives the item from it. The deliveries still queued are removed, so
 * those subscribers can receive the item from a later send.
 */
export async function stopNewsletterSend(actor: StaffUser, itemId: string, sendId: string, ip: string | null): Promise<void> {
  assertMaySend(actor);
  const send = await requireSend(sendId, itemId);
  const stopped = await getDb()
    .transaction()
    .execute(async (trx) => {
      const result = await trx
        .updateTable('newsletter_sends')
        .set({ status: 'stopped', finished_at: nowIso(), batch_job_id: null })
        .where('id', '=', sendId)
        .where('status', '=', 'sending')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      const removed = await trx
        .deleteFrom('newsletter_deliveries')
        .where('send_id', '=', sendId)
        .where('status', '=', 'queued')
        .executeTakeFirst();
      await recordAudit(
        {
          actor: actor.email,
          action: 'newsletter.stopped',
          target: itemId,
          ip,
          detail: { title: send.subject, sendId, notSent: Number(removed.numDeletedRows) },
        },
        trx,
      );
      return true;
    });
  if (!stopped) throw new RuleError(NEWSLETTER_TEXT.notSending, 409);
}

/** Queues a new batch for a send whose batches stopped for good (its mail server was unreachable for a day). */
export async function resumeNewsletterSend(actor: StaffUser, itemId: string, sendId: string): Promise<void> {
  assertMaySend(actor);
  await requireSend(sendId, itemId);
  const [progress] = (await listSends(itemId, 10)).filter((s) => s.id === sendId);
  if (!progress || progress.status !== 'sending' || !progress.stalled) throw new RuleError(NEWSLETTER_TEXT.notSending, 409);
  await getDb()
    .transaction()
    .execute(async (trx) => {
      const next = await enqueueJob(NEWSLETTER_BATCH_JOB, { sendId }, { db: trx, maxAttempts: BATCH_JOB_ATTEMPTS });
      await trx
        .updateTable('newsletter_sends')
        .set({ batch_job_id: next })
        .where('id', '=', sendId)
        .where('status', '=', 'sending')
        .execute();
    });
  wakeJobWorkers();
}
