import { sql, type ExpressionBuilder, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { Database, NewsletterSubscriberTable } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { recordAudit } from '../staff/audit.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import { enqueueJob, type JobInfo } from '../platform/jobs.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { csvFileName, csvRow, csvStream } from '../platform/csv-export.server.ts';
import { sendMail } from '../platform/mail.server.ts';
import { confirmationMail } from './newsletter-mail.server.ts';
import { issueConfirmLink, mailSite } from './newsletter.server.ts';
import { RuleError } from '../platform/rule-error.server.ts';
import { containsPattern, keysetBatches, readKeysetPage } from '../db/keyset-page.server.ts';
import { can } from '../../lib/permissions.ts';
import {
  isSubscriberView,
  NEWSLETTER_TEXT,
  SUBSCRIBER_SEARCH_MAX,
  SUBSCRIBER_STATUS_LABELS,
  SUBSCRIBER_STATUSES,
  SUBSCRIBERS_PAGE,
  type SubscriberStatus,
  type SubscriberView,
} from '../../lib/newsletter.ts';
import { ID_PATTERN } from '../../lib/ids.ts';

// The Subscribers screen (issue 12, docs/decisions/505-newsletter.md): counts by status, search,
// filter, paging, erasure on request, the CSV export of the filtered list however large, and asking
// the addresses stored before double opt-in to confirm. Every rule is checked here as well as by the
// route table; deletes, exports and the asking are audited.

export interface SubscriberSummary {
  id: string;
  email: string;
  status: SubscriberStatus;
  source: string | null;
  createdAt: string;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
  /** Waiting since before double opt-in, never asked to confirm. */
  neverAsked: boolean;
}

export interface SubscriberFilter {
  view: SubscriberView;
  /** Part of an address, case-insensitively; '' for none. */
  q: string;
}

export interface SubscriberPage {
  items: SubscriberSummary[];
  older: string | null;
  newer: string | null;
  total: number;
}

function assertMayManage(actor: StaffUser): void {
  if (!can(actor.role, 'subscribers:manage')) throw new RuleError(NEWSLETTER_TEXT.forbidden, 403);
}

/** The filter as the list's address carries it: `status` (default everyone) and `q`. */
export function filterFromParams(params: URLSearchParams): SubscriberFilter {
  const status = params.get('status');
  return {
    view: isSubscriberView(status) ? status : 'all',
    q: (params.get('q') ?? '').slice(0, SUBSCRIBER_SEARCH_MAX).trim().toLowerCase(),
  };
}

type SubscribersEb = ExpressionBuilder<Database, 'newsletter_subscribers'>;

/** Addresses are stored lower-cased, and the search is lower-cased: one LIKE works on both engines. */
function matches(filter: SubscriberFilter) {
  const q = filter.q.slice(0, SUBSCRIBER_SEARCH_MAX).trim().toLowerCase();
  return (eb: SubscribersEb) => {
    const conditions = [];
    if (filter.view !== 'all') conditions.push(eb('status', '=', filter.view));
    if (q) conditions.push(sql<SqlBool>`email like ${containsPattern(q)} escape '\\'`);
    return eb.and(conditions);
  };
}

type SubscriberRow = Selectable<NewsletterSubscriberTable>;

function toSummary(row: SubscriberRow): SubscriberSummary {
  return {
    id: row.id,
    email: row.email,
    status: row.status,
    source: row.source,
    createdAt: row.created_at,
    confirmedAt: row.confirmed_at,
    unsubscribedAt: row.unsubscribed_at,
    neverAsked: row.status === 'pending' && row.confirm_sent_at === null,
  };
}

/** One page of the list, newest first, paged by (created_at, id) in either direction. */
export async function listSubscribers(
  actor: StaffUser,
  options: { filter: SubscriberFilter; after?: string | null; before?: string | null; limit?: number },
): Promise<SubscriberPage> {
  assertMayManage(actor);
  const limit = Math.min(Math.max(options.limit ?? SUBSCRIBERS_PAGE, 1), 100);
  const base = getDb().selectFrom('newsletter_subscribers').where(matches(options.filter));
  const page = await readKeysetPage(
    (key, order, n) =>
      base
        .selectAll()
        .$if(key !== undefined, (query) => query.where(key!))
        .orderBy('created_at', order)
        .orderBy('id', order)
        .limit(n)
        .execute(),
    async () => Number((await base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n),
    { after: options.after, before: options.before, limit },
  );
  return { items: page.rows.map(toSummary), older: page.older, newer: page.newer, total: page.total };
}

export interface SubscriberCounts extends Record<SubscriberStatus, number> {
  /** Waiting since before double opt-in, never asked to confirm. */
  neverAsked: number;
}

/** How many addresses each status holds. */
export async function countSubscribers(db: Kysely<Database> = getDb()): Promise<SubscriberCounts> {
  const rows = await db
    .selectFrom('newsletter_subscribers')
    .select([
      'status',
      (eb) => eb.fn.countAll<number | string>().as('n'),
      (eb) => eb.fn.sum<number | string>(eb.case().when('confirm_sent_at', 'is', null).then(1).else(0).end()).as('unasked'),
    ])
    .groupBy('status')
    .execute();
  const counts: SubscriberCounts = { pending: 0, confirmed: 0, unsubscribed: 0, neverAsked: 0 };
  for (const row of rows) {
    if ((SUBSCRIBER_STATUSES as readonly string[]).includes(row.status)) counts[row.status] = Number(row.n);
    if (row.status === 'pending') counts.neverAsked = Number(row.unasked ?? 0);
  }
  return counts;
}

export async function getSubscriber(id: string, db: Kysely<Database> = getDb()): Promise<SubscriberSummary | undefined> {
  if (!ID_PATTERN.test(id)) return undefined;
  const row = await db.selectFrom('newsletter_subscribers').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toSummary(row) : undefined;
}

/** An address as the audit log keeps it after an erasure: enough to recognise, not to write to. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

/**
 * Erasure on request: the address goes, with every delivery record that named it (the foreign key
 * cascades). The audit log keeps who did it and a masked address, never the address itself.
 */
export async function deleteSubscriber(actor: StaffUser, id: string, ip: string | null): Promise<SubscriberSummary> {
  assertMayManage(actor);
  const subscriber = await getSubscriber(id);
  if (!subscriber) throw new RuleError(NEWSLETTER_TEXT.notFound, 404);
  await getDb()
    .transaction()
    .execute(async (trx) => {
      await trx.deleteFrom('newsletter_subscribers').where('id', '=', id).execute();
      await recordAudit(
        {
          actor: actor.email,
          action: 'subscriber.deleted',
          target: maskEmail(subscriber.email),
          ip,
          detail: { status: subscriber.status },
        },
        trx,
      );
    });
  return subscriber;
}

// ---------------------------------------------------------------------------------------------
// Asking the addresses stored before double opt-in.

export const NEWSLETTER_RECONFIRM_JOB = 'newsletter.reconfirm';
const RECONFIRM_PAGE = 100;

/** Queues one confirmation mail to every address waiting since before double opt-in; returns how many. */
export async function askEarlierSubscribers(actor: StaffUser, ip: string | null): Promise<number> {
  assertMayManage(actor);
  const { neverAsked } = await countSubscribers();
  if (neverAsked === 0) throw new RuleError(NEWSLETTER_TEXT.nothingToAsk, 409);
  await enqueueJob(NEWSLETTER_RECONFIRM_JOB, {}, { maxAttempts: 3 });
  await recordAudit({
    actor: actor.email,
    action: 'subscribers.asked_to_confirm',
    target: null,
    ip,
    detail: { count: neverAsked },
  });
  return neverAsked;
}

/** The `newsletter.reconfirm` job: a link and its mail for each address never asked, a page at a time. */
export async function runReconfirm(_payload: unknown, _job?: JobInfo): Promise<void> {
  const db = getDb();
  const site = await mailSite(db);
  let asked = 0;
  for (;;) {
    const rows = await db
      .selectFrom('newsletter_subscribers')
      .select(['id', 'email'])
      .where('status', '=', 'pending')
      .where('confirm_sent_at', 'is', null)
      .orderBy('id')
      .limit(RECONFIRM_PAGE)
      .execute();
    for (const row of rows) {
      await db.transaction().execute(async (trx) => {
        const link = await issueConfirmLink(trx, row.id);
        await sendMail(confirmationMail(row.email, link, site), trx);
      });
      asked++;
    }
    if (rows.length < RECONFIRM_PAGE) break;
  }
  getLogger().info({ asked }, 'earlier newsletter subscribers asked to confirm');
}

// ---------------------------------------------------------------------------------------------
// CSV export, streamed a page at a time.

/** Rows read from the database at a time while exporting. */
export const EXPORT_PAGE = 500;

const CSV_HEADER = ['Email', 'Status', 'Subscribed (UTC)', 'Confirmed (UTC)', 'Unsubscribed (UTC)', 'Signed up on'];

/** The CSV of the subscribers matching `filter`, newest first, in chunks of at most `pageSize` rows; the first holds the BOM and the header. */
export async function* subscribersCsv(
  filter: SubscriberFilter,
  pageSize = EXPORT_PAGE,
  counter?: { rows: number },
): AsyncGenerator<string> {
  const base = getDb().selectFrom('newsletter_subscribers').where(matches(filter));
  yield `\uFEFF${csvRow(CSV_HEADER)}`;
  const batches = keysetBatches(
    (key, order, n) =>
      base
        .select(['id', 'email', 'status', 'created_at', 'confirmed_at', 'unsubscribed_at', 'source'])
        .$if(key !== undefined, (query) => query.where(key!))
        .orderBy('created_at', order)
        .orderBy('id', order)
        .limit(n)
        .execute(),
    pageSize,
  );
  for await (const rows of batches) {
    if (counter) counter.rows += rows.length;
    yield rows
      .map((r) =>
        csvRow([
          r.email,
          SUBSCRIBER_STATUS_LABELS[r.status] ?? r.status,
          r.created_at,
          r.confirmed_at,
          r.unsubscribed_at,
          r.source,
        ]),
      )
      .join('');
  }
}

/**
 * The export as a byte stream that reads one page at a time as the client takes it, so memory stays
 * flat however long the list. Audited when the stream ends (or the client stops it) with the count
 * and the filter; the search text stays out of the log.
 */
export function exportSubscribers(actor: StaffUser, filter: SubscriberFilter, ip: string | null): ReadableStream<Uint8Array> {
  assertMayManage(actor);
  const counter = { rows: 0 };
  const chunks = subscribersCsv(filter, EXPORT_PAGE, counter);
  return csvStream(chunks, 'subscribers', (complete) =>
    recordAudit({
      actor: actor.email,
      action: 'subscribers.exported',
      target: null,
      ip,
      detail: { count: counter.rows, status: filter.view, searched: filter.q !== '', complete },
    }),
  );
}

/** The export's file name: subscribers-YYYY-MM-DD.csv (the date in Uganda). */
export function exportFileName(now = new Date()): string {
  return csvFileName('subscribers', now);
}
