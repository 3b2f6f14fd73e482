import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/free-port';
import { CROSS_ORIGIN_REFUSAL } from '~/server/http/origin-guard.server';

// The site started the way the README starts it (`npm start`: build/start/server.js with no NODE_ENV, as
// many worker threads as WEB_CONCURRENCY says, a fresh DATA_DIR, demo content) must run as production:
// React's production build in every worker, files only the site user can read, quiet and honest logs.
// The journeys and the bench set NODE_ENV themselves, so they never saw the development build serve.

const root = path.resolve(import.meta.dirname, '../..');
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-production-start-'));
const dataDir = path.join(temp, 'data');
const reportReactBuild = pathToFileURL(path.join(root, 'tests/support/report-react-build.mjs')).href;

let child: ChildProcess;
let url: string;
let stdout = '';
let stderr = '';

beforeAll(async () => {
  const port = await freePort();
  // What `npm start` runs: server.ts as JavaScript, written by scripts/ensure-build.ts into the build.
  const entry = path.join(root, process.env.BUILD_DIR ?? 'build', 'start', 'server.js');
  child = spawn(process.execPath, [entry], {
    cwd: root,
    env: {
      // Nothing but what a fresh shell has: no NODE_ENV.
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_CONCURRENCY: '2',
      LOG_LEVEL: 'info',
      ...(process.env.BUILD_DIR ? { BUILD_DIR: process.env.BUILD_DIR } : {}),
      // Only watches: says which build of React's server renderer each process loads.
      NODE_OPTIONS: `--import=${reportReactBuild}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  url = `http://127.0.0.1:${port}`;
  // Up when both workers answer (the second starts once the first listens).
  const workers = new Set<number>();
  while (workers.size < 2) {
    if (child.exitCode !== null) throw new Error(`The site did not start: ${stderr}`);
    const health = await get('/healthz').then(
      (response) => JSON.parse(response.body) as { worker: number },
      () => undefined,
    );
    if (health) workers.add(health.worker);
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(temp, { recursive: true, force: true });
});

/** A GET on a connection of its own, so that the kernel may hand it to either worker. */
function get(address: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${url}${address}`, { agent: false }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

/** The JSON log lines written so far. */
function logLines(): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Waits until a log line matches (the request log is written as each answer finishes). */
async function logged(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  for (let i = 0; i < 100; i++) {
    const line = logLines().find(match);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`No such log line in:\n${stdout}`);
}

describe('the site as npm start runs it', () => {
  it("renders with React's production build in every worker, and /healthz says production", async () => {
    // One process; each new connection goes to either worker thread.
    const pids = new Set<number>();
    for (let i = 0; i < 6; i++) {
      const health = JSON.parse((await get('/healthz')).body) as { mode: string; pid: number };
      expect(health.mode).toBe('production');
      pids.add(health.pid);
    }
    expect(pids.size).toBe(1);
    // Each worker thread loads React's server renderer once, as its production build (pages on new
    // connections until both have rendered one).
    const builds = () => stderr.split('\n').filter((line) => line.startsWith('react-dom/server build:'));
    const threads = () => new Set(builds().map((line) => /thread (\d+)\)$/.exec(line)?.[1]));
    for (let i = 0; i < 200 && threads().size < 2; i++) expect((await get(`/blog?page-view=${i}`)).status).toBe(200);
    expect(threads().size).toBe(2);
    expect(builds()).toHaveLength(2);
    for (const line of builds()) {
      expect(line).toMatch(/^react-dom\/server build: production \(pid \d+, thread \d+\)$/);
      expect(line).toContain(`(pid ${[...pids][0]},`);
    }
    // No warning that NODE_ENV is not production.
    expect(logLines().filter((line) => line.level === 'warn' && String(line.msg).includes('NODE_ENV'))).toEqual([]);
  });

  it('refuses a write from another site with a 403 and a warn line, and logs no error', async () => {
    const response = await fetch(`${url}/contact`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Bot&email=bot%40example.org&subject=Hi&message=Hello',
    });
    expect(response.status).toBe(403);
    expect(await response.text()).toBe(CROSS_ORIGIN_REFUSAL);
    expect(await logged((line) => line.msg === 'a write from another site was refused')).toMatchObject({
      level: 'warn',
      method: 'POST',
      path: '/contact',
      origin: 'https://evil.example',
    });
    await logged((line) => line.msg === 'request' && line.status === 403);
    expect(logLines().filter((line) => line.level === 'error' || line.level === 'fatal')).toEqual([]);
  });

  it("never logs a preview link's token, on the page or its data address", async () => {
    const token = 'NotAToken_ButSecretAll-the-same42';
    for (const address of [`/preview/${token}`, `/preview/${token}.data`]) await get(address);
    // Both answers were logged, with the token cut out.
    await logged((line) => line.msg === 'request' && line.path === '/preview/[token]');
    for (let i = 0; i < 100 && logLines().filter((line) => line.path === '/preview/[token]').length < 2; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logLines().filter((line) => line.path === '/preview/[token]')).toHaveLength(2);
    expect(stdout).not.toContain(token);
  });

  it('creates DATA_DIR, the database, the uploads and the backups for the site user only', () => {
    const found: [string, string][] = [];
    for (const entry of ['', ...fs.readdirSync(dataDir, { recursive: true }).map(String)]) {
      const stat = fs.statSync(path.join(dataDir, entry));
      found.push([entry || 'DATA_DIR', `${stat.isDirectory() ? 'folder' : 'file'} ${(stat.mode & 0o7777).toString(8)}`]);
    }
    const names = found.map(([name]) => name);
    for (const expected of ['tdg.sqlite', 'tdg.sqlite-wal', 'uploads', 'super-admin-password.txt'])
      expect(names).toContain(expected);
    expect(names.some((name) => name.startsWith('uploads/blogs/'))).toBe(true);
    expect(found.filter(([, mode]) => mode !== 'folder 700' && mode !== 'file 600')).toEqual([]);
  });

  it('does the first-start work in a process of its own, which then ends: no serving process holds it (issue 29)', () => {
    const lines = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { pid?: number; msg?: string });
    const seeded = lines.find((line) => line.msg === 'demo content added to the empty database');
    const serving = lines.filter((line) => line.msg?.includes('website is running at'));
    expect(seeded?.pid).toBeDefined();
    expect(serving).toHaveLength(2);
    expect(serving.map((line) => line.pid)).not.toContain(seeded!.pid);
    // The two workers are threads of the one process that started them.
    const started = lines.find((line) => line.msg === 'started 2 worker threads');
    expect(started?.pid).not.toBe(seeded!.pid);
    expect(serving.map((line) => line.pid)).toEqual([started!.pid, started!.pid]);
    // Said once, though the password file outlives the first start.
    expect(lines.filter((line) => line.msg?.startsWith('the generated super admin password is still on disk'))).toHaveLength(1);
  });

  it('runs a server bundle V8 can hold at one byte a character: nothing in it is past Latin-1 (issue 29)', () => {
    const server = path.join(root, process.env.BUILD_DIR ?? 'build', 'server');
    const files = fs.readdirSync(server, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.js'));
    expect(files.length).toBeGreaterThan(1);
    for (const name of files) {
      const wide = fs.readFileSync(path.join(server, name), 'utf8').match(/[\u0100-\uffff]/)?.[0];
      expect(wide, `${name} holds a character past Latin-1`).toBeUndefined();
    }
  });
});
