import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 29: /metrics and /healthz?detail from the built site as `npm start` runs it on two cores: two
// worker threads on one port, so a scrape reaching either worker must report the whole site.
const root = path.resolve(import.meta.dirname, '../..');
const TOKEN = 'operator-token-0123456789abcdef';

interface Site {
  origin: string;
  dataDir: string;
  child: ChildProcess;
}

async function startSite(env: Record<string, string>): Promise<Site> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-figures-'));
  const port = 3900 + Math.floor(Math.random() * 90);
  const child = spawn(process.execPath, ['server.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      ...(process.env.BUILD_DIR ? { BUILD_DIR: process.env.BUILD_DIR } : {}),
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_CONTENT: 'false',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const origin = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) throw new Error(`The site stopped: ${stderr}`);
    try {
      if ((await fetch(`${origin}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (tries > 150) throw new Error(`The site did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // Every worker is up: each answers on a new connection of its own sooner or later.
  const workers = new Set<number>();
  for (let tries = 0; workers.size < Number(env.WEB_CONCURRENCY ?? 1); tries++) {
    if (tries > 300) throw new Error(`Not every worker started: ${stderr}`);
    workers.add((JSON.parse((await get(`${origin}/healthz`)).body) as { worker: number }).worker);
    if (workers.size < Number(env.WEB_CONCURRENCY ?? 1)) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { origin, dataDir, child };
}

async function stopSite(site: Site | undefined): Promise<void> {
  if (!site) return;
  if (site.child.exitCode === null) {
    const exited = new Promise((resolve) => site.child.once('exit', resolve));
    site.child.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(site.dataDir, { recursive: true, force: true });
}

const bearer = { authorization: `Bearer ${TOKEN}` };

/** A GET on a connection of its own, which the kernel may hand to either worker. */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'] ?? '', body }),
        );
      })
      .on('error', reject);
  });
}

/** The value of one series in a Prometheus text answer, or undefined when it is not there. */
function series(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const labelText = line.slice(name.length + 1, line.indexOf('}'));
    const found = Object.fromEntries(
      labelText.split(',').map((pair) => pair.split('=').map((part) => part.replace(/^"|"$/g, ''))),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('the operator’s figures, two workers', () => {
  let site: Site | undefined;
  beforeAll(async () => {
    site = await startSite({ WEB_CONCURRENCY: '2', METRICS_TOKEN: TOKEN });
  }, 60_000);
  afterAll(() => stopSite(site), 30_000);

  it('refuses /metrics and /healthz?detail without the token, or with another', async () => {
    for (const url of ['/metrics', '/healthz?detail']) {
      expect((await fetch(site!.origin + url)).status).toBe(401);
      expect((await fetch(site!.origin + url, { headers: { authorization: `Bearer ${TOKEN.replace('0', '1')}` } })).status).toBe(
        401,
      );
      expect((await fetch(site!.origin + url, { headers: { authorization: TOKEN } })).status).toBe(401);
    }
    // The cheap check stays open and small.
    const health = await fetch(`${site!.origin}/healthz`);
    expect(health.status).toBe(200);
    expect(Object.keys(await health.json())).not.toContain('checks');
  });

  it('counts a request under its route and a waiting job, for the whole site whichever worker answers', async () => {
    const before = (await get(`${site!.origin}/metrics`, bearer)).body;
    const aboutBefore = series(before, 'site_http_requests_total', { route: '/about', method: 'GET', status: '200' }) ?? 0;
    // Each read to its end: a request is counted once its answer has gone out whole. No page reads
    // `visit` (server/query-check.ts), so after the first these are the page cache's: still /about.
    for (let i = 0; i < 6; i++) expect((await get(`${site!.origin}/about?visit=${i}`)).status).toBe(200);
    // A job of a kind no process runs waits in the default lane.
    const db = new SQLite(path.join(site!.dataDir, 'tdg.sqlite'));
    const past = new Date(Date.now() - 90_000).toISOString();
    db.prepare('INSERT INTO jobs (id, kind, run_at, created_at) VALUES (?, ?, ?, ?)').run(
      'figures-job',
      'figures.never',
      past,
      past,
    );
    db.close();
    // Each worker reads the job backlog at most once a second (server/metrics.ts): past that, every scrape sees the job.
    await new Promise((resolve) => setTimeout(resolve, 1_100));

    // Scrapes on new connections spread over both workers; each must give the whole site's counts.
    const scrapes: string[] = [];
    for (let i = 0; i < 8; i++) {
      const answer = await get(`${site!.origin}/metrics`, bearer);
      expect(answer.status).toBe(200);
      expect(answer.type).toMatch(/^text\/plain/);
      scrapes.push(answer.body);
    }
    for (const text of scrapes) {
      expect(series(text, 'site_http_requests_total', { route: '/about', method: 'GET', status: '200' })).toBe(aboutBefore + 6);
      expect(series(text, 'site_jobs', { lane: 'default', state: 'waiting' })).toBe(1);
      expect(series(text, 'site_jobs_oldest_waiting_seconds', { lane: 'default' })).toBeGreaterThanOrEqual(90);
      expect(series(text, 'site_mail_total', { outcome: 'failed' })).toBe(0);
      // One heap series per worker thread, and the process's resident memory once.
      for (const worker of ['1', '2'])
        expect(series(text, 'site_worker_heap_bytes', { worker, state: 'total' })).toBeGreaterThan(10 * 1024 * 1024);
      expect(text.split('\n').filter((line) => line.startsWith('site_worker_heap_bytes{'))).toHaveLength(4);
      const resident = text.split('\n').filter((line) => line.startsWith('process_resident_memory_bytes '));
      expect(resident).toHaveLength(1);
      expect(Number(resident[0]!.split(' ').pop())).toBeGreaterThan(60 * 1024 * 1024);
      expect(text).toMatch(/^site_http_request_duration_seconds_bucket\{.*route="\/about".*\} \d+$/m);
      expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
      expect(text).toMatch(/^site_page_cache_entries \d+$/m);
    }
  });

  it('details each part: the database ok, mail kept in the outbox (a warning), the waiting job', async () => {
    const answer = await fetch(`${site!.origin}/healthz?detail`, { headers: bearer });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const detail = (await answer.json()) as { status: string; checks: Record<string, { status: string; reason: string }> };
    expect(detail.checks.database!.status).toBe('ok');
    expect(detail.checks.mediaStore!.status).toBe('ok');
    expect(detail.checks.mail!.status).toBe('warn');
    expect(detail.checks.jobs!.reason).toMatch(/^1 waiting \(the oldest \d+ s\)/);
    expect(['ok', 'warn']).toContain(detail.checks.disk!.status);
    expect(detail.status).toBe('warn');
  });
});

describe('the operator’s figures, off', () => {
  let site: Site | undefined;
  beforeAll(async () => {
    site = await startSite({ WEB_CONCURRENCY: '1' });
  }, 60_000);
  afterAll(() => stopSite(site), 30_000);

  it('are not there without METRICS_TOKEN', async () => {
    expect((await fetch(`${site!.origin}/metrics`, { headers: bearer })).status).toBe(404);
    expect((await fetch(`${site!.origin}/healthz?detail`, { headers: bearer })).status).toBe(404);
  });
});
