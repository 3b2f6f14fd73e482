import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { test, expect } from './fixtures';
import { postSave } from './content-fixtures';
import { serverDatabase, type ServerDatabase } from './engines';
import { apiSignIn } from './staff';
import { startServer, type OtherServer } from './support';

// Issue 15, item 2: the built site with WEB_CONCURRENCY=2 (docs/decisions/017). Two workers answer on
// one port; one that dies is started again and serves; a story published through one worker shows at
// once on the other worker's cached list (on SQLite through the primary, on PostgreSQL through
// LISTEN/NOTIFY); SIGTERM stops them all.

const ADMIN = { email: 'workers@e2e.example', password: 'workers-Super-admin-passphrase' };

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A GET on a connection of its own: the primary hands new connections to the workers in turn, so
 * consecutive requests reach every worker (fetch would keep one connection, and one worker).
 */
function get(base: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${path}`, { agent: false }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      })
      .on('error', reject);
  });
}

async function workerPid(base: string): Promise<number> {
  const health = await get(base, '/healthz');
  expect(health.status).toBe(200);
  return (JSON.parse(health.body) as { pid: number }).pid;
}

/** The pids of the workers answering now (asks until `count` different ones have answered). */
async function answeringPids(base: string, count: number): Promise<Set<number>> {
  const pids = new Set<number>();
  await expect
    .poll(
      async () => {
        pids.add(await workerPid(base));
        return pids.size;
      },
      { timeout: 120_000, intervals: [100] },
    )
    .toBeGreaterThanOrEqual(count);
  return pids;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('two worker processes: a crashed one is replaced, a change reaches both caches, SIGTERM stops all', async ({
  engine,
  playwright,
}) => {
  // Two workers starting (one after the other), the demo content and a restart on a busy machine.
  test.setTimeout(300_000);
  let data: ServerDatabase | undefined;
  let server: OtherServer | undefined;
  try {
    data = await serverDatabase(engine);
    server = await startServer(
      { ...data.env, WEB_CONCURRENCY: '2', SUPER_ADMIN_EMAIL: ADMIN.email, SUPER_ADMIN_PASSWORD: ADMIN.password },
      'tdg-workers-',
    );
    const base = `http://127.0.0.1:${server.port}`;
    const pids = await answeringPids(base, 2);
    expect(pids.size).toBe(2);

    // A worker dies: the primary starts another, which answers too.
    const [killed, survivor] = [...pids] as [number, number];
    process.kill(killed, 'SIGKILL');
    await expect.poll(() => isRunning(killed)).toBe(false);
    const after = new Set<number>();
    await expect
      .poll(
        async () => {
          after.add(await workerPid(base));
          return [...after].filter((pid) => pid !== killed && pid !== survivor).length;
        },
        { timeout: 120_000, intervals: [100] },
      )
      .toBe(1);
    expect(after.has(killed)).toBe(false);
    expect(server.stdout()).toContain('a worker stopped unexpectedly; starting another');
    const replacement = [...after].find((pid) => pid !== survivor)!;
    expect((await get(base, '/news')).status).toBe(200);

    // Both workers have /news cached: with connections handed out in turn, four in a row are hits.
    await expect
      .poll(
        async () => {
          const answers = [];
          for (let i = 0; i < 4; i++) answers.push((await get(base, '/news')).headers['x-cache']);
          return answers;
        },
        { timeout: 30_000 },
      )
      .toEqual(['HIT', 'HIT', 'HIT', 'HIT']);

    // A story published through one worker shows on the next four answers, whichever worker gives them.
    const staff = await playwright.request.newContext({ baseURL: base });
    try {
      await apiSignIn(staff, ADMIN);
      const title = `Every worker hears of ${randomBytes(3).toString('hex')}`;
      const saved = await postSave(staff, 'news', { title });
      expect(saved.status(), await saved.text()).toBe(200);
    } finally {
      await staff.dispose();
    }
    const published = await (
      await data.database()
    )
      .selectFrom('content')
      .select('title')
      .where('title', 'like', 'Every worker hears of %')
      .executeTakeFirstOrThrow();
    await expect
      .poll(
        async () => {
          const answers = [];
          for (let i = 0; i < 4; i++) answers.push((await get(base, '/news')).body.includes(published.title));
          return answers;
        },
        { timeout: 1_000, intervals: [50] },
      )
      .toEqual([true, true, true, true]);

    // SIGTERM to the primary stops every worker, then the primary, cleanly.
    expect(await server.stop()).toBe(0);
    for (const pid of [survivor, replacement]) expect(isRunning(pid), `worker ${pid}`).toBe(false);
  } finally {
    await server?.dispose();
    await data?.dispose();
  }
});
