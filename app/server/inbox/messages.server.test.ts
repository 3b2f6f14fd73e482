import { csvCell } from '../platform/csv-export.server';
import { decodeCursor, encodeCursor } from '../db/keyset-page.server';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp';
import {
  registerJobHandler,
  registerRecurringJob,
  recurringJobId,
  runNextJob,
  scheduleRecurringJobs,
} from '../platform/jobs.server';
import { deliverQueuedMail, MAIL_JOB, sendMail } from '../platform/mail.server';
import { getSiteInfo } from '../site/site.server';
import {
  countUnreadMessages,
  deleteExpiredMessages,
  deleteMessage,
  getMessage,
  getRetentionMonths,
  MESSAGE_EXPIRY_EVERY_MS,
  MESSAGE_EXPIRY_JOB,
  messageList,
  monthsBefore,
  openMessage,
  replyToMessage,
  runMessageExpiry,
  setMessageStatus,
  setRetentionMonths,
} from './messages.server';
import type { ListFilter } from '../platform/dashboard-list.server';
import { RuleError } from '../platform/rule-error.server';
import type { StaffUser } from '../staff/auth.server';
import type { ContactStatus } from '../db/schema';
import { MESSAGE_TEXT, RETENTION, type MessageView, type SettableStatus } from '../../lib/messages';
import { ROLES, can, type Role } from '../../lib/permissions';

const IP = '198.51.100.30';
const DAY = 24 * 60 * 60_000;

const staff = (role: Role): StaffUser => ({
  id: `id-${role}`,
  name: `${role[0]}${role.slice(1).toLowerCase()} Namusoke`,
  email: `${role.toLowerCase()}@staff.example.org`,
  role,
  bio: '',
  profilePicture: null,
  sessionId: 's',
});
const ADMIN = staff('ADMIN');
const SUPER = staff('SUPER_ADMIN');
/** The roles that may not use the inbox (spec §6 as issue 11 extends it). */
const REFUSED = ROLES.filter((role) => !can(role, 'messages:manage'));
type MessageFilter = ListFilter<MessageView>;
const inbox = (q = ''): MessageFilter => ({ view: 'inbox', q });

let sink: SmtpSink;
let unregister: (() => void)[] = [];

beforeAll(async () => {
  sink = await startSmtpSink();
  vi.stubEnv('SMTP_URL', sink.url);
  unregister = [registerJobHandler(MAIL_JOB, deliverQueuedMail)];
});
afterAll(async () => {
  for (const undo of unregister) undo();
  vi.unstubAllEnvs();
  await sink.close();
});

describe('message helpers', () => {
  it('neutralises cells a spreadsheet would run as formulas, and quotes as RFC 4180 asks', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","Click")')).toBe(`"'=HYPERLINK(""http://evil.example"",""Click"")"`);
    expect(csvCell('+256 700 000 001')).toBe("'+256 700 000 001");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\rcmd')).toBe(`"'\rcmd"`);
    expect(csvCell('Hello, "world"\nagain')).toBe('"Hello, ""world""\nagain"');
    expect(csvCell('a = b')).toBe('a = b');
    expect(csvCell(null)).toBe('');
  });

  it('reads the filter from the address, bounding the search', () => {
    expect(messageList.filterFromParams(new URLSearchParams(''))).toEqual({ view: 'inbox', q: '' });
    expect(messageList.filterFromParams(new URLSearchParams('status=spam&q=%20grace%20'))).toEqual({ view: 'spam', q: 'grace' });
    expect(messageList.filterFromParams(new URLSearchParams('status=nonsense'))).toEqual({ view: 'inbox', q: '' });
    expect(messageList.filterFromParams(new URLSearchParams(`q=${'x'.repeat(500)}`)).q).toHaveLength(100);
  });

  it('reads back its own cursors and ignores anything else', () => {
    const cursor = { createdAt: '2026-11-24T10:00:00.000Z', id: randomUUID() };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    for (const bad of [
      '',
      'abc',
      Buffer.from('2026|x|y').toString('base64url'),
      Buffer.from("2026-11-24T10:00:00.000Z|'; drop").toString('base64url'),
      'x'.repeat(300),
    ])
      expect(decodeCursor(bad)).toBeUndefined();
  });

  it('counts retention in whole calendar months', () => {
    expect(monthsBefore(new Date('2026-11-24T10:00:00.000Z'), 24).toISOString()).toBe('2024-11-24T10:00:00.000Z');
    expect(monthsBefore(new Date('2026-03-31T08:00:00.000Z'), 1).toISOString()).toBe('2026-02-28T08:00:00.000Z');
    expect(monthsBefore(new Date('2024-03-31T08:00:00.000Z'), 1).toISOString()).toBe('2024-02-29T08:00:00.000Z');
    expect(monthsBefore(new Date('2026-01-15T00:00:00.000Z'), 120).toISOString()).toBe('2016-01-15T00:00:00.000Z');
  });

  it('names the export by the date in Uganda', () => {
    // 22:30 UTC is already the next day in Kampala (UTC+3).
    expect(messageList.exportFileName(new Date('2026-11-24T22:30:00.000Z'))).toBe('messages-2026-11-25.csv');
  });
});

describe.each(ENGINES)('the inbox on %s', (engine) => {
  const database = useTestDatabase(engine);
  const db = () => database().db;

  /** Stores a message straight in the database, as the contact form would, at a chosen time. */
  async function seed(
    fields: Partial<{
      name: string;
      email: string;
      subject: string;
      message: string;
      phone: string | null;
      status: ContactStatus;
      created_at: string;
      id: string;
    }> = {},
  ) {
    const row = {
      id: fields.id ?? randomUUID(),
      name: fields.name ?? 'Nakato Grace',
      email: fields.email ?? 'grace@example.org',
      phone: fields.phone === undefined ? '+256 700 000 001' : fields.phone,
      subject: fields.subject ?? 'Volunteering',
      message: fields.message ?? 'I would like to help at your next workshop.\nI sign fluently.',
      created_at: fields.created_at ?? new Date().toISOString(),
      read_at: null,
      status: fields.status ?? 'new',
    };
    await db().insertInto('contacts').values(row).execute();
    return row;
  }
  const audits = (action: string) =>
    db().selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('at').execute();
  const contact = (id: string) => db().selectFrom('contacts').selectAll().where('id', '=', id).executeTakeFirst();

  beforeEach(async () => {
    await db().deleteFrom('contact_replies').execute();
    await db().deleteFrom('contacts').execute();
    await db().deleteFrom('audit_log').execute();
    await db().deleteFrom('mail_outbox').execute();
    await db().deleteFrom('jobs').execute();
    await db().deleteFrom('settings').where('key', '=', 'messages_retention_months').execute();
    sink.received.length = 0;
  });

  it('lists newest first in pages that follow (created_at, id), forwards and back, with ties on the time', async () => {
    const base = Date.parse('2026-11-01T08:00:00.000Z');
    const seeded = [];
    // 60 messages, every third pair sharing one timestamp, so the id must break ties.
    for (let i = 0; i < 60; i++)
      seeded.push(await seed({ subject: `Message ${i}`, created_at: new Date(base + Math.floor(i / 2) * 60_000).toISOString() }));
    const expected = seeded
      .toSorted((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1))
      .map((r) => r.id);

    const first = await messageList.page(ADMIN, { filter: inbox(), limit: 25 });
    expect(first.total).toBe(60);
    expect(first.items.map((m) => m.id)).toEqual(expected.slice(0, 25));
    expect(first.newer).toBeNull();
    expect(first.older).not.toBeNull();
    expect(first.items[0]).toMatchObject({
      name: 'Nakato Grace',
      firstLine: 'I would like to help at your next workshop.',
      status: 'new',
    });

    const second = await messageList.page(ADMIN, { filter: inbox(), after: first.older, limit: 25 });
    expect(second.items.map((m) => m.id)).toEqual(expected.slice(25, 50));
    const third = await messageList.page(ADMIN, { filter: inbox(), after: second.older, limit: 25 });
    expect(third.items.map((m) => m.id)).toEqual(expected.slice(50));
    expect(third.older).toBeNull();
    expect(third.newer).not.toBeNull();

    // Back again: the newer page is the one before, whole.
    const back = await messageList.page(ADMIN, { filter: inbox(), before: third.newer, limit: 25 });
    expect(back.items.map((m) => m.id)).toEqual(expected.slice(25, 50));
    expect(back.newer).not.toBeNull();
    expect(back.older).not.toBeNull();
    const top = await messageList.page(ADMIN, { filter: inbox(), before: back.newer, limit: 25 });
    expect(top.items.map((m) => m.id)).toEqual(expected.slice(0, 25));
    expect(top.newer).toBeNull();

    // A cursor someone edited shows the first page.
    const edited = await messageList.page(ADMIN, { filter: inbox(), after: 'not-a-cursor', limit: 25 });
    expect(edited.items.map((m) => m.id)).toEqual(expected.slice(0, 25));
  });

  it('keeps Spam and Archived out of the default view; the filter reaches each status and all', async () => {
    const ids: Record<string, string> = {};
    for (const status of ['new', 'read', 'replied', 'archived', 'spam'] as const)
      ids[status] = (await seed({ status, subject: status })).id;
    const list = async (view: MessageFilter['view']) =>
      (await messageList.page(ADMIN, { filter: { view, q: '' } })).items.map((m) => m.subject).toSorted();
    expect(await list('inbox')).toEqual(['new', 'read', 'replied']);
    expect(await list('all')).toEqual(['archived', 'new', 'read', 'replied', 'spam']);
    for (const status of ['new', 'read', 'replied', 'archived', 'spam'] as const) expect(await list(status)).toEqual([status]);
    expect(await messageList.countByStatus()).toEqual({
      new: 1,
      read: 1,
      replied: 1,
      archived: 1,
      spam: 1,
      contacted: 0,
      accepted: 0,
      declined: 0,
    });
    expect(await countUnreadMessages()).toBe(1);
  });

  it('searches name, email, subject and text, in any case, taking % and _ literally', async () => {
    await seed({
      name: 'Okello Peter',
      email: 'peter@mail.example',
      subject: 'Book a speaker',
      message: 'For our school assembly.',
    });
    await seed({
      name: 'Achieng Ruth',
      email: 'ruth@example.org',
      subject: 'Training 100% free?',
      message: 'Is the course_free for youth?',
    });
    await seed({
      name: 'Mukasa John',
      email: 'john@example.org',
      subject: 'Partnership',
      message: 'We run a radio programme.',
      status: 'spam',
    });
    const found = async (q: string, view: MessageFilter['view'] = 'inbox') =>
      (await messageList.page(ADMIN, { filter: { view, q } })).items.map((m) => m.name).toSorted();
    expect(await found('okello')).toEqual(['Okello Peter']);
    expect(await found('PETER@MAIL')).toEqual(['Okello Peter']);
    expect(await found('speaker')).toEqual(['Okello Peter']);
    expect(await found('ASSEMBLY')).toEqual(['Okello Peter']);
    expect(await found('100%')).toEqual(['Achieng Ruth']);
    expect(await found('%')).toEqual(['Achieng Ruth']);
    expect(await found('course_free')).toEqual(['Achieng Ruth']);
    expect(await found('e_f')).toEqual(['Achieng Ruth']);
    expect(await found('example.org')).toEqual(['Achieng Ruth']);
    // The search and the status filter together.
    expect(await found('radio')).toEqual([]);
    expect(await found('radio', 'spam')).toEqual(['Mukasa John']);
    expect(await found('radio', 'all')).toEqual(['Mukasa John']);
    const page = await messageList.page(ADMIN, { filter: { view: 'all', q: 'example.org' } });
    expect(page.total).toBe(2);
  });

  it('marks a New message Read when it is opened, once, and audits that', async () => {
    const { id } = await seed();
    const opened = await openMessage(ADMIN, id, IP);
    expect(opened).toMatchObject({ status: 'read', statusChangedBy: ADMIN.email });
    expect(opened.readAt).not.toBeNull();
    await Promise.all([openMessage(SUPER, id, IP), openMessage(ADMIN, id, IP)]);
    const rows = await audits('message.status_changed');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor_email: ADMIN.email, target: id, ip: IP });
    expect(JSON.parse(rows[0]!.detail)).toEqual({ from: 'new', to: 'read', opened: true });
    // An archived message stays archived when opened.
    const archived = await seed({ status: 'archived' });
    expect((await openMessage(ADMIN, archived.id, IP)).status).toBe('archived');
    expect(await audits('message.status_changed')).toHaveLength(1);
  });

  it('sends a reply through the mail queue to the sender, Reply-To the team, and keeps it in the thread', async () => {
    const message = await seed({ subject: 'Sign language classes', message: 'When is the next class?\nWe are five.' });
    const { reply, to } = await replyToMessage(ADMIN, message.id, '  The next class starts on Monday.  ', IP);
    expect(to).toBe(message.email);
    const team = (await getSiteInfo()).email;

    const detail = await getMessage(message.id);
    expect(detail).toMatchObject({ status: 'replied', statusChangedBy: ADMIN.email });
    expect(detail!.readAt).not.toBeNull();
    expect(detail!.replies).toEqual([
      {
        id: reply.id,
        body: 'The next class starts on Monday.',
        sentByName: ADMIN.name,
        sentByEmail: ADMIN.email,
        createdAt: reply.createdAt,
      },
    ]);

    const outbox = await db().selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
    expect(outbox).toMatchObject({ to_address: message.email, reply_to: team, subject: 'Re: Sign language classes' });
    expect(outbox.text_body).toMatch(
      /^The next class starts on Monday\.\n\nOn .+ \(Kampala time\), Nakato Grace <grace@example\.org> wrote:\n> When is the next class\?\n> We are five\.\n$/,
    );
    const row = await db().selectFrom('contact_replies').selectAll().executeTakeFirstOrThrow();
    expect(row.mail_id).toBe(outbox.id);

    // The worker hands it to a real SMTP server.
    expect(await runNextJob({ workerId: 'w' })).toMatchObject({ kind: MAIL_JOB, status: 'done' });
    const received = sink.received.filter((m) => m.to.includes(message.email));
    expect(received).toHaveLength(1);
    expect(received[0]!.raw).toMatch(new RegExp(`^Reply-To: ${team.replace(/\./g, '\\.')}\\r?$`, 'm'));
    expect(received[0]!.raw).toMatch(/^Subject: Re: Sign language classes\r?$/m);

    const [audit] = await audits('message.replied');
    expect(audit).toMatchObject({ actor_email: ADMIN.email, target: message.id });
    expect(audit!.detail).not.toContain('Monday');
    expect(JSON.parse(audit!.detail)).toMatchObject({ from: 'new', replyId: reply.id, mailId: outbox.id });

    // "Re:" is not repeated, and a subject never carries a newline into the header.
    const again = await seed({ subject: 'Re: Our call\nBcc: someone@evil.example' });
    await replyToMessage(ADMIN, again.id, 'Thanks.', IP);
    const second = await db()
      .selectFrom('mail_outbox')
      .select('subject')
      .where('to_address', '=', again.email)
      .where('id', '!=', outbox.id)
      .executeTakeFirstOrThrow();
    expect(second.subject).toBe('Re: Our call Bcc: someone@evil.example');
  });

  it('refuses an empty reply and a reply to a message that does not exist', async () => {
    const { id } = await seed();
    await expect(replyToMessage(ADMIN, id, '   ', IP)).rejects.toMatchObject({
      status: 400,
      field: 'body',
      message: MESSAGE_TEXT.replyRequired,
    });
    await expect(replyToMessage(ADMIN, randomUUID(), 'Hello', IP)).rejects.toMatchObject({
      status: 404,
      message: MESSAGE_TEXT.notFound,
    });
    await expect(openMessage(ADMIN, '../../etc', IP)).rejects.toMatchObject({ status: 404 });
    expect(await db().selectFrom('mail_outbox').selectAll().execute()).toEqual([]);
    expect((await contact(id))!.status).toBe('new');
  });

  it('marks handled (Archived), Spam, unread and back to the inbox, auditing each change once', async () => {
    const { id } = await seed({ status: 'read' });
    const steps: [SettableStatus, ContactStatus][] = [
      ['archived', 'read'],
      ['read', 'archived'],
      ['spam', 'read'],
      ['new', 'spam'],
    ];
    for (const [to, from] of steps) {
      expect(await setMessageStatus(ADMIN, id, to, IP)).toEqual({ from, to });
      expect(await contact(id)).toMatchObject({ status: to, status_changed_by: ADMIN.email });
    }
    // The same status again changes nothing and is not audited.
    await setMessageStatus(ADMIN, id, 'new', IP);
    const rows = await audits('message.status_changed');
    expect(rows.map((r) => JSON.parse(r.detail))).toEqual(steps.map(([to, from]) => ({ from, to })));
    // Replied comes only from a reply.
    await expect(setMessageStatus(ADMIN, id, 'replied' as SettableStatus, IP)).rejects.toMatchObject({ status: 400 });
    await expect(setMessageStatus(ADMIN, randomUUID(), 'spam', IP)).rejects.toMatchObject({ status: 404 });
  });

  it('deletes a message with its replies and every mail that held its words, and audits it without them', async () => {
    const message = await seed({ message: 'Private words about my hearing.' });
    const other = await seed({ email: 'other@example.org' });
    // The team's notification of each, as the contact form queues it.
    for (const m of [message, other])
      await sendMail({ to: 'team@example.org', subject: 'New message', text: `Private words\nhttp://x/admin/messages/${m.id}` });
    await replyToMessage(ADMIN, message.id, 'We will call you.', IP);
    await replyToMessage(ADMIN, other.id, 'Thank you.', IP);
    expect(await db().selectFrom('mail_outbox').selectAll().execute()).toHaveLength(4);

    await deleteMessage(ADMIN, message.id, IP);
    expect(await contact(message.id)).toBeUndefined();
    expect(await db().selectFrom('contact_replies').selectAll().where('contact_id', '=', message.id).execute()).toEqual([]);
    const left = await db().selectFrom('mail_outbox').select(['to_address', 'text_body']).execute();
    expect(left).toHaveLength(2);
    expect(left.every((m) => m.to_address === other.email || m.text_body.includes(other.id))).toBe(true);
    // The mail job of the deleted reply finds nothing to send.
    while (await runNextJob({ workerId: 'w' })) {
      // every queued mail
    }
    expect(sink.received.filter((m) => m.to.includes(message.email))).toEqual([]);

    const [audit] = await audits('message.deleted');
    expect(audit).toMatchObject({ actor_email: ADMIN.email, target: message.id, ip: IP });
    expect(JSON.parse(audit!.detail)).toEqual({ status: 'replied', replies: 1 });
    await expect(deleteMessage(ADMIN, message.id, IP)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses every read and write to roles without messages:manage', async () => {
    const { id } = await seed();
    expect(REFUSED).toEqual(['EDITOR', 'AUTHOR', 'VIEWER']);
    for (const role of REFUSED) {
      const actor = staff(role);
      const attempts: Promise<unknown>[] = [
        messageList.page(actor, { filter: inbox() }),
        openMessage(actor, id, IP),
        replyToMessage(actor, id, 'Hello', IP),
        setMessageStatus(actor, id, 'spam', IP),
        deleteMessage(actor, id, IP),
        setRetentionMonths(actor, 6, IP),
        Promise.resolve().then(() => messageList.exportCsv(actor, inbox(), IP)),
      ];
      for (const attempt of attempts) {
        const error: unknown = await attempt.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, role).toBeInstanceOf(RuleError);
        expect(error).toMatchObject({ status: 403, message: MESSAGE_TEXT.forbidden });
      }
    }
    expect(await contact(id)).toMatchObject({ status: 'new' });
    expect(await db().selectFrom('audit_log').selectAll().execute()).toEqual([]);
    expect(await getRetentionMonths()).toBe(RETENTION.defaultMonths);
  });

  it('keeps the retention setting in whole months from 1 to 120, audited', async () => {
    expect(await getRetentionMonths()).toBe(24);
    expect(await setRetentionMonths(ADMIN, 6, IP)).toEqual({ from: 24, to: 6 });
    expect(await getRetentionMonths()).toBe(6);
    for (const bad of [0, 121, 1.5, Number.NaN, -3])
      await expect(setRetentionMonths(ADMIN, bad, IP)).rejects.toMatchObject({ status: 400, field: 'months' });
    await setRetentionMonths(ADMIN, 6, IP);
    const rows = await audits('messages.retention_changed');
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.detail)).toEqual({ from: 24, to: 6 });
    // A stored value that makes no sense reads as the default.
    await db().updateTable('settings').set({ value: '"lots"' }).where('key', '=', 'messages_retention_months').execute();
    expect(await getRetentionMonths()).toBe(24);
  });

  it('deletes messages older than the retention period, with their replies and old mail, and audits the count', async () => {
    const now = Date.parse('2026-11-24T12:00:00.000Z');
    const old = await seed({ created_at: '2024-11-24T11:59:59.000Z' });
    const older = await seed({ created_at: '2020-01-01T00:00:00.000Z', status: 'spam' });
    const kept = await seed({ created_at: '2024-11-24T12:00:01.000Z' });
    await replyToMessage(ADMIN, old.id, 'Answered long ago.', IP);
    await db().updateTable('mail_outbox').set({ created_at: '2024-11-25T00:00:00.000Z' }).execute();
    await db().updateTable('contact_replies').set({ created_at: '2024-11-25T00:00:00.000Z' }).execute();
    await db()
      .insertInto('mail_outbox')
      .values({
        id: randomUUID(),
        to_address: 'x@example.org',
        subject: 'Old',
        text_body: 'Old words',
        created_at: '2023-01-01T00:00:00.000Z',
      })
      .execute();
    await db().deleteFrom('audit_log').execute();

    expect(await deleteExpiredMessages(now)).toEqual({ deleted: 2, before: '2024-11-24T12:00:00.000Z', months: 24 });
    expect(await contact(old.id)).toBeUndefined();
    expect(await contact(older.id)).toBeUndefined();
    expect(await contact(kept.id)).toBeDefined();
    expect(await db().selectFrom('contact_replies').selectAll().execute()).toEqual([]);
    // The reply's mail goes with its message; the old unrelated mail goes by age.
    expect(await db().selectFrom('mail_outbox').selectAll().execute()).toEqual([]);
    const [audit] = await audits('messages.expired');
    expect(audit).toMatchObject({ actor_email: null });
    expect(JSON.parse(audit!.detail)).toEqual({ count: 2, months: 24, before: '2024-11-24T12:00:00.000Z' });

    // Nothing to delete: nothing audited.
    expect((await deleteExpiredMessages(now)).deleted).toBe(0);
    expect(await audits('messages.expired')).toHaveLength(1);
    // A shorter period reaches further.
    await setRetentionMonths(ADMIN, 1, IP);
    expect((await deleteExpiredMessages(Date.parse('2025-01-01T00:00:00.000Z'))).deleted).toBe(1);
  });

  it('runs the retention clean-up as a daily recurring job, once across workers', async () => {
    const undo = registerRecurringJob(MESSAGE_EXPIRY_JOB, runMessageExpiry, MESSAGE_EXPIRY_EVERY_MS);
    try {
      await seed({ created_at: '2019-05-01T00:00:00.000Z' });
      const fresh = await seed();
      // Every process schedules it at start; one row results.
      await Promise.all([scheduleRecurringJobs(), scheduleRecurringJobs(), scheduleRecurringJobs()]);
      const rows = await db().selectFrom('jobs').selectAll().where('kind', '=', MESSAGE_EXPIRY_JOB).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.id).toBe(recurringJobId(MESSAGE_EXPIRY_JOB));

      const t = Date.now();
      const outcomes = await Promise.all([runNextJob({ workerId: 'a', now: t }), runNextJob({ workerId: 'b', now: t })]);
      expect(outcomes.filter((o) => o?.kind === MESSAGE_EXPIRY_JOB)).toHaveLength(1);
      expect(await db().selectFrom('contacts').select('id').execute()).toEqual([{ id: fresh.id }]);
      expect(await audits('messages.expired')).toHaveLength(1);
      const next = await db()
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', recurringJobId(MESSAGE_EXPIRY_JOB))
        .executeTakeFirstOrThrow();
      expect(next).toMatchObject({ status: 'queued', attempts: 0 });
      expect(Date.parse(next.run_at) - t).toBeGreaterThanOrEqual(DAY - 1_000);
      expect(Date.parse(next.run_at) - t).toBeLessThan(DAY + 60_000);
    } finally {
      undo();
    }
  });

  it('streams the CSV a page at a time, with a BOM, the filter applied and formula cells neutralised', async () => {
    const base = Date.parse('2026-10-01T08:00:00.000Z');
    for (let i = 0; i < 5; i++) await seed({ subject: `Plain ${i}`, created_at: new Date(base + i * 60_000).toISOString() });
    await seed({
      subject: '=HYPERLINK("http://evil.example","Open")',
      message: 'Line one\nLine "two", with a comma',
      created_at: new Date(base + 10 * 60_000).toISOString(),
    });
    await seed({ subject: 'Spam offer', status: 'spam', created_at: new Date(base + 20 * 60_000).toISOString() });

    const chunks: string[] = [];
    for await (const chunk of messageList.csv(inbox(), 2)) chunks.push(chunk);
    // The header, then pages of 2, 2, 2 (six inbox messages; the spam is filtered out).
    expect(chunks).toHaveLength(4);
    const csv = chunks.join('');
    expect(csv.startsWith('\uFEFFReceived (UTC),Status,Name,Email,Phone,Subject,Message,')).toBe(true);
    const lines = csv.split('\r\n');
    expect(csv).not.toContain('Spam offer');
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"",""Open"")","Line one\nLine ""two"", with a comma"`);
    expect(lines[1]).toContain(",'+256 700 000 001,");
    expect(lines[1]!.startsWith('2026-10-01T08:10:00.000Z,New,Nakato Grace,grace@example.org,')).toBe(true);
    expect(csv.match(/Plain \d/g)).toEqual(['Plain 4', 'Plain 3', 'Plain 2', 'Plain 1', 'Plain 0']);

    // Searched: only what matches.
    let searched = '';
    for await (const chunk of messageList.csv({ view: 'all', q: 'spam offer' })) searched += chunk;
    expect(searched.split('\r\n').filter(Boolean)).toHaveLength(2);

    // The whole stream, audited with the count and the filter, never the words or the search.
    const text = await new Response(messageList.exportCsv(ADMIN, { view: 'all', q: 'plain' }, IP)).text();
    expect(text.split('\r\n').filter(Boolean)).toHaveLength(6);
    const [audit] = await audits('messages.exported');
    expect(audit).toMatchObject({ actor_email: ADMIN.email, ip: IP });
    expect(JSON.parse(audit!.detail)).toEqual({ count: 5, status: 'all', searched: true, complete: true });
  });

  it('never writes a message body to the audit log', async () => {
    const secret = 'My HIV status is private';
    const { id } = await seed({ message: secret, subject: secret });
    await openMessage(ADMIN, id, IP);
    await replyToMessage(ADMIN, id, `About: ${secret}`, IP);
    await setMessageStatus(ADMIN, id, 'archived', IP);
    await new Response(messageList.exportCsv(ADMIN, { view: 'all', q: 'HIV' }, IP)).text();
    await deleteMessage(ADMIN, id, IP);
    const rows = await db().selectFrom('audit_log').select(['action', 'detail', 'target']).execute();
    expect(rows.map((r) => r.action).toSorted()).toEqual(
      ['message.deleted', 'message.replied', 'message.status_changed', 'message.status_changed', 'messages.exported'].toSorted(),
    );
    for (const row of rows) expect(`${row.detail} ${row.target}`).not.toMatch(/HIV/);
  });
});
