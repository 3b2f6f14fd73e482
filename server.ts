// Starts the site: loads the production build (or, with --dev, the sources through Vite), listens on
// HOST:PORT and shuts down gracefully on SIGTERM or SIGINT (`npm start` / `npm run dev`). The site is
// server/app.ts, built into one bundle with the routes. With WEB_CONCURRENCY above 1 (the default:
// one per core) this process is only the primary (server/primary.ts, decision 017).
import cluster from 'node:cluster';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ViteDevServer } from 'vite';
import type * as SiteModule from './server/app.ts';
import { closeGracefully, listen, listenProblem, siteUrl } from './server/listen.ts';
import { runPrimary } from './server/primary.ts';
import { parseWebConcurrency } from './server/web-concurrency.ts';

const dev = process.argv.includes('--dev');
if (dev) process.env.NODE_ENV ??= 'development';
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
  const server = await listen(app, config.host, config.port).catch(async (error: NodeJS.ErrnoException) => {
    await site.close();
    await vite?.close();
    const problem = listenProblem(error, config.host, config.port);
    if (problem) fail(problem);
    throw error;
  });
  const url = siteUrl(config.host, config.port);
  const database = config.databaseUrl ? 'postgres' : 'sqlite';
  const worker = cluster.isWorker ? { worker: cluster.worker!.id } : {};
  logger.info({ url, database, pid: process.pid, ...worker }, `${config.organisation.name} website is running at ${url}`);

  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'shutting down');
      // The jobs in hand finish or, for a transcode, stop ffmpeg and are handed back; jobs not yet
      // started stay queued for the next start.
      closeGracefully(server, async () => {
        await site.close();
        await vite?.close();
      }).then(
        () => (logger.info('stopped'), process.exit(0)),
        (error: unknown) => (logger.error({ err: error }, 'shutdown failed'), process.exit(1)),
      );
    });
}
