import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { test, expect } from './fixtures';
import { postSave } from './content-fixtures';
import { serverDatabase, type ServerDatabase } from './engines';
import { apiSignIn } from './staff';
import { startServer, type OtherServer } from './support';

// Issue 15, item 2, and decision 040: the built site with WEB_CONCURRENCY=2. Two worker threads answer
// on one port; a story published through one worker shows at once on the other worker's cached list
// (on SQLite through the threads' BroadcastChannel, on PostgreSQL through LISTEN/NOTIFY); SIGTERM stops
// them all. A worker that fails is started again: server/primary.test.ts.

const ADMIN = { email: 'workers@e2e.example', password: 'workers-Super-admin-passphrase' };

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A GET through `agent`. */
function get(base: string, path: string, agent: http.Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${path}`, { agent }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      })
      .on('error', reject);
  });
}

/**
 * Each worker's answer for `path`: the kernel hands each new connection to either worker thread, so
 * pairs of requests on new connections (which worker this is, then `path`) until every one answered.
 */
async function eachWorkersAnswer(base: string, path: string, workers = 2): Promise<Map<number, Answer>> {
  const answers = new Map<number, Answer>();
  for (let i = 0; i < 300 && answers.size < workers; i++) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const health = await get(base, '/healthz', agent);
      expect(health.status).toBe(200);
      const worker = (JSON.parse(health.body) as { worker: number }).worker;
      const answer = await get(base, path, agent);
      if (!answers.has(worker)) answers.set(worker, answer);
    } finally {
      agent.destroy();
    }
  }
  expect([...answers.keys()].sort()).toEqual(Array.from({ length: workers }, (_, i) => i + 1));
  return answers;
}

test('two worker threads: each answers, a change reaches both caches, SIGTERM stops all', async ({ engine, playwright }) => {
  // Two workers starting (one after the other) and the demo content, on a busy machine.
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
    // Both answer: the second starts once the first listens.
    await expect.poll(async () => (await eachWorkersAnswer(base, '/healthz')).size, { timeout: 120_000 }).toBe(2);

    // Both workers have /news cached.
    await expect
      .poll(async () => [...(await eachWorkersAnswer(base, '/news')).values()].map((answer) => answer.headers['x-cache']), {
        timeout: 30_000,
      })
      .toEqual(['HIT', 'HIT']);

    // A story published through one worker shows on both at once.
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
        async () => [...(await eachWorkersAnswer(base, '/news')).values()].map((answer) => answer.body.includes(published.title)),
        { timeout: 2_000, intervals: [50] },
      )
      .toEqual([true, true]);

    // SIGTERM stops every worker, then the process, cleanly.
    expect(await server.stop()).toBe(0);
    expect(server.stdout()).toContain('"msg":"stopped"');
  } finally {
    await server?.dispose();
    await data?.dispose();
  }
});
