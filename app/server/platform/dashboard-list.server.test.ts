import { beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import type { ContactStatus } from '../db/schema';
import type { StaffUser } from '../staff/auth.server';
import { RuleError } from './rule-error.server';
import { dashboardList, type ListFilter } from './dashboard-list.server';

// One list declared here, over the contact messages' table but with views, search columns, page
// columns and CSV columns of its own, so what is tested is the shared shape, not the inbox.

const staff = (role: 'ADMIN' | 'VIEWER'): StaffUser => ({
  id: `id-${role}`,
  name: `${role} Nakato`,
  email: `${role.toLowerCase()}@staff.example.org`,
  role,
  bio: '',
  profilePicture: null,
  sessionId: 's',
});
const ADMIN = staff('ADMIN');
const VIEWER = staff('VIEWER');
const IP = '198.51.100.7';

const VIEWS = ['open', 'closed', 'spam', 'everything'] as const;
type View = (typeof VIEWS)[number];

const list = dashboardList({
  table: 'contacts',
  authorise: (actor) => {
    if (actor.role !== 'ADMIN') throw new RuleError('Not for you.', 403);
  },
  statuses: ['new', 'read', 'replied', 'archived', 'spam'],
  views: VIEWS,
  defaultView: 'open',
  viewStatuses: (view) =>
    view === 'open' ? ['new', 'read'] : view === 'closed' ? ['replied', 'archived'] : view === 'spam' ? ['spam'] : undefined,
  search: { columns: ['name', 'subject'], max: 10 },
  pageSize: 4,
  columns: ['subject'],
  toItem: (row) => row.subject,
  csv: {
    name: 'tested',
    columns: [
      ['Subject', (row) => row.subject],
      ['Status', (row) => row.status.toUpperCase()],
    ],
    audit: 'messages.exported',
  },
});

const filter = (view: View = 'everything', q = ''): ListFilter<View> => ({ view, q });

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  // As bytes: a TextDecoder would drop the BOM the file starts with.
  return Buffer.from(await new Response(stream).arrayBuffer()).toString('utf8');
}

describe('a dashboard list read from its address', () => {
  it('takes a known view, else the default, and a bounded, trimmed search', () => {
    expect(list.filterFromParams(new URLSearchParams(''))).toEqual({ view: 'open', q: '' });
    expect(list.filterFromParams(new URLSearchParams('status=spam&q=%20Mukasa%20'))).toEqual({ view: 'spam', q: 'Mukasa' });
    expect(list.filterFromParams(new URLSearchParams('status=Spam'))).toEqual({ view: 'open', q: '' });
    expect(list.filterFromParams(new URLSearchParams('status=toString'))).toEqual({ view: 'open', q: '' });
    expect(list.filterFromParams(new URLSearchParams('q=abcdefghijklmnop')).q).toBe('abcdefghij');
  });

  it('lower-cases the search of a list whose columns hold lower-case text', () => {
    const lower = dashboardList({
      table: 'newsletter_subscribers',
      authorise: () => undefined,
      statuses: ['pending', 'confirmed', 'unsubscribed'],
      views: ['all'],
      defaultView: 'all',
      viewStatuses: () => undefined,
      search: { columns: ['email'], max: 100, lowerCase: true },
      pageSize: 25,
      columns: ['email'],
      toItem: (row) => row.email,
      csv: { name: 'addresses', columns: [['Email', (row) => row.email]], audit: 'subscribers.exported' },
    });
    expect(lower.filterFromParams(new URLSearchParams('q=Grace@Example.ORG'))).toEqual({ view: 'all', q: 'grace@example.org' });
  });

  it('names its file by the date in Uganda', () => {
    expect(list.exportFileName(new Date('2026-11-24T22:30:00.000Z'))).toBe('tested-2026-11-25.csv');
  });
});

describe.each(ENGINES)('a dashboard list on %s', (engine) => {
  const database = useTestDatabase(engine);
  const db = () => database().db;

  beforeEach(async () => {
    await db().deleteFrom('contact_replies').execute();
    await db().deleteFrom('contacts').execute();
    await db().deleteFrom('audit_log').execute();
  });

  /** Rows `subject-00` … in time order (pairs share a time, so the id breaks the tie), statuses in turn. */
  async function seed(count: number, statuses: ContactStatus[] = ['new'], name = 'Nakato Grace') {
    const base = Date.parse('2026-10-01T08:00:00.000Z');
    const rows = Array.from({ length: count }, (_, i) => ({
      id: `row-${String(i).padStart(3, '0')}`,
      name,
      email: 'grace@example.org',
      phone: null,
      subject: `subject-${String(i).padStart(2, '0')}`,
      message: 'Hello',
      created_at: new Date(base + Math.floor(i / 2) * 60_000).toISOString(),
      read_at: null,
      status: statuses[i % statuses.length]!,
    }));
    await db().insertInto('contacts').values(rows).execute();
    return rows;
  }
  const audits = () => db().selectFrom('audit_log').selectAll().execute();

  it('pages newest first by (created_at, id), older and back newer, counting every page', async () => {
    await seed(10);
    const first = await list.page(ADMIN, { filter: filter() });
    expect(first).toMatchObject({ items: ['subject-09', 'subject-08', 'subject-07', 'subject-06'], newer: null, total: 10 });
    const second = await list.page(ADMIN, { filter: filter(), after: first.older });
    expect(second.items).toEqual(['subject-05', 'subject-04', 'subject-03', 'subject-02']);
    const last = await list.page(ADMIN, { filter: filter(), after: second.older });
    expect(last).toMatchObject({ items: ['subject-01', 'subject-00'], older: null });
    const back = await list.page(ADMIN, { filter: filter(), before: last.newer });
    expect(back.items).toEqual(second.items);
    const top = await list.page(ADMIN, { filter: filter(), before: back.newer });
    expect(top).toMatchObject({ items: first.items, newer: null });

    // One page: no cursors, and the total is the page.
    expect(await list.page(ADMIN, { filter: filter(), limit: 50 })).toMatchObject({ older: null, newer: null, total: 10 });
    // A page holds 1 to 100 rows, whatever is asked; an edited cursor shows the first page.
    expect((await list.page(ADMIN, { filter: filter(), limit: 0 })).items).toEqual(['subject-09']);
    expect((await list.page(ADMIN, { filter: filter(), after: 'not-a-cursor' })).items).toEqual(first.items);
  });

  it('shows the statuses of the view, counts every status, and searches its columns in any case, wildcards taken literally', async () => {
    await seed(10, ['new', 'read', 'replied', 'archived', 'spam']);
    await db()
      .insertInto('contacts')
      .values({
        id: 'odd',
        name: 'Okello 100%_sure',
        email: 'okello@example.org',
        phone: null,
        subject: 'About the workshop',
        message: 'mukasa',
        created_at: '2026-09-01T08:00:00.000Z',
        read_at: null,
        status: 'spam',
      })
      .execute();
    const items = async (f: ListFilter<View>) => (await list.page(ADMIN, { filter: f, limit: 100 })).items;

    expect(await items(filter('open'))).toEqual(['subject-06', 'subject-05', 'subject-01', 'subject-00']);
    expect(await items(filter('spam'))).toEqual(['subject-09', 'subject-04', 'About the workshop']);
    expect(await items(filter('everything'))).toHaveLength(11);
    expect(await list.countByStatus()).toEqual({ new: 2, read: 2, replied: 2, archived: 2, spam: 3 });

    expect(await items(filter('everything', 'OKELLO'))).toEqual(['About the workshop']);
    expect(await items(filter('everything', 'WORKSHOP'))).toEqual(['About the workshop']);
    expect(await items(filter('open', 'workshop'))).toEqual([]);
    // Only the declared columns are searched (the message says "mukasa").
    expect(await items(filter('everything', 'mukasa'))).toEqual([]);
    expect(await items(filter('everything', '100%_s'))).toEqual(['About the workshop']);
    expect(await items(filter('everything', '%'))).toEqual(['About the workshop']);
    expect(await items(filter('everything', '_sure'))).toEqual(['About the workshop']);
    expect(await items(filter('everything', 'subject_0'))).toEqual([]);
    // The search is bounded where the list reads it too, not only where the address is read.
    expect((await list.page(ADMIN, { filter: filter('everything', 'subject-0 and far more'), limit: 100 })).total).toBe(10);
  });

  it('streams its CSV in pages, BOM and heading first, the filter applied, newest first', async () => {
    await seed(5, ['new', 'spam']);
    const chunks: string[] = [];
    for await (const chunk of list.csv(filter('open'), 2)) chunks.push(chunk);
    expect(chunks).toEqual(['\uFEFFSubject,Status\r\n', 'subject-04,NEW\r\nsubject-02,NEW\r\n', 'subject-00,NEW\r\n']);
  });

  it('audits an export once, with the count, the view and whether it was searched, never the search', async () => {
    await seed(7);
    const csv = await readAll(list.exportCsv(ADMIN, filter('open', 'subject'), IP));
    expect(csv.startsWith('\uFEFFSubject,Status\r\nsubject-06,NEW\r\n')).toBe(true);
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(8);
    const [audit, ...more] = await audits();
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ action: 'messages.exported', actor_email: ADMIN.email, ip: IP, target: null });
    expect(JSON.parse(audit!.detail)).toEqual({ count: 7, status: 'open', searched: true, complete: true });

    // Stopped by the client after the heading: audited once, as incomplete (with whatever was read ahead).
    await db().deleteFrom('audit_log').execute();
    const reader = list.exportCsv(ADMIN, filter(), IP).getReader();
    await reader.read();
    await reader.cancel();
    const stopped = await audits();
    expect(stopped).toHaveLength(1);
    expect(JSON.parse(stopped[0]!.detail)).toEqual({
      count: expect.any(Number),
      status: 'everything',
      searched: false,
      complete: false,
    });
  });

  it('refuses whoever the list does not authorise, before reading or auditing anything', async () => {
    await seed(1);
    await expect(list.page(VIEWER, { filter: filter() })).rejects.toMatchObject({ status: 403, message: 'Not for you.' });
    expect(() => list.exportCsv(VIEWER, filter(), IP)).toThrow(RuleError);
    expect(await audits()).toEqual([]);
  });
});
