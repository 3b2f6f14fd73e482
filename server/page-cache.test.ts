import { createHash, randomBytes } from 'node:crypto';
import http, { type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants, gunzipSync } from 'node:zlib';
import compression from 'compression';
import express from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  PUBLIC_PAGE_VARY,
  chooseEncoding,
  createPageCacheStore,
  encodeBodies,
  cspForStoredPage,
  hasSessionCookie,
  inlineScriptHashes,
  isCacheablePath,
  pageCache,
  pageCacheHits,
  pageCacheKey,
  PUBLIC_PAGE_CACHE_CONTROL,
  type CachedPage,
  type PageCacheStore,
} from './page-cache.ts';
import { pageCompression } from './page-compression.ts';

const page = (body: string): CachedPage => ({ headers: { 'content-type': 'text/html' }, body: Buffer.from(body), etag: 'W/"x"' });
const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('the page store', () => {
  it('keeps at most maxEntries pages, forgetting the least recently used', () => {
    const store = createPageCacheStore({ maxEntries: 3 });
    for (const key of ['a', 'b', 'c']) store.set(key, page(key), 0);
    store.get('a'); // a is now the most recently used
    store.set('d', page('d'), 0);
    expect(store.get('b')).toBeUndefined();
    expect(store.get('a')?.body.toString()).toBe('a');
    expect(store.get('c')).toBeDefined();
    expect(store.get('d')).toBeDefined();
    expect(store.stats().entries).toBe(3);
  });

  it('keeps the total size under maxBytes and refuses a page larger than one entry may be', () => {
    const store = createPageCacheStore({ maxBytes: 10_000, maxEntryBytes: 6000 });
    store.set('a', page('x'.repeat(4000)), 0);
    store.set('b', page('x'.repeat(4000)), 0);
    store.set('c', page('x'.repeat(4000)), 0);
    expect(store.stats().bytes).toBeLessThanOrEqual(10_000);
    expect(store.get('a')).toBeUndefined();
    expect(store.get('c')).toBeDefined();
    expect(store.set('huge', page('x'.repeat(7000)), 0)).toBe(false);
    expect(store.get('huge')).toBeUndefined();
  });

  it('forgets pages older than the TTL', () => {
    let now = 0;
    const store = createPageCacheStore({ ttlMs: 1000, now: () => now });
    store.set('a', page('a'), 0);
    now = 999;
    expect(store.get('a')).toBeDefined();
    now = 1000;
    expect(store.get('a')).toBeUndefined();
    expect(store.stats().entries).toBe(0);
  });

  it('empties on invalidation and refuses pages rendered before it', () => {
    const store = createPageCacheStore();
    const before = store.generation();
    store.set('a', page('a'), before);
    store.invalidate();
    expect(store.get('a')).toBeUndefined();
    expect(store.stats()).toMatchObject({ entries: 0, bytes: 0 });
    expect(store.set('late', page('stale'), before)).toBe(false);
    expect(store.set('fresh', page('new'), store.generation())).toBe(true);
  });

  it('counts the Brotli and gzip copies in the budget, and adds them only to the page still kept', async () => {
    const store = createPageCacheStore({ maxBytes: 20_000 });
    const kept = page('Hello. '.repeat(1000));
    store.set('a', kept, 0);
    const before = store.stats().bytes;
    const encoded = await encodeBodies(kept.body);
    expect(brotliDecompressSync(encoded.br).equals(kept.body)).toBe(true);
    expect(gunzipSync(encoded.gzip).equals(kept.body)).toBe(true);
    expect(store.addEncodings('a', kept, encoded)).toBe(true);
    expect(store.stats().bytes).toBe(before + encoded.br.length + encoded.gzip.length);
    expect(store.get('a')?.encoded).toBe(encoded);

    // A page replaced or forgotten while it was being compressed gets nothing.
    const replaced = page('old');
    store.set('b', replaced, 0);
    store.set('b', page('new'), 0);
    expect(store.addEncodings('b', replaced, encoded)).toBe(false);
    store.invalidate();
    expect(store.addEncodings('a', kept, encoded)).toBe(false);
    expect(store.stats().bytes).toBe(0);
  });

  it('forgets the oldest pages when the copies take the store over its budget', () => {
    const store = createPageCacheStore({ maxBytes: 3000 });
    const first = page('x'.repeat(1000));
    store.set('first', first, 0);
    store.set('second', page('y'.repeat(1000)), 0);
    const second = store.peek('second')!;
    store.addEncodings('second', second, { br: Buffer.alloc(500), gzip: Buffer.alloc(500) });
    expect(store.peek('first')).toBeUndefined();
    expect(store.peek('second')).toBe(second);
    expect(store.stats().bytes).toBeLessThanOrEqual(3000);
  });
});

describe('choosing the encoding a request accepts', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0.8, br;q=0.9', 'br'],
    ['BR', 'br'],
    ['x-gzip', 'gzip'],
    ['deflate', 'identity'],
    ['identity', 'identity'],
    ['*', 'br'],
    ['br;q=0, *', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['identity;q=0.5, gzip;q=0.1', 'identity'],
    ['identity;q=0, deflate', undefined],
    ['*;q=0', undefined],
    ['gzip;q=0, *;q=0, identity', 'identity'],
  ])('%s → %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
    // The answer is remembered per header; asking again gives the same one.
    expect(chooseEncoding(header)).toBe(expected);
  });
});

describe('what may be cached', () => {
  it('recognises staff session cookies only', () => {
    expect(hasSessionCookie(undefined)).toBe(false);
    expect(hasSessionCookie('theme=dark; lang=en')).toBe(false);
    expect(hasSessionCookie('tdg_session=abc')).toBe(true);
    expect(hasSessionCookie('theme=dark;  __Host-tdg_session=abc')).toBe(true);
    expect(hasSessionCookie('tdg_session_remember=1')).toBe(true);
    expect(hasSessionCookie('my_tdg_session=1')).toBe(false);
  });

  it('leaves out the dashboard, the health check, uploads, assets, counted links and React Router internals', () => {
    for (const path of [
      '/admin',
      '/admin/users',
      '/admin.data',
      '/healthz',
      '/media/a.webp',
      '/assets/x.js',
      '/go/rss',
      '/__manifest',
    ]) {
      expect(isCacheablePath(path), path).toBe(false);
    }
    for (const path of ['/', '/blog', '/blog/abc', '/blog.data', '/sitemap.xml', '/administration-tips', '/government']) {
      expect(isCacheablePath(path), path).toBe(true);
    }
  });

  it('keys by host, path and sorted query', () => {
    expect(pageCacheKey('/blog?q=sign&category=news', 'Example.org')).toBe('example.org/blog?category=news&q=sign');
    expect(pageCacheKey('/blog?category=news&q=sign', 'example.org')).toBe(
      pageCacheKey('/blog?q=sign&category=news', 'example.org'),
    );
    expect(pageCacheKey('/blog?q=a', 'h')).not.toBe(pageCacheKey('/blog?q=b', 'h'));
    expect(pageCacheKey('//evil.example/x', 'h')).toBe('h//evil.example/x');
    expect(pageCacheKey(`/blog?q=${'x'.repeat(3000)}`, 'h')).toBeUndefined();
  });

  it('hashes inline scripts but not external ones or JSON-LD, and swaps them for the nonce', () => {
    const html =
      '<script nonce="abc">window.a = 1;</script><script nonce="abc" type="module" async="">import "/x.js";</script>' +
      '<script src="/y.js"></script><script type="application/ld+json">{"@type":"Organization"}</script>';
    expect(inlineScriptHashes(html, 'abc')).toEqual([sha('window.a = 1;'), sha('import "/x.js";')]);
    const csp = "default-src 'self';script-src 'self' 'nonce-abc';style-src 'self' 'unsafe-inline'";
    expect(cspForStoredPage(csp, html, 'abc')).toBe(
      `default-src 'self';script-src 'self' ${sha('window.a = 1;')} ${sha('import "/x.js";')};style-src 'self' 'unsafe-inline'`,
    );
  });

  it('hashes only the scripts that carry the nonce of the render being stored', () => {
    const nonce = 'Zm9vYmFyK2Jhei8xMjM0NQ==';
    const html =
      `<script nonce="${nonce}">window.own = 1;</script>` +
      // Smuggled into content: no nonce, another nonce, a nonce-like attribute, the nonce only as text.
      '<p><script>alert(1)</script></p><script nonce="guessed">alert(2)</script>' +
      `<script data-nonce="${nonce}">alert(3)</script><script>/* nonce="${nonce}" */alert(4)</script>` +
      `<script type="module" nonce='${nonce}' async>import "/x.js";</script>`;
    expect(inlineScriptHashes(html, nonce)).toEqual([sha('window.own = 1;'), sha('import "/x.js";')]);
    const csp = `script-src 'self' 'nonce-${nonce}';object-src 'none'`;
    expect(cspForStoredPage(csp, html, nonce)).toBe(
      `script-src 'self' ${sha('window.own = 1;')} ${sha('import "/x.js";')};object-src 'none'`,
    );
    // Without a nonce to go by, no inline script is allowed.
    expect(inlineScriptHashes(html, '')).toEqual([]);
    expect(cspForStoredPage(csp, html, '')).toBe("script-src 'self';object-src 'none'");
  });
});

describe('the middleware in front of a real Express app', () => {
  let server: Server;
  let base: string;
  let store: PageCacheStore;
  let renders: Record<string, number>;
  let release: (() => void) | undefined;

  beforeAll(async () => {
    const app = express();
    // As in server/app.ts: ready copies go out before the security headers and compression, the
    // rest of the cache after them and after the pages' own compression.
    app.use((req, res, next) => pageCacheHits(store)(req, res, next));
    app.use((_req, res, next) => {
      const nonce = randomBytes(12).toString('base64');
      res.locals.nonce = nonce;
      res.setHeader('Content-Security-Policy', `default-src 'self';script-src 'self' 'nonce-${nonce}';object-src 'none'`);
      res.setHeader('X-Frame-Options', 'DENY');
      next();
    });
    app.use(compression());
    app.use(pageCompression());
    app.use((req, res, next) => pageCache(store)(req, res, next));
    const count = (path: string) => (renders[path] = (renders[path] ?? 0) + 1);
    // Each page carries its own nonce'd script, and one that came in with the content (no nonce).
    const html = (res: express.Response, n: number) =>
      `<!doctype html><html><body><p>${'Hello. '.repeat(400)}</p><div><script>window.smuggled = ${n};</script></div>` +
      `<script nonce="${String(res.locals.nonce)}">window.render = ${n};</script></body></html>`;
    app.get(['/page', '/cookie', '/private', '/missing', '/json', '/feed.xml', '/admin', '/slow'], async (req, res) => {
      const n = count(req.path);
      if (req.path === '/slow' && n === 1) await new Promise<void>((resolve) => (release = resolve));
      if (req.path === '/cookie') res.setHeader('Set-Cookie', 'flash=1');
      if (req.path === '/private') res.setHeader('Cache-Control', 'private, no-store');
      if (req.path === '/missing') res.status(404);
      if (req.path === '/json') return res.json({ n });
      if (req.path === '/feed.xml') {
        res.setHeader('Content-Type', 'application/rss+xml; charset=utf-8');
        res.setHeader('Cache-Control', 'public, max-age=300');
        return res.end(`<rss>${n}</rss>`);
      }
      res.type('html');
      // Written in two pieces, as React Router streams a page.
      res.write(html(res, n).slice(0, 100));
      res.end(html(res, n).slice(100));
    });
    // As the public layout: another page for the data saver, and a Vary that says so.
    app.get('/varies', (req, res) => {
      count('/varies');
      res.vary('Save-Data');
      res.type('html').end(`<!doctype html><p>${req.headers['save-data'] ? 'no pictures' : 'pictures'}</p>`);
    });
    // As the public layout (issue 24): the stylesheet inside on a first page, linked after a link of ours.
    app.get('/styled', (req, res) => {
      count('/styled');
      const head =
        req.headers['sec-fetch-site'] === 'same-origin'
          ? '<link rel="stylesheet" href="/assets/public-a.css" data-precedence="default"/>'
          : '<style data-precedence="default" data-href="/assets/public-a.css">body{color:#111}</style>';
      res.type('html').end(`<!doctype html><html><head>${head}</head><body><p>${'Styled. '.repeat(200)}</p></body></html>`);
    });
    // The same page each time, but for its nonce: what two workers render for one URL.
    app.get('/same', (_req, res) => {
      count('/same');
      res
        .type('html')
        .end(`<!doctype html><p>${'Same. '.repeat(300)}</p><script nonce="${String(res.locals.nonce)}">go()</script>`);
    });
    app.post('/page', (req, res) => {
      count('POST /page');
      res.type('html').send('<p>posted</p>');
    });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** The bytes as sent (fetch would decompress them). */
  function raw(
    path: string,
    headers: Record<string, string>,
  ): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      http
        .get(`${base}${path}`, { headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
          );
        })
        .on('error', reject);
    });
  }
  beforeEach(() => {
    store = createPageCacheStore();
    renders = {};
    release = undefined;
  });

  it('renders once, then serves the same page from memory with a CSP of script hashes', async () => {
    const first = await fetch(`${base}/page`);
    const firstBody = await first.text();
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect(first.headers.get('cache-control')).toBe(PUBLIC_PAGE_CACHE_CONTROL);
    const nonce = /nonce="([^"]+)"/.exec(firstBody)![1]!;
    expect(first.headers.get('content-security-policy')).toContain(`'nonce-${nonce}'`);

    const second = await fetch(`${base}/page`);
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(await second.text()).toBe(firstBody);
    expect(renders['/page']).toBe(1);
    expect(second.headers.get('cache-control')).toBe(PUBLIC_PAGE_CACHE_CONTROL);
    expect(second.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // Only the script that carried the first render's nonce is allowed, not the smuggled one.
    expect(second.headers.get('content-security-policy')).toBe(
      `default-src 'self';script-src 'self' ${sha('window.render = 1;')};object-src 'none'`,
    );
    expect(second.headers.get('content-security-policy')).not.toContain(sha('window.smuggled = 1;'));
  });

  it('answers a matching If-None-Match with 304, and HEAD without a body', async () => {
    await fetch(`${base}/page`);
    const hit = await fetch(`${base}/page`);
    const etag = hit.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);
    const revalidated = await fetch(`${base}/page`, { headers: { 'If-None-Match': etag } });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    const changed = await fetch(`${base}/page`, { headers: { 'If-None-Match': 'W/"other"' } });
    expect(changed.status).toBe(200);
    const head = await fetch(`${base}/page`, { method: 'HEAD', headers: { 'Accept-Encoding': 'identity' } });
    expect(head.headers.get('x-cache')).toBe('HIT');
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(2000);
    expect(await head.text()).toBe('');
    expect(renders['/page']).toBe(1);
  });

  it('keeps an address with a query from its second request, and compresses a kept page when it is asked for again (issues 24 and 29)', async () => {
    const key = `${pageCacheKey('/page?once=1', new URL(base).host)!}#inline-css`;
    // A one-off search is not kept at all.
    expect((await raw('/page?once=1', {})).headers['x-cache']).toBe('MISS');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.peek(key)).toBeUndefined();
    // Asked for again, it is kept, and not compressed until it is read once more.
    expect((await raw('/page?once=1', {})).headers['x-cache']).toBe('MISS');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(store.peek(key)).toBeDefined();
    expect(store.peek(key)?.encoded).toBeUndefined();
    expect(renders['/page']).toBe(2);
    // The first reuse is compressed on the way, as a miss is, and starts the copies.
    const again = await raw('/page?once=1', { 'Accept-Encoding': 'br' });
    expect(again.headers['x-cache']).toBe('HIT');
    expect(again.headers['content-encoding']).toBe('br');
    await expect.poll(() => store.peek(key)?.encoded).toBeDefined();
    // Brotli's best quality for a page of ordinary size.
    const body = store.peek(key)!.body;
    const best = brotliCompressSync(body, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
    expect(store.peek(key)!.encoded!.br.equals(best)).toBe(true);
    expect(brotliDecompressSync(store.peek(key)!.encoded!.br).equals(body)).toBe(true);
  });

  it('sends the stored Brotli or gzip copy the request accepts, never compressed again', async () => {
    const first = await raw('/page', {});
    const identity = first.body.toString('utf8');
    await raw('/page', {});
    await expect.poll(() => store.peek(`${pageCacheKey('/page', new URL(base).host)!}#inline-css`)?.encoded).toBeDefined();
    const stored = store.peek(`${pageCacheKey('/page', new URL(base).host)!}#inline-css`)!;

    const br = await raw('/page', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers['x-cache']).toBe('HIT');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe(PUBLIC_PAGE_VARY);
    // Answered before the security headers run, with the ones stored with the page.
    expect(br.headers['x-frame-options']).toBe('DENY');
    expect(br.headers['content-security-policy']).toBe(stored.csp);
    expect(br.body.equals(stored.encoded!.br)).toBe(true);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(brotliDecompressSync(br.body).toString('utf8')).toBe(identity);

    const gzip = await raw('/page', { 'Accept-Encoding': 'gzip;q=1, br;q=0.5' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.body.equals(stored.encoded!.gzip)).toBe(true);
    expect(gunzipSync(gzip.body).toString('utf8')).toBe(identity);

    const plain = await raw('/page', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe(PUBLIC_PAGE_VARY);
    expect(plain.body.toString('utf8')).toBe(identity);

    // One weak ETag for the three: each revalidates with 304, which also says it varies.
    expect(new Set([br.headers.etag, gzip.headers.etag, plain.headers.etag]).size).toBe(1);
    const revalidated = await raw('/page', { 'Accept-Encoding': 'br', 'If-None-Match': br.headers.etag! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.vary).toBe(PUBLIC_PAGE_VARY);
    expect(revalidated.body.length).toBe(0);
    expect(renders['/page']).toBe(1);
  });

  it('gives renders that differ only by their nonce the same ETag, as every worker of the site does', async () => {
    const etagOfRender = async () => {
      store.invalidate();
      const first = await fetch(`${base}/same`);
      const body = await first.text();
      const hit = await fetch(`${base}/same`);
      expect(hit.headers.get('x-cache')).toBe('HIT');
      return { body, etag: hit.headers.get('etag') };
    };
    const one = await etagOfRender();
    const two = await etagOfRender();
    expect(renders['/same']).toBe(2);
    expect(one.body).not.toBe(two.body);
    expect(one.etag).toBe(two.etag);
  });

  it('keeps the first page of a visit (stylesheet inside) apart from the linked form, with one ETag for both (issue 24)', async () => {
    const first = await fetch(`${base}/styled`);
    expect(await first.text()).toContain('<style data-precedence');
    const linked = await fetch(`${base}/styled`, { headers: { 'Sec-Fetch-Site': 'same-origin' } });
    expect(linked.headers.get('x-cache')).toBe('MISS');
    expect(await linked.text()).toContain('<link rel="stylesheet"');
    const firstAgain = await fetch(`${base}/styled`, { headers: { 'Sec-Fetch-Site': 'cross-site' } });
    expect(firstAgain.headers.get('x-cache')).toBe('HIT');
    expect(await firstAgain.text()).toContain('<style data-precedence');
    const linkedAgain = await fetch(`${base}/styled`, { headers: { 'Sec-Fetch-Site': 'same-origin' } });
    expect(linkedAgain.headers.get('x-cache')).toBe('HIT');
    expect(await linkedAgain.text()).toContain('<link rel="stylesheet"');
    expect(renders['/styled']).toBe(2);
    // A browser holding the first form revalidates it with a 304 when it asks with a link of ours.
    expect(firstAgain.headers.get('etag')).toBe(linkedAgain.headers.get('etag'));
    const revalidated = await fetch(`${base}/styled`, {
      headers: { 'Sec-Fetch-Site': 'same-origin', 'If-None-Match': firstAgain.headers.get('etag')! },
    });
    expect(revalidated.status).toBe(304);
  });

  it('compresses a stored page per request until its copies are ready', async () => {
    const key = `${pageCacheKey('/page', new URL(base).host)!}#inline-css`;
    store.set(
      key,
      { headers: { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from('<p>stored</p>'.repeat(200)), etag: 'W/"s"' },
      0,
    );
    const hit = await raw('/page', { 'Accept-Encoding': 'gzip' });
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(hit.body).toString('utf8')).toBe('<p>stored</p>'.repeat(200));
    expect(renders['/page']).toBeUndefined();
  });

  it('keeps a page rendered for Save-Data apart from the other, and stores pages that vary on it (issue 24)', async () => {
    const plain = await fetch(`${base}/varies`);
    expect(plain.headers.get('x-cache')).toBe('MISS');
    const saving = await fetch(`${base}/varies`, { headers: { 'Save-Data': 'on' } });
    expect(saving.headers.get('x-cache')).toBe('MISS');
    expect(await saving.text()).toContain('no pictures');
    const plainAgain = await fetch(`${base}/varies`);
    expect(plainAgain.headers.get('x-cache')).toBe('HIT');
    expect(await plainAgain.text()).toBe('<!doctype html><p>pictures</p>');
    const savingAgain = await fetch(`${base}/varies`, { headers: { 'Save-Data': 'ON ' } });
    expect(savingAgain.headers.get('x-cache')).toBe('HIT');
    expect(savingAgain.headers.get('vary')).toBe(PUBLIC_PAGE_VARY);
    expect(await savingAgain.text()).toContain('no pictures');
    expect(renders['/varies']).toBe(2);
  });

  it('treats the same query in another order as the same page', async () => {
    await fetch(`${base}/page?b=2&a=1`);
    // The second request of the address: kept from now on.
    expect((await fetch(`${base}/page?a=1&b=2`)).headers.get('x-cache')).toBe('MISS');
    const hit = await fetch(`${base}/page?b=2&a=1`);
    expect(hit.headers.get('x-cache')).toBe('HIT');
    expect((await fetch(`${base}/page?a=1&b=3`)).headers.get('x-cache')).toBe('MISS');
  });

  it('never serves or stores a request carrying a staff session cookie', async () => {
    await fetch(`${base}/page`);
    const staff = await fetch(`${base}/page`, { headers: { Cookie: '__Host-tdg_session=secret' } });
    expect(staff.headers.get('x-cache')).toBe('BYPASS');
    expect(await staff.text()).toContain('window.render = 2;');
    await fetch(`${base}/page?fresh=1`, { headers: { Cookie: 'tdg_session=secret' } });
    expect((await fetch(`${base}/page?fresh=1`)).headers.get('x-cache')).toBe('MISS');
  });

  it('does not keep responses that set cookies, are private, are not 200 or are not pages', async () => {
    for (const path of ['/cookie', '/private', '/missing', '/json']) {
      await fetch(`${base}${path}`);
      expect((await fetch(`${base}${path}`)).headers.get('x-cache'), path).toBe('MISS');
      expect(renders[path], path).toBe(2);
    }
    expect((await fetch(`${base}/private`)).headers.get('cache-control')).toBe('private, no-store');
  });

  it('keeps feeds with their own Cache-Control, and never touches the dashboard or posts', async () => {
    await fetch(`${base}/feed.xml`);
    const feed = await fetch(`${base}/feed.xml`);
    expect(feed.headers.get('x-cache')).toBe('HIT');
    expect(feed.headers.get('cache-control')).toBe('public, max-age=300');
    expect(feed.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');

    await fetch(`${base}/admin`);
    const admin = await fetch(`${base}/admin`);
    expect(admin.headers.get('x-cache')).toBeNull();
    expect(renders['/admin']).toBe(2);

    await fetch(`${base}/page`, { method: 'POST' });
    await fetch(`${base}/page`, { method: 'POST' });
    expect(renders['POST /page']).toBe(2);
  });

  it('starts again after invalidation, and drops a page whose render began before it', async () => {
    await fetch(`${base}/page`);
    store.invalidate();
    const after = await fetch(`${base}/page`);
    expect(after.headers.get('x-cache')).toBe('MISS');
    expect(await after.text()).toContain('window.render = 2;');

    const slow = fetch(`${base}/slow`);
    await expect.poll(() => release).toBeDefined();
    store.invalidate();
    release!();
    await (await slow).text();
    expect((await fetch(`${base}/slow`)).headers.get('x-cache')).toBe('MISS');
  });
});
