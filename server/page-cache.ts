import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

// The public page cache (issue 3 item 11, docs/decisions/402-page-cache.md): anonymous GET and HEAD
// requests for public pages, their single-fetch data, feeds and robots.txt are answered from memory.
// server/app.ts owns the one store; a staff member's successful write empties it (app/root.tsx calls
// the request's `publicPagesChanged`), and a TTL bounds what no write announces (the footer's year). Each HTML page carries a per-request CSP nonce, so a stored
// page is served with the sha256 hashes of its own (nonce-bearing) inline scripts instead of the
// first visitor's nonce.

export interface CachedPage {
  /** Response headers worth repeating (content type, cache control, vary …). */
  headers: Record<string, string | string[]>;
  body: Buffer;
  /** HTML only: the Content-Security-Policy that allows exactly this page's inline scripts. */
  csp?: string;
  etag: string;
  /** Set by the store when the page is kept. */
  storedAt?: number;
}

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
  /** Keeps `page` unless the cache was invalidated since `generation` was read (the page may be stale). */
  set(key: string, page: CachedPage, generation: number): boolean;
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

  const sizeOf = (key: string, page: CachedPage) => key.length + page.body.length + (page.csp?.length ?? 0) + 512;
  const remove = (key: string) => {
    const page = pages.get(key);
    if (!page) return;
    pages.delete(key);
    bytes -= sizeOf(key, page);
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
      pages.set(key, { ...page, storedAt: now() });
      bytes += size;
      for (const oldest of pages.keys()) {
        if (pages.size <= maxEntries && bytes <= maxBytes) break;
        remove(oldest);
      }
      return true;
    },
    invalidate() {
      pages.clear();
      bytes = 0;
      generation++;
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

const EXCLUDED_PATHS = /^\/(admin|healthz|media|assets)(?:[/.]|$)/i;

/** Public pages only: never the dashboard, the health check, uploads or build assets. */
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
  return vary.split(',').every((v) => ['', 'accept-encoding'].includes(v.trim().toLowerCase()));
}

function serveStored(req: Request, res: Response, page: CachedPage): void {
  for (const [name, value] of Object.entries(page.headers)) res.setHeader(name, value);
  if (page.csp) res.setHeader('Content-Security-Policy', page.csp);
  res.setHeader('ETag', page.etag);
  res.setHeader('X-Cache', 'HIT');
  if (matchesEtag(req.headers['if-none-match'], page.etag)) {
    res.status(304).end();
    return;
  }
  res.status(200);
  res.setHeader('Content-Length', String(page.body.length));
  if (req.method === 'HEAD') res.end();
  else res.end(page.body);
}

type Chunk = string | Uint8Array;

/**
 * Express middleware, mounted just before the React Router handler. A miss is rendered as usual
 * while its uncompressed body is copied; if it turns out storable (200, a cacheable type, no cookie
 * set, not marked private) the copy is kept. The compression middleware still runs on every answer.
 */
export function pageCache(store: PageCacheStore): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isCacheablePath(req.path)) return next();
    if (hasSessionCookie(req.headers.cookie) || req.headers.authorization) {
      res.setHeader('X-Cache', 'BYPASS');
      return next();
    }
    const key = pageCacheKey(req.originalUrl, req.headers.host);
    if (!key) return next();
    const page = store.get(key);
    if (page) return serveStored(req, res, page);

    res.setHeader('X-Cache', 'MISS');
    // HEAD answers carry no body to keep; only GET fills the cache.
    if (req.method !== 'GET') return next();

    const generation = store.generation();
    const preset = new Set(res.getHeaderNames());
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
        if (preset.has(name) || NOT_REPEATED.has(name)) continue;
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = typeof value === 'number' ? String(value) : value;
      }
      const type = String(res.getHeader('content-type') ?? '');
      const csp = res.getHeader('content-security-policy');
      const stored: CachedPage = { headers, body, etag: etagOf(body) };
      // server/app.ts gives every request its nonce in res.locals; the page's own scripts carry it.
      const nonce = typeof res.locals.nonce === 'string' ? res.locals.nonce : '';
      if (/^text\/html/i.test(type) && typeof csp === 'string') stored.csp = cspForStoredPage(csp, body.toString('utf8'), nonce);
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
