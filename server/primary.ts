// Issue 15, then issue 29: the main thread of a site run with WEB_CONCURRENCY above 1
// (docs/decisions/017-every-core-and-invalidation.md, docs/decisions/040-workers-are-threads.md). It
// serves nothing: it starts the worker threads, each of which serves the site on the same port
// (SO_REUSEPORT), starts a crashed one again, gathers their metrics for a scrape and stops them all.
// It loads only Node's modules and ./web-concurrency.ts.
import { Worker } from 'node:worker_threads';
import { ALLOCATOR_SETTINGS, restartDelay, CRASH_WINDOW_MS, type SiteWorkerData } from './web-concurrency.ts';

/** The main thread's own log lines, shaped like the site's (it loads no logger: it serves nothing). */
function primaryLog(level: 'info' | 'warn' | 'error', fields: Record<string, unknown>, msg: string): void {
  const order = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];
  const wanted = order.indexOf((process.env.LOG_LEVEL ?? 'info').trim().toLowerCase());
  if (wanted > order.indexOf(level)) return;
  process.stdout.write(`${JSON.stringify({ level, time: new Date().toISOString(), ...fields, msg })}\n`);
}

/** The V8 heap flags a worker needs, when the operator did not choose them (see workerSettings). */
const chosenFlags = () => `${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`;

/**
 * Memory (docs/decisions/017): rendering makes much short-lived garbage, and left to its defaults
 * each worker grew past 500 MB resident under load, most of it heap V8 and the C allocator keep
 * without needing it. A young generation of 4 MB instead of 16, an old generation that grows no
 * further than 192 MB (the live set is about 50), two allocator arenas instead of one per thread,
 * and freed memory handed back to the system kept each worker near 200 MB. Issue 29: V8's middle
 * compiler (Maglev) took up to 45 MB of C heap while compiling under a first load, which the
 * allocator then kept; without it a process peaked about 40 MB lower at the same CPU per request
 * (docs/decisions/034-no-maglev.md). `npm start` gives the site's process these settings; this is for
 * the process that does the first-start work (server.ts). Settings the operator chose in NODE_OPTIONS
 * or the environment are left alone.
 */
export function workerSettings(): { execArgv: string[]; env: Record<string, string> } {
  const chosen = chosenFlags();
  const flags = [
    ...(chosen.includes('semi-space') ? [] : ['--max-semi-space-size=4']),
    ...(chosen.includes('old-space') ? [] : ['--max-old-space-size=192']),
    ...(chosen.includes('maglev') ? [] : ['--no-maglev']),
  ];
  const env = Object.fromEntries(Object.entries(ALLOCATOR_SETTINGS).filter(([name]) => process.env[name] === undefined));
  return { execArgv: [...process.execArgv, ...flags], env };
}

/**
 * The heap limits of each worker thread when the process was started without npm start's flags
 * (`node server.ts`): V8's flags reach every thread, limits given here only the one started with them.
 * A young generation is three semi-spaces.
 */
function workerHeapLimits(): { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number } {
  const chosen = chosenFlags();
  return {
    ...(chosen.includes('old-space') ? {} : { maxOldGenerationSizeMb: 192 }),
    ...(chosen.includes('semi-space') ? {} : { maxYoungGenerationSizeMb: 12 }),
  };
}

/** What the main thread and a worker thread say to each other. */
export type ToWorker =
  { type: 'stop' } | { type: 'metrics:collect'; id: string } | { type: 'metrics:answer'; id: string; parts: unknown[] };
export type FromWorker =
  { type: 'listening' } | { type: 'metrics:ask'; id: string } | { type: 'metrics:collected'; id: string; part: unknown };

/** How long a scrape waits for every worker's figures. */
const COLLECT_TIMEOUT_MS = 5_000;

/**
 * Starts one worker thread and waits for it to listen: it is the first to serve. If it cannot start,
 * it has said why in one line, and the process ends with its exit code rather than starting it over.
 * Then the other workers start; each one that ends (an uncaught error, a heap that ran out) is started
 * again after `restartDelay`. `entry` is the module each thread runs (server.ts itself).
 */
export function runPrimary(count: number, entry: URL): void {
  const crashes: number[] = [];
  const restarts = new Set<NodeJS.Timeout>();
  const workers = new Set<Worker>();
  let started = false;
  let stopping = false;
  let numbered = 0;
  const resourceLimits = workerHeapLimits();

  /** Scrapes in progress: the figures each worker sent, and who asked. */
  const collecting = new Map<string, { asker: Worker; parts: unknown[]; waiting: Set<Worker>; timer: NodeJS.Timeout }>();
  const answer = (id: string) => {
    const scrape = collecting.get(id);
    if (!scrape) return;
    collecting.delete(id);
    clearTimeout(scrape.timer);
    scrape.asker.postMessage({ type: 'metrics:answer', id, parts: scrape.parts } satisfies ToWorker);
  };

  const onMessage = (worker: Worker, message: FromWorker) => {
    if (message.type === 'metrics:ask') {
      // Every worker's figures, this one's included, gathered for the one that was scraped.
      const waiting = new Set(workers);
      const timer = setTimeout(() => answer(message.id), COLLECT_TIMEOUT_MS);
      collecting.set(message.id, { asker: worker, parts: [], waiting, timer });
      for (const each of waiting) each.postMessage({ type: 'metrics:collect', id: message.id } satisfies ToWorker);
    } else if (message.type === 'metrics:collected') {
      const scrape = collecting.get(message.id);
      if (!scrape || !scrape.waiting.delete(worker)) return;
      scrape.parts.push(message.part);
      if (scrape.waiting.size === 0) answer(message.id);
    }
  };

  const start = (): Worker => {
    const number = ++numbered;
    const worker = new Worker(entry, {
      workerData: { siteWorker: number } satisfies SiteWorkerData,
      argv: process.argv.slice(2),
      resourceLimits,
    });
    workers.add(worker);
    worker.on('message', (message: FromWorker) => onMessage(worker, message));
    // An error the thread did not catch ends it; the site's own handlers have logged what they saw.
    worker.on('error', (error) =>
      primaryLog('error', { err: { message: error.message, stack: error.stack } }, 'a worker failed'),
    );
    worker.on('exit', (code) => {
      workers.delete(worker);
      // A scrape waiting for this worker goes on without it.
      for (const [id, scrape] of collecting) if (scrape.waiting.delete(worker) && scrape.waiting.size === 0) answer(id);
      if (stopping) {
        if (workers.size === 0) {
          primaryLog('info', {}, 'stopped');
          process.exit(0);
        }
        return;
      }
      if (!started) process.exit(code || 1);
      const now = Date.now();
      crashes.push(now);
      while (crashes.length && now - crashes[0]! >= CRASH_WINDOW_MS) crashes.shift();
      const delay = restartDelay(crashes, now);
      primaryLog('error', { worker: number, code, restartInMs: delay }, 'a worker stopped unexpectedly; starting another');
      const timer = setTimeout(() => {
        restarts.delete(timer);
        if (!stopping) start();
      }, delay);
      restarts.add(timer);
    });
    return worker;
  };

  const first = start();
  const onFirstListening = (message: FromWorker) => {
    if (message.type !== 'listening') return;
    first.off('message', onFirstListening);
    started = true;
    // Asked to stop while the first was starting: it is stopping already, and no other starts.
    if (stopping) return;
    for (let i = 1; i < count; i++) start();
    primaryLog('info', { workers: count, pid: process.pid }, `started ${count} worker threads`);
  };
  first.on('message', onFirstListening);

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    primaryLog('info', { signal }, 'shutting down every worker');
    for (const timer of restarts) clearTimeout(timer);
    if (workers.size === 0) process.exit(0);
    // Each worker finishes its requests and the jobs in hand (at most ~10 s), as a single thread does.
    for (const worker of workers) worker.postMessage({ type: 'stop' } satisfies ToWorker);
    setTimeout(() => {
      primaryLog('error', {}, 'workers did not stop within 30 s: ended them');
      process.exit(1);
    }, 30_000).unref();
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(signal));
}
