import type { Kysely, Selectable } from 'kysely';
import type { Database, NewsletterSubscriberTable } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import { enqueueJob, type JobInfo } from '../platform/jobs.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { dashboardList } from '../platform/dashboard-list.server.ts';
import { sendMail } from '../platform/mail.server.ts';
import { confirmationMail } from './newsletter-mail.server.ts';
import { issueConfirmLink, mailSite } from './newsletter.server.ts';
import { RuleError } from '../platform/rule-error.server.ts';
import { can } from '../../lib/permissions.ts';
import {
  NEWSLETTER_TEXT,
  SUBSCRIBER_SEARCH_MAX,
  SUBSCRIBER_STATUS_LABELS,
  SUBSCRIBER_STATUSES,
  SUBSCRIBER_VIEWS,
  SUBSCRIBERS_PAGE,
  type SubscriberStatus,
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

function assertMayManage(actor: StaffUser): void {
  if (!can(actor.role, 'subscribers:manage')) throw new RuleError(NEWSLETTER_TEXT.forbidden, 403);
}

const SUMMARY_COLUMNS = [
  'id',
  'email',
  'status',
  'source',
  'created_at',
  'confirmed_at',
  'unsubscribed_at',
  'confirm_sent_at',
] as const;

function toSummary(row: Pick<Selectable<NewsletterSubscriberTable>, (typeof SUMMARY_COLUMNS)[number]>): SubscriberSummary {
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

/**
 * The list of addresses, newest first (on the indexes (created_at, id) and (status, created_at, id)):
 * everyone by default, or one status; searched by part of the address; exported as CSV, audited with
 * the count and the view.
 */
export const subscriberList = dashboardList({
  table: 'newsletter_subscribers',
  authorise: assertMayManage,
  statuses: SUBSCRIBER_STATUSES,
  views: SUBSCRIBER_VIEWS,
  defaultView: 'all',
  viewStatuses: (view) => (view === 'all' ? undefined : [view]),
  // Addresses are stored lower-cased, and the search is lower-cased: one LIKE works on both engines.
  search: { columns: ['email'], max: SUBSCRIBER_SEARCH_MAX, lowerCase: true },
  pageSize: SUBSCRIBERS_PAGE,
  columns: SUMMARY_COLUMNS,
  toItem: toSummary,
  csv: {
    name: 'subscribers',
    columns: [
      ['Email', (r) => r.email],
      ['Status', (r) => SUBSCRIBER_STATUS_LABELS[r.status] ?? r.status],
      ['Subscribed (UTC)', (r) => r.created_at],
      ['Confirmed (UTC)', (r) => r.confirmed_at],
      ['Unsubscribed (UTC)', (r) => r.unsubscribed_at],
      ['Signed up on', (r) => r.source],
    ],
    audit: 'subscribers.exported',
  },
});

export interface SubscriberCounts extends Record<SubscriberStatus, number> {
  /** Waiting since before double opt-in, never asked to confirm. */
  neverAsked: number;
}

/** How many addresses each status holds, and how many wait since before double opt-in. */
export async function countSubscribers(db: Kysely<Database> = getDb()): Promise<SubscriberCounts> {
  const [counts, unasked] = await Promise.all([
    subscriberList.countByStatus(db),
    db
      .selectFrom('newsletter_subscribers')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', '=', 'pending')
      .where('confirm_sent_at', 'is', null)
      .executeTakeFirstOrThrow(),
  ]);
  return { ...counts, neverAsked: Number(unasked.n) };
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
