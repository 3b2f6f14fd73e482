// Issue 15: the primary process of a site run with WEB_CONCURRENCY above 1
// (docs/decisions/017-every-core-and-invalidation.md). It serves nothing: it forks the workers,
// starts a crashed one again, relays public-page changes between them and stops them all. It loads
// only Node's modules, ./web-concurrency.ts and ./metrics.ts (whose prom-client it loads only when
// METRICS_TOKEN is set).
import cluster, { type Worker } from 'node:cluster';
import { ALLOCATOR_SETTINGS, isBroadcast, restartDelay, CRASH_WINDOW_MS } from './web-concurrency.ts';
import { serveClusterMetrics } from './metrics.ts';

/** The primary's own log lines, shaped like the site's (it loads no logger: it serves nothing). */
function primaryLog(level: 'info' | 'warn' | 'error', fields: Record<string, unknown>, msg: string): void {
  const order = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];
  const wanted = order.indexOf((process.env.LOG_LEVEL ?? 'info').trim().toLowerCase());
  if (wanted > order.indexOf(level)) return;
  process.stdout.write(`${JSON.stringify({ level, time: new Date().toISOString(), ...fields, msg })}\n`);
}

/**
 * Memory (docs/decisions/017): rendering makes much short-lived garbage, and left to its defaults
 * each worker grew past 500 MB resident under load, most of it heap V8 and the C allocator keep
 * without needing it. A young generation of 4 MB instead of 16, an old generation that grows no
 * further than 192 MB (the live set is about 50), two allocator arenas instead of one per thread,
 * and freed memory handed back to the system kept each worker near 200 MB. Issue 29: V8's middle
 * compiler (Maglev) took up to 45 MB of C heap while compiling under a first load, which the
 * allocator then kept; without it a process peaked about 40 MB lower at the same CPU per request
 * (docs/decisions/034-no-maglev.md). Settings the operator chose in NODE_OPTIONS or the environment
 * are left alone.
 */
export function workerSettings(): { execArgv: string[]; env: Record<string, string> } {
  const chosen = `${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`;
  const flags = [
    ...(chosen.includes('semi-space') ? [] : ['--max-semi-space-size=4']),
    ...(chosen.includes('old-space') ? [] : ['--max-old-space-size=192']),
    ...(chosen.includes('maglev') ? [] : ['--no-maglev']),
  ];
  const env = Object.fromEntries(Object.entries(ALLOCATOR_SETTINGS).filter(([name]) => process.env[name] === undefined));
  return { execArgv: [...process.execArgv, ...flags], env };
}

/**
 * Starts one worker and waits for it to listen: it checks the settings and does the first-start
 * work (migrations, the super admin, demo content) alone. If it cannot start, it has said why in one
 * line, and the primary ends with its exit code rather than starting it over. Then the other workers
 * start; each one that dies is started again after `restartDelay`.
 */
export function runPrimary(count: number): void {
  const crashes: number[] = [];
  const restarts = new Set<NodeJS.Timeout>();
  let started = false;
  let stopping = false;

  const { execArgv, env } = workerSettings();
  cluster.setupPrimary({ execArgv });
  const fork = () => cluster.fork(env);

  // Issue 29: with METRICS_TOKEN set, a worker asked for /metrics gets every worker's figures from here.
  if (process.env.METRICS_TOKEN?.trim()) void serveClusterMetrics();

  // A message one worker broadcasts (a change to public pages) goes to every other worker.
  cluster.on('message', (from: Worker, message: unknown) => {
    if (!isBroadcast(message)) return;
    for (const worker of Object.values(cluster.workers ?? {}))
      if (worker && worker !== from && worker.isConnected()) worker.send(message as object);
  });

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
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
    primaryLog(
      'error',
      { pid: worker.process.pid, code, signal, restartInMs: delay },
      'a worker stopped unexpectedly; starting another',
    );
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (!stopping) fork();
    }, delay);
    restarts.add(timer);
  });

  const first = fork();
  first.once('listening', () => {
    started = true;
    for (let i = 1; i < count; i++) fork();
    primaryLog('info', { workers: count, pid: process.pid }, `started ${count} worker processes`);
  });

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    primaryLog('info', { signal }, 'shutting down every worker');
    for (const timer of restarts) clearTimeout(timer);
    const running = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => !!worker);
    if (running.length === 0) process.exit(0);
    // Each worker finishes its requests and the jobs in hand (at most ~10 s), as a single process does.
    for (const worker of running) worker.process.kill('SIGTERM');
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      primaryLog('error', {}, 'workers did not stop within 30 s: ended them');
      process.exit(1);
    }, 30_000).unref();
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(signal));
}
