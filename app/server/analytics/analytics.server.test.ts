import { describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import {
  countClick,
  countVideo,
  countView,
  deviceClass,
  flushAnalytics,
  itemOfPath,
  referrerSite,
  skipReason,
  type ViewFacts,
} from './counting.server';
import { analyticsCsv, analyticsReport, itemNumbers, setAnalyticsRetention } from './report.server';
import { rollUpAnalytics } from './roll-up.server';
import { rangeOf } from '../../lib/analytics';
import { nowIso } from '../platform/ids.server';

const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

describe('what is counted', () => {
  it('leaves out bots, prefetches, page-script fetches and Do Not Track / Global Privacy Control', () => {
    expect(skipReason({ 'user-agent': DESKTOP })).toBeUndefined();
    expect(skipReason({ 'user-agent': DESKTOP, 'sec-fetch-dest': 'document' })).toBeUndefined();
    expect(skipReason({ 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' })).toBe('bot');
    expect(skipReason({ 'user-agent': '' })).toBe('bot');
    expect(skipReason({ 'user-agent': 'curl/8.5.0' })).toBe('bot');
    expect(skipReason({ 'user-agent': DESKTOP, 'sec-purpose': 'prefetch;prerender' })).toBe('prefetch');
    expect(skipReason({ 'user-agent': DESKTOP, purpose: 'prefetch' })).toBe('prefetch');
    expect(skipReason({ 'user-agent': DESKTOP, 'sec-fetch-dest': 'empty' })).toBe('not-a-page-load');
    // The live search's fetch and the service worker's own copy: not page loads.
    expect(skipReason({ 'user-agent': DESKTOP, 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' })).toBe('not-a-page-load');
    expect(skipReason({ 'user-agent': DESKTOP, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' })).toBe(
      'not-a-page-load',
    );
    // A navigation the offline-reading service worker passed on (Chromium says 'empty'): a page load.
    expect(skipReason({ 'user-agent': DESKTOP, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'empty' })).toBeUndefined();
    expect(skipReason({ 'user-agent': DESKTOP, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' })).toBeUndefined();
    expect(skipReason({ 'user-agent': DESKTOP, dnt: '1' })).toBe('do-not-track');
    expect(skipReason({ 'user-agent': DESKTOP, 'sec-gpc': '1' })).toBe('do-not-track');
  });

  it('reads the device class, the referring site (never the full address) and the item of a path', () => {
    expect([deviceClass(PHONE), deviceClass(DESKTOP), deviceClass(IPAD)]).toEqual(['phone', 'desktop', 'tablet']);
    expect(referrerSite('https://www.partner.org/news/2026/our-story?id=7', 'tdg.example')).toBe('partner.org');
    expect(referrerSite('https://tdg.example/blog', 'tdg.example')).toBe('');
    expect(referrerSite('not a url', 'tdg.example')).toBe('');
    expect(itemOfPath('/news/interpreters-a1b2')).toBe('interpreters-a1b2');
    expect(itemOfPath('/news/rss.xml')).toBeNull();
    expect(itemOfPath('/about')).toBeNull();
  });
});

describe.each(ENGINES)('visit counts on %s', (engine) => {
  const database = useTestDatabase(engine);
  const now = Date.parse('2026-11-20T10:00:00Z');
  const view = (over: Partial<ViewFacts>): ViewFacts => ({
    path: '/news/story-1',
    host: 'tdg.example',
    ip: '10.0.0.1',
    userAgent: DESKTOP,
    referer: undefined,
    saveData: false,
    utm: {},
    at: now,
    ...over,
  });

  it('counts views, visits, visitors and each dimension, and writes them in batches', async () => {
    const { db } = database();
    await db
      .insertInto('content')
      .values({
        id: 'story-1',
        collection: 'news',
        title: 'Story one',
        content: '<p>x</p>',
        category: 'news',
        author: 'Ed',
        author_email: 'ed@tdg.example',
        created_at: nowIso(),
        published_at: nowIso(),
        updated_at: nowIso(),
      })
      .execute();
    // Three readers; the first reads a second page on the site (a view, not a new visit).
    countView(view({ ip: '10.0.0.1', referer: 'https://www.partner.org/links', utm: { source: 'Partner', campaign: 'launch' } }));
    countView(view({ ip: '10.0.0.1', path: '/about', referer: 'https://tdg.example/news/story-1' }));
    countView(view({ ip: '10.0.0.2', userAgent: PHONE, saveData: true }));
    countView(view({ ip: '10.0.0.3', path: '/blog', emptySearch: 'Sign Language Gulu' }));
    countVideo('/news/story-1', 0, now);
    countVideo('/news/story-1', 100, now);
    countClick('rss', '/news/story-1', now);
    await flushAnalytics(db, now);
    const range = { range: '7d' as const, from: '2026-11-14', to: '2026-11-20' };
    const report = await analyticsReport({ email: 'admin@tdg.example', role: 'ADMIN' }, range, db);
    expect(report.totals).toEqual({ views: 4, visits: 3, visitors: 3 });
    expect(report.series.at(-1)).toEqual({ period: '2026-11-20', views: 4, visits: 3, visitors: 3 });
    expect(report.topItems[0]).toMatchObject({ label: 'Story one', href: '/admin/content/story-1/edit', views: 2 });
    expect(report.referrers).toEqual(
      expect.arrayContaining([
        { label: 'partner.org', views: 1, visits: 1 },
        { label: 'Direct or unknown', views: 2, visits: 2 },
      ]),
    );
    expect(report.devices.map((d) => [d.label, d.views])).toEqual([
      ['Desktop', 3],
      ['Phone', 1],
    ]);
    expect(report.languages).toEqual([{ label: 'English', views: 4, visits: 3 }]);
    expect(report.saveData).toEqual({ on: 1, off: 3 });
    expect(report.campaigns.map((c) => c.label)).toEqual(['utm_source: partner', 'utm_campaign: launch']);
    expect(report.emptySearches).toEqual([{ label: 'sign language gulu', views: 1, visits: 0 }]);
    expect(report.video[0]).toMatchObject({ label: 'Story one', plays: 1, completed: 1 });
    expect(report.clicks).toEqual({ rss: 1, newsletter: 0 });
    // Nothing is stored that names a person: no address, no user agent.
    const stored = JSON.stringify([
      await db.selectFrom('analytics_daily').selectAll().execute(),
      await db.selectFrom('analytics_recent').selectAll().execute(),
    ]);
    expect(stored).not.toContain('10.0.0');
    expect(stored).not.toContain('Chrome');

    // An editor sees their own items only; the item's own numbers.
    const own = await analyticsReport({ email: 'ed@tdg.example', role: 'EDITOR' }, range, db);
    expect(own.scope).toBe('own');
    expect(own.totals).toEqual({ views: 2, visits: 2, visitors: 2 });
    expect(own.topItems.map((t) => t.label)).toEqual(['Story one']);
    expect(own.referrers).toEqual([]);
    const other = await analyticsReport({ email: 'someone@tdg.example', role: 'EDITOR' }, range, db);
    expect(other.totals.views).toBe(0);
    expect(await itemNumbers('story-1', 30, now, db)).toMatchObject({
      views: 2,
      visits: 2,
      visitors: 2,
      videoPlays: 1,
      videoCompleted: 1,
      clicks: 1,
    });
    const csv = await analyticsCsv({ email: 'ed@tdg.example', role: 'EDITOR' }, range, db);
    expect(csv).toContain('2026-11-20,path,/news/story-1,story-1,2,2,');
    expect(csv).not.toContain('/about');
  });

  it('adds every process’s writes together, and the same reader the same day is one visitor', async () => {
    const { db } = database();
    const day = Date.parse('2026-11-21T09:00:00Z');
    countView(view({ at: day, ip: '10.0.0.9' }));
    await flushAnalytics(db, day);
    countView(view({ at: day + 60_000, ip: '10.0.0.9' }));
    countView(view({ at: day + 60_000, ip: '10.0.0.8' }));
    await flushAnalytics(db, day + 60_000);
    const report = await analyticsReport(
      { email: 'a@tdg.example', role: 'SUPER_ADMIN' },
      { range: 'custom', from: '2026-11-21', to: '2026-11-21' },
      db,
    );
    expect(report.totals).toEqual({ views: 3, visits: 3, visitors: 2 });
  });

  it('rolls a finished day up, then deletes its hashes after 48 hours and its salt when the day is over', async () => {
    const { db } = database();
    const nextDay = Date.parse('2026-11-22T01:00:00Z');
    const first = await rollUpAnalytics(nextDay, db);
    expect(first.rolledUp).toEqual(expect.arrayContaining(['2026-11-20', '2026-11-21']));
    expect(await db.selectFrom('analytics_salts').selectAll().execute()).toEqual([]);
    // The 20th's hashes are gone (over a day before yesterday); the 21st's are kept until the 23rd.
    expect((await db.selectFrom('analytics_recent').select('day').distinct().execute()).map((r) => r.day)).toEqual([
      '2026-11-21',
    ]);
    const report = await analyticsReport(
      { email: 'a@tdg.example', role: 'ADMIN' },
      { range: 'custom', from: '2026-11-20', to: '2026-11-21' },
      db,
    );
    expect(report.series.map((p) => p.visitors)).toEqual([3, 2]);
    expect(await itemNumbers('story-1', 30, nextDay, db)).toMatchObject({ visitors: 4 });
    await rollUpAnalytics(Date.parse('2026-11-23T01:00:00Z'), db);
    expect(await db.selectFrom('analytics_recent').selectAll().execute()).toEqual([]);
    // A late write for a day whose salt is gone counts the view but no visitor hash (none can be made).
    countView(view({ at: Date.parse('2026-11-22T23:59:59Z') }));
    await flushAnalytics(db, Date.parse('2026-11-23T01:00:01Z'));
    expect(await db.selectFrom('analytics_recent').selectAll().execute()).toEqual([]);
  });

  it('sums finished months, and a long range reads the sums with the same figures as the days', async () => {
    const { db } = database();
    const rows = [];
    for (const day of ['2026-08-20', '2026-09-01', '2026-09-15', '2026-09-30', '2026-10-10', '2026-10-31']) {
      rows.push({ day, dimension: 'total', value: '', item_id: null, views: 10, visits: 6, visitors: 4 });
      rows.push({ day, dimension: 'path', value: '/news/story-1', item_id: 'story-1', views: 7, visits: 5, visitors: 3 });
      rows.push({ day, dimension: 'device', value: 'phone', item_id: null, views: 10, visits: 6, visitors: 0 });
    }
    await db.insertInto('analytics_daily').values(rows).execute();
    const range = { range: 'custom' as const, from: '2026-08-01', to: '2026-10-31' };
    const admin = { email: 'a@tdg.example', role: 'ADMIN' as const };
    const fromDays = await analyticsReport(admin, { ...range, to: '2026-11-01' }, db);
    const result = await rollUpAnalytics(Date.parse('2026-11-20T12:00:00Z'), db);
    expect(result.monthsSummed).toEqual(expect.arrayContaining(['2026-08', '2026-09', '2026-10']));
    expect(
      await db
        .selectFrom('analytics_monthly')
        .select(['views'])
        .where('month', '=', '2026-09')
        .where('dimension', '=', 'total')
        .execute(),
    ).toEqual([{ views: engine === 'sqlite' ? 30 : '30' }]);
    const fromMonths = await analyticsReport(admin, { ...range, to: '2026-11-01' }, db);
    expect(fromMonths.totals).toEqual(fromDays.totals);
    expect(fromMonths.totals).toEqual({ views: 60, visits: 36, visitors: 24 });
    expect(fromMonths.series.map((p) => [p.period, p.views])).toEqual([
      ['2026-08', 10],
      ['2026-09', 30],
      ['2026-10', 20],
      ['2026-11', 0],
    ]);
    expect(fromMonths.devices).toEqual(fromDays.devices);
    expect(fromMonths.topItems).toEqual(fromDays.topItems);
    const own = await analyticsReport({ email: 'ed@tdg.example', role: 'EDITOR' }, { ...range, to: '2026-11-01' }, db);
    expect(own.totals).toEqual({ views: 42, visits: 30, visitors: 18 });
  });

  it('keeps daily rows for the retention setting, which only ADMIN and above may change (audited)', async () => {
    const { db } = database();
    await expect(setAnalyticsRetention({ email: 'ed@tdg.example', role: 'EDITOR' }, 3, null)).rejects.toMatchObject({
      status: 403,
    });
    await expect(setAnalyticsRetention({ email: 'a@tdg.example', role: 'ADMIN' }, 0, null)).rejects.toMatchObject({
      status: 400,
    });
    await setAnalyticsRetention({ email: 'a@tdg.example', role: 'ADMIN' }, 1, '127.0.0.1');
    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('action', '=', 'analytics.retention_changed')
      .execute();
    expect(audit).toHaveLength(1);
    const result = await rollUpAnalytics(Date.parse('2027-01-01T01:00:00Z'), db);
    expect(result.rowsDeleted).toBeGreaterThan(0);
    expect(await db.selectFrom('analytics_daily').selectAll().where('day', '<', '2026-12-01').execute()).toEqual([]);
  });
});

describe('the range of the screen', () => {
  const now = Date.parse('2026-11-20T10:00:00Z');
  it('reads 7 days, 30 days, 12 months and a custom range, and says what is wrong with a bad one', () => {
    expect(rangeOf(new URLSearchParams('range=7d'), now)).toEqual({ range: '7d', from: '2026-11-14', to: '2026-11-20' });
    expect(rangeOf(new URLSearchParams(''), now)).toEqual({ range: '30d', from: '2026-10-22', to: '2026-11-20' });
    expect(rangeOf(new URLSearchParams('range=12m'), now).from).toBe('2025-11-21');
    expect(rangeOf(new URLSearchParams('range=custom&from=2026-01-01&to=2026-01-31'), now)).toEqual({
      range: 'custom',
      from: '2026-01-01',
      to: '2026-01-31',
    });
    expect(rangeOf(new URLSearchParams('range=custom&from=2026-02-30&to=2026-03-01'), now).error).toMatch(/YYYY-MM-DD/);
    expect(rangeOf(new URLSearchParams('range=custom&from=2026-03-01&to=2026-01-01'), now).error).toMatch(/no later/);
    expect(rangeOf(new URLSearchParams('range=custom&from=2020-01-01&to=2026-01-01'), now).error).toMatch(/at most/);
  });
});
