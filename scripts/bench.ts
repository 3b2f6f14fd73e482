// `npm run bench`: throughput, latency and page weight of the built site with a big database.
//
// Starts the production server (node server.ts) on a fresh temporary data folder (SQLite) holding the
// demo content plus 5,000 stories and 5,000 news, then measures `/`, `/blog`, a search, one article
// and one static file with autocannon (50 connections, 10 s each; BENCH_CONNECTIONS and
// BENCH_DURATION change that), once served from the page cache and once bypassing it. It also weighs
// every public page (HTML, CSS and JS as the server sends them gzipped, JS also in Brotli) and looks
// for requests to other hosts. The inbox (issue 11) is measured too: 10,000 contact messages, its
// first page, a page far back, a status filter and searches, signed in as the super admin. So is the
// newsletter's CSV export of 10,000 subscribers (issue 12): its time and the server's memory. The server
// and the data folder are removed at the end, also after an error or Ctrl-C.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Kysely } from 'kysely';
import { openDatabase } from '../app/server/db/db.server.ts';
import type { Database } from '../app/server/db/schema.ts';
import { migrateToLatest } from '../app/server/db/migrations.server.ts';
import { SEED_AUTHORS } from '../app/server/db/seed-data.ts';
import { seedDemoContent } from '../app/server/db/seed.server.ts';
import { searchContent } from '../app/server/search.server.ts';
import { encodeCursor } from '../app/server/keyset-page.server.ts';
import type { ContactStatus } from '../app/server/db/schema.ts';
import { setUploadsRoot } from '../app/server/storage.server.ts';
import type { Collection } from '../app/lib/collections.ts';
import { freePort } from './free-port.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const PER_COLLECTION = 5000;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARM_UP = 1;
const SEARCH_WORD = 'interpreter';
/** Sends the cache past itself (docs/decisions/402-page-cache.md): what a first visitor waits for. */
const BYPASS_COOKIE = 'tdg_session=bench';

const TARGETS = { pageJsKb: 120, cachedRatio: 0.7, searchP99Ms: 50 };

/** The inbox: how many messages, and how many staff at once (a handful of people use it, not 50). */
const INBOX_MESSAGES = 10_000;
const INBOX_CONNECTIONS = Number(process.env.BENCH_INBOX_CONNECTIONS ?? 10);
const BENCH_ADMIN = { email: 'bench-admin@bench.example', password: `bench-${process.pid}-${Date.now()}` };

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
interface AutocannonRequest {
  path?: string;
  setupRequest?: (request: { path: string }) => { path: string };
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
// autocannon sometimes arms a timer with a negative delay at the end of a run; Node's warning about it is noise here.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name !== 'TimeoutNegativeWarning') process.stderr.write(`${warning.name}: ${warning.message}\n`);
});

// ---------------------------------------------------------------------------------------------
// A big site: varied titles and bodies from a word list, so search has work to do.

const WORDS = `access accessible action advocacy app audio awareness bank bus campaign captions care
  career change child church class classroom clinic club community computer conference court crutches
  deaf design digital disability district dream education employer employment equal event exam family
  football friend future garden girls government group guide hands health hearing hope hospital inclusion
  interpreter jinja job journey justice kampala kitchen language law leader learning library listen
  market media meeting mentor message mobile mother music network news office parent partner patient
  people phone policy programme project radio ramp reading rights road school science screen service
  sign skills sports student support taxi teacher team technology television training transport
  uganda village voice volunteer wakiso water wheelchair women work workshop youth`
  .split(/\s+/)
  .filter(Boolean);
const CATEGORIES = {
  blogs: ['personal-experience', 'advocacy', 'community', 'inspiration', 'education', 'resources'],
  news: ['news', 'advocacy', 'community', 'education', 'opportunities', 'technology'],
} satisfies Partial<Record<Collection, string[]>>;

function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(next: () => number, words: number): string {
  const list = Array.from({ length: words }, () => WORDS[Math.floor(next() * WORDS.length)]!);
  const text = list.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

export async function seedBigSite(
  dataDir: string,
): Promise<{ articleId: string; searchMatches: number; stories: number; inbox: InboxSeed }> {
  const handle = await openDatabase({ dataDir });
  try {
    await migrateToLatest(handle.db, handle.engine);
    setUploadsRoot(dataDir);
    await seedDemoContent(handle.db);
    const image = await handle.db
      .selectFrom('content')
      .select(['image_url', 'image_alt'])
      .where('image_url', 'is not', null)
      .executeTakeFirstOrThrow();
    const next = random(20_251_122);
    const now = Date.now();
    await handle.db.transaction().execute(async (trx) => {
      for (const collection of ['blogs', 'news'] as const) {
        for (let start = 0; start < PER_COLLECTION; start += 250) {
          const rows = [];
          for (let i = start; i < Math.min(start + 250, PER_COLLECTION); i++) {
            const title = sentence(next, 5 + Math.floor(next() * 5)).slice(0, -1);
            const summary = sentence(next, 22);
            const paragraphs = Array.from({ length: 4 + Math.floor(next() * 4) }, () => sentence(next, 60));
            const author = SEED_AUTHORS[i % SEED_AUTHORS.length]!;
            // Spread over about five years, every item at its own time.
            const at = new Date(now - (i * 2 + (collection === 'news' ? 1 : 0) + 30) * 15 * 60_000 - i * 1000).toISOString();
            rows.push({
              id: `bench-${collection}-${i}`,
              collection: collection as Collection,
              title,
              summary: collection === 'news' ? summary : null,
              excerpt: collection === 'blogs' ? summary : null,
              content: paragraphs.map((p) => `<p>${p}</p>`).join('\n'),
              search_text: paragraphs.join(' '),
              category: CATEGORIES[collection][i % CATEGORIES[collection].length]!,
              author: author.name,
              author_email: author.email,
              author_role: author.role,
              image_url: image.image_url,
              image_alt: image.image_alt,
              tags: JSON.stringify([WORDS[i % WORDS.length], WORDS[(i * 7) % WORDS.length]]),
              status: 'published' as const,
              created_at: at,
              published_at: at,
              updated_at: at,
            });
          }
          await trx.insertInto('content').values(rows).execute();
        }
      }
    });
    const newest = await handle.db
      .selectFrom('content')
      .select('id')
      .where('collection', '=', 'blogs')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    const [matches, all] = await Promise.all([
      searchContent({ collection: 'blogs', query: SEARCH_WORD, limit: 1 }, handle.db, handle.engine),
      searchContent({ collection: 'blogs', limit: 1 }, handle.db, handle.engine),
    ]);
    const inbox = await seedInbox(handle.db, now);
    return { articleId: newest.id, searchMatches: matches.total, stories: all.total, inbox };
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The inbox (issue 11): 10,000 contact messages from the same word list, spread over the last
// 23 months (inside the default retention of 24, so the clean-up job at start deletes none).

interface InboxSeed {
  messages: number;
  /** The cursor of the page 200 pages back (25 a page): what "Older messages" reaches after 200 clicks. */
  deepCursor: string;
  /** How many messages the search word is in (name, email, subject or text). */
  searchMatches: number;
}

const FIRST_NAMES = ['Nakato', 'Okello', 'Achieng', 'Mukasa', 'Nabirye', 'Opio', 'Namusoke', 'Kato', 'Auma', 'Ssempala'];
const LAST_NAMES = ['Grace', 'Peter', 'Ruth', 'John', 'Sarah', 'David', 'Esther', 'Joseph', 'Mary', 'Ivan'];

async function seedInbox(db: Kysely<Database>, now: number): Promise<InboxSeed> {
  const next = random(20_261_124);
  const span = 23 * 30 * 24 * 60 * 60_000;
  const statuses: ContactStatus[] = ['new', 'read', 'read', 'read', 'replied', 'replied', 'replied', 'archived', 'spam', 'read'];
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < INBOX_MESSAGES; start += 250) {
      const rows = [];
      for (let i = start; i < Math.min(start + 250, INBOX_MESSAGES); i++) {
        const first = FIRST_NAMES[Math.floor(next() * FIRST_NAMES.length)]!;
        const last = LAST_NAMES[Math.floor(next() * LAST_NAMES.length)]!;
        const status = statuses[i % statuses.length]!;
        rows.push({
          id: `bench-msg-${i}`,
          name: `${first} ${last}`,
          email: `${first}.${last}${i}@example.org`.toLowerCase(),
          phone: i % 3 === 0 ? `+256 7${String(i).padStart(8, '0')}` : null,
          subject: sentence(next, 3 + Math.floor(next() * 5)).slice(0, -1),
          message: Array.from({ length: 1 + Math.floor(next() * 4) }, () => sentence(next, 25 + Math.floor(next() * 40))).join(
            '\n\n',
          ),
          created_at: new Date(now - Math.floor(next() * span)).toISOString(),
          read_at: status === 'new' ? null : new Date(now).toISOString(),
          status,
        });
      }
      await trx.insertInto('contacts').values(rows).execute();
    }
  });
  const deep = await db
    .selectFrom('contacts')
    .select(['created_at', 'id'])
    .where('status', 'in', ['new', 'read', 'replied'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(200 * 25 - 1)
    .limit(1)
    .executeTakeFirstOrThrow();
  const pattern = `%${SEARCH_WORD}%`;
  const { n } = await db
    .selectFrom('contacts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => eb.or(['name', 'email', 'subject', 'message'].map((c) => eb(eb.ref(c as 'name'), 'like', pattern))))
    .executeTakeFirstOrThrow();
  return {
    messages: INBOX_MESSAGES,
    deepCursor: encodeCursor({ createdAt: deep.created_at, id: deep.id }),
    searchMatches: Number(n),
  };
}

/** Signs the bench's super admin in through the sign-in form's POST, as a browser without JavaScript does; returns the session cookie. */
async function signInStaff(base: string): Promise<string> {
  const response = await fetch(`${base}/admin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(BENCH_ADMIN).toString(),
    redirect: 'manual',
  });
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('tdg_session='));
  if (response.status !== 302 || !cookie) throw new Error(`Signing the bench's super admin in failed: ${response.status}`);
  return cookie.split(';')[0]!;
}

/** One inbox row: autocannon with the staff cookie, optionally a different search word on each request. */
async function loadInbox(label: string, base: string, requestPath: string, cookie: string, rotate?: string[]): Promise<Run> {
  const headers = { cookie };
  let n = 0;
  const requests: AutocannonRequest[] | undefined = rotate && [
    {
      setupRequest: (request) => ({
        ...request,
        path: `/admin/messages?status=all&q=${encodeURIComponent(rotate[n++ % rotate.length]!)}`,
      }),
    },
  ];
  const options = { url: `${base}${requestPath}`, connections: INBOX_CONNECTIONS, headers, ...(requests ? { requests } : {}) };
  await settle(base);
  const first = await fetch(`${base}${requestPath}`, { headers });
  if (first.status !== 200) throw new Error(`${requestPath} answered ${first.status}`);
  await first.arrayBuffer();
  await autocannon({ ...options, duration: WARM_UP });
  await settle(base);
  const result = await autocannon({ ...options, duration: DURATION });
  return {
    label,
    cache: 'none',
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    answered: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/** The whole CSV export of every message, timed, with its size. */
async function timeExport(base: string, cookie: string): Promise<{ ms: number; bytes: number; rows: number }> {
  const started = performance.now();
  const response = await fetch(`${base}/admin/messages/export?status=all`, { headers: { cookie } });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`The export answered ${response.status}`);
  return { ms, bytes: Buffer.byteLength(text), rows: (text.match(/^\d{4}-\d\d-\d\dT[\d:.]+Z,/gm) ?? []).length };
}

/** Subscribers the newsletter export is measured with (issue 12). */
const NEWSLETTER_SUBSCRIBERS = 10_000;

/** The server process's resident memory in bytes (Linux /proc), or undefined elsewhere. */
function residentBytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Issue 12: the Subscribers screen's CSV export of 10,000 subscribers (docs/decisions/505). Adds them
 * to the running server's database, then times the whole download while sampling the server's
 * resident memory every 10 ms (the export streams 500 rows at a time, so it should stay flat), and
 * prints one line.
 */
async function measureSubscriberExport(
  dataDir: string,
  base: string,
  cookie: string,
  server: ChildProcess | undefined,
): Promise<void> {
  const handle = await openDatabase({ dataDir });
  try {
    const now = Date.now();
    await handle.db.transaction().execute(async (trx) => {
      for (let start = 0; start < NEWSLETTER_SUBSCRIBERS; start += 500) {
        const rows = [];
        for (let i = start; i < Math.min(start + 500, NEWSLETTER_SUBSCRIBERS); i++) {
          const at = new Date(now - i * 60_000).toISOString();
          const status = i % 10 === 0 ? 'unsubscribed' : i % 7 === 0 ? 'pending' : 'confirmed';
          rows.push({
            id: `bench-sub-${i}`,
            email: `reader${i}@example.org`,
            source: status === 'unsubscribed' ? null : '/news',
            created_at: at,
            status: status as 'confirmed' | 'pending' | 'unsubscribed',
            confirmed_at: status === 'confirmed' ? at : null,
            unsubscribed_at: status === 'unsubscribed' ? at : null,
            confirm_sent_at: status === 'pending' ? at : null,
          });
        }
        await trx.insertInto('newsletter_subscribers').values(rows).execute();
      }
    });
  } finally {
    await handle.close();
  }
  await settle(base);
  const before = residentBytes(server?.pid);
  let peak = before ?? 0;
  const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(server?.pid) ?? 0)), 10);
  const started = performance.now();
  const response = await fetch(`${base}/admin/subscribers/export`, { headers: { cookie } });
  let bytes = 0;
  let rows = -1; // the header line
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    for (const byte of chunk) if (byte === 10) rows++;
  }
  const ms = performance.now() - started;
  clearInterval(sampler);
  if (response.status !== 200) throw new Error(`The subscribers export answered ${response.status}`);
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  const memory =
    before === undefined
      ? 'server memory not measured (no /proc)'
      : `server memory ${mb(before)} before, ${mb(peak)} at most during it (+${mb(peak - before)})`;
  process.stdout.write(
    `CSV export of all ${rows.toLocaleString('en-US')} newsletter subscribers (of ${NEWSLETTER_SUBSCRIBERS.toLocaleString('en-US')} added): ${(ms / 1000).toFixed(2)} s, ${kb(bytes)}; ${memory}.\n\n`,
  );
}

// ---------------------------------------------------------------------------------------------
// The server under test.

async function startServer(dataDir: string, port: number): Promise<{ child: ChildProcess; base: string }> {
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PUBLIC_URL: base,
      LOG_LEVEL: 'warn',
      // The inbox rows sign in as this account.
      SUPER_ADMIN_EMAIL: BENCH_ADMIN.email,
      SUPER_ADMIN_PASSWORD: BENCH_ADMIN.password,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server stopped at start-up:\n${stderr}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { child, base };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not answer within 120 s:\n${stderr}`);
}

async function stopServer(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------
// Measurements.

interface Run {
  label: string;
  cache: string;
  rps: number;
  p50: number;
  p99: number;
  answered: number;
  failures: number;
}

/** Waits until requests queued by the last run are done, so one row's backlog does not slow the next. */
async function settle(base: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const started = performance.now();
    await (await fetch(`${base}/healthz`)).arrayBuffer();
    if (performance.now() - started < 20) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function load(label: string, base: string, requestPath: string, bypass: boolean, rotate?: string[]): Promise<Run> {
  const headers: Record<string, string> = bypass ? { cookie: BYPASS_COOKIE } : {};
  let n = 0;
  const requests: AutocannonRequest[] | undefined = rotate && [
    { setupRequest: (request) => ({ ...request, path: `/blog?q=${encodeURIComponent(rotate[n++ % rotate.length]!)}` }) },
  ];
  const options = { url: `${base}${requestPath}`, connections: CONNECTIONS, headers, ...(requests ? { requests } : {}) };
  await settle(base);
  await (await fetch(`${base}${requestPath}`, { headers })).arrayBuffer(); // fills the cache (or not, when bypassing)
  await autocannon({ ...options, duration: WARM_UP });
  await settle(base);
  const result = await autocannon({ ...options, duration: DURATION });
  const check = await fetch(`${base}${requestPath}`, { headers });
  await check.arrayBuffer();
  return {
    label,
    cache: check.headers.get('x-cache') ?? 'none',
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    answered: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

interface Weight {
  path: string;
  status: number;
  html: number;
  css: number;
  js: number;
  jsBrotli: number;
  jsFiles: number;
  otherHosts: string[];
}

interface Served {
  status: number;
  /** Bytes on the wire, as the server compressed them for this Accept-Encoding. */
  bytes: number;
  text: string;
}

/** What the server sends for one URL when the browser accepts `encoding` (no decompression on the way). */
function served(url: URL, encoding: 'gzip' | 'br'): Promise<Served> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'Accept-Encoding': encoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks);
          const used = response.headers['content-encoding'];
          const text = (used === 'br' ? brotliDecompressSync(body) : used === 'gzip' ? gunzipSync(body) : body).toString('utf8');
          resolve({ status: response.statusCode ?? 0, bytes: body.length, text });
        });
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

async function weigh(base: string, pagePath: string): Promise<Weight> {
  const page = await served(new URL(pagePath, base), 'gzip');
  const html = page.text;
  const pageUrl = new URL(pagePath, base);
  const host = pageUrl.host;
  const otherHosts = new Set<string>();
  const note = (raw: string, from: URL) => {
    try {
      const url = new URL(raw.trim(), from);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.host !== host) otherHosts.add(url.host);
    } catch {
      // Not a URL.
    }
  };

  // What the browser fetches by itself: scripts, styles, preloads, icons, images and media.
  for (const m of html.matchAll(/<(?:img|script|source|video|audio|iframe|embed|track)\b[^>]*?\ssrc="([^"]+)"/gi))
    note(m[1]!, pageUrl);
  for (const m of html.matchAll(/\ssrcset="([^"]+)"/gi))
    for (const part of m[1]!.split(',')) note(part.trim().split(/\s+/)[0]!, pageUrl);
  for (const m of html.matchAll(/<link\b[^>]*>/gi)) {
    const tag = m[0];
    const rel = /\srel="([^"]+)"/i.exec(tag)?.[1] ?? '';
    const href = /\shref="([^"]+)"/i.exec(tag)?.[1];
    if (href && /stylesheet|preload|modulepreload|icon|manifest|prefetch|preconnect|dns-prefetch/i.test(rel)) note(href, pageUrl);
  }
  for (const m of html.matchAll(/url\(\s*['"]?([^'")]+)/gi)) note(m[1]!, pageUrl);

  const styles = [...html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*>/gi)]
    .map((m) => /\shref="([^"]+)"/i.exec(m[0])?.[1])
    .filter((href): href is string => !!href);
  let css = 0;
  for (const href of new Set(styles)) {
    const url = new URL(href, pageUrl);
    if (url.host !== host) continue;
    const { text, bytes } = await served(url, 'gzip');
    css += bytes;
    for (const m of text.matchAll(/url\(\s*['"]?([^'")]+)/gi)) if (!m[1]!.startsWith('data:')) note(m[1]!, url);
    for (const m of text.matchAll(/@import\s+(?:url\()?['"]([^'"]+)/gi)) note(m[1]!, url);
  }

  // Every script the page loads before it is interactive: preloads, script tags, inline module
  // imports, and their static imports in turn (lazy `import()` chunks are not counted).
  const queue: URL[] = [];
  for (const m of html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*>/gi)) {
    const href = /\shref="([^"]+)"/i.exec(m[0])?.[1];
    if (href) queue.push(new URL(href, pageUrl));
  }
  for (const m of html.matchAll(/<script\b[^>]*\ssrc="([^"]+)"/gi)) queue.push(new URL(m[1]!, pageUrl));
  for (const m of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)) {
    for (const i of m[1]!.matchAll(/\bimport\s*(?:[\w*{}\s,]+from\s*)?["']([^"']+\.js)["']/g))
      queue.push(new URL(i[1]!, pageUrl));
  }
  const seen = new Set<string>();
  let js = 0;
  let jsBrotli = 0;
  while (queue.length) {
    const url = queue.shift()!;
    if (url.host !== host) {
      otherHosts.add(url.host);
      continue;
    }
    if (seen.has(url.href)) continue;
    seen.add(url.href);
    const { text, bytes } = await served(url, 'gzip');
    js += bytes;
    jsBrotli += (await served(url, 'br')).bytes;
    for (const i of text.matchAll(/(?:\bfrom|\bimport)\s*["']([^"']+\.js)["']/g)) queue.push(new URL(i[1]!, url));
  }
  return {
    path: pagePath,
    status: page.status,
    html: page.bytes,
    css,
    js,
    jsBrotli,
    jsFiles: seen.size,
    otherHosts: [...otherHosts],
  };
}

/** Every page of the sitemap without an id, plus the first article, resource and service it lists. */
async function pagesToWeigh(base: string): Promise<string[]> {
  const xml = await (await fetch(`${base}/sitemap.xml`)).text();
  const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!.replace(/&amp;/g, '&')).pathname);
  const detail = /^\/(blog|news|resources|services)\/(?!awareness-course$)[^/]+$/;
  const samples = new Map<string, string>();
  for (const p of paths) {
    const section = detail.exec(p)?.[1];
    if (section && !samples.has(section)) samples.set(section, p);
  }
  return [...paths.filter((p) => !detail.test(p)), ...samples.values()];
}

// ---------------------------------------------------------------------------------------------
// Output.

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const pad = (text: string, width: number, right = false) => (right ? text.padStart(width) : text.padEnd(width));

function table(headings: string[], rows: string[][], rightFrom = 1): string {
  const widths = headings.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i]!, i >= rightFrom)).join('  ');
  return [line(headings), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-bench-'));
  let child: ChildProcess | undefined;
  let cleaned = false;
  const cleanUp = async () => {
    if (cleaned) return;
    cleaned = true;
    await stopServer(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const interrupted = (signal: string) => {
    process.stdout.write(`\n${signal}: stopping the server and removing ${dataDir}\n`);
    void cleanUp().finally(() => process.exit(130));
  };
  process.once('SIGINT', () => interrupted('SIGINT'));
  process.once('SIGTERM', () => interrupted('SIGTERM'));

  try {
    process.stdout.write(
      `Seeding ${PER_COLLECTION} stories, ${PER_COLLECTION} news and ${INBOX_MESSAGES} contact messages in ${dataDir} …\n`,
    );
    const started = Date.now();
    const { articleId, searchMatches, stories, inbox } = await seedBigSite(dataDir);
    process.stdout.write(`Seeded in ${((Date.now() - started) / 1000).toFixed(1)} s. Starting the built server …\n`);
    const server = await startServer(dataDir, await freePort());
    child = server.child;
    const base = server.base;

    const staticPath = '/favicon.svg';
    const article = `/blog/${articleId}`;
    const search = `/blog?q=${SEARCH_WORD}`;
    const pages: [string, string][] = [
      ['/', '/'],
      ['/blog', '/blog'],
      [`/blog?q=${SEARCH_WORD}`, search],
      ['one article', article],
    ];
    process.stdout.write(
      `The search word "${SEARCH_WORD}" matches ${searchMatches} of ${stories} stories (a broad search: every word of the list is common).\n`,
    );
    process.stdout.write(
      `Measuring with autocannon: ${CONNECTIONS} connections, ${DURATION} s per row (after a ${WARM_UP} s warm-up) …\n\n`,
    );

    const runs: Run[] = [];
    runs.push(await load(`static ${staticPath}`, base, staticPath, false));
    for (const [label, p] of pages) runs.push(await load(label, base, p, false));
    for (const [label, p] of pages) runs.push(await load(`${label} (cache bypassed)`, base, p, true));
    runs.push(await load('search, a different word each time (cache bypassed)', base, search, true, WORDS.slice(0, 120)));
    const staticRps = runs[0]!.rps;

    // The inbox, as a signed-in staff member sees it (never cached: every dashboard page is no-store).
    const cookie = await signInStaff(base);
    const inboxRuns: Run[] = [];
    inboxRuns.push(await loadInbox('inbox, first page', base, '/admin/messages', cookie));
    inboxRuns.push(await loadInbox('inbox, 200 pages back', base, `/admin/messages?after=${inbox.deepCursor}`, cookie));
    inboxRuns.push(await loadInbox('inbox, Spam only', base, '/admin/messages?status=spam', cookie));
    inboxRuns.push(
      await loadInbox(`inbox search "${SEARCH_WORD}", all statuses`, base, `/admin/messages?status=all&q=${SEARCH_WORD}`, cookie),
    );
    inboxRuns.push(
      await loadInbox(
        'inbox search, a different word each time',
        base,
        '/admin/messages?status=all&q=radio',
        cookie,
        WORDS.slice(0, 120),
      ),
    );
    inboxRuns.push(await loadInbox('inbox search, a word in no message', base, '/admin/messages?status=all&q=zzzzqx', cookie));
    const exported = await timeExport(base, cookie);

    process.stdout.write(
      `${table(
        ['Request', 'cache', 'req/s', 'p50 ms', 'p99 ms', '× static', 'answered', 'failed'],
        runs.map((r) => [
          r.label,
          r.cache,
          r.rps.toFixed(0),
          r.answered ? r.p50.toFixed(1) : '-',
          r.answered ? r.p99.toFixed(1) : '-',
          (r.rps / staticRps).toFixed(2),
          String(r.answered),
          String(r.failures),
        ]),
        2,
      )}\n\n`,
    );

    process.stdout.write(
      `The inbox holds ${inbox.messages} messages; "${SEARCH_WORD}" is in ${inbox.searchMatches} of them. Signed in as the super admin, ${INBOX_CONNECTIONS} connections, ${DURATION} s per row:\n${table(
        ['Request', 'req/s', 'p50 ms', 'p99 ms', 'answered', 'failed'],
        inboxRuns.map((r) => [
          r.label,
          r.rps.toFixed(0),
          r.answered ? r.p50.toFixed(1) : '-',
          r.answered ? r.p99.toFixed(1) : '-',
          String(r.answered),
          String(r.failures),
        ]),
      )}\nCSV export of all ${exported.rows} messages: ${(exported.ms / 1000).toFixed(2)} s, ${kb(exported.bytes)}.\n\n`,
    );

    await measureSubscriberExport(dataDir, base, cookie, child);

    const publicPages = [...(await pagesToWeigh(base)), search, '/no-such-page'];
    const weights: Weight[] = [];
    for (const p of publicPages) weights.push(await weigh(base, p));
    process.stdout.write(
      `Page weight as the server sends it to a browser that accepts gzip (what a visitor downloads on a\nfirst visit), and the JS again for one that accepts Brotli (every current browser, over HTTPS):\n${table(
        ['Page', 'status', 'HTML', 'CSS', 'JS', 'JS (br)', 'JS files', 'other hosts'],
        weights.map((w) => [
          w.path.length > 48 ? `${w.path.slice(0, 45)}…` : w.path,
          String(w.status),
          kb(w.html),
          kb(w.css),
          kb(w.js),
          kb(w.jsBrotli),
          String(w.jsFiles),
          w.otherHosts.join(' ') || 'none',
        ]),
      )}\n\n`,
    );

    const cached = runs.slice(1, 1 + pages.length);
    const listAndArticle = cached.filter((r) => r.label === '/blog' || r.label === 'one article');
    const searchBypassed = runs.at(-1)!;
    const searchCached = cached[2]!;
    const heaviest = weights.reduce((a, b) => (b.js > a.js ? b : a));
    const external = weights.filter((w) => w.otherHosts.length);
    const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
    const p99 = (r: Run) => (r.answered ? `${r.p99.toFixed(1)} ms` : `no answer within ${DURATION} s`);
    const lines = [
      `${verdict(listAndArticle.every((r) => r.rps / staticRps >= TARGETS.cachedRatio))}  article and list pages at least ${TARGETS.cachedRatio}× the static file once cached: ${listAndArticle.map((r) => `${r.label} ${(r.rps / staticRps).toFixed(2)}×`).join(', ')}`,
      `${verdict(searchCached.answered > 0 && searchCached.p99 < TARGETS.searchP99Ms)}  search p99 under ${TARGETS.searchP99Ms} ms once cached: ${p99(searchCached)}`,
      `${verdict(searchBypassed.answered > 0 && searchBypassed.p99 < TARGETS.searchP99Ms)}  search p99 under ${TARGETS.searchP99Ms} ms with a new word each time (no cache): ${p99(searchBypassed)}`,
      `${verdict(heaviest.js < TARGETS.pageJsKb * 1024)}  every public page under ${TARGETS.pageJsKb} KB of gzipped JS: heaviest ${heaviest.path} ${kb(heaviest.js)}`,
      `${verdict(external.length === 0)}  no request to any other host${external.length ? `: ${external.map((w) => `${w.path} → ${w.otherHosts.join(' ')}`).join('; ')}` : ''}`,
    ];
    const failures = [...runs, ...inboxRuns].filter((r) => r.failures > 0 || r.answered === 0);
    if (failures.length)
      lines.push(`NOTE  some requests failed, timed out or were not 2xx: ${failures.map((r) => r.label).join(', ')}`);
    lines.push(
      `      (${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; figures vary with other work on the machine)`,
    );
    process.stdout.write(`Targets:\n${lines.join('\n')}\n`);
  } finally {
    await cleanUp();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    process.stderr.write(`Benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
