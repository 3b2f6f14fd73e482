// Starts the site: loads the production build (or, with --dev, the sources through Vite), listens on
// HOST:PORT and shuts down gracefully on SIGTERM or SIGINT. The site itself is server/app.ts, built
// into the same bundle as the routes, so every module exists once. `npm start` / `npm run dev`.
// Issue 15: with WEB_CONCURRENCY above 1 (the default: one per CPU core) this process is only the
// primary: it starts that many workers, each running the site on the same port, starts a crashed
// one again and stops them all on SIGTERM or SIGINT (docs/decisions/017-every-core-and-invalidation.md).
// First: NODE_ENV and the file mode mask, before anything else loads (server/process-defaults.ts).
import { dev, startWarnings } from './server/process-defaults.ts';
import cluster, { type Worker } from 'node:cluster';
import fs from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ViteDevServer } from 'vite';
import type * as SiteModule from './server/app.ts';
import { isBroadcast, parseWebConcurrency, restartDelay, CRASH_WINDOW_MS } from './server/web-concurrency.ts';

const buildDir = path.resolve(import.meta.dirname, process.env.BUILD_DIR ?? 'build');

function fail(message: string): never {
  process.stderr.write(`Cannot start: ${message}\n`);
  process.exit(1);
}

// Development always runs one process: Vite serves the sources and reloads them.
let workers = 1;
if (!dev && cluster.isPrimary) {
  try {
    workers = parseWebConcurrency(process.env.WEB_CONCURRENCY);
  } catch (error) {
    fail((error as Error).message);
  }
}
if (cluster.isPrimary && workers > 1) runPrimary(workers);
else await runSite();

async function runSite(): Promise<void> {
  let vite: ViteDevServer | undefined;
  let site: SiteModule.Site;
  if (dev) {
    const { createServer } = await import('vite');
    vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' });
    const module = (await vite.ssrLoadModule('/server/app.ts')) as typeof SiteModule;
    site = await module.createSite({ dev, clientDir: '', devMiddleware: vite.middlewares });
  } else {
    const entry = path.join(buildDir, 'server', 'index.js');
    if (!fs.existsSync(entry)) fail('No production build found: run `npm run build` (npm start does this for you)');
    const module = (await import(pathToFileURL(entry).href)) as typeof SiteModule;
    site = await module.createSite({ dev, clientDir: path.join(buildDir, 'client') });
  }

  const { app, config, logger } = site;
  // Said once, by the first worker (or the only process).
  if (!cluster.isWorker || cluster.worker?.id === 1)
    for (const { fields, message } of startWarnings(config.dataDir)) logger.warn(fields, message);
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(config.port, config.host, (error?: Error) => (error ? reject(error) : resolve(listening)));
    listening.once('error', reject);
  }).catch(async (error: NodeJS.ErrnoException) => {
    await site.close();
    await vite?.close();
    if (error.code === 'EADDRINUSE')
      fail(`Port ${config.port} is already in use: stop the other program or set PORT to a free port`);
    if (error.code === 'EACCES') fail(`Port ${config.port} needs more privileges: set PORT to 1024 or higher`);
    if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
      fail(`HOST ${config.host} is not an address of this machine`);
    throw error;
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 30_000;

  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  const url = `http://${wildcard ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  logger.info(
    {
      url,
      database: config.databaseUrl ? 'postgres' : 'sqlite',
      pid: process.pid,
      ...(cluster.isWorker ? { worker: cluster.worker!.id } : {}),
    },
    `${config.organisation.name} website is running at ${url}`,
  );

  let stopping = false;
  async function stop(signal: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Stop accepting, let in-flight requests finish (at most 10 s), let the jobs in hand finish or,
    // for a transcode, stop ffmpeg and hand the job back (jobs not yet started stay queued for the next
    // start), then close the database.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const force = setTimeout(() => server.closeAllConnections(), 10_000);
    force.unref();
    await closed;
    clearTimeout(force);
    await site.close();
    await vite?.close();
    logger.info('stopped');
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.on(signal, () => {
      stop(signal).then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
}

/** The primary's own log lines, shaped like the site's (it loads no logger: it serves nothing). */
function primaryLog(level: 'info' | 'warn' | 'error', fields: Record<string, unknown>, msg: string): void {
  const order = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];
  const wanted = order.indexOf((process.env.LOG_LEVEL ?? 'info').trim().toLowerCase());
  if (wanted > order.indexOf(level)) return;
  process.stdout.write(`${JSON.stringify({ level, time: new Date().toISOString(), ...fields, msg })}\n`);
}

/**
 * Starts one worker and waits for it to listen: it checks the settings and does the first-start
 * work (migrations, the super admin, demo content) alone. If it cannot start, it has said why in one
 * line, and the primary ends with its exit code rather than starting it over. Then the other workers
 * start; each one that dies is started again after `restartDelay`.
 */
function runPrimary(count: number): void {
  const crashes: number[] = [];
  const restarts = new Set<NodeJS.Timeout>();
  let started = false;
  let stopping = false;

  // Memory (docs/decisions/017): rendering makes much short-lived garbage, and left to its defaults
  // each worker grew past 500 MB resident under load, most of it heap V8 and the C allocator keep
  // without needing it. A young generation of 4 MB instead of 16, an old generation that grows no
  // further than 192 MB (the live set is about 50), two allocator arenas instead of one per thread,
  // and freed memory handed back to the system kept each worker near 200 MB. Settings the operator
  // chose in NODE_OPTIONS or the environment are left alone.
  const chosen = `${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`;
  const flags = [
    ...(chosen.includes('semi-space') ? [] : ['--max-semi-space-size=4']),
    ...(chosen.includes('old-space') ? [] : ['--max-old-space-size=192']),
  ];
  cluster.setupPrimary({ execArgv: [...process.execArgv, ...flags] });
  const allocator = Object.fromEntries(
    Object.entries({ MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072', MALLOC_MMAP_THRESHOLD_: '131072' }).filter(
      ([name]) => process.env[name] === undefined,
    ),
  );
  const fork = () => cluster.fork(allocator);

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
