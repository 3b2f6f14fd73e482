import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// Decision 040: the main thread's supervision of the worker threads (server/primary.ts), over stand-in
// workers (tests/support/threads/worker.ts) that fail when told to. The site's own threads are
// started the same way in tests/unit/production-start.test.ts and tests/e2e/workers.spec.ts.

const main = path.resolve(import.meta.dirname, '../tests/support/threads/main.ts');

interface Run {
  lines: { msg: string; [field: string]: unknown }[];
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stop(): void;
  /** Resolves once a line with this message (and these fields) has been written. */
  said(msg: string, fields?: Record<string, unknown>): Promise<void>;
}

const running = new Set<ReturnType<typeof spawn>>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

function run(env: Record<string, string>): Run {
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  running.add(child);
  const lines: Run['lines'] = [];
  const waiting: (() => void)[] = [];
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const complete = buffered.split('\n');
    buffered = complete.pop()!;
    for (const line of complete) if (line.trim()) lines.push(JSON.parse(line) as Run['lines'][number]);
    for (const check of waiting.splice(0)) check();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const has = (msg: string, fields: Record<string, unknown>) =>
    lines.some((line) => line.msg === msg && Object.entries(fields).every(([key, value]) => line[key] === value));
  return {
    lines,
    exited,
    stop: () => child.kill('SIGTERM'),
    said: (msg, fields = {}) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`never said “${msg}”: ${JSON.stringify(lines)}`)), 20_000);
        const check = () => {
          if (has(msg, fields)) {
            clearTimeout(timer);
            resolve();
          } else waiting.push(check);
        };
        check();
      }),
  };
}

describe('the worker threads’ supervisor', () => {
  it('starts the first worker, then the others once it listens, and stops them all on SIGTERM', async () => {
    const site = run({ WORKERS: '3' });
    await site.said('started 3 worker threads');
    await site.said('listening', { worker: 2 });
    await site.said('listening', { worker: 3 });
    expect(site.lines.filter((line) => line.msg === 'listening').map((line) => line.worker)).toHaveLength(3);
    // Worker 1 listened before any other was started (the workers write straight to the output).
    expect(site.lines.findIndex((line) => line.msg === 'listening' && line.worker === 1)).toBeLessThan(
      site.lines.findIndex((line) => line.msg === 'started 3 worker threads'),
    );
    site.stop();
    expect(await site.exited).toBe(0);
    expect(site.lines.at(-1)?.msg).toBe('stopped');
  });

  it('gathers every worker’s figures for the one that was scraped', async () => {
    const site = run({ WORKERS: '3' });
    await site.said('gathered', { worker: 2 });
    const gathered = site.lines.find((line) => line.msg === 'gathered')!;
    // Worker 2 asked while worker 3 may not have been listening yet: at least the two that were.
    expect((gathered.parts as number[]).toSorted()).toEqual(expect.arrayContaining([1, 2]));
    site.stop();
    expect(await site.exited).toBe(0);
  });

  it('starts a worker that failed again, under a new number, and the site goes on', async () => {
    const site = run({ WORKERS: '2', FAIL: 'second' });
    await site.said('a worker stopped unexpectedly; starting another', { worker: 2, code: 1, restartInMs: 0 });
    await site.said('listening', { worker: 3 });
    // The new worker's scrape reaches worker 1 and itself, not the one that ended.
    await site.said('gathered', { worker: 3 });
    const gathered = site.lines.find((line) => line.msg === 'gathered' && line.worker === 3)!;
    expect((gathered.parts as number[]).toSorted()).toEqual([1, 3]);
    site.stop();
    expect(await site.exited).toBe(0);
  });

  it('stops at once when told to while the first worker starts, and starts no other', async () => {
    const site = run({ WORKERS: '2', FAIL: 'slow' });
    await site.said('starting', { worker: 1 });
    site.stop();
    expect(await site.exited).toBe(0);
    expect(site.lines.filter((line) => line.msg === 'starting').map((line) => line.worker)).toEqual([1]);
    expect(site.lines.at(-1)?.msg).toBe('stopped');
  });

  it('ends with the first worker’s code when it cannot start, rather than starting it over', async () => {
    const site = run({ WORKERS: '2', FAIL: 'before' });
    expect(await site.exited).toBe(3);
    expect(site.lines.filter((line) => line.msg === 'listening')).toEqual([]);
    expect(site.lines.some((line) => line.msg === 'a worker stopped unexpectedly; starting another')).toBe(false);
  });
});
