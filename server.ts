// The HTTP server: settings, database, security headers, compression, static files, the health
// check, request logs, the React Router request handler and graceful shutdown.
// Run it with `npm start` (production build) or `npm run dev` (Vite, hot reload).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestHandler } from '@react-router/express';
import compression from 'compression';
import expressStaticGzip from 'express-static-gzip';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import helmet from 'helmet';
import { RouterContextProvider, type ServerBuild } from 'react-router';
import { bootstrapFailure, ConfigError, loadConfig, type Config } from './app/server/config.server.ts';
import { isDatabaseReachable, type DatabaseHandle } from './app/server/db/db.server.ts';
import { createLogger, redactPath, type Logger } from './app/server/logger.server.ts';
import { pageCache } from './app/server/page-cache.server.ts';
import { startBackgroundJobs, startServices } from './app/server/bootstrap.server.ts';
import { scheduleUploadPruning } from './app/server/media.server.ts';
import { requestContext } from './app/server/request-context.server.ts';
import { getUploadsRoot } from './app/server/storage.server.ts';

const ROOT = path.dirname(new URL(import.meta.url).pathname);
const BUILD_DIR = path.resolve(ROOT, process.env.BUILD_DIR ?? 'build');

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function createServer(config: Config, logger: Logger, options: { dev: boolean }) {
  const database = await startServices(config, logger);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);

  app.use((_req, res, next) => {
    res.locals.nonce = randomBytes(16).toString('base64');
    next();
  });
  app.use(securityHeaders(config, options.dev));
  app.use(compression());
  app.use(requestLog(logger));
  app.use(closeAfterRefusedBody);

  app.get('/healthz', async (_req, res) => {
    const ok = await isDatabaseReachable(database.db);
    res.set('Cache-Control', 'no-store');
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'unavailable', database: database.engine });
  });

  // Uploaded images have unique, timestamped names, so they never change once written.
  app.use('/media', express.static(getUploadsRoot(), { immutable: true, maxAge: '1y', index: false, fallthrough: false }));

  let build: ServerBuild | (() => Promise<ServerBuild>);
  let vite: { close(): Promise<void> } | undefined;
  if (options.dev) {
    const { createServer: createViteServer } = await import('vite');
    const devServer = await createViteServer({ server: { middlewareMode: true }, appType: 'custom' });
    vite = devServer;
    app.use(devServer.middlewares);
    build = () => devServer.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>;
  } else {
    const serverBuild = path.join(BUILD_DIR, 'server', 'index.js');
    if (!fs.existsSync(serverBuild))
      throw new ConfigError('No production build found: run `npm run build` (npm start does this for you)');
    build = (await import(pathToFileURL(serverBuild).href)) as ServerBuild;
    // Vite names every asset by its content hash, so a year of caching is safe. The build wrote
    // Brotli and gzip copies of each (vite.config.ts): sent as they are, never compressed per request.
    app.use(
      '/assets',
      expressStaticGzip(path.join(BUILD_DIR, 'client', 'assets'), {
        enableBrotli: true,
        orderPreference: ['br', 'gzip'],
        index: false,
        serveStatic: { immutable: true, maxAge: '1y', index: false },
      }),
    );
    app.use(express.static(path.join(BUILD_DIR, 'client'), { maxAge: '1h', index: false }));
  }

  // Anonymous public pages come from memory (docs/decisions/402-page-cache.md); not in development,
  // where every edit must show at once.
  if (!options.dev) app.use(pageCache());
  app.use(
    createRequestHandler({
      build,
      mode: options.dev ? 'development' : 'production',
      getLoadContext(req, res) {
        const context = new RouterContextProvider();
        context.set(requestContext, { nonce: String(res.locals.nonce), clientIp: req.ip ?? '' });
        return context;
      },
    }),
  );
  app.use(errorPage(logger));

  return { app, database, vite };
}

export async function listen(config: Config, logger: Logger, options: { dev: boolean }): Promise<RunningServer> {
  const { app, database, vite } = await createServer(config, logger, options);
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = app.listen(config.port, config.host, (error?: Error) => (error ? reject(error) : resolve(s)));
      s.once('error', reject);
    });
  } catch (error) {
    await database.close();
    await vite?.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new ConfigError(`Port ${config.port} is already in use: stop the other program or set PORT to a free port`);
    if (code === 'EACCES') throw new ConfigError(`Port ${config.port} needs more privileges: set PORT to 1024 or higher`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new ConfigError(`HOST ${config.host} is not an address of this machine`);
    throw error;
  }
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 30_000;
  const url = displayUrl(config);
  const stopPruning = scheduleUploadPruning();
  // Mail and other queued work run here, in server.ts's copy of app/server (bootstrap.server.ts).
  const stopJobs = startBackgroundJobs();
  return {
    server,
    url,
    close: () => {
      stopPruning();
      return shutdown(server, database, stopJobs, vite);
    },
  };
}

async function shutdown(
  server: Server,
  database: DatabaseHandle,
  stopJobs: () => Promise<void>,
  vite?: { close(): Promise<void> },
): Promise<void> {
  // Stop accepting, let in-flight requests finish (at most 10 s), let the job in hand finish (jobs
  // not yet started stay queued for the next start), then close the database.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const force = setTimeout(() => server.closeAllConnections(), 10_000);
  force.unref();
  await closed;
  clearTimeout(force);
  await stopJobs();
  await vite?.close();
  await database.close();
}

function displayUrl(config: Config): string {
  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  const host = wildcard ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}

function securityHeaders(config: Config, dev: boolean): RequestHandler {
  return helmet({
    contentSecurityPolicy: dev
      ? false
      : {
          useDefaults: false,
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'", (_req, res) => `'nonce-${String((res as express.Response).locals.nonce)}'`],
            styleSrc: ["'self'", "'unsafe-inline'"],
            imgSrc: ["'self'", 'data:', 'blob:'],
            fontSrc: ["'self'"],
            connectSrc: ["'self'"],
            mediaSrc: ["'self'"],
            objectSrc: ["'none'"],
            baseUri: ["'self'"],
            formAction: ["'self'"],
            frameAncestors: ["'none'"],
            frameSrc: ["'none'"],
            workerSrc: ["'self'"],
            manifestSrc: ["'self'"],
            ...(config.https ? { upgradeInsecureRequests: [] } : {}),
          },
        },
    strictTransportSecurity: config.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    xFrameOptions: { action: 'deny' },
  });
}

/**
 * A body refused for its size (413) or missing length (411) may be left unread: say the connection
 * ends with this answer, so a client does not send its next request into the unread bytes.
 */
const closeAfterRefusedBody: RequestHandler = (_req, res, next) => {
  const writeHead = res.writeHead;
  res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
    const status = typeof args[0] === 'number' ? args[0] : this.statusCode;
    if ((status === 411 || status === 413) && !this.headersSent) this.setHeader('Connection', 'close');
    return writeHead.apply(this, args);
  } as typeof writeHead;
  next();
};

function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      if (req.path.startsWith('/assets/') || req.path === '/healthz') return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // req.path has no query string; a reset link's token is cut out of it.
      const entry = { method: req.method, path: redactPath(req.path), status: res.statusCode, ms: Math.round(ms * 10) / 10 };
      if (res.statusCode >= 500) logger.error(entry, 'request failed');
      else logger.info(entry, 'request');
    });
    next();
  };
}

function errorPage(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const status = typeof error?.status === 'number' && error.status >= 400 && error.status < 600 ? error.status : 500;
    if (status >= 500) logger.error({ err: error, path: req.path }, 'unhandled error');
    if (res.headersSent) return res.end();
    const title = status === 404 ? 'Page Not Found' : status < 500 ? 'Request not accepted' : 'Something went wrong';
    const text =
      status === 404
        ? 'The file you asked for does not exist.'
        : status < 500
          ? 'The request could not be handled. Please check it and try again.'
          : 'Sorry, the site had a problem showing this page. Please try again in a moment.';
    res
      .status(status)
      .type('html')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title></head>` +
          `<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5"><main><h1>${title}</h1><p>${text}</p><p><a href="/">Back to Home</a></p></main></body></html>`,
      );
  };
}

async function main(): Promise<void> {
  const dev = process.argv.includes('--dev');
  if (dev) process.env.NODE_ENV ??= 'development';
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    return bootstrapFailure(error);
  }
  const logger = createLogger(config.logLevel);
  (globalThis as Record<symbol, unknown>)[Symbol.for('tdg.logger')] = logger;
  let running: RunningServer;
  try {
    running = await listen(config, logger, { dev });
  } catch (error) {
    return bootstrapFailure(error, logger);
  }
  logger.info(
    { url: running.url, database: config.databaseUrl ? 'postgres' : 'sqlite' },
    `${config.organisation.name} website is running at ${running.url}`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    running.close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
