// Starts the site: loads the production build (or, with --dev, the sources through Vite), listens on
// HOST:PORT and shuts down gracefully on SIGTERM or SIGINT. The site itself is server/app.ts, built
// into the same bundle as the routes, so every module exists once. `npm start` / `npm run dev`.
import fs from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ViteDevServer } from 'vite';
import type * as SiteModule from './server/app.ts';

const dev = process.argv.includes('--dev');
if (dev) process.env.NODE_ENV ??= 'development';
const buildDir = path.resolve(import.meta.dirname, process.env.BUILD_DIR ?? 'build');

function fail(message: string): never {
  process.stderr.write(`Cannot start: ${message}\n`);
  process.exit(1);
}

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
const server = await new Promise<Server>((resolve, reject) => {
  const listening = app.listen(config.port, config.host, (error?: Error) => (error ? reject(error) : resolve(listening)));
  listening.once('error', reject);
}).catch(async (error: NodeJS.ErrnoException) => {
  await site.close();
  await vite?.close();
  if (error.code === 'EADDRINUSE')
    fail(`Port ${config.port} is already in use: stop the other program or set PORT to a free port`);
  if (error.code === 'EACCES') fail(`Port ${config.port} needs more privileges: set PORT to 1024 or higher`);
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') fail(`HOST ${config.host} is not an address of this machine`);
  throw error;
});
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.requestTimeout = 30_000;

const wildcard = config.host === '0.0.0.0' || config.host === '::';
const url = `http://${wildcard ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
logger.info(
  { url, database: config.databaseUrl ? 'postgres' : 'sqlite' },
  `${config.organisation.name} website is running at ${url}`,
);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  // Stop accepting, let in-flight requests finish (at most 10 s), let the job in hand finish (jobs
  // not yet started stay queued for the next start), then close the database.
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
