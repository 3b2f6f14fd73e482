// Starts the site: loads the production build (or, with --dev, the sources through Vite), listens on
// HOST:PORT and shuts down gracefully on SIGTERM or SIGINT. The site is server/app.ts, built into one
// bundle with the routes. With WEB_CONCURRENCY above 1 the main thread serves nothing: it runs this
// module again in each worker thread, which serves (decisions 017 and 040).
// `npm start` runs it as build/start/server.js, without its types (scripts/ensure-build.ts).
// First: NODE_ENV and the file mode mask, before anything else loads (server/process-defaults.ts).
import { dev, startWarnings } from './server/process-defaults.ts';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort } from 'node:worker_threads';
import type { ViteDevServer } from 'vite';
import type * as SiteModule from './server/app.ts';
import { buildDirOf, closeGracefully, listen, listenProblem, siteUrl } from './server/listen.ts';
import { runPrimary, workerSettings, type FromWorker, type ToWorker } from './server/primary.ts';
import { parseWebConcurrency, siteWorkerNumber } from './server/web-concurrency.ts';

const buildDir = buildDirOf(import.meta.dirname);
/** Set for the short-lived process that does the first-start work (prepareInChild). */
const FIRST_START_ONLY = 'SITE_FIRST_START_ONLY';

function fail(message: string): never {
  process.stderr.write(`Cannot start: ${message}\n`);
  process.exit(1);
}

/** This thread's number when it is one of several workers (server/primary.ts starts them). */
const worker = siteWorkerNumber();
let workers = 1; // development always runs one thread: Vite serves the sources and reloads them
if (!dev && isMainThread) {
  try {
    workers = parseWebConcurrency(process.env.WEB_CONCURRENCY);
  } catch (error) {
    fail((error as Error).message);
  }
}
if (!dev && isMainThread) {
  if (process.env[FIRST_START_ONLY] === '1') {
    await prepareOnly();
    process.exit(0);
  }
  await prepareInChild();
}
if (isMainThread && workers > 1) runPrimary(workers, pathToFileURL(process.argv[1]!));
else await runSite();

async function loadSiteModule(): Promise<typeof SiteModule> {
  const entry = path.join(buildDir, 'server', 'index.js');
  if (!fs.existsSync(entry)) fail('No production build found: run `npm run build` (npm start does this for you)');
  return (await import(pathToFileURL(entry).href)) as typeof SiteModule;
}

/** The child's part: the first-start work, then the end of the process. */
async function prepareOnly(): Promise<void> {
  await (await loadSiteModule()).prepareSite();
}

/**
 * Issue 29: before anything serves, the first-start work runs in a process of its own that then
 * ends (app.ts `prepareSite`), with the workers' memory settings; its output is this process's. A
 * start with nothing to do costs about a second. If it fails, it has said why, and this process ends
 * with its code.
 */
async function prepareInChild(): Promise<void> {
  const { execArgv, env } = workerSettings();
  const child = spawn(process.execPath, [...execArgv, process.argv[1]!, ...process.argv.slice(2)], {
    env: { ...process.env, ...env, [FIRST_START_ONLY]: '1' },
    stdio: 'inherit',
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGTERM', forward);
  process.on('SIGINT', forward);
  const code = await new Promise<number>((resolve) => child.once('exit', (exit, signal) => resolve(exit ?? (signal ? 1 : 0))));
  process.off('SIGTERM', forward);
  process.off('SIGINT', forward);
  if (code !== 0) process.exit(code);
}

async function runSite(): Promise<void> {
  // Signals reach the main thread only: it asks each worker to stop, perhaps while the worker is still
  // starting (heard from the start, acted on once it listens).
  let stopAsked: ((signal: string) => void) | undefined;
  let askedEarly = false;
  parentPort?.on('message', (message: ToWorker) => {
    if (message.type !== 'stop') return;
    if (stopAsked) stopAsked('SIGTERM');
    else askedEarly = true;
  });
  let vite: ViteDevServer | undefined;
  let site: SiteModule.Site;
  if (dev) {
    const { createServer } = await import('vite');
    vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' });
    const module = (await vite.ssrLoadModule('/server/app.ts')) as typeof SiteModule;
    site = await module.createSite({ dev, clientDir: '', devMiddleware: vite.middlewares });
  } else {
    site = await (await loadSiteModule()).createSite({ dev, clientDir: path.join(buildDir, 'client') });
  }

  const { app, config, logger } = site;
  // Said once, by the first worker (or the only thread).
  if (worker === undefined || worker === 1)
    for (const { fields, message } of startWarnings(config.dataDir)) logger.warn(fields, message);
  // Workers share the port (SO_REUSEPORT); the first makes sure no other program holds it first.
  const sharing = worker === undefined ? undefined : { firstOfSite: worker === 1 };
  const server = await listen(app, config.host, config.port, sharing).catch(async (error: NodeJS.ErrnoException) => {
    await site.close();
    await vite?.close();
    const problem = listenProblem(error, config.host, config.port);
    if (problem) fail(problem);
    throw error;
  });
  const url = siteUrl(config.host, config.port);
  const where = { url, database: config.databaseUrl ? 'postgres' : 'sqlite', pid: process.pid, worker };
  logger.info(where, `${config.organisation.name} website is running at ${url}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Jobs in hand finish (a transcode stops ffmpeg and is handed back); queued ones wait for the next start.
    // In a worker thread, process.exit ends the thread; the main thread ends once every worker has.
    closeGracefully(server, async () => {
      await site.close();
      await vite?.close();
    }).then(
      () => (logger.info('stopped'), process.exit(0)),
      (error: unknown) => (logger.error({ err: error }, 'shutdown failed'), process.exit(1)),
    );
  };
  if (worker === undefined) for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(signal));
  else {
    stopAsked = stop;
    parentPort!.postMessage({ type: 'listening' } satisfies FromWorker);
    if (askedEarly) stop('SIGTERM');
  }
}
