// The site as one Express app: security headers, compression, request logs, /healthz, uploads, the
// browser build's files, the public page cache and the React Router request handler. Vite builds this
// module into the server bundle together with the routes (vite.config.ts), so every module exists
// once per process; server.ts loads the bundle (or, with --dev, this file through Vite), listens and
// shuts down.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { createRequestHandler } from '@react-router/express';
import compression from 'compression';
import expressStaticGzip from 'express-static-gzip';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import helmet from 'helmet';
import { RouterContextProvider } from 'react-router';
import { startBackgroundJobs, startServices } from '~/server/start-up.server';
import { bootstrapFailure, getConfig, type Config } from '~/server/platform/config.server';
import { isDatabaseReachable } from '~/server/db/db.server';
import { createLogger, redactPath, setLogger, type Logger } from '~/server/platform/logger.server';
import { requestContext } from '~/server/http/request-context.server';
import { onPublicContentChanged, publicContentChanged } from '~/server/platform/public-changes.server';
import { keepPublicReads } from '~/server/platform/public-reads.server';
import { startCacheBus } from '~/server/platform/cache-bus.server';
import { getMediaStore } from '~/server/media/storage.server';
import { setPageScripts } from '~/server/platform/page-scripts.server';
import pageScripts from 'virtual:page-scripts';
import { createPageCacheStore, isCacheablePath, pageCache, pageCacheHits } from './page-cache.ts';
import { mediaHandler } from './media.ts';
import { PAGE_COMPRESSION_THRESHOLD, PER_REQUEST_BROTLI, pageCompression } from './page-compression.ts';
import { refuseCrossOriginWrites } from './cross-origin.ts';
import { dropUnreadParameters, refuseControlCharactersInQuery } from './query-check.ts';
import { PUBLIC_PARTS, publicPartBuild, publicPartOf } from './route-parts.ts';
import { watchEventLoop } from './event-loop.ts';
import { setRoutePattern, startMetrics } from './metrics.ts';
import { siteWorkerNumber } from './web-concurrency.ts';
import { healthDetail } from '~/server/platform/health.server';
import { jobBacklog } from '~/server/platform/jobs.server';
import { checkMailServer, onMailDelivery } from '~/server/platform/mail.server';
import { checkVideoTools } from '~/server/media/video-tools.server';
import { startAnalyticsFlush } from '~/server/analytics/counting.server';
import { countingRedirect, countPageViews, videoBeacons } from './analytics.ts';

export interface SiteOptions {
  dev: boolean;
  /** The browser build (`build/client`); unused in development, where Vite serves the sources. */
  clientDir: string;
  /** Vite's middlewares in development (HMR client, source files). */
  devMiddleware?: RequestHandler;
}

export interface Site {
  app: express.Express;
  config: Config;
  logger: Logger;
  /** Stops background work (waiting for the jobs in hand) and closes the database. */
  close(): Promise<void>;
}

// The hashed addresses of this build's page scripts (decision 021).
setPageScripts(pageScripts);

/** Reads the settings (once per process); on bad settings, says which and exits. */
export function loadSettings(): { config: Config; logger: Logger } {
  let config: Config;
  try {
    config = getConfig();
  } catch (error) {
    return bootstrapFailure(error);
  }
  const logger = createLogger(config.logLevel);
  setLogger(logger);
  return { config, logger };
}

/**
 * Issue 29: the first-start work alone (migrations, the super admin, the demo content and its
 * pictures), for a process that does it and ends (server.ts): the processes that then serve never
 * hold what it took, about 70 MB of a worker's memory on a first start.
 */
export async function prepareSite(): Promise<void> {
  const { config, logger } = loadSettings();
  let database;
  try {
    database = await startServices(config, logger);
  } catch (error) {
    return bootstrapFailure(error, logger);
  }
  await database.close();
}

/** Opens and migrates the database, starts background work and builds the request pipeline. */
export async function createSite(options: SiteOptions): Promise<Site> {
  const { config, logger } = loadSettings();
  let database;
  try {
    database = await startServices(config, logger);
  } catch (error) {
    return bootstrapFailure(error, logger);
  }
  const pages = createPageCacheStore();
  // Issue 29: and what public pages read from the database, under the same rule (not in development,
  // where, as for the page cache, what is in the database shows at once).
  const stopKeepingReads = options.dev ? () => undefined : keepPublicReads(database.db);
  // Issue 13: changes no staff request makes (a scheduled item going public) empty it too.
  const stopListening = onPublicContentChanged(() => pages.invalidate());
  // Issue 15: and a change made by any other worker or instance (docs/decisions/017).
  const cacheBus = startCacheBus({ engine: database.engine, db: database.db, databaseUrl: config.databaseUrl, logger });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);

  app.use(requestLog(logger));
  // Issue 29: the operator's figures, only with METRICS_TOKEN (docs/operations.md).
  const metrics = config.metricsToken
    ? await startMetrics({
        pageCache: () => pages.stats(),
        jobBacklog: () => jobBacklog(),
        poolUse: database.poolUse,
        onMailDelivery,
      })
    : undefined;
  if (metrics) app.use(metrics.requests);
  // Issue 22: a request that holds the event loop is logged, and /healthz reports the delays.
  const eventLoop = watchEventLoop(logger);
  app.use(eventLoop.requests);
  // Issue 22: a query with a control character (%00) is refused here, before any cache or route reads it.
  app.use(refuseControlCharactersInQuery);
  // Issue 28: every public page view is counted when its answer is finished, from the cache or not
  // (docs/decisions/029); what was counted is written every few seconds and when the process stops.
  const stopCounting = startAnalyticsFlush();
  app.use(countPageViews());
  // Issue 29: a public page's address loses the parameters no page reads, before the cache looks it up.
  app.use(dropUnreadParameters);
  // Stored pages whose Brotli or gzip copy is ready go out first, with the security headers stored
  // with them (issue 15); the rest of the page cache sits before the React Router handler, below.
  if (!options.dev) app.use(pageCacheHits(pages));
  app.use((_req, res, next) => {
    res.locals.nonce = nextNonce();
    next();
  });
  app.use(securityHeaders(config, options.dev));
  // Issue 24: a picture, video, stylesheet or script is not a page. The page's headers (its CSP with
  // a nonce, framing, opener and referrer rules, old browsers' switches) protect nothing on it and
  // cost a phone on 2G about 500 bytes per file; it keeps what a file needs.
  app.use(['/media', '/assets'], fileHeaders);
  app.use(compression({ brotli: { params: PER_REQUEST_BROTLI }, threshold: PAGE_COMPRESSION_THRESHOLD }));
  app.use(closeAfterRefusedBody);
  app.use(refuseCrossOriginWrites(logger));
  // Issue 28: the sign-language player's beacons and the feed's and newsletter's counting links.
  app.post('/count/video', ...videoBeacons());
  app.get('/go/:source', countingRedirect);

  const mode = process.env.NODE_ENV === 'production' ? 'production' : 'development';
  app.get('/healthz', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    // Issue 29: every part the site needs, for the operator's token only.
    if (req.query.detail !== undefined) {
      if (!hasMetricsToken(req.get('authorization'), config.metricsToken))
        return void res.status(config.metricsToken ? 401 : 404).json({ error: METRICS_REFUSAL });
      const detail = await healthDetail({
        db: database.db,
        checkMediaStore: () => getMediaStore().check(),
        checkMail: config.smtpUrl ? checkMailServer : undefined,
        checkVideoTools,
        dataDir: config.dataDir,
      });
      return void res.status(detail.status === 'fail' ? 503 : 200).json({ pid: process.pid, ...detail });
    }
    const ok = await isDatabaseReachable(database.db);
    // pid and worker: which process and which of its worker threads answered (WEB_CONCURRENCY, issue 15,
    // decision 040); mode: which build of React renders and eventLoop: how long requests held the thread (issue 22).
    res.status(ok ? 200 : 503).json({
      status: ok ? 'ok' : 'unavailable',
      database: database.engine,
      pid: process.pid,
      worker: siteWorkerNumber() ?? 1,
      mode,
      eventLoop: eventLoop.figures(),
    });
  });

  app.get('/metrics', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    if (!metrics || !hasMetricsToken(req.get('authorization'), config.metricsToken))
      return void res.status(metrics ? 401 : 404).json({ error: METRICS_REFUSAL });
    try {
      const { contentType, text } = await metrics.render();
      res.type(contentType).send(text);
    } catch (error) {
      logger.error({ err: error }, 'the metrics could not be gathered');
      res.status(503).json({ error: 'The figures could not be gathered. Please try again.' });
    }
  });

  // Issue 24: the service worker for offline reading (app/client/service-worker.ts), at the root so
  // its scope is the whole site, asked for again each time (never from the HTTP cache), and loading
  // this build's hashed chunk; a new build changes these bytes, so browsers update it.
  app.get('/sw.js', (_req, res) => {
    res.set({
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'no-cache',
      'Service-Worker-Allowed': '/',
    });
    res.send(`importScripts(${JSON.stringify(pageScripts.serviceWorker)});\n`);
  });

  // Uploaded files, from DATA_DIR/uploads or the STORAGE_URL bucket (server/media.ts).
  app.use('/media', mediaHandler(getMediaStore, logger));

  if (options.devMiddleware) app.use(options.devMiddleware);
  else {
    // Vite names every asset by its content hash, so a year of caching is safe. The build wrote
    // Brotli and gzip copies of each (vite.config.ts): sent as they are, never compressed per request.
    app.use(
      '/assets',
      expressStaticGzip(path.join(options.clientDir, 'assets'), {
        enableBrotli: true,
        orderPreference: ['br', 'gzip'],
        index: false,
        serveStatic: { immutable: true, maxAge: '1y', index: false },
      }),
    );
    // Only an address that names a file (favicon.svg, images/…) is looked for on disk: a page's
    // address has no extension, and looking cost a system call on every page request.
    const files = express.static(options.clientDir, { maxAge: '1h', index: false });
    app.use((req, res, next) => (path.extname(req.path) ? files(req, res, next) : next()));
  }

  // Anonymous public pages come from memory (docs/decisions/402-page-cache.md); not in development,
  // where every edit must show at once.
  // Issue 24: public pages differ with Save-Data; caches along the way must keep both (decision 025).
  app.use((req, res, next) => {
    if (isCacheablePath(req.path)) res.vary('Save-Data');
    next();
  });
  // Issue 29: a rendered page leaves compressed in one call (server/page-compression.ts); mounted
  // before the page cache, which so keeps it uncompressed.
  app.use(pageCompression());
  if (!options.dev) app.use(pageCache(pages));
  const getLoadContext = (req: express.Request, res: express.Response) => {
    const context = new RouterContextProvider();
    context.set(requestContext, {
      nonce: String(res.locals.nonce),
      clientIp: req.ip ?? '',
      // Every process's cache, like any other change to what visitors see (issue 15).
      publicPagesChanged: publicContentChanged,
      routeMatched: (pattern) => setRoutePattern(res.locals, pattern),
    });
    return context;
  };
  if (options.dev) {
    // The build as a function brings each edit.
    app.use(
      createRequestHandler({ build: () => import('virtual:react-router/server-build'), mode: 'development', getLoadContext }),
    );
  } else {
    // In production the build is given as itself: given as a function, React Router derives its
    // route tree and matcher again on every request (about 7 % of an uncached page's CPU). Issue 29:
    // a public page is matched against its language's routes alone (server/route-parts.ts).
    const build = await import('virtual:react-router/server-build');
    const whole = createRequestHandler({ build, mode: 'production', getLoadContext });
    const parts = new Map(
      PUBLIC_PARTS.map((part) => [
        part,
        createRequestHandler({ build: publicPartBuild(build, part), mode: 'production', getLoadContext }),
      ]),
    );
    app.use((req, res, next) => {
      const part = publicPartOf(req.method, req.path);
      return (part ? parts.get(part)! : whole)(req, res, next);
    });
  }
  app.use(errorPage(logger));

  const stopJobs = startBackgroundJobs();
  return {
    app,
    config,
    logger,
    async close() {
      stopListening();
      stopKeepingReads();
      eventLoop.stop();
      metrics?.stop();
      await cacheBus.close();
      await stopJobs();
      await stopCounting();
      await database.close();
    },
  };
}

const PAGE_ONLY_HEADERS = [
  'Cross-Origin-Opener-Policy',
  'Origin-Agent-Cluster',
  'Referrer-Policy',
  'X-DNS-Prefetch-Control',
  'X-Download-Options',
  'X-Frame-Options',
  'X-Permitted-Cross-Domain-Policies',
  'X-XSS-Protection',
];

/** The headers of a stored file: none of a page's, a CSP that lets it run nothing, `nosniff` kept. */
function fileHeaders(_req: express.Request, res: express.Response, next: express.NextFunction): void {
  for (const name of PAGE_ONLY_HEADERS) res.removeHeader(name);
  res.setHeader('Content-Security-Policy', "default-src 'none'");
  next();
}

/**
 * A fresh CSP nonce for every request: 16 bytes from the operating system's random source, taken
 * from a block read 256 nonces at a time. One read per request cost more than the rest of a cached
 * page's answer (issue 15); every nonce is still random and used once.
 */
const NONCE_BYTES = 16;
let nonceBlock = Buffer.alloc(0);
let nonceAt = 0;
function nextNonce(): string {
  if (nonceAt + NONCE_BYTES > nonceBlock.length) {
    nonceBlock = randomBytes(NONCE_BYTES * 256);
    nonceAt = 0;
  }
  const nonce = nonceBlock.toString('base64', nonceAt, nonceAt + NONCE_BYTES);
  nonceAt += NONCE_BYTES;
  return nonce;
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

/** What /metrics and /healthz?detail answer without the operator's token (or with METRICS_TOKEN unset: off). */
const METRICS_REFUSAL = 'These figures are for the operator: send Authorization: Bearer <METRICS_TOKEN>.';

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
export function hasMetricsToken(authorization: string | undefined, token: string | undefined): boolean {
  if (!token || !authorization || authorization.length > 300) return false;
  const [scheme, given] = authorization.split(' ', 2);
  if (scheme?.toLowerCase() !== 'bearer' || !given) return false;
  const a = Buffer.from(given.trim());
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
