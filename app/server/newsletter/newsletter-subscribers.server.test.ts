import { beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import type { StaffUser } from '../staff/auth.server';
import { runNextJob, registerJobHandler } from '../platform/jobs.server';
import {
  askEarlierSubscribers,
  countSubscribers,
  deleteSubscriber,
  maskEmail,
  NEWSLETTER_RECONFIRM_JOB,
  runReconfirm,
  subscriberList,
} from './newsletter-subscribers.server';
import { checkConfirmToken } from './newsletter.server';

const admin = { id: 'a', name: 'Ann', email: 'ann@tdg.example', role: 'ADMIN' } as StaffUser;
const editor = { id: 'e', name: 'Ed', email: 'ed@tdg.example', role: 'EDITOR' } as StaffUser;

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  // As bytes: a TextDecoder would drop the BOM the file starts with.
  return Buffer.from(await new Response(stream).arrayBuffer()).toString('utf8');
}

describe.each(ENGINES)('the subscribers screen on %s', (engine) => {
  const database = useTestDatabase(engine);
  const db = () => database().db;
  const day = (n: number) => new Date(Date.UTC(2026, 9, 1) + n * 86_400_000).toISOString();

  beforeEach(async () => {
    await db().deleteFrom('newsletter_deliveries').execute();
    await db().deleteFrom('newsletter_sends').execute();
    await db().deleteFrom('newsletter_subscribers').execute();
    await db().deleteFrom('audit_log').execute();
    await db().deleteFrom('jobs').execute();
  });

  async function seed(count: number, status: 'pending' | 'confirmed' | 'unsubscribed', prefix: string, from = 0) {
    const rows = Array.from({ length: count }, (_, i) => ({
      id: `${prefix}-${String(from + i).padStart(5, '0')}`,
      email: `${prefix}${from + i}@example.org`,
      created_at: day(from + i),
      status,
      confirm_sent_at: status === 'pending' ? day(from + i) : null,
      confirmed_at: status === 'confirmed' ? day(from + i) : null,
      unsubscribed_at: status === 'unsubscribed' ? day(from + i) : null,
      source: '/news',
    }));
    for (let i = 0; i < rows.length; i += 200)
      await db()
        .insertInto('newsletter_subscribers')
        .values(rows.slice(i, i + 200))
        .execute();
    return rows;
  }

  it('counts by status, filters, searches and pages newest first in both directions', async () => {
    await seed(30, 'confirmed', 'conf');
    await seed(3, 'pending', 'wait', 100);
    await seed(2, 'unsubscribed', 'left', 200);
    expect(await countSubscribers()).toEqual({ pending: 3, confirmed: 30, unsubscribed: 2, neverAsked: 0 });

    const all = await subscriberList.page(admin, { filter: subscriberList.filterFromParams(new URLSearchParams()) });
    expect(all.total).toBe(35);
    expect(all.items).toHaveLength(25);
    expect(all.items[0]!.email).toBe('left201@example.org');
    expect(all.newer).toBeNull();
    const older = await subscriberList.page(admin, {
      filter: subscriberList.filterFromParams(new URLSearchParams()),
      after: all.older,
    });
    expect(older.items).toHaveLength(10);
    expect(older.older).toBeNull();
    const back = await subscriberList.page(admin, {
      filter: subscriberList.filterFromParams(new URLSearchParams()),
      before: older.newer,
    });
    expect(back.items.map((i) => i.id)).toEqual(all.items.map((i) => i.id));

    const waiting = await subscriberList.page(admin, {
      filter: subscriberList.filterFromParams(new URLSearchParams('status=pending')),
    });
    expect(waiting.items.map((i) => i.email)).toEqual(['wait102@example.org', 'wait101@example.org', 'wait100@example.org']);
    const found = await subscriberList.page(admin, { filter: subscriberList.filterFromParams(new URLSearchParams('q=CONF2')) });
    expect(found.items.map((i) => i.email).sort()).toEqual(
      ['conf2@example.org', ...Array.from({ length: 10 }, (_, i) => `conf2${i}@example.org`)].sort(),
    );
    // A search's wildcards are taken literally.
    expect(
      (await subscriberList.page(admin, { filter: subscriberList.filterFromParams(new URLSearchParams('q=%25')) })).total,
    ).toBe(0);
    // Anything else in the address reads as the default.
    expect(subscriberList.filterFromParams(new URLSearchParams(`status=nope&q=${'x'.repeat(500)}`))).toEqual({
      view: 'all',
      q: 'x'.repeat(100),
    });
  });

  it('erases an address on request with every delivery that named it, auditing a masked address', async () => {
    const [gone] = await seed(1, 'confirmed', 'erase');
    const at = new Date().toISOString();
    await db()
      .insertInto('newsletter_sends')
      .values({
        id: 's1',
        content_id: 'c1',
        subject: 'S',
        snapshot: '{}',
        status: 'finished',
        recipients: 1,
        created_by: 'ann@tdg.example',
        created_at: at,
      })
      .execute();
    await db()
      .insertInto('newsletter_deliveries')
      .values({ content_id: 'c1', subscriber_id: gone!.id, send_id: 's1', status: 'sent', updated_at: at })
      .execute();
    await deleteSubscriber(admin, gone!.id, '203.0.113.2');
    expect(await db().selectFrom('newsletter_subscribers').selectAll().execute()).toEqual([]);
    expect(await db().selectFrom('newsletter_deliveries').selectAll().execute()).toEqual([]);
    const audit = await db().selectFrom('audit_log').selectAll().executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ action: 'subscriber.deleted', actor_email: 'ann@tdg.example', target: 'e***@example.org' });
    expect(JSON.stringify(audit)).not.toContain(gone!.email);
    await expect(deleteSubscriber(admin, gone!.id, null)).rejects.toMatchObject({ status: 404 });
    expect(maskEmail('grace@example.org')).toBe('g***@example.org');
  });

  it('exports the whole filtered list as formula-safe CSV, a page at a time, and audits it', async () => {
    await seed(1_203, 'confirmed', 'c');
    await seed(4, 'pending', 'p', 5_000);
    await db()
      .insertInto('newsletter_subscribers')
      .values({
        id: 'evil',
        email: '=hyperlink("http://x")@example.org',
        created_at: day(9_000),
        status: 'confirmed',
        source: '+cmd',
      })
      .execute();
    const csv = await readAll(
      subscriberList.exportCsv(admin, subscriberList.filterFromParams(new URLSearchParams('status=confirmed')), '203.0.113.2'),
    );
    const lines = csv.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('\uFEFFEmail,Status,Subscribed (UTC),Confirmed (UTC),Unsubscribed (UTC),Signed up on');
    expect(lines).toHaveLength(1 + 1_204);
    expect(lines[1]).toBe(`"'=hyperlink(""http://x"")@example.org",Confirmed,${day(9_000)},,,'+cmd`);
    expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(1_204);
    expect(csv).not.toContain('p5000@');
    const audit = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'subscribers.exported')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.detail)).toEqual({ count: 1_204, status: 'confirmed', searched: false, complete: true });
  });

  it('asks the addresses from before double opt-in to confirm, one mail each, in the background', async () => {
    const at = day(0);
    await db()
      .insertInto('newsletter_subscribers')
      .values([
        { id: 'l1', email: 'legacy1@example.org', created_at: at, status: 'pending', confirm_sent_at: null },
        { id: 'l2', email: 'legacy2@example.org', created_at: at, status: 'pending', confirm_sent_at: null },
        { id: 'n1', email: 'new@example.org', created_at: at, status: 'pending', confirm_sent_at: new Date().toISOString() },
      ])
      .execute();
    expect((await countSubscribers()).neverAsked).toBe(2);
    expect(await askEarlierSubscribers(admin, null)).toBe(2);
    const undo = registerJobHandler(NEWSLETTER_RECONFIRM_JOB, runReconfirm);
    try {
      expect(await runNextJob({ workerId: 't' })).toMatchObject({ kind: NEWSLETTER_RECONFIRM_JOB, status: 'done' });
    } finally {
      undo();
    }
    const mails = await db()
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', 'like', 'legacy%')
      .orderBy('to_address')
      .execute();
    expect(mails.map((m) => m.to_address)).toEqual(['legacy1@example.org', 'legacy2@example.org']);
    const token = /\/newsletter\/confirm\/([A-Za-z0-9_-]{43})/.exec(mails[0]!.text_body)![1]!;
    expect(await checkConfirmToken(token)).toBe(true);
    expect((await countSubscribers()).neverAsked).toBe(0);
    await expect(askEarlierSubscribers(admin, null)).rejects.toMatchObject({ status: 409 });
  });

  it('refuses every action to a role without subscribers:manage', async () => {
    await seed(1, 'confirmed', 'x');
    await expect(
      subscriberList.page(editor, { filter: subscriberList.filterFromParams(new URLSearchParams()) }),
    ).rejects.toMatchObject({
      status: 403,
    });
    await expect(deleteSubscriber(editor, 'x-00000', null)).rejects.toMatchObject({ status: 403 });
    expect(() => subscriberList.exportCsv(editor, subscriberList.filterFromParams(new URLSearchParams()), null)).toThrow();
    await expect(askEarlierSubscribers(editor, null)).rejects.toMatchObject({ status: 403 });
  });
});
