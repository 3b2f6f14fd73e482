import { createHash } from 'node:crypto';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { inlinesStylesheet, withStylesheetNeutral } from '../app/lib/first-visit.ts';
import { routePatternOf, setRoutePattern } from './metrics.ts';

// The public page cache (issue 3 item 11, docs/decisions/402-page-cache.md): anonymous GET and HEAD
// requests for public pages, their single-fetch data, feeds and robots.txt are answered from memory.
// server/app.ts owns the one store; a staff member's successful write empties it (app/root.tsx calls
// the request's `publicPagesChanged`), and a TTL bounds what no write announces (the footer's year). Each HTML page carries a per-request CSP nonce, so a stored
// page is served with the sha256 hashes of its own (nonce-bearing) inline scripts instead of the
// first visitor's nonce. Issue 15: each kept page also holds its Brotli and gzip bodies, made once,
// and `pageCacheHits` sends the one the request accepts before any other middleware compresses, so a
// hit costs a Map lookup and a write. Issues 24 and 29: the copies are made when a kept page is first
// asked for again, not when it is kept: a one-off address (a search, a new query string) is never
// compressed twice, and a page that is read again gets Brotli's smallest form, made once.

export interface CachedPage {
  /** Response headers worth repeating (content type, cache control, vary …). */
  headers: Record<string, string | string[]>;
  body: Buffer;
  /** HTML only: the Content-Security-Policy that allows exactly this page's inline scripts. */
  csp?: string;
  /** One weak ETag for every encoding of the page: they are the same page (issue 15). */
  etag: string;
  /** Set by the store when the page is kept. */
  storedAt?: number;
  /** Brotli and gzip copies of `body`, made once in the background when the page is first asked for again. */
  encoded?: EncodedBodies;
  /** Set while its copies are being made, so a burst of hits starts one encoding. */
  encoding?: boolean;
  /** The route pattern React Router answered it with, so /metrics counts its hits under it too. */
  route?: string;
}

export interface EncodedBodies {
  br: Buffer;
  gzip: Buffer;
}

export type Encoding = 'br' | 'gzip' | 'identity';

export interface PageCacheOptions {
  maxEntries?: number;
  maxBytes?: number;
  /** Largest single response kept (the sitemap of a big site is about 1 MB). */
  maxEntryBytes?: number;
  ttlMs?: number;
  now?: () => number;
}

export interface PageCacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  generation: number;
}

export interface PageCacheStore {
  get(key: string): CachedPage | undefined;
  /** Like get, without counting a hit or a miss or changing the recency order. */
  peek(key: string): CachedPage | undefined;
  /** Keeps `page` unless the cache was invalidated since `generation` was read (the page may be stale). */
  set(key: string, page: CachedPage, generation: number): boolean;
  /** Adds the compressed copies to `page` if it is still the one kept under `key`; counts their bytes. */
  addEncodings(key: string, page: CachedPage, encoded: EncodedBodies): boolean;
  invalidate(): void;
  generation(): number;
  stats(): PageCacheStats;
}

export const PAGE_CACHE_DEFAULTS = {
  maxEntries: 1000,
  maxBytes: 64 * 1024 * 1024,
  maxEntryBytes: 4 * 1024 * 1024,
  ttlMs: 5 * 60_000,
} as const;

/** A least-recently-used store bounded by entry count, total bytes and age. */
export function createPageCacheStore(options: PageCacheOptions = {}): PageCacheStore {
  const maxEntries = options.maxEntries ?? PAGE_CACHE_DEFAULTS.maxEntries;
  const maxBytes = options.maxBytes ?? PAGE_CACHE_DEFAULTS.maxBytes;
  const maxEntryBytes = options.maxEntryBytes ?? PAGE_CACHE_DEFAULTS.maxEntryBytes;
  const ttlMs = options.ttlMs ?? PAGE_CACHE_DEFAULTS.ttlMs;
  const now = options.now ?? Date.now;
  const pages = new Map<string, CachedPage>();
  let bytes = 0;
  let generation = 0;
  let hits = 0;
  let misses = 0;

  // Every copy counts against the budget: the page, its Brotli and gzip bodies, and the CSP.
  const sizeOf = (key: string, page: CachedPage) =>
    key.length +
    page.body.length +
    (page.encoded ? page.encoded.br.length + page.encoded.gzip.length : 0) +
    (page.csp?.length ?? 0) +
    512;
  const remove = (key: string) => {
    const page = pages.get(key);
    if (!page) return;
    pages.delete(key);
    bytes -= sizeOf(key, page);
  };
  const evict = () => {
    for (const oldest of pages.keys()) {
      if (pages.size <= maxEntries && bytes <= maxBytes) break;
      remove(oldest);
    }
  };

  return {
    get(key) {
      const page = pages.get(key);
      if (!page || now() - (page.storedAt ?? 0) >= ttlMs) {
        if (page) remove(key);
        misses++;
        return undefined;
      }
      // Map order is the recency order: move this page to the newest end.
      pages.delete(key);
      pages.set(key, page);
      hits++;
      return page;
    },
    set(key, page, at) {
      if (at !== generation) return false;
      const size = sizeOf(key, page);
      if (page.body.length > maxEntryBytes || size > maxBytes) return false;
      remove(key);
      page.storedAt = now();
      pages.set(key, page);
      bytes += size;
      evict();
      return true;
    },
    addEncodings(key, page, encoded) {
      if (pages.get(key) !== page || page.encoded) return false;
      bytes -= sizeOf(key, page);
      page.encoded = encoded;
      bytes += sizeOf(key, page);
      evict();
      return pages.get(key) === page;
    },
    invalidate() {
      pages.clear();
      bytes = 0;
      generation++;
    },
    peek(key) {
      const page = pages.get(key);
      return page && now() - (page.storedAt ?? 0) < ttlMs ? page : undefined;
    },
    generation: () => generation,
    stats: () => ({ entries: pages.size, bytes, hits, misses, generation }),
  };
}

/** Staff are signed in with these cookies; their requests never touch the cache. */
export function hasSessionCookie(cookieHeader: string | undefined): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(';').some((pair) => {
    const name = pair.split('=', 1)[0]!.trim();
    return name.startsWith('tdg_session') || name.startsWith('__Host-tdg_session');
  });
}

const EXCLUDED_PATHS = /^\/(admin|healthz|media|assets|go)(?:[/.]|$)/i;

/** Public pages only: never the dashboard, the health check, uploads, build assets or a counted link (/go/…). */
export function isCacheablePath(path: string): boolean {
  return !EXCLUDED_PATHS.test(path) && !path.startsWith('/__');
}

const CACHEABLE_TYPES = /^(text\/html|text\/plain|text\/x-script|application\/xml|text\/xml|application\/rss\+xml)\s*(;|$)/i;

/** Pages, feeds, robots.txt and React Router's single-fetch data. */
export function isCacheableContentType(type: string | undefined): boolean {
  return !!type && CACHEABLE_TYPES.test(type);
}

/** The cache key: host, path and the query with its parameters sorted; undefined for odd URLs. */
export function pageCacheKey(originalUrl: string, host = ''): string | undefined {
  if (!originalUrl.startsWith('/') || originalUrl.length > 2048) return undefined;
  try {
    const url = new URL(`http://cache.invalid${originalUrl}`);
    url.searchParams.sort();
    return `${host.toLowerCase()}${url.pathname}${url.search}`;
  } catch {
    return undefined;
  }
}

function nonceOf(attributes: string): string | undefined {
  const match = /(?:^|\s)nonce\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i.exec(attributes);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

/**
 * sha256 sources for the inline scripts of an HTML page that carry `nonce`, the nonce of the request
 * whose render is being stored: those are the scripts the page itself wrote. Any other inline script
 * (one smuggled into content, say) was never allowed by the first CSP and gets no hash either.
 * External scripts and JSON-LD blocks (data, not scripts) are skipped.
 */
export function inlineScriptHashes(html: string, nonce: string): string[] {
  if (!nonce) return [];
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = match[1] ?? '';
    const body = match[2] ?? '';
    if (/\ssrc\s*=/i.test(attributes) || /\stype\s*=\s*["']?application\/(ld\+)?json/i.test(attributes)) continue;
    if (nonceOf(attributes) !== nonce) continue;
    hashes.add(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}

/** The first request's CSP with its nonce replaced by the hashes of the page's own inline scripts. */
export function cspForStoredPage(csp: string, html: string, nonce: string): string {
  const hashes = inlineScriptHashes(html, nonce).join(' ');
  return csp
    .split(';')
    .map((directive) => {
      if (!/^\s*script-src(-elem)?\s/i.test(directive)) return directive;
      const sources = directive.replace(/\s'nonce-[^']*'/gi, '');
      return hashes ? `${sources} ${hashes}` : sources;
    })
    .join(';');
}

/** Public HTML: browsers and proxies keep it but ask again each time (a 304 answers them cheaply). */
export const PUBLIC_PAGE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

const NOT_REPEATED = new Set([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
  'etag',
  'age',
  'x-cache',
  'set-cookie',
  'content-security-policy',
]);

function etagOf(body: Buffer): string {
  return `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === bare;
  });
}

function storable(res: Response): boolean {
  if (res.statusCode !== 200 || res.hasHeader('set-cookie')) return false;
  if (!isCacheableContentType(String(res.getHeader('content-type') ?? ''))) return false;
  const cacheControl = String(res.getHeader('cache-control') ?? '');
  if (/\b(private|no-store|no-cache)\b/i.test(cacheControl)) return false;
  const vary = String(res.getHeader('vary') ?? '');
  return vary.split(',').every((v) => ['', 'accept-encoding', 'save-data'].includes(v.trim().toLowerCase()));
}

/**
 * Which stored body to send for an Accept-Encoding header: the highest q-value among br, gzip and
 * identity (`*` stands for any not named; identity is acceptable unless refused), Brotli before gzip
 * before identity when equal. Undefined when the header refuses all three; the caller then sends
 * identity anyway (RFC 9110 §12.5.3 allows it, and a 406 would only leave the visitor with nothing).
 */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return 'identity';
  const known = negotiated.get(acceptEncoding);
  if (known !== undefined || negotiated.has(acceptEncoding)) return known;
  const q: Record<string, number> = {};
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.split(';');
    const coding = name!.trim().toLowerCase();
    if (!coding) continue;
    let weight = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
      if (match) weight = Number(match[1]);
    }
    const key = coding === 'x-gzip' ? 'gzip' : coding;
    q[key] = Math.max(q[key] ?? 0, weight);
  }
  const any = q['*'];
  // Not named, identity weighs as `*`, or else as the least wanted coding named (as the negotiator
  // package does): `gzip;q=0.8, br;q=0.9` prefers compression to none.
  const least = Math.min(1, ...Object.values(q).filter((weight) => weight > 0));
  const weightOf = (coding: Encoding) => q[coding] ?? (coding === 'identity' ? (any ?? least) : (any ?? 0));
  let best: Encoding | undefined;
  for (const coding of ['br', 'gzip', 'identity'] as const) {
    const weight = weightOf(coding);
    if (weight > 0 && (best === undefined || weight > weightOf(best))) best = coding;
  }
  // Browsers send a handful of different headers: remember the answer for each (a bounded few).
  if (negotiated.size >= 100) negotiated.clear();
  negotiated.set(acceptEncoding, best);
  return best;
}
const negotiated = new Map<string, Encoding | undefined>();

/**
 * Sends a stored page, Brotli or gzip copy when the request accepts one. Returns false, sending
 * nothing, when the request wants a compressed copy that is not made yet and `onlyIfEncoded` is set:
 * the request then goes on to the compression middleware.
 */
function serveStored(
  store: PageCacheStore,
  key: string,
  req: Request,
  res: Response,
  page: CachedPage,
  onlyIfEncoded = false,
): boolean {
  let encoding = chooseEncoding(req.headers['accept-encoding']) ?? 'identity';
  if (page.route) setRoutePattern(res.locals, page.route);
  if (!page.encoded) encodeOnReuse(store, key, page);
  if (encoding !== 'identity' && !page.encoded) {
    if (onlyIfEncoded) return false;
    encoding = 'identity';
  }
  for (const [name, value] of Object.entries(page.headers)) res.setHeader(name, value);
  if (page.csp) res.setHeader('Content-Security-Policy', page.csp);
  res.setHeader('Vary', PUBLIC_PAGE_VARY);
  res.setHeader('ETag', page.etag);
  res.setHeader('X-Cache', 'HIT');
  if (matchesEtag(req.headers['if-none-match'], page.etag)) {
    res.statusCode = 304;
    res.end();
    return true;
  }
  const body = encoding === 'identity' ? page.body : page.encoded![encoding];
  res.statusCode = 200;
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', String(body.length));
  if (req.method === 'HEAD') res.end();
  else res.end(body);
  return true;
}

/**
 * Issue 24: public pages differ with the phone's data saver (no pictures until asked), so each is
 * kept twice at most, and browsers and proxies are told so.
 */
export const PUBLIC_PAGE_VARY = 'Accept-Encoding, Save-Data';

/**
 * The cache key of a request: its page, whether it asked to save data, and whether the page carries
 * its stylesheet inside (a reader's first page of a visit, app/lib/first-visit.ts): each page is
 * kept in four forms at most.
 */
export function requestCacheKey(req: Request): string | undefined {
  const key = pageCacheKey(req.originalUrl, req.headers.host);
  if (key === undefined) return undefined;
  const saveData =
    String(req.headers['save-data'] ?? '')
      .trim()
      .toLowerCase() === 'on';
  const site = req.headers['sec-fetch-site'];
  const inline = inlinesStylesheet(typeof site === 'string' ? site : undefined);
  return `${key}${saveData ? '#save-data' : ''}${inline ? '#inline-css' : ''}`;
}

function cacheableRequest(req: Request): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && isCacheablePath(req.path);
}

/**
 * Issue 15: the fast path, mounted before the nonce, the security headers (each stored page carries
 * its own, with its CSP of script hashes), compression and the static files. Sends a stored page
 * whose copy in the requested encoding is ready; everything else (staff, misses, a copy still being
 * compressed) goes on to `pageCache` further down.
 */
export function pageCacheHits(store: PageCacheStore): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!cacheableRequest(req) || hasSessionCookie(req.headers.cookie) || req.headers.authorization) return next();
    const key = requestCacheKey(req);
    const page = key === undefined ? undefined : store.peek(key);
    if (!page || !serveStored(store, key!, req, res, page, true)) return next();
    store.get(key!);
  };
}

/** Query addresses asked for once since the cache was last emptied: at most this many, oldest forgotten first. */
const SEEN_MAX = 2000;
const seen = new WeakMap<PageCacheStore, { generation: number; keys: Set<string> }>();

/** Whether `key` was asked for before (since the cache was emptied); remembers it if not. */
function seenOnce(store: PageCacheStore, key: string): boolean {
  let entry = seen.get(store);
  if (!entry || entry.generation !== store.generation()) {
    entry = { generation: store.generation(), keys: new Set() };
    seen.set(store, entry);
  }
  if (entry.keys.has(key)) return true;
  if (entry.keys.size >= SEEN_MAX) entry.keys.delete(entry.keys.values().next().value!);
  entry.keys.add(key);
  return false;
}

/**
 * A kept page asked for again: its compressed copies are made once, off the main thread, and sent
 * from then on. Until they are ready (and for a page asked for only once) the compression
 * middleware compresses each answer quickly, as for any page not kept.
 */
function encodeOnReuse(store: PageCacheStore, key: string, page: CachedPage): void {
  if (page.encoded || page.encoding) return;
  page.encoding = true;
  // One page at a time per process: after the cache is emptied, the pages read again are compressed
  // in turn on one background thread (a few tens of ms each), never on every core at once.
  encodingQueue = encodingQueue.then(async () => {
    if (store.peek(key) !== page) return;
    try {
      store.addEncodings(key, page, await encodeBodies(page.body));
    } catch {
      // Left uncompressed: hits are compressed on the way, as misses are.
    }
  });
}
let encodingQueue: Promise<void> = Promise.resolve();

/**
 * The compressed copies of a page, made off the main thread, once per page that is read again.
 * Brotli's highest quality for pages up to BROTLI_BEST_MAX_BYTES: a story comes out 12 % smaller
 * than at quality 6 (8.5 → 7.5 KB), which a reader on 2G pays on every visit, for about 40 ms of a
 * background thread once per page and cache lifetime. Bigger bodies (a large sitemap) take quality
 * 6, where higher levels cost many times the time (docs/decisions/017-every-core-and-invalidation.md).
 */
export async function encodeBodies(body: Buffer): Promise<EncodedBodies> {
  const [br, gz] = await Promise.all([
    new Promise<Buffer>((resolve, reject) =>
      brotliCompress(
        body,
        {
          params: {
            [zlibConstants.BROTLI_PARAM_QUALITY]: body.length <= BROTLI_BEST_MAX_BYTES ? BROTLI_BEST_QUALITY : BROTLI_QUALITY,
            [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
            [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    ),
    new Promise<Buffer>((resolve, reject) =>
      gzip(body, { level: GZIP_LEVEL }, (error, result) => (error ? reject(error) : resolve(result))),
    ),
  ]);
  return { br, gzip: gz };
}
export const BROTLI_QUALITY = 6;
export const BROTLI_BEST_QUALITY = 11;
export const BROTLI_BEST_MAX_BYTES = 128 * 1024;
export const GZIP_LEVEL = 6;

type Chunk = string | Uint8Array;

/**
 * Express middleware, mounted just before the React Router handler. A miss is rendered as usual
 * while its uncompressed body is copied; if it turns out storable (200, a cacheable type, no cookie
 * set, not marked private) the copy is kept; its Brotli and gzip copies are made in the background
 * when it is first asked for again. Misses are compressed by the compression middleware as before.
 */
export function pageCache(store: PageCacheStore): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!cacheableRequest(req)) return next();
    if (hasSessionCookie(req.headers.cookie) || req.headers.authorization) {
      res.setHeader('X-Cache', 'BYPASS');
      return next();
    }
    const key = requestCacheKey(req);
    if (!key) return next();
    const page = store.get(key);
    if (page) {
      serveStored(store, key, req, res, page);
      return;
    }

    res.setHeader('X-Cache', 'MISS');
    // HEAD answers carry no body to keep; only GET fills the cache.
    if (req.method !== 'GET') return next();
    // Issue 29: an address with a query (a search, a filter, a page number) is kept from its second
    // request: a new word searched each time would otherwise fill the cache's memory with pages
    // nobody asks for again.
    if (key.includes('?') && !seenOnce(store, key)) return next();

    const generation = store.generation();
    const chunks: Buffer[] = [];
    let size = 0;
    let keep: boolean | undefined;

    const collect = (chunk: unknown, encoding: unknown) => {
      if (keep === undefined) {
        keep = !res.headersSent && storable(res);
        if (keep && !res.hasHeader('cache-control')) res.setHeader('Cache-Control', PUBLIC_PAGE_CACHE_CONTROL);
      }
      if (!keep || chunk == null || typeof chunk === 'function') return;
      const buffer =
        typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
          : Buffer.from(chunk as Uint8Array);
      size += buffer.length;
      if (size > PAGE_CACHE_DEFAULTS.maxEntryBytes) {
        keep = false;
        chunks.length = 0;
      } else chunks.push(buffer);
    };

    // Kept as soon as the last byte is handed over, not on 'finish' (which comes a turn later): a
    // visitor who asks again the moment the first answer arrives already gets the stored copy.
    let saved = false;
    const save = () => {
      if (saved || !keep || res.statusCode !== 200) return;
      saved = true;
      const body = Buffer.concat(chunks);
      const headers: CachedPage['headers'] = {};
      for (const name of res.getHeaderNames()) {
        // Security headers set before this middleware are kept too: the fast path answers before
        // they are set (server/app.ts), and they are the same for every request but the CSP.
        if (NOT_REPEATED.has(name)) continue;
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = typeof value === 'number' ? String(value) : value;
      }
      const type = String(res.getHeader('content-type') ?? '');
      const csp = res.getHeader('content-security-policy');
      // server/app.ts gives every request its nonce in res.locals; the page's own scripts carry it.
      const nonce = typeof res.locals.nonce === 'string' ? res.locals.nonce : '';
      const html = /^text\/html/i.test(type) ? body.toString('utf8') : undefined;
      // The ETag leaves the nonce out: every worker and instance then gives the same page the same
      // ETag, and a browser's If-None-Match gets its 304 whichever process answers (issue 15).
      // Issue 24: nor whether the stylesheet is inside the page or linked (app/lib/first-visit.ts): a
      // browser holding one form revalidates it with a 304 when it asks for the other.
      const stored: CachedPage = {
        headers,
        body,
        etag: etagOf(html ? Buffer.from(withStylesheetNeutral(nonce ? html.replaceAll(nonce, '') : html)) : body),
      };
      if (html !== undefined && typeof csp === 'string') stored.csp = cspForStoredPage(csp, html, nonce);
      const route = routePatternOf(res.locals);
      if (route) stored.route = route;
      // Its compressed copies are made when it is asked for again (encodeOnReuse).
      store.set(key, stored, generation);
    };

    const write = res.write;
    const end = res.end;
    res.write = function (this: Response, chunk: Chunk, ...rest: unknown[]) {
      collect(chunk, rest[0]);
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as Response['write'];
    res.end = function (this: Response, ...args: unknown[]) {
      collect(args[0], args[1]);
      const result = (end as (...a: unknown[]) => Response).apply(this, args);
      save();
      return result;
    } as Response['end'];

    next();
  };
}
