import type { Kysely, Selectable } from 'kysely';
import type { ContactTable, Database } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { newId, nowIso } from '../platform/ids.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import { wakeJobWorkers, type JobInfo } from '../platform/jobs.server.ts';
import { sendMail } from '../platform/mail.server.ts';
import { getSiteInfo } from '../site/site.server.ts';
import { readSetting, writeSetting } from '../platform/settings.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import { RuleError } from '../platform/rule-error.server.ts';
import { containsPattern } from '../db/keyset-page.server.ts';
import { dashboardList } from '../platform/dashboard-list.server.ts';
import { can } from '../../lib/permissions.ts';
import {
  firstLine,
  formatMessageTime,
  MESSAGE_SEARCH_MAX,
  MESSAGE_STATUSES,
  MESSAGE_TEXT,
  MESSAGE_VIEWS,
  MESSAGES_PAGE,
  RETENTION,
  replySubject,
  SETTABLE_STATUSES,
  statusesOfKind,
  STATUS_LABELS,
  viewStatuses,
  type MessageStatus,
  type SettableStatus,
} from '../../lib/messages.ts';
import { ID_PATTERN } from '../../lib/ids.ts';
import {
  ANSWER_COLUMNS,
  answerCells,
  INBOX_KINDS,
  isApplicationKind,
  KIND_LABELS,
  readAnswers,
  type ApplicationAnswers,
  type InboxKind,
} from '../../lib/applications.ts';

// The inbox (issue 11, docs/decisions/501-inbox.md): the contact form's messages for staff with
// messages:manage. Every rule is checked here as well as by the route table; every change of status,
// reply, delete, export and retention change is audited without the message's words. The list and its
// export are a dashboard list (platform/dashboard-list.server.ts): paged by (created_at, id), so the
// 400th page costs what the first does.

export interface MessageSummary {
  id: string;
  name: string;
  email: string;
  subject: string;
  firstLine: string;
  status: MessageStatus;
  createdAt: string;
  /** Issue 27: a contact message, or an application of one kind. */
  kind: InboxKind;
}

export interface MessageReply {
  id: string;
  body: string;
  sentByName: string;
  sentByEmail: string;
  createdAt: string;
}

export interface MessageDetail extends MessageSummary {
  phone: string | null;
  message: string;
  readAt: string | null;
  statusChangedAt: string | null;
  /** The staff member who last changed the status: their name when the account still exists, else the stored email. */
  statusChangedBy: string | null;
  replies: MessageReply[];
  /** An application's answers besides name, email, phone and its text; undefined for a contact message. */
  answers: ApplicationAnswers | undefined;
  /** The language of the pages it was sent from (en, lg, sw); null when stored before it was kept. */
  language: string | null;
}

/** Messages and replies are this module's only writes, so one permission guards every one of them. */
function assertMayManage(actor: StaffUser): void {
  if (!can(actor.role, 'messages:manage')) throw new RuleError(MESSAGE_TEXT.forbidden, 403);
}

const SUMMARY_COLUMNS = ['id', 'name', 'email', 'subject', 'message', 'status', 'created_at', 'kind'] as const;

function toSummary(row: Pick<Selectable<ContactTable>, (typeof SUMMARY_COLUMNS)[number]>): MessageSummary {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    subject: row.subject,
    firstLine: firstLine(row.message),
    status: row.status,
    createdAt: row.created_at,
    kind: row.kind,
  };
}

/**
 * The list of messages, newest first (on the indexes (created_at, id) and (status, created_at, id)):
 * the inbox by default, each status and all; searched in name, email, subject and text; counted by
 * status for the filter's choices; exported as CSV, audited with the count and the view.
 */
export const messageList = dashboardList({
  table: 'contacts',
  authorise: assertMayManage,
  statuses: MESSAGE_STATUSES,
  views: MESSAGE_VIEWS,
  defaultView: 'inbox',
  viewStatuses,
  // Issue 27: contact messages and each kind of application, one at a time or all together.
  facet: { param: 'kind', column: 'kind', values: INBOX_KINDS },
  search: { columns: ['name', 'email', 'subject', 'message', 'answers'], max: MESSAGE_SEARCH_MAX },
  pageSize: MESSAGES_PAGE,
  columns: SUMMARY_COLUMNS,
  toItem: toSummary,
  csv: {
    name: 'messages',
    columns: [
      ['Received (UTC)', (r) => r.created_at],
      ['Status', (r) => STATUS_LABELS[r.status] ?? r.status],
      ['Name', (r) => r.name],
      ['Email', (r) => r.email],
      ['Phone', (r) => r.phone],
      ['Subject', (r) => r.subject],
      ['Message', (r) => r.message],
      ['First opened (UTC)', (r) => r.read_at],
      ['Status changed (UTC)', (r) => r.status_changed_at],
      ['Changed by', (r) => r.status_changed_by],
      ['Kind', (r) => KIND_LABELS[r.kind]?.one ?? r.kind],
      ...ANSWER_COLUMNS.map(
        (heading, i) => [heading, (r: Selectable<ContactTable>) => answerCells(readAnswers(r.kind, r.answers))[i] ?? ''] as const,
      ),
    ],
    audit: 'messages.exported',
  },
});

/** Messages waiting for somebody (status New): the Messages tab's count and the overview's. */
export async function countUnreadMessages(db: Kysely<Database> = getDb()): Promise<number> {
  const row = await db
    .selectFrom('contacts')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', 'new')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One message with its replies, oldest reply first; undefined when there is none. */
export async function getMessage(id: string, db: Kysely<Database> = getDb()): Promise<MessageDetail | undefined> {
  if (!ID_PATTERN.test(id)) return undefined;
  const row = await db
    .selectFrom('contacts')
    .leftJoin('system_users', 'system_users.email', 'contacts.status_changed_by')
    .selectAll('contacts')
    .select('system_users.name as changed_by_name')
    .where('contacts.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const replies = await db
    .selectFrom('contact_replies')
    .selectAll()
    .where('contact_id', '=', id)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  return {
    ...toSummary(row),
    phone: row.phone,
    message: row.message,
    readAt: row.read_at,
    statusChangedAt: row.status_changed_at,
    statusChangedBy: row.changed_by_name ?? row.status_changed_by,
    answers: readAnswers(row.kind, row.answers),
    language: row.language,
    replies: replies.map((r) => ({
      id: r.id,
      body: r.body,
      sentByName: r.sent_by_name,
      sentByEmail: r.sent_by_email,
      createdAt: r.created_at,
    })),
  };
}

async function messageToChange(actor: StaffUser, id: string): Promise<MessageDetail> {
  assertMayManage(actor);
  const message = await getMessage(id);
  if (!message) throw new RuleError(MESSAGE_TEXT.notFound, 404);
  return message;
}

/** Opening a message: a New one becomes Read (audited as a change of status). */
export async function openMessage(actor: StaffUser, id: string, ip: string | null): Promise<MessageDetail> {
  const message = await messageToChange(actor, id);
  const now = nowIso();
  const db = getDb();
  // An application stays New until someone contacts the person (issue 27); opening only records the first look.
  if (message.status === 'new' && !isApplicationKind(message.kind)) {
    const opened = await db
      .updateTable('contacts')
      .set((eb) => ({
        status: 'read',
        read_at: eb.fn.coalesce('read_at', eb.val(now)),
        status_changed_at: now,
        status_changed_by: actor.email,
      }))
      .where('id', '=', id)
      .where('status', '=', 'new')
      .executeTakeFirst();
    // Two tabs opening it at once change it once, and say so once.
    if (Number(opened.numUpdatedRows) > 0)
      await recordAudit({
        actor: actor.email,
        action: 'message.status_changed',
        target: id,
        ip,
        detail: { from: 'new', to: 'read', opened: true },
      });
  } else if (!message.readAt) {
    await db.updateTable('contacts').set({ read_at: now }).where('id', '=', id).where('read_at', 'is', null).execute();
  }
  return (await getMessage(id))!;
}

/** The reply mail's text: the reply, then the visitor's message quoted below it. */
export function replyMailText(body: string, message: Pick<MessageDetail, 'name' | 'email' | 'createdAt' | 'message'>): string {
  const quoted = message.message
    .split(/\r?\n/)
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
  return `${body}\n\nOn ${formatMessageTime(message.createdAt)} (Kampala time), ${message.name} <${message.email}> wrote:\n${quoted}\n`;
}

/**
 * Sends a reply by mail (To the sender, Reply-To the organisation's address) through the mail queue,
 * keeps it in the message's thread with who sent it and when, and marks the message Replied. The
 * reply, its mail, the status and the audit row are written together or not at all.
 */
export async function replyToMessage(
  actor: StaffUser,
  id: string,
  body: string,
  ip: string | null,
): Promise<{ reply: MessageReply; to: string }> {
  const message = await messageToChange(actor, id);
  const text = body.trim();
  if (!text) throw new RuleError(MESSAGE_TEXT.replyRequired, 400, 'body');
  // A volunteer may give only a phone number: there is nobody to mail.
  if (!message.email) throw new RuleError(MESSAGE_TEXT.noEmail(message.phone), 400, 'body');
  // A contact message becomes Replied; a new application becomes Contacted, a decided one keeps its status.
  const application = isApplicationKind(message.kind);
  const to: MessageStatus = application ? (message.status === 'new' ? 'contacted' : message.status) : 'replied';
  const site = await getSiteInfo();
  const now = nowIso();
  const reply: MessageReply = { id: newId(), body: text, sentByName: actor.name, sentByEmail: actor.email, createdAt: now };
  await getDb()
    .transaction()
    .execute(async (trx) => {
      const mail = await sendMail(
        { to: message.email, replyTo: site.email, subject: replySubject(message.subject), text: replyMailText(text, message) },
        trx,
      );
      await trx
        .insertInto('contact_replies')
        .values({
          id: reply.id,
          contact_id: id,
          body: text,
          sent_by_email: actor.email,
          sent_by_name: actor.name,
          mail_id: mail.id,
          created_at: now,
        })
        .execute();
      await trx
        .updateTable('contacts')
        .set((eb) => ({
          status: to,
          read_at: eb.fn.coalesce('read_at', eb.val(now)),
          status_changed_at: now,
          status_changed_by: actor.email,
        }))
        .where('id', '=', id)
        .execute();
      await recordAudit(
        {
          actor: actor.email,
          action: 'message.replied',
          target: id,
          ip,
          detail: { from: message.status, ...(application ? { to } : {}), replyId: reply.id, mailId: mail.id },
        },
        trx,
      );
    });
  // The mail job was committed with the reply: tell the worker now rather than at its next poll.
  wakeJobWorkers();
  return { reply, to: message.email };
}

/** Mark unread (New), back to the inbox (Read), handled (Archived) or Spam. Replied comes only from a reply. */
export async function setMessageStatus(
  actor: StaffUser,
  id: string,
  status: SettableStatus,
  ip: string | null,
): Promise<{ from: MessageStatus; to: MessageStatus }> {
  const message = await messageToChange(actor, id);
  if (!(SETTABLE_STATUSES as readonly string[]).includes(status)) throw new RuleError(MESSAGE_TEXT.statusInvalid, 400, 'status');
  // Each kind has its own statuses (issue 27); Replied is not settable, it comes only from a reply.
  if (!statusesOfKind(message.kind).includes(status)) throw new RuleError(MESSAGE_TEXT.statusNotForKind, 400, 'status');
  if (message.status === status) return { from: status, to: status };
  const now = nowIso();
  await getDb()
    .transaction()
    .execute(async (trx) => {
      await trx
        .updateTable('contacts')
        .set({ status, status_changed_at: now, status_changed_by: actor.email })
        .where('id', '=', id)
        .execute();
      await recordAudit(
        { actor: actor.email, action: 'message.status_changed', target: id, ip, detail: { from: message.status, to: status } },
        trx,
      );
    });
  return { from: message.status, to: status };
}

/**
 * Deletes a message, its replies and the mails that carried its words (its notification and its
 * replies), so nothing of it stays in the outbox. A reply still queued is not sent.
 */
export async function deleteMessage(actor: StaffUser, id: string, ip: string | null): Promise<MessageDetail> {
  const message = await messageToChange(actor, id);
  await getDb()
    .transaction()
    .execute(async (trx) => {
      await deleteMailsOf(trx, [message]);
      await trx.deleteFrom('contact_replies').where('contact_id', '=', id).execute();
      await trx.deleteFrom('contacts').where('id', '=', id).execute();
      await recordAudit(
        {
          actor: actor.email,
          action: 'message.deleted',
          target: id,
          ip,
          detail: { status: message.status, replies: message.replies.length },
        },
        trx,
      );
    });
  return message;
}

/** The outbox rows holding these messages' words: their replies' mails and the team's notification. */
async function deleteMailsOf(trx: Kysely<Database>, messages: Pick<MessageDetail, 'id' | 'createdAt'>[]): Promise<void> {
  for (const message of messages) {
    await trx
      .deleteFrom('mail_outbox')
      .where((eb) =>
        eb.or([
          // Issue 27: the confirmation mailed to an applicant.
          eb(
            'id',
            'in',
            eb
              .selectFrom('contacts')
              .select('confirmation_mail_id')
              .where('id', '=', message.id)
              .where('confirmation_mail_id', 'is not', null)
              .$narrowType<{ confirmation_mail_id: string }>(),
          ),
          eb(
            'id',
            'in',
            eb
              .selectFrom('contact_replies')
              .select('mail_id')
              .where('contact_id', '=', message.id)
              .where('mail_id', 'is not', null)
              .$narrowType<{ mail_id: string }>(),
          ),
          // The notification links to the message; its id is unique, and it was queued after the message was stored.
          eb.and([
            eb('created_at', '>=', message.createdAt),
            eb('text_body', 'like', containsPattern(`/admin/messages/${message.id}`)),
          ]),
        ]),
      )
      .execute();
  }
}

// ---------------------------------------------------------------------------------------------
// Retention: messages are deleted automatically after a number of months (a setting).

export const RETENTION_SETTING = 'messages_retention_months';

function validMonths(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= RETENTION.minMonths && (value as number) <= RETENTION.maxMonths;
}

export async function getRetentionMonths(db: Kysely<Database> = getDb()): Promise<number> {
  const stored = await readSetting<unknown>(db, RETENTION_SETTING);
  return validMonths(stored) ? stored : RETENTION.defaultMonths;
}

export async function setRetentionMonths(
  actor: StaffUser,
  months: number,
  ip: string | null,
): Promise<{ from: number; to: number }> {
  assertMayManage(actor);
  if (!validMonths(months)) throw new RuleError(MESSAGE_TEXT.retentionInvalid, 400, 'months');
  const from = await getRetentionMonths();
  if (from === months) return { from, to: months };
  await getDb()
    .transaction()
    .execute(async (trx) => {
      await writeSetting(trx, RETENTION_SETTING, months);
      await recordAudit(
        { actor: actor.email, action: 'messages.retention_changed', target: null, ip, detail: { from, to: months } },
        trx,
      );
    });
  return { from, to: months };
}

/** The moment `months` whole calendar months before `now` (the 31st of a short month becomes its last day). */
export function monthsBefore(now: Date, months: number): Date {
  const target = new Date(now);
  const day = target.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() - months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}

/**
 * Deletes every message older than the retention period, with its replies and their mails, and any
 * mail of the outbox as old (it may hold a message's words). Audited with the count; the actor is
 * nobody, since the job does it.
 */
export async function deleteExpiredMessages(now = Date.now()): Promise<{ deleted: number; before: string; months: number }> {
  const db = getDb();
  const months = await getRetentionMonths(db);
  const before = monthsBefore(new Date(now), months).toISOString();
  const deleted = await db.transaction().execute(async (trx) => {
    const expired = trx.selectFrom('contacts').select('id').where('created_at', '<', before);
    await trx.deleteFrom('mail_outbox').where('created_at', '<', before).execute();
    await trx
      .deleteFrom('mail_outbox')
      .where(
        'id',
        'in',
        trx
          .selectFrom('contact_replies')
          .select('mail_id')
          .where('contact_id', 'in', expired)
          .where('mail_id', 'is not', null)
          .$narrowType<{ mail_id: string }>(),
      )
      .execute();
    await trx
      .deleteFrom('mail_outbox')
      .where(
        'id',
        'in',
        trx
          .selectFrom('contacts')
          .select('confirmation_mail_id')
          .where('created_at', '<', before)
          .where('confirmation_mail_id', 'is not', null)
          .$narrowType<{ confirmation_mail_id: string }>(),
      )
      .execute();
    await trx.deleteFrom('contact_replies').where('contact_id', 'in', expired).execute();
    const result = await trx.deleteFrom('contacts').where('created_at', '<', before).executeTakeFirst();
    const count = Number(result.numDeletedRows);
    if (count > 0) await recordAudit({ actor: null, action: 'messages.expired', detail: { count, months, before } }, trx);
    return count;
  });
  if (deleted > 0) getLogger().info({ deleted, months, before }, 'messages past their retention period deleted');
  return { deleted, before, months };
}

/** The recurring job that applies the retention setting once a day, in one process at a time. */
export const MESSAGE_EXPIRY_JOB = 'messages.expire';
export const MESSAGE_EXPIRY_EVERY_MS = 24 * 60 * 60_000;

export async function runMessageExpiry(_payload: unknown, _job: JobInfo): Promise<void> {
  await deleteExpiredMessages();
}
