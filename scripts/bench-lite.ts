// Issue 24: the "lite" budget. What a phone on 2G pays to read a story, measured in real Chromium over
// the DevTools protocol: WebPageTest's "2G" profile (280 kbit/s down, 256 kbit/s up, 800 ms round
// trip), a 375 × 740 screen at 2× density, bytes received as the network counted them (headers and
// compressed bodies), with and without the phone's data saver (`Save-Data: on`); the largest
// contentful paint; and what a visitor gets offline after a visit.
//
// `npm run bench` runs it against its big site; `node scripts/bench-lite.ts` runs it alone against a
// built server on a fresh data folder with the demo content (BUILD_DIR is honoured).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { freePort } from './free-port.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

/** WebPageTest's 2G profile, in the units of Network.emulateNetworkConditions (bytes per second). */
export const TWO_G = { latency: 800, downloadThroughput: (280 * 1000) / 8, uploadThroughput: (256 * 1000) / 8 };
const PHONE = { viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** The issue's goals. */
export const LITE_GOALS = { storyKb: 45, storySaveDataKb: 30, nextStoryKb: 15, lcpMs: 2500 };

interface Visit {
  bytes: number;
  scriptBytes: number;
  imageBytes: number;
  lcpMs: number | undefined;
}

/** Counts what the network delivers to `page` while `action` runs, by resource type. */
async function measureVisit(context: BrowserContext, page: Page, action: () => Promise<unknown>): Promise<Visit> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...TWO_G });
  const types = new Map<string, string>();
  let bytes = 0;
  let scriptBytes = 0;
  let imageBytes = 0;
  cdp.on('Network.responseReceived', (event) =>
    types.set(
      event.requestId,
      event.type === 'Image' && new URL(event.response.url).pathname.startsWith('/media/') ? 'Picture' : event.type,
    ),
  );
  cdp.on('Network.loadingFinished', (event) => {
    bytes += event.encodedDataLength;
    const type = types.get(event.requestId);
    if (type === 'Script') scriptBytes += event.encodedDataLength;
    // Pictures: uploaded ones (/media); the logo and the site's small drawings count in the bytes.
    if (type === 'Picture') imageBytes += event.encodedDataLength;
  });
  await action();
  // Lazy pictures below the fold and late scripts: wait until the network is quiet.
  await page.waitForLoadState('networkidle');
  const lcpMs = await page.evaluate(
    () =>
      new Promise<number | undefined>((resolve) => {
        let last: number | undefined;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) last = entry.startTime;
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        setTimeout(() => resolve(last), 100);
      }),
  );
  await cdp.detach();
  return { bytes, scriptBytes, imageBytes, lcpMs };
}

/**
 * A fresh phone (empty caches). The DevTools session of a page does not see what a service worker
 * fetches, so byte counts are taken with service workers blocked; the worker's own cost on a first
 * visit is weighed apart (`serviceWorkerBytes`), and offline reading is measured with it running.
 */
async function newPhone(
  browser: Browser,
  saveData: boolean,
  serviceWorkers: 'allow' | 'block' = 'block',
): Promise<BrowserContext> {
  return browser.newContext({ ...PHONE, serviceWorkers, extraHTTPHeaders: saveData ? { 'Save-Data': 'on' } : {} });
}

/** What the service worker costs a first visit: /sw.js and its chunk, as the server sends them (Brotli). */
async function serviceWorkerBytes(base: string): Promise<number> {
  const sw = await fetch(`${base}/sw.js`);
  const text = await sw.text();
  const chunk = /importScripts\("([^"]+)"\)/.exec(text)?.[1];
  if (!chunk) return text.length;
  const response = await fetch(`${base}${chunk}`, { headers: { 'Accept-Encoding': 'br' } });
  const length = Number(response.headers.get('content-length') ?? (await response.arrayBuffer()).byteLength);
  return text.length + length;
}

/** Story, news and resource addresses the sitemap lists, first ones first. */
async function sampleAddresses(base: string): Promise<{ stories: string[]; news: string[] }> {
  const xml = await (await fetch(`${base}/sitemap.xml`)).text();
  const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!.replace(/&amp;/g, '&')).pathname);
  return {
    stories: paths.filter((p) => /^\/blog\/[^/]+$/.test(p) && p !== '/blog/rss.xml'),
    news: paths.filter((p) => /^\/news\/[^/]+$/.test(p) && p !== '/news/rss.xml'),
  };
}

export interface LiteFigures {
  rows: { what: string; plain: Visit; saveData: Visit }[];
  scripts: { path: string; bytes: number }[];
  offline: { what: string; outcome: string; ok: boolean }[];
  /** Bytes of /sw.js and its chunk: fetched once, by the worker, after a first visit's page has loaded. */
  serviceWorker: number;
}

/** Whether the page shows `text` in its main heading; '' when it is the browser's own error page. */
async function headingOf(page: Page): Promise<string> {
  return (
    (
      await page
        .locator('h1')
        .first()
        .textContent({ timeout: 2000 })
        .catch(() => '')
    )?.trim() ?? ''
  );
}

async function openOffline(page: Page, url: string): Promise<string> {
  try {
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 15_000 });
  } catch (error) {
    return `browser error (${String(error).match(/net::\w+/)?.[0] ?? 'failed'})`;
  }
  return (await headingOf(page)) || 'a page without a heading';
}

/**
 * A live site has been read before: its pages are in the page cache with their Brotli copies made
 * (server/page-cache.ts makes them when a page is asked for again). Each page measured is asked for
 * until it comes from the cache compressed, with and without Save-Data, so the figures are what a
 * reader of a site in use pays, not the first reader after a restart.
 */
async function warmUp(base: string, paths: string[]): Promise<void> {
  for (const url of paths)
    for (const [saveData, fromOurPage] of [
      [false, false],
      [false, true],
      [true, false],
      [true, true],
    ] as const) {
      // A page opened from elsewhere carries its stylesheet; one opened from a link of ours links it.
      const headers: Record<string, string> = {
        'Accept-Encoding': 'br',
        ...(saveData ? { 'Save-Data': 'on' } : {}),
        ...(fromOurPage ? { 'Sec-Fetch-Site': 'same-origin' } : {}),
      };
      const deadline = Date.now() + 10_000;
      for (;;) {
        const response = await fetch(`${base}${url}`, { headers });
        await response.arrayBuffer();
        if (response.headers.get('x-cache') === 'HIT' && response.headers.get('content-encoding') === 'br') break;
        if (Date.now() > deadline) throw new Error(`${url} did not come from the page cache`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
}

export async function measureLiteFigures(base: string): Promise<LiteFigures> {
  const { stories, news } = await sampleAddresses(base);
  const [story, nextStory, unread] = [stories[0]!, stories[1] ?? stories[0]!, stories[2] ?? news[0]!];
  await warmUp(base, [story, nextStory, '/', '/blog']);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-quic'],
  });
  try {
    const rows: LiteFigures['rows'] = [];
    const visits: Record<string, Partial<Record<'plain' | 'saveData', Visit>>> = {};
    for (const saveData of [false, true]) {
      const key = saveData ? 'saveData' : 'plain';
      for (const [what, url] of [
        ['first visit: a story', story],
        ['first visit: home', '/'],
        ['first visit: stories list', '/blog'],
      ] as const) {
        const context = await newPhone(browser, saveData);
        const page = await context.newPage();
        const visit = await measureVisit(context, page, () => page.goto(`${base}${url}`));
        (visits[what] ??= {})[key] = visit;
        if (what === 'first visit: a story') {
          // The next story in the same visit: a link of ours followed, as a reader would.
          const next = await measureVisit(context, page, () =>
            Promise.all([page.waitForURL(`${base}${nextStory}`), page.evaluate((href) => location.assign(href), nextStory)]),
          );
          (visits['next story, same visit'] ??= {})[key] = next;
        }
        await context.close();
      }
    }
    for (const [what, pair] of Object.entries(visits)) rows.push({ what, plain: pair.plain!, saveData: pair.saveData! });

    // Script bytes of each public page on a first visit, unthrottled.
    const scripts: LiteFigures['scripts'] = [];
    const pages = [
      '/',
      '/about',
      '/blog',
      story,
      '/news',
      news[0] ?? '/news',
      '/resources',
      '/services',
      '/contact',
      '/newsletter',
    ];
    for (const url of pages) {
      const context = await newPhone(browser, false);
      const page = await context.newPage();
      let bytes = 0;
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      const types = new Map<string, string>();
      cdp.on('Network.responseReceived', (event) => types.set(event.requestId, event.type));
      cdp.on('Network.loadingFinished', (event) => {
        if (types.get(event.requestId) === 'Script') bytes += event.encodedDataLength;
      });
      await page.goto(`${base}${url}`, { waitUntil: 'networkidle' });
      scripts.push({ path: url, bytes });
      await context.close();
    }

    // Offline: read the home page and a story, then lose the network.
    const offline: LiteFigures['offline'] = [];
    const context = await newPhone(browser, false, 'allow');
    const page = await context.newPage();
    await page.goto(`${base}/`, { waitUntil: 'networkidle' });
    await page.goto(`${base}${story}`, { waitUntil: 'networkidle' });
    const storyHeading = await headingOf(page);
    // A service worker, if the site has one, has had its chance to keep what was read.
    await page.waitForTimeout(1000);
    await context.setOffline(true);
    const again = await openOffline(page, `${base}${story}`);
    offline.push({ what: 'a story read before, opened again offline', outcome: again, ok: again === storyHeading });
    const home = await openOffline(page, `${base}/`);
    offline.push({ what: 'the home page offline', outcome: home, ok: !home.startsWith('browser error') });
    const never = await openOffline(page, `${base}${unread}`);
    offline.push({
      what: 'a story never read, offline',
      outcome: never,
      ok: !never.startsWith('browser error') && /offline/i.test(never),
    });
    await context.close();
    return { rows, scripts, offline, serviceWorker: await serviceWorkerBytes(base) };
  } finally {
    await browser.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number | undefined) => (value === undefined ? '-' : `${(value / 1000).toFixed(2)} s`);

/** The lite budget as printed lines: a table side by side with the goals, then PASS/FAIL lines. */
export function liteReport(figures: LiteFigures): { table: string; verdicts: string[] } {
  const lines = [
    `Lite budget (issue 24): Chromium on the 2G profile (280 kbit/s, 800 ms RTT), 375 px phone at 2×, bytes received (pages read before, so served from the page cache)`,
    `${'Visit'.padEnd(28)} ${'bytes'.padStart(9)} ${'scripts'.padStart(9)} ${'pictures'.padStart(9)} ${'LCP'.padStart(7)}   ${'Save-Data'.padStart(9)} ${'pictures'.padStart(9)} ${'LCP'.padStart(7)}`,
    ...figures.rows.map(
      (r) =>
        `${r.what.padEnd(28)} ${kb(r.plain.bytes).padStart(9)} ${kb(r.plain.scriptBytes).padStart(9)} ${kb(r.plain.imageBytes).padStart(9)} ${ms(r.plain.lcpMs).padStart(7)}   ${kb(r.saveData.bytes).padStart(9)} ${kb(r.saveData.imageBytes).padStart(9)} ${ms(r.saveData.lcpMs).padStart(7)}`,
    ),
    '',
    `Script bytes per public page (first visit): ${figures.scripts.map((s) => `${s.path} ${kb(s.bytes)}`).join(', ')}`,
    `The service worker, fetched once after a first visit's page has loaded (not in the rows above): ${kb(figures.serviceWorker)}`,
    '',
    'Offline, after reading the home page and a story:',
    ...figures.offline.map((o) => `  ${o.what}: ${o.outcome}`),
  ];
  const row = (what: string) => figures.rows.find((r) => r.what === what)!;
  const story = row('first visit: a story');
  const next = row('next story, same visit');
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  const verdicts = [
    `${verdict(story.plain.bytes <= LITE_GOALS.storyKb * 1024)}  a story's first visit at most ${LITE_GOALS.storyKb} KB: ${kb(story.plain.bytes)}`,
    `${verdict(story.saveData.bytes <= LITE_GOALS.storySaveDataKb * 1024 && story.saveData.imageBytes === 0)}  with Save-Data at most ${LITE_GOALS.storySaveDataKb} KB and no picture: ${kb(story.saveData.bytes)}, pictures ${kb(story.saveData.imageBytes)}`,
    `${verdict(next.plain.bytes <= LITE_GOALS.nextStoryKb * 1024)}  the next story at most ${LITE_GOALS.nextStoryKb} KB: ${kb(next.plain.bytes)}`,
    `${verdict((story.plain.lcpMs ?? Infinity) <= LITE_GOALS.lcpMs)}  a story's largest contentful paint at most ${LITE_GOALS.lcpMs / 1000} s on 2G: ${ms(story.plain.lcpMs)}`,
    ...figures.offline.map((o) => `${verdict(o.ok)}  ${o.what}: ${o.outcome}`),
  ];
  return { table: lines.join('\n'), verdicts };
}

async function startDemoServer(): Promise<{ child: ChildProcess; base: string; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-lite-'));
  const port = await freePort();
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
      WEB_CONCURRENCY: '1',
      BACKUPS: 'off',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { child, base, dataDir };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGTERM');
  throw new Error('The server did not answer within 120 s');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = await startDemoServer();
  try {
    const { table, verdicts } = liteReport(await measureLiteFigures(server.base));
    process.stdout.write(`${table}\n\nTargets:\n${verdicts.join('\n')}\n`);
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}
