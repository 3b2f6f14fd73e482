import { createHash, randomBytes } from 'node:crypto';
import { isbot } from 'isbot';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { getLogger } from '../platform/logger.server.ts';

// Issue 28: privacy-first visit counts (docs/decisions/029-privacy-first-visit-counts.md). Every
// process keeps what it counted in memory and adds it to the database every few seconds and when it
// stops: daily rows per dimension (views and visits) and, for unique visitors, the day's visitor
// hashes (kept at most 48 hours). A visitor's hash is sha256(day's salt, site, address, browser)
// cut to 64 bits; the salt is random, made by the first process that needs it each day, shared by
// every process and instance through the database and deleted when the day is over, so no one can
// later work out whether an address visited. No cookie, address or user agent is ever stored.

/** Every ANALYTICS_FLUSH_MS a process writes what it counted (and at shutdown). */
export const ANALYTICS_FLUSH_MS = 5_000;
/** Most distinct rows one process holds between writes; beyond this (a database down) new ones are dropped. */
const MAX_BUFFERED_KEYS = 50_000;
/** The language of every page until the site has others (issue 28 keeps the column for them). */
export const DEFAULT_LANGUAGE = 'en';
const MAX_VALUE = 200;

export type Device = 'phone' | 'tablet' | 'desktop';

/** What the HTTP edge read from a request for a view (server/analytics.ts). */
export interface ViewFacts {
  path: string;
  host: string;
  ip: string;
  userAgent: string;
  referer: string | undefined;
  saveData: boolean;
  utm: { source?: string | undefined; medium?: string | undefined; campaign?: string | undefined };
  /** A search the visitor made that found nothing (the words), or undefined. */
  emptySearch?: string | undefined;
  at?: number;
}

/** The headers that decide whether a request is counted at all (all lower case, as Node gives them). */
export interface CountingHeaders {
  'user-agent'?: string | undefined;
  dnt?: string | undefined;
  'sec-gpc'?: string | undefined;
  'sec-purpose'?: string | undefined;
  purpose?: string | undefined;
  'x-purpose'?: string | undefined;
  'x-moz'?: string | undefined;
  'sec-fetch-dest'?: string | undefined;
  'sec-fetch-mode'?: string | undefined;
}

export type SkipReason = 'do-not-track' | 'prefetch' | 'not-a-page-load' | 'bot';

/**
 * Why a request is not counted, or undefined when it is: Do Not Track or Global Privacy Control,
 * a prefetch or prerender, a fetch from a page script (live search) or a frame, and bots and
 * crawlers (the `isbot` list; no user agent at all counts as one). Staff sessions are left out by the
 * caller, which knows the session cookie.
 */
export function skipReason(headers: CountingHeaders): SkipReason | undefined {
  if (headers.dnt === '1' || headers['sec-gpc'] === '1') return 'do-not-track';
  const purpose = headers['sec-purpose'] ?? headers.purpose ?? headers['x-purpose'] ?? headers['x-moz'];
  if (purpose && /prefetch|prerender|preview/i.test(purpose)) return 'prefetch';
  // A page load is a navigation. The offline-reading service worker passes navigations on with mode
  // 'navigate' but destination 'empty' (Chromium); its own copies and the live search's fetches have
  // another mode. A browser that sends no Sec-Fetch headers at all is taken at its word.
  const mode = headers['sec-fetch-mode'];
  const dest = headers['sec-fetch-dest'];
  if (
    mode !== undefined
      ? mode !== 'navigate' || (dest !== undefined && dest !== 'document' && dest !== 'empty')
      : dest !== undefined && dest !== 'document'
  )
    return 'not-a-page-load';
  const agent = headers['user-agent'];
  if (!agent || isBotCached(agent)) return 'bot';
  return undefined;
}

// Browsers send a few hundred different user agents: remember the answers (bounded).
const botAnswers = new Map<string, boolean>();
const deviceAnswers = new Map<string, Device>();
function isBotCached(agent: string): boolean {
  let known = botAnswers.get(agent);
  if (known === undefined) {
    known = agent.length > 1000 || isbot(agent);
    if (botAnswers.size >= 1000) botAnswers.clear();
    botAnswers.set(agent, known);
  }
  return known;
}

/** Phone, tablet or desktop from the user agent (which is then dropped). */
export function deviceClass(agent: string): Device {
  let known = deviceAnswers.get(agent);
  if (known === undefined) {
    const text = agent.slice(0, 1000);
    if (/iPad|Tablet|PlayBook|Silk|Kindle/i.test(text) || (/Android/i.test(text) && !/Mobile/i.test(text))) known = 'tablet';
    else if (/Mobi|iPhone|iPod|Android|Opera Mini|IEMobile|KaiOS/i.test(text)) known = 'phone';
    else known = 'desktop';
    if (deviceAnswers.size >= 1000) deviceAnswers.clear();
    deviceAnswers.set(agent, known);
  }
  return known;
}

/** The site a referrer names (`partner.org`), '' for none or our own site, undefined when unreadable. */
export function referrerSite(referer: string | undefined, ownHost: string): string {
  if (!referer || referer.length > 2000) return '';
  let host: string;
  try {
    host = new URL(referer).hostname.toLowerCase();
  } catch {
    return '';
  }
  const own = ownHost.toLowerCase().replace(/:\d+$/, '');
  if (host === own) return '';
  return host.replace(/^www\./, '').slice(0, 100);
}

/** The item a public path is about: /news/:id, /blog/:id, /resources/:id, /services/:id. */
export function itemOfPath(path: string): string | null {
  const match = /^\/(?:news|blog|resources|services)\/([^/]{1,200})$/.exec(path);
  if (!match || match[1] === 'rss.xml') return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
}

/** YYYY-MM-DD in UTC. */
export function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

function clean(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const text = value.trim().toLowerCase().slice(0, MAX_VALUE);
  return text || undefined;
}

interface Increment {
  itemId: string | null;
  views: number;
  visits: number;
}

interface Buffer {
  /** One entry per kind of view: its day and every dimension, tab-joined; expanded at the write. */
  views: Map<string, number>;
  /** Video plays and followed links: (day, dimension, value) → counts. */
  daily: Map<string, Increment>;
  /** "day\tdigest\tscope" marks, the digest an unsalted hash held only here until the write. */
  marks: Set<string>;
  /** Address and browser → digest, so one reader's many views cost one hash (forgotten at the write). */
  digests: Map<string, string>;
  size: number;
}

const newBuffer = (): Buffer => ({ views: new Map(), daily: new Map(), marks: new Set(), digests: new Map(), size: 0 });
let buffer = newBuffer();
let dropped = 0;

function room(): boolean {
  if (buffer.size < MAX_BUFFERED_KEYS) return true;
  dropped++;
  return false;
}

function add(
  target: Map<string, Increment>,
  day: string,
  dimension: string,
  value: string,
  itemId: string | null,
  views: number,
  visits: number,
): void {
  const key = `${day}\t${dimension}\t${value}`;
  const known = target.get(key);
  if (known) {
    known.views += views;
    known.visits += visits;
  } else target.set(key, { itemId, views, visits });
}

// The day of the moment counted, worked out once per day rather than once per view.
let dayStart = 0;
let dayEnd = 0;
let dayText = '';
function dayOfCached(at: number): string {
  if (at < dayStart || at >= dayEnd) {
    dayStart = at - (at % 86_400_000);
    dayEnd = dayStart + 86_400_000;
    dayText = dayOf(at);
  }
  return dayText;
}

/** Tabs and line ends would split the buffer's keys: a value never holds them. */
const keyed = (text: string) => (/[\t\n\r]/.test(text) ? text.replace(/[\t\n\r]/g, ' ') : text);

/**
 * Counts one page view (the edge decided it is one). Costs a map update or two, and a hash the
 * first time a reader is seen between writes.
 */
export function countView(view: ViewFacts): void {
  const day = dayOfCached(view.at ?? Date.now());
  const path = keyed(view.path.slice(0, MAX_VALUE));
  const site = referrerSite(view.referer, view.host);
  // A visit starts with a page reached from elsewhere (or typed in); moving on within the site does not.
  const visit = view.referer === undefined || site !== '' || !isOwn(view.referer, view.host) ? '1' : '0';
  const key = [
    day,
    path,
    deviceClass(view.userAgent),
    view.saveData ? 'on' : 'off',
    visit,
    site,
    keyed(clean(view.utm.source) ?? ''),
    keyed(clean(view.utm.medium) ?? ''),
    keyed(clean(view.utm.campaign) ?? ''),
    keyed(clean(view.emptySearch) ?? ''),
  ].join('\t');
  const known = buffer.views.get(key);
  if (known !== undefined) buffer.views.set(key, known + 1);
  else if (room()) {
    buffer.size++;
    buffer.views.set(key, 1);
  }
  // The address and browser, hashed here and salted at the write; never kept as they are.
  const who = `${view.host}\n${view.ip}\n${view.userAgent}`;
  let digest = buffer.digests.get(who);
  if (digest === undefined) {
    if (!room()) return;
    digest = createHash('sha256').update(who).digest('base64url').slice(0, 22);
    buffer.size++;
    buffer.digests.set(who, digest);
  }
  mark(`${day}\t${digest}\t`);
  const itemId = itemOfPath(path);
  if (itemId) mark(`${day}\t${digest}\t${keyed(itemId)}`);
}

function mark(entry: string): void {
  if (buffer.marks.has(entry) || !room()) return;
  buffer.size++;
  buffer.marks.add(entry);
}

/** The daily rows of what a buffer's views add up to. */
function expandViews(views: Map<string, number>, into: Map<string, Increment>): void {
  for (const [key, count] of views) {
    const [day, path, device, saveData, visit, site, source, medium, campaign, searched] = key.split('\t') as string[] as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const visits = visit === '1' ? count : 0;
    add(into, day, 'total', '', null, count, visits);
    add(into, day, 'path', path, itemOfPath(path), count, visits);
    add(into, day, 'language', DEFAULT_LANGUAGE, null, count, visits);
    add(into, day, 'device', device, null, count, visits);
    add(into, day, 'save_data', saveData, null, count, visits);
    if (visits) add(into, day, 'referrer', site, null, visits, visits);
    if (source) add(into, day, 'utm_source', source, null, count, visits);
    if (medium) add(into, day, 'utm_medium', medium, null, count, visits);
    if (campaign) add(into, day, 'utm_campaign', campaign, null, count, visits);
    if (searched) add(into, day, 'empty_search', searched, null, count, 0);
  }
}

function isOwn(referer: string, host: string): boolean {
  try {
    return new URL(referer).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}

export const VIDEO_MILESTONES = [0, 25, 50, 75, 100] as const;
export type VideoMilestone = (typeof VIDEO_MILESTONES)[number];

/** A sign-language video on `path` was started (0) or watched to 25, 50, 75 or 100 per cent. */
export function countVideo(path: string, milestone: VideoMilestone, at = Date.now()): void {
  countOther(dayOf(at), `video:${milestone}`, path);
}

function countOther(day: string, dimension: string, rawPath: string): void {
  const path = keyed(rawPath.slice(0, MAX_VALUE));
  const key = `${day}\t${dimension}\t${path}`;
  const known = buffer.daily.get(key);
  if (known) known.views++;
  else if (room()) {
    buffer.size++;
    buffer.daily.set(key, { itemId: itemOfPath(path), views: 1, visits: 0 });
  }
}

export type ClickSource = 'rss' | 'newsletter';

/** A link in the feed or the newsletter was followed to `path` (no one's identity is kept). */
export function countClick(source: ClickSource, path: string, at = Date.now()): void {
  countOther(dayOf(at), `click:${source}`, path);
}

// Searches that found nothing, as the list loaders saw them in this process (the page cache of this
// process then answers the same search without a loader: the edge looks the outcome up here).
const searchOutcomes = new Map<string, boolean>();
export function noteSearchOutcome(path: string, words: string, found: boolean): void {
  if (!words.trim()) return;
  const key = `${path}\n${words.trim().toLowerCase()}`;
  if (searchOutcomes.size >= 2000 && !searchOutcomes.has(key)) searchOutcomes.clear();
  searchOutcomes.set(key, found);
}
export function searchFoundNothing(path: string, words: string): boolean {
  return searchOutcomes.get(`${path}\n${words.trim().toLowerCase()}`) === false;
}

// The salts of the days this process wrote for, read or made once.
const salts = new Map<string, string>();

/**
 * The salt of `day`: made (random, 32 bytes) by the first process that asks on that day and read by
 * the others. A past day whose salt is gone is never given a new one: undefined.
 */
async function saltFor(day: string, today: string, db: Kysely<Database>): Promise<string | undefined> {
  const known = salts.get(day);
  if (known) return known;
  if (day === today)
    await db
      .insertInto('analytics_salts')
      .values({ day, salt: randomBytes(32).toString('base64url') })
      .onConflict((oc) => oc.column('day').doNothing())
      .execute();
  const row = await db.selectFrom('analytics_salts').select('salt').where('day', '=', day).executeTakeFirst();
  if (!row) return undefined;
  for (const old of salts.keys()) if (old < today && old !== day) salts.delete(old);
  salts.set(day, row.salt);
  return row.salt;
}

/** Forgets the salts this process holds for days before `today` (the roll-up job deletes the rows). */
export function forgetOldSalts(today: string): void {
  for (const day of salts.keys()) if (day < today) salts.delete(day);
}

function chunked<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

let flushing: Promise<void> | undefined;

/**
 * Writes what this process counted since the last write, in one transaction. Never throws: a
 * failed write is logged and its counts are lost (counting must never disturb a reader).
 */
export function flushAnalytics(db: Kysely<Database> = getDb(), now = Date.now()): Promise<void> {
  const run = async () => {
    if (buffer.size === 0) return;
    const taken = buffer;
    buffer = newBuffer();
    const today = dayOf(now);
    forgetOldSalts(today);
    try {
      const recent: { day: string; visitor: string; scope: string }[] = [];
      const saltOf = new Map<string, string | undefined>();
      for (const entry of taken.marks) {
        const [day, digest, scope] = entry.split('\t') as [string, string, string];
        if (!saltOf.has(day)) saltOf.set(day, await saltFor(day, today, db));
        const salt = saltOf.get(day);
        if (!salt) continue;
        const visitor = createHash('sha256').update(`${salt}\n${digest}`).digest('base64url').slice(0, 11);
        recent.push({ day, visitor, scope });
      }
      expandViews(taken.views, taken.daily);
      const daily = [...taken.daily].map(([key, increment]) => {
        const [day, dimension, value] = key.split('\t') as [string, string, string];
        return { day, dimension, value, item_id: increment.itemId, views: increment.views, visits: increment.visits };
      });
      await db.transaction().execute(async (trx) => {
        for (const rows of chunked(recent, 300))
          await trx
            .insertInto('analytics_recent')
            .values(rows)
            .onConflict((oc) => oc.columns(['day', 'scope', 'visitor']).doNothing())
            .execute();
        for (const rows of chunked(daily, 200))
          await trx
            .insertInto('analytics_daily')
            .values(rows)
            .onConflict((oc) =>
              oc.columns(['day', 'dimension', 'value']).doUpdateSet({
                views: sql`analytics_daily.views + excluded.views`,
                visits: sql`analytics_daily.visits + excluded.visits`,
              }),
            )
            .execute();
      });
    } catch (error) {
      getLogger().warn({ err: error, rows: taken.size }, 'visit counts could not be written; they are left out');
    }
    if (dropped > 0) {
      getLogger().warn({ dropped }, 'visit counts were left out: too many distinct rows between writes');
      dropped = 0;
    }
  };
  // One write at a time per process; a call during a write waits for it, then writes what came since.
  const next = (flushing ?? Promise.resolve()).then(run);
  flushing = next;
  return next.finally(() => {
    if (flushing === next) flushing = undefined;
  });
}

/** Starts this process's timer; the returned function stops it and writes what is left. */
export function startAnalyticsFlush(everyMs = ANALYTICS_FLUSH_MS): () => Promise<void> {
  const timer = setInterval(() => void flushAnalytics(), everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await flushAnalytics();
  };
}

/** For tests: what this process holds unwritten. */
export function bufferedRows(): number {
  return buffer.size;
}
