import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { readSetting, writeSetting } from '../platform/settings.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import { RuleError } from '../platform/rule-error.server.ts';
import { csvRow } from '../platform/csv-export.server.ts';
import { can, type Role } from '../../lib/permissions.ts';
import {
  addDays,
  ANALYTICS_RETENTION,
  ANALYTICS_TEXT,
  daysBetween,
  DEVICE_LABELS,
  LANGUAGE_LABELS,
  type AnalyticsReport,
  type DayRange,
  type ItemNumbers,
  type SeriesPoint,
  type TopRow,
} from '../../lib/analytics.ts';

// Issue 28: what the Analytics screen, an item's edit screen and the CSV export read. Everything
// comes from the daily rows (one per day, dimension and value) but unique visitors of days not yet
// rolled up (today, and yesterday until the hourly job has run), which are counted from the day's
// visitor hashes. ADMIN and above see the whole site; an EDITOR the items they wrote.

export interface AnalyticsViewer {
  email: string;
  role: Role;
}

const TOP = 10;

function ownItems(db: Kysely<Database>, email: string) {
  return db.selectFrom('content').select('id').where('author_email', '=', email);
}

const n = (value: unknown) => Number(value ?? 0);

interface RangePlan {
  /** Day ranges (inclusive) read from the daily rows. */
  days: [string, string][];
  /** Finished months read from their monthly sums. */
  months: string[];
}

function lastDayOf(month: string): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, m, 0)).toISOString().slice(0, 10);
}

/**
 * Which rows answer `from`–`to`: the finished months wholly inside it from their monthly sums (when
 * the roll-up job has made them all), the days before and after from the daily rows.
 */
async function planRange(db: Kysely<Database>, from: string, to: string, now = Date.now()): Promise<RangePlan> {
  const thisMonth = new Date(now).toISOString().slice(0, 7);
  const inside: string[] = [];
  for (let month = from.slice(0, 7); month <= to.slice(0, 7); month = addDays(`${month}-01`, 32).slice(0, 7))
    if (`${month}-01` >= from && lastDayOf(month) <= to && month < thisMonth) inside.push(month);
  if (inside.length === 0) return { days: [[from, to]], months: [] };
  const summed = await db
    .selectFrom('analytics_monthly')
    .select('month')
    .distinct()
    .where('dimension', '=', 'total')
    .where('month', 'in', inside)
    .execute();
  if (summed.length !== inside.length) return { days: [[from, to]], months: [] };
  const first = `${inside[0]}-01`;
  const last = lastDayOf(inside.at(-1)!);
  const days: [string, string][] = [];
  if (from < first) days.push([from, addDays(first, -1)]);
  if (to > last) days.push([addDays(last, 1), to]);
  return { days, months: inside };
}

/** The daily and monthly rows of `plan` for `dimensions` (an EDITOR's: only their items), as one list. */
function rowsOf(db: Kysely<Database>, plan: RangePlan, dimensions: string[], ownerEmail: string | null) {
  const daily = db
    .selectFrom('analytics_daily')
    .select(['day as period', 'dimension', 'value', 'item_id', 'views', 'visits', 'visitors'])
    .where('dimension', 'in', dimensions)
    .where((eb) => eb.or(plan.days.map(([a, b]) => eb.and([eb('day', '>=', a), eb('day', '<=', b)]))))
    // An EDITOR's: each row's item looked up by its key (cheaper than a list of thousands of ids).
    .$call((q) =>
      ownerEmail
        ? q.where((eb) =>
            eb.exists(
              eb
                .selectFrom('content')
                .select('content.id')
                .whereRef('content.id', '=', 'analytics_daily.item_id')
                .where('content.author_email', '=', ownerEmail),
            ),
          )
        : q,
    );
  const monthly = db
    .selectFrom('analytics_monthly')
    .select(['month as period', 'dimension', 'value', 'item_id', 'views', 'visits', 'visitors'])
    .where('dimension', 'in', dimensions)
    .where('month', 'in', plan.months.length ? plan.months : ['-'])
    .$call((q) =>
      ownerEmail
        ? q.where((eb) =>
            eb.exists(
              eb
                .selectFrom('content')
                .select('content.id')
                .whereRef('content.id', '=', 'analytics_monthly.item_id')
                .where('content.author_email', '=', ownerEmail),
            ),
          )
        : q,
    );
  if (plan.months.length === 0) return daily;
  if (plan.days.length === 0) return monthly;
  return daily.unionAll(monthly);
}

/** The report for `range`, for what `viewer` may see. */
export async function analyticsReport(
  viewer: AnalyticsViewer,
  range: DayRange,
  db: Kysely<Database> = getDb(),
): Promise<AnalyticsReport> {
  const site = can(viewer.role, 'analytics:all');
  const owner = site ? null : viewer.email;
  const { from, to } = range;
  const days = daysBetween(from, to) + 1;
  const byMonth = days > 92;
  const plan = await planRange(db, from, to);
  // Up to 92 days the chart is by day, from the daily rows; longer ranges by month.
  const seriesPlan: RangePlan = byMonth ? plan : { days: [[from, to]], months: [] };

  // Views, visits and visitors by day (or by finished month).
  const periodRows = await db
    .selectFrom(rowsOf(db, seriesPlan, [site ? 'total' : 'path'], owner).as('r'))
    .select([
      'r.period',
      sql<string>`sum(r.views)`.as('views'),
      sql<string>`sum(r.visits)`.as('visits'),
      sql<string | null>`sum(r.visitors)`.as('visitors'),
      sql<string>`count(r.visitors)`.as('rolled'),
      sql<string>`count(*)`.as('rows'),
    ])
    .groupBy('r.period')
    .execute();
  // Days still without a rolled-up count: their visitors from the day's hashes (at most two days).
  const open = periodRows.filter((row) => row.period.length === 10 && n(row.rolled) < n(row.rows)).map((row) => row.period);
  const openCounts = new Map<string, number>();
  if (open.length > 0) {
    const recent = await db
      .selectFrom('analytics_recent')
      .where('day', 'in', open)
      .$call((q) => (owner ? q.where('scope', 'in', ownItems(db, owner)) : q.where('scope', '=', '')))
      .select(['day', sql<string>`count(*)`.as('visitors')])
      .groupBy('day')
      .execute();
    for (const row of recent) openCounts.set(row.day, n(row.visitors));
  }
  const byPeriod = new Map<string, { views: number; visits: number; visitors: number }>();
  for (const row of periodRows) {
    const period = byMonth ? row.period.slice(0, 7) : row.period;
    const figures = byPeriod.get(period) ?? { views: 0, visits: 0, visitors: 0 };
    figures.views += n(row.views);
    figures.visits += n(row.visits);
    figures.visitors += open.includes(row.period) ? (openCounts.get(row.period) ?? 0) : n(row.visitors);
    byPeriod.set(period, figures);
  }
  const series: SeriesPoint[] = [];
  for (let i = 0; i < days; i++) {
    const day = addDays(from, i);
    const period = byMonth ? day.slice(0, 7) : day;
    if (series.at(-1)?.period === period) continue;
    series.push({ period, ...(byPeriod.get(period) ?? { views: 0, visits: 0, visitors: 0 }) });
  }
  const totals = series.reduce(
    (sum, point) => ({
      views: sum.views + point.views,
      visits: sum.visits + point.visits,
      visitors: sum.visitors + point.visitors,
    }),
    { views: 0, visits: 0, visitors: 0 },
  );

  const top = async (dimension: string, limit = TOP) =>
    (
      await db
        .selectFrom(rowsOf(db, plan, [dimension], owner).as('r'))
        .select([
          'r.value',
          sql<string | null>`max(r.item_id)`.as('item_id'),
          sql<string>`sum(r.views)`.as('views'),
          sql<string>`sum(r.visits)`.as('visits'),
        ])
        .groupBy('r.value')
        .orderBy(sql`sum(r.views)`, 'desc')
        .orderBy('r.value')
        .limit(limit)
        .execute()
    ).map((row) => ({ value: row.value, itemId: row.item_id, views: n(row.views), visits: n(row.visits) }));

  const [pages, videoRows, clickRows] = await Promise.all([
    top('path'),
    db
      .selectFrom(rowsOf(db, plan, ['video:0', 'video:25', 'video:50', 'video:75', 'video:100'], owner).as('r'))
      .select(['r.dimension', 'r.value', sql<string | null>`max(r.item_id)`.as('item_id'), sql<string>`sum(r.views)`.as('views')])
      .groupBy(['r.dimension', 'r.value'])
      .execute(),
    db
      .selectFrom(rowsOf(db, plan, ['click:rss', 'click:newsletter'], owner).as('r'))
      .select(['r.dimension', sql<string>`sum(r.views)`.as('views')])
      .groupBy('r.dimension')
      .execute(),
  ]);
  const titles = await itemTitles(
    db,
    [...pages.map((p) => p.itemId), ...videoRows.map((v) => v.item_id)].filter((id): id is string => !!id),
  );
  const label = (path: string, itemId: string | null) => (itemId && titles.get(itemId)?.title) || path;
  const href = (itemId: string | null) => (itemId ? titles.get(itemId)?.href : undefined);

  const videos = new Map<string, AnalyticsReport['video'][number]>();
  for (const row of videoRows) {
    const entry = videos.get(row.value) ?? {
      label: label(row.value, row.item_id),
      href: href(row.item_id),
      plays: 0,
      quarter: 0,
      half: 0,
      threeQuarters: 0,
      completed: 0,
    };
    const count = n(row.views);
    if (row.dimension === 'video:0') entry.plays += count;
    else if (row.dimension === 'video:25') entry.quarter += count;
    else if (row.dimension === 'video:50') entry.half += count;
    else if (row.dimension === 'video:75') entry.threeQuarters += count;
    else entry.completed += count;
    videos.set(row.value, entry);
  }

  const report: AnalyticsReport = {
    range,
    scope: site ? 'site' : 'own',
    byMonth,
    series,
    totals,
    topItems: pages.map((p) => ({ label: label(p.value, p.itemId), href: href(p.itemId), views: p.views, visits: p.visits })),
    referrers: [],
    languages: [],
    devices: [],
    campaigns: [],
    saveData: { on: 0, off: 0 },
    video: [...videos.values()].sort((a, b) => b.plays - a.plays).slice(0, TOP),
    clicks: {
      rss: n(clickRows.find((r) => r.dimension === 'click:rss')?.views),
      newsletter: n(clickRows.find((r) => r.dimension === 'click:newsletter')?.views),
    },
    emptySearches: [],
  };
  // Where visitors came from, how they read and what they missed: the whole site's, for ADMIN and above.
  if (site) {
    const named = (rows: Awaited<ReturnType<typeof top>>, names: Record<string, string> = {}, empty = ''): TopRow[] =>
      rows.map((row) => ({ label: names[row.value] ?? (row.value || empty), views: row.views, visits: row.visits }));
    const [referrers, languages, devices, sources, campaigns, saveData, searches] = await Promise.all([
      top('referrer'),
      top('language'),
      top('device'),
      top('utm_source'),
      top('utm_campaign'),
      top('save_data'),
      top('empty_search', 20),
    ]);
    report.referrers = named(referrers, {}, 'Direct or unknown');
    report.languages = named(languages, LANGUAGE_LABELS);
    report.devices = named(devices, DEVICE_LABELS);
    report.campaigns = [
      ...named(sources).map((row) => ({ ...row, label: `utm_source: ${row.label}` })),
      ...named(campaigns).map((row) => ({ ...row, label: `utm_campaign: ${row.label}` })),
    ];
    report.saveData = {
      on: saveData.find((r) => r.value === 'on')?.views ?? 0,
      off: saveData.find((r) => r.value === 'off')?.views ?? 0,
    };
    report.emptySearches = named(searches);
  }
  return report;
}

async function itemTitles(db: Kysely<Database>, ids: string[]): Promise<Map<string, { title: string; href: string }>> {
  const unique = [...new Set(ids)];
  const out = new Map<string, { title: string; href: string }>();
  if (unique.length === 0) return out;
  const [content, services] = await Promise.all([
    db.selectFrom('content').select(['id', 'title']).where('id', 'in', unique).execute(),
    db.selectFrom('services').select(['id', 'title']).where('id', 'in', unique).execute(),
  ]);
  for (const row of services) out.set(row.id, { title: row.title, href: `/admin/services/${encodeURIComponent(row.id)}/edit` });
  for (const row of content) out.set(row.id, { title: row.title, href: `/admin/content/${encodeURIComponent(row.id)}/edit` });
  return out;
}

/** One item's numbers over the last `days` days (its edit screen). */
export async function itemNumbers(
  itemId: string,
  days = 30,
  now = Date.now(),
  db: Kysely<Database> = getDb(),
): Promise<ItemNumbers> {
  const to = new Date(now).toISOString().slice(0, 10);
  const from = addDays(to, -(days - 1));
  const rows = await db
    .selectFrom('analytics_daily')
    .where('item_id', '=', itemId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .select(['day', 'dimension', 'views', 'visits', 'visitors'])
    .execute();
  const numbers: ItemNumbers = { days, views: 0, visits: 0, visitors: 0, videoPlays: 0, videoCompleted: 0, clicks: 0 };
  const open: string[] = [];
  for (const row of rows) {
    if (row.dimension === 'path') {
      numbers.views += n(row.views);
      numbers.visits += n(row.visits);
      if (row.visitors === null) open.push(row.day);
      else numbers.visitors += n(row.visitors);
    } else if (row.dimension === 'video:0') numbers.videoPlays += n(row.views);
    else if (row.dimension === 'video:100') numbers.videoCompleted += n(row.views);
    else if (row.dimension.startsWith('click:')) numbers.clicks += n(row.views);
  }
  if (open.length > 0) {
    const row = await db
      .selectFrom('analytics_recent')
      .where('scope', '=', itemId)
      .where('day', 'in', [...new Set(open)])
      .select(sql<string>`count(*)`.as('visitors'))
      .executeTakeFirst();
    numbers.visitors += n(row?.visitors);
  }
  return numbers;
}

/** Whether `viewer` may see the numbers of an item written by `authorEmail`. */
export function maySeeItemNumbers(viewer: AnalyticsViewer, authorEmail: string | null): boolean {
  if (can(viewer.role, 'analytics:all')) return true;
  return can(viewer.role, 'analytics:view') && !!authorEmail && authorEmail.toLowerCase() === viewer.email.toLowerCase();
}

/** The daily rows of `range` that `viewer` may see, as CSV (with a header row). */
export async function analyticsCsv(viewer: AnalyticsViewer, range: DayRange, db: Kysely<Database> = getDb()): Promise<string> {
  const site = can(viewer.role, 'analytics:all');
  const rows = await db
    .selectFrom('analytics_daily')
    .where('day', '>=', range.from)
    .where('day', '<=', range.to)
    .$call((q) => (site ? q : q.where('item_id', 'in', ownItems(db, viewer.email))))
    .select(['day', 'dimension', 'value', 'item_id', 'views', 'visits', 'visitors'])
    .orderBy('day')
    .orderBy('dimension')
    .orderBy('value')
    .execute();
  const lines = ['\ufeff' + csvRow(['Day (UTC)', 'What', 'Value', 'Item', 'Views', 'Visits', 'Visitors'])];
  for (const row of rows)
    lines.push(
      csvRow([
        row.day,
        row.dimension,
        row.value,
        row.item_id,
        String(n(row.views)),
        String(n(row.visits)),
        row.visitors === null ? '' : String(n(row.visitors)),
      ]),
    );
  return lines.join('');
}

// ---------------------------------------------------------------------------------------------
// Keep little: daily rows for the retention period (a setting), visitor hashes at most 48 hours,
// each day's salt until the day is over.

export const ANALYTICS_RETENTION_SETTING = 'analytics_retention_months';

function validMonths(value: unknown): value is number {
  return (
    Number.isInteger(value) &&
    (value as number) >= ANALYTICS_RETENTION.minMonths &&
    (value as number) <= ANALYTICS_RETENTION.maxMonths
  );
}

export async function getAnalyticsRetention(db: Kysely<Database> = getDb()): Promise<number> {
  const stored = await readSetting<unknown>(db, ANALYTICS_RETENTION_SETTING);
  return validMonths(stored) ? stored : ANALYTICS_RETENTION.defaultMonths;
}

export async function setAnalyticsRetention(
  actor: AnalyticsViewer,
  months: number,
  ip: string | null,
): Promise<{ from: number; to: number }> {
  if (!can(actor.role, 'analytics:all')) throw new RuleError(ANALYTICS_TEXT.onlyAdmins, 403);
  if (!validMonths(months)) throw new RuleError(ANALYTICS_TEXT.retentionInvalid, 400, 'months');
  const from = await getAnalyticsRetention();
  if (from === months) return { from, to: months };
  await getDb()
    .transaction()
    .execute(async (trx) => {
      await writeSetting(trx, ANALYTICS_RETENTION_SETTING, months);
      await recordAudit(
        { actor: actor.email, action: 'analytics.retention_changed', target: null, ip, detail: { from, to: months } },
        trx,
      );
    });
  return { from, to: months };
}
