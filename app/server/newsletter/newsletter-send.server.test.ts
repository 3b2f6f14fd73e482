import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { saveSiteSettings } from '../site/site-settings.server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import type { StaffUser } from '../staff/auth.server';
import { registerJobHandler, runNextJob } from '../platform/jobs.server';
import { deliverQueuedMail, MAIL_JOB } from '../platform/mail.server';
import {
  BATCH_MAX,
  classifySmtpError,
  countRecipients,
  DELIVERY_ATTEMPTS,
  getSendRate,
  INTERRUPTED,
  listSends,
  NEWSLETTER_BATCH_JOB,
  runNewsletterBatch,
  sendTestNewsletter,
  setSendRate,
  startNewsletterSend,
  stopNewsletterSend,
} from './newsletter-send.server';
import { checkUnsubscribeToken, unsubscribe } from './newsletter.server';
import { RuleError } from '../platform/rule-error.server';

// A real SMTP server for these tests: it keeps every message, refuses recipients whose address holds
// "refuse" (550) or "later" (451), and can refuse every connection (a mail server that is down).
interface Received {
  to: string;
  raw: string;
}
const received: Received[] = [];
let refuseConnections = false;
let smtp: SMTPServer;

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onConnect(_session, callback) {
      if (refuseConnections) callback(Object.assign(new Error('Service not available'), { responseCode: 421 }));
      else callback();
    },
    onRcptTo(address, _session, callback) {
      if (address.address.includes('refuse')) callback(new Error('550 No such mailbox here'));
      else if (address.address.includes('later')) callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        for (const r of session.envelope.rcptTo) received.push({ to: r.address, raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  vi.stubEnv('SMTP_URL', `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}?ignoreTLS=true`);
  vi.stubEnv('PUBLIC_URL', 'https://tdg.example');
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const admin = (email = 'admin@tdg.example'): StaffUser =>
  ({ id: 'admin-1', name: 'Ann Admin', email, role: 'ADMIN' }) as StaffUser;
const editor = { id: 'ed-1', name: 'Ed', email: 'ed@tdg.example', role: 'EDITOR' } as StaffUser;

/** The value of `name` in a raw message, its folded lines joined. */
function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1];
}

describe('what an SMTP failure means for the address', () => {
  it('tells a server that cannot be reached, a "not now" and a final refusal apart', () => {
    expect(classifySmtpError(Object.assign(new Error('x'), { code: 'ECONNECTION', command: 'CONN' }))).toBe('server');
    expect(classifySmtpError(Object.assign(new Error('x'), { code: 'ESOCKET', command: 'CONN' }))).toBe('server');
    expect(classifySmtpError(Object.assign(new Error('x'), { code: 'EENVELOPE', command: 'RCPT TO', responseCode: 451 }))).toBe(
      'temporary',
    );
    expect(classifySmtpError(Object.assign(new Error('x'), { code: 'EENVELOPE', command: 'RCPT TO', responseCode: 550 }))).toBe(
      'permanent',
    );
    // The connection broke after the message was handed over: it may have gone, so never again.
    expect(classifySmtpError(Object.assign(new Error('x'), { code: 'ESOCKET', command: 'DATA' }))).toBe('permanent');
  });
});

describe.each(ENGINES)('sending a published item to the subscribers on %s', (engine) => {
  const database = useTestDatabase(engine);
  const db = () => database().db;
  let unregister: () => void;

  beforeAll(() => {
    unregister = registerJobHandler(NEWSLETTER_BATCH_JOB, runNewsletterBatch);
  });
  afterAll(() => unregister());
  beforeEach(async () => {
    received.length = 0;
    refuseConnections = false;
    await db().deleteFrom('jobs').execute();
    await db().deleteFrom('newsletter_deliveries').execute();
    await db().deleteFrom('newsletter_sends').execute();
    await db().deleteFrom('newsletter_subscribers').execute();
    await db().deleteFrom('settings').where('key', '=', 'newsletter_rate_per_minute').execute();
  });
  afterEach(() => {
    refuseConnections = false;
  });

  async function publishedItem(title = 'Interpreters for district councils') {
    const id = `item-${randomBytes(4).toString('hex')}`;
    const at = new Date().toISOString();
    await db()
      .insertInto('content')
      .values({
        id,
        collection: 'news',
        title,
        summary: 'Two councils book interpreters now.',
        excerpt: null,
        content: '<p>Councils in Gulu and Lira now book sign language interpreters for every meeting.</p>',
        category: 'advocacy',
        author: 'Grace Nakato',
        author_email: null,
        author_role: null,
        image_url: null,
        image_alt: null,
        created_at: at,
        published_at: at,
        updated_at: at,
      })
      .execute();
    return id;
  }

  /** A published Luganda version of `item` (issue 26: a row of its own, its English item's id as translation_of). */
  async function lugandaVersion(item: string, words: { title: string; summary: string | null; content: string }) {
    const at = new Date().toISOString();
    await db()
      .insertInto('content')
      .values({
        id: `${item}-lg`,
        collection: 'news',
        language: 'lg',
        translation_of: item,
        status: 'published',
        ...words,
        excerpt: null,
        category: 'advocacy',
        author: 'Grace Nakato',
        created_at: at,
        published_at: at,
        updated_at: at,
      })
      .execute();
  }

  async function subscribers(status: 'confirmed' | 'pending' | 'unsubscribed', ...names: string[]) {
    const at = new Date().toISOString();
    const rows = names.map((name) => ({
      id: randomUUID(),
      email: `${name}@example.org`,
      created_at: at,
      status,
      confirmed_at: status === 'confirmed' ? at : null,
    }));
    if (rows.length) await db().insertInto('newsletter_subscribers').values(rows).execute();
    return rows;
  }

  /** Runs due jobs (batches are scheduled by the speed; `ahead` moves the worker's clock) until none is due. */
  async function drain(ahead = 0) {
    const outcomes = [];
    for (let i = 0; i < 200; i++) {
      const outcome = await runNextJob({ workerId: 'test', now: Date.now() + ahead });
      if (!outcome) break;
      outcomes.push(outcome);
    }
    return outcomes;
  }

  const deliveries = (sendId: string) =>
    db().selectFrom('newsletter_deliveries').selectAll().where('send_id', '=', sendId).orderBy('subscriber_id').execute();
  const sendRow = (id: string) => db().selectFrom('newsletter_sends').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('sends to every confirmed subscriber once, with their own unsubscribe link and the one-click headers, and finishes', async () => {
    const item = await publishedItem();
    const confirmed = await subscribers('confirmed', 'ann', 'ben', 'cara');
    await subscribers('pending', 'waiting');
    await subscribers('unsubscribed', 'gone');
    expect(await countRecipients(item)).toBe(3);

    const { sendId, recipients } = await startNewsletterSend(admin(), item, '203.0.113.9');
    expect(recipients).toBe(3);
    expect(await countRecipients(item)).toBe(0);
    await drain(60 * 60_000);

    expect(received.map((m) => m.to).sort()).toEqual(['ann@example.org', 'ben@example.org', 'cara@example.org']);
    for (const mail of received) {
      expect(header(mail.raw, 'Subject')).toBe('Interpreters for district councils');
      expect(header(mail.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      const link = /^<(https:\/\/tdg\.example\/newsletter\/unsubscribe\/([A-Za-z0-9_.-]+))>$/.exec(
        header(mail.raw, 'List-Unsubscribe') ?? '',
      );
      expect(link, mail.to).not.toBeNull();
      // Each link is the recipient's own and is ours.
      const owner = confirmed.find((c) => c.email === mail.to)!;
      expect(Buffer.from(link![2]!.split('.')[0]!, 'base64url').toString()).toBe(owner.id);
      expect(await checkUnsubscribeToken(link![2]!)).toBe(true);
      expect(mail.raw.replace(/=\r?\n/g, '')).toContain(link![1]);
    }
    expect((await deliveries(sendId)).map((d) => d.status)).toEqual(['sent', 'sent', 'sent']);
    expect(await sendRow(sendId)).toMatchObject({ status: 'finished', batch_job_id: null, recipients: 3 });
    const audit = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'newsletter.sent')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor_email: 'admin@tdg.example', target: item });
    expect(JSON.parse(audit.detail)).toMatchObject({ recipients: 3 });
  });

  it('sends a subscriber who asked in Luganda the item’s Luganda version, its page and words; others the English', async () => {
    const owner = { id: 'owner-1', name: 'Owner', email: 'owner@tdg.example', role: 'SUPER_ADMIN', sessionId: 's' } as StaffUser;
    await saveSiteSettings(owner, 'languages', { languageLg: 'on', languageSw: 'on' }, { ip: '203.0.113.9' });
    const item = await publishedItem();
    await lugandaVersion(item, {
      title: 'Abavvuunuzi mu nkiiko za disitulikiti',
      summary: 'Enkiiko bbiri zikozesa abavvuunuzi.',
      content: '<p>Enkiiko mu Gulu ne Lira zikozesa abavvuunuzi b’olulimi lw’obubonero.</p>',
    });
    const [luganda, swahili, english] = await subscribers('confirmed', 'nakato', 'amani', 'grace');
    await db().updateTable('newsletter_subscribers').set({ language: 'lg' }).where('id', '=', luganda!.id).execute();
    await db().updateTable('newsletter_subscribers').set({ language: 'sw' }).where('id', '=', swahili!.id).execute();
    await startNewsletterSend(admin(), item, '203.0.113.9');
    await drain(60 * 60_000);
    const body = (to: string) => received.find((m) => m.to === to)!.raw.replace(/=\r?\n/g, '');
    expect(header(body('nakato@example.org'), 'Subject')).toBe('Abavvuunuzi mu nkiiko za disitulikiti');
    expect(body('nakato@example.org')).toContain(`/lg/news/${item}`);
    expect(body('nakato@example.org')).toContain('Kisome ku mukutu gwaffe');
    expect(header(body('nakato@example.org'), 'List-Unsubscribe')).toMatch(
      /^<https:\/\/tdg\.example\/lg\/newsletter\/unsubscribe\//,
    );
    // No Swahili version: the English item, its words and page.
    for (const to of [swahili!.email, english!.email]) {
      expect(header(body(to), 'Subject')).toBe('Interpreters for district councils');
      expect(body(to)).toContain('Read it on our website');
      expect(body(to)).not.toContain('/lg/');
      expect(body(to)).not.toContain('/sw/');
    }
  });

  it('writes in English once the subscriber’s language is turned off, even mid-send', async () => {
    const owner = { id: 'owner-1', name: 'Owner', email: 'owner@tdg.example', role: 'SUPER_ADMIN', sessionId: 's' } as StaffUser;
    await saveSiteSettings(owner, 'languages', { languageLg: 'on', languageSw: 'off' }, { ip: '203.0.113.9' });
    const item = await publishedItem();
    await lugandaVersion(item, { title: 'Abavvuunuzi', summary: null, content: '<p>Enkiiko zikozesa abavvuunuzi.</p>' });
    const [luganda] = await subscribers('confirmed', 'mukasa');
    await db().updateTable('newsletter_subscribers').set({ language: 'lg' }).where('id', '=', luganda!.id).execute();
    await startNewsletterSend(admin(), item, '203.0.113.9');
    await saveSiteSettings(owner, 'languages', { languageLg: 'off', languageSw: 'off' }, { ip: '203.0.113.9' });
    await drain(60 * 60_000);
    const mail = received.find((m) => m.to === 'mukasa@example.org')!.raw.replace(/=\r?\n/g, '');
    expect(header(mail, 'Subject')).toBe('Interpreters for district councils');
    expect(mail).not.toContain('/lg/');
  });

  it('never sends an item twice to one address: a later send reaches only those who have not had it', async () => {
    const item = await publishedItem();
    await subscribers('confirmed', 'first');
    await startNewsletterSend(admin(), item, null);
    await drain(60 * 60_000);
    await expect(startNewsletterSend(admin(), item, null)).rejects.toThrow(RuleError);
    await subscribers('confirmed', 'newcomer');
    const again = await startNewsletterSend(admin(), item, null);
    expect(again.recipients).toBe(1);
    await drain(60 * 60_000);
    expect(received.map((m) => m.to)).toEqual(['first@example.org', 'newcomer@example.org']);
  });

  it('refuses a second send while one runs, and when nobody is confirmed', async () => {
    const empty = await publishedItem();
    await expect(startNewsletterSend(admin(), empty, null)).rejects.toMatchObject({ status: 409 });
    await subscribers('confirmed', 'one');
    await startNewsletterSend(admin(), empty, null);
    await expect(startNewsletterSend(admin(), empty, null)).rejects.toMatchObject({ status: 409 });
  });

  it('records a refused address as failed with the reason, tries a "not now" again, and sends to the rest', async () => {
    const item = await publishedItem();
    await subscribers('confirmed', 'fine', 'refuse-me', 'later-please');
    const { sendId } = await startNewsletterSend(admin(), item, null);
    await drain(60 * 60_000);
    expect(received.map((m) => m.to)).toEqual(['fine@example.org']);
    const rows = await deliveries(sendId);
    const byEmail = async (name: string) => {
      const s = await db()
        .selectFrom('newsletter_subscribers')
        .select('id')
        .where('email', '=', `${name}@example.org`)
        .executeTakeFirstOrThrow();
      return rows.find((r) => r.subscriber_id === s.id)!;
    };
    expect(await byEmail('refuse-me')).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: expect.stringContaining('No such mailbox'),
    });
    expect(await byEmail('later-please')).toMatchObject({ status: 'failed', attempts: DELIVERY_ATTEMPTS });
    const [progress] = await listSends(item);
    expect(progress).toMatchObject({ status: 'finished', counts: { sent: 1, failed: 2, queued: 0 } });
    expect(progress!.failures.map((f) => f.email)).toEqual(['later-please@example.org', 'refuse-me@example.org']);
  });

  it('after a process stopped mid-mail, records that delivery as failed and never sends it again', async () => {
    const item = await publishedItem();
    const [lost] = await subscribers('confirmed', 'lost', 'next');
    const { sendId } = await startNewsletterSend(admin(), item, null);
    // As a batch leaves it when its process dies during the SMTP conversation.
    await db()
      .updateTable('newsletter_deliveries')
      .set({ status: 'sending', attempts: 1 })
      .where('subscriber_id', '=', lost!.id)
      .execute();
    await drain(60 * 60_000);
    expect(received.map((m) => m.to)).toEqual(['next@example.org']);
    expect((await deliveries(sendId)).find((d) => d.subscriber_id === lost!.id)).toMatchObject({
      status: 'failed',
      error: INTERRUPTED,
    });
  });

  it('skips an address unsubscribed after sending started', async () => {
    const item = await publishedItem();
    const [leaving] = await subscribers('confirmed', 'leaving', 'staying');
    const { sendId } = await startNewsletterSend(admin(), item, null);
    await db().updateTable('newsletter_subscribers').set({ status: 'unsubscribed' }).where('id', '=', leaving!.id).execute();
    await drain(60 * 60_000);
    expect(received.map((m) => m.to)).toEqual(['staying@example.org']);
    expect((await deliveries(sendId)).find((d) => d.subscriber_id === leaving!.id)).toMatchObject({ status: 'skipped' });
  });

  it('sends in batches no faster than the speed, each batch queued for when the speed allows', async () => {
    const item = await publishedItem();
    await setSendRate(admin(), 30, null);
    expect(await getSendRate()).toBe(30);
    await subscribers('confirmed', ...Array.from({ length: 45 }, (_, i) => `reader${String(i).padStart(2, '0')}`));
    const { sendId } = await startNewsletterSend(admin(), item, null);
    const started = Date.now();
    expect(await runNextJob({ workerId: 'test' })).toMatchObject({ kind: NEWSLETTER_BATCH_JOB, status: 'done' });
    // min(BATCH_MAX, 30) = 20 mails, then nothing due until 20 mails at 30 a minute have passed (40 s).
    expect(received).toHaveLength(Math.min(BATCH_MAX, 30));
    expect(await runNextJob({ workerId: 'test' })).toBeUndefined();
    const next = await db()
      .selectFrom('jobs')
      .select('run_at')
      .where('id', '=', (await sendRow(sendId)).batch_job_id!)
      .executeTakeFirstOrThrow();
    expect(Date.parse(next.run_at) - started).toBeGreaterThanOrEqual(39_000);
    await drain(10 * 60_000);
    expect(received).toHaveLength(45);
    expect(new Set(received.map((m) => m.to)).size).toBe(45);
  });

  it('runs only the batch its send names: a stale or duplicate batch job does nothing', async () => {
    const item = await publishedItem();
    await subscribers('confirmed', 'only');
    const { sendId } = await startNewsletterSend(admin(), item, null);
    await runNewsletterBatch({ sendId }, { id: 'some-other-job', kind: NEWSLETTER_BATCH_JOB, attempts: 1, maxAttempts: 8 });
    expect(received).toEqual([]);
    expect((await deliveries(sendId)).map((d) => d.status)).toEqual(['queued']);
  });

  it('stops on request: nobody else receives it, and those left can receive it from a later send', async () => {
    const item = await publishedItem();
    await subscribers('confirmed', 'a1', 'a2');
    const { sendId } = await startNewsletterSend(admin(), item, '203.0.113.9');
    await stopNewsletterSend(admin(), item, sendId, '203.0.113.9');
    await drain(60 * 60_000);
    expect(received).toEqual([]);
    expect(await sendRow(sendId)).toMatchObject({ status: 'stopped' });
    expect(await deliveries(sendId)).toEqual([]);
    expect(await countRecipients(item)).toBe(2);
    await expect(stopNewsletterSend(admin(), item, sendId, null)).rejects.toMatchObject({ status: 409 });
  });

  it('waits when the mail server cannot be reached, losing nobody, and goes on once it can', async () => {
    const item = await publishedItem();
    await subscribers('confirmed', 'patient');
    const { sendId } = await startNewsletterSend(admin(), item, null);
    refuseConnections = true;
    expect(await runNextJob({ workerId: 'test' })).toMatchObject({ status: 'retry' });
    expect((await deliveries(sendId))[0]).toMatchObject({ status: 'queued', attempts: 0 });
    const [waiting] = await listSends(item);
    expect(waiting!.retrying).toContain('could not be reached');
    refuseConnections = false;
    await drain(60 * 60_000);
    expect(received.map((m) => m.to)).toEqual(['patient@example.org']);
    expect((await deliveries(sendId))[0]).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('a one-click unsubscribe stops the next item reaching that address', async () => {
    const first = await publishedItem('First story');
    await subscribers('confirmed', 'clicker');
    await startNewsletterSend(admin(), first, null);
    await drain(60 * 60_000);
    const token = /\/newsletter\/unsubscribe\/([A-Za-z0-9_.-]+)>/.exec(header(received[0]!.raw, 'List-Unsubscribe')!)![1]!;
    expect(await unsubscribe(token)).toBe(true);
    const second = await publishedItem('Second story');
    await expect(startNewsletterSend(admin(), second, null)).rejects.toMatchObject({ status: 409 });
    expect(received).toHaveLength(1);
  });

  it('sends a test, marked as one, only to the staff member, through the mail queue', async () => {
    const item = await publishedItem('Test me');
    await subscribers('confirmed', 'reader');
    expect(await sendTestNewsletter(admin('ann@tdg.example'), item, null)).toBe('ann@tdg.example');
    const mail = await db()
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', 'ann@tdg.example')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('[Test] Test me');
    expect(JSON.parse(mail.headers!)).toMatchObject({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect(await db().selectFrom('newsletter_deliveries').selectAll().execute()).toEqual([]);
    expect(
      await db().selectFrom('audit_log').select('action').where('action', '=', 'newsletter.test_sent').execute(),
    ).toHaveLength(1);
    // The outbox passes its headers on to the mail server.
    const undo = registerJobHandler(MAIL_JOB, deliverQueuedMail);
    try {
      await drain();
    } finally {
      undo();
    }
    expect(received.map((m) => m.to)).toEqual(['ann@tdg.example']);
    expect(header(received[0]!.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(header(received[0]!.raw, 'List-Unsubscribe')).toMatch(
      /^<https:\/\/tdg\.example\/newsletter\/unsubscribe\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}>$/,
    );
  });

  it('refuses every sending action to a role without newsletter:send', async () => {
    const item = await publishedItem();
    await subscribers('confirmed', 'x');
    await expect(startNewsletterSend(editor, item, null)).rejects.toMatchObject({ status: 403 });
    await expect(sendTestNewsletter(editor, item, null)).rejects.toMatchObject({ status: 403 });
    await expect(setSendRate(editor, 10, null)).rejects.toMatchObject({ status: 403 });
    await expect(stopNewsletterSend(editor, item, 'x', null)).rejects.toMatchObject({ status: 403 });
  });

  it('refuses an item that is not a published story or news item, and a speed out of range', async () => {
    await expect(startNewsletterSend(admin(), 'no-such-item', null)).rejects.toMatchObject({ status: 404 });
    await expect(startNewsletterSend(admin(), '../etc', null)).rejects.toMatchObject({ status: 404 });
    await expect(setSendRate(admin(), 0, null)).rejects.toMatchObject({ status: 400 });
    await expect(setSendRate(admin(), 1.5, null)).rejects.toMatchObject({ status: 400 });
  });
});
