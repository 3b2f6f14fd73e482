import http, { type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import compression from 'compression';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_COMPRESSION_THRESHOLD, pageCompression } from './page-compression.ts';

// Issue 29: a whole page compressed in one call, in front of the compression middleware as in
// server/app.ts, on a real server and as the bytes arrive.

const PAGE = `<!doctype html><html><body>${'<p>Sign language at the clinic in Gulu.</p>'.repeat(200)}</body></html>`;

describe('pageCompression', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.use(compression());
    app.use(pageCompression());
    // As React Router sends a page: its pieces written, then the end.
    app.get('/page', (_req, res) => {
      res.type('html');
      res.write(PAGE.slice(0, 500));
      res.write(Buffer.from(PAGE.slice(500, 2000)));
      res.end(PAGE.slice(2000));
    });
    app.get('/small', (_req, res) => void res.type('html').send('<p>Hello</p>'));
    app.get('/json', (_req, res) => void res.json({ words: PAGE }));
    app.get('/no-transform', (_req, res) => void res.set('Cache-Control', 'no-transform').type('html').send(PAGE));
    app.get('/encoded', (_req, res) => void res.set('Content-Encoding', 'br').type('html').end(Buffer.from('already')));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** The bytes as sent (fetch would decompress them). */
  function raw(path: string, headers: Record<string, string> = {}, method = 'GET') {
    return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .request(`${base}${path}`, { headers, method }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
          );
        })
        .on('error', reject)
        .end();
    });
  }

  it.each([
    // Zstandard where the request takes it, as current browsers do (they list it last).
    { encoding: 'zstd', accepts: ['zstd', 'gzip, deflate, br, zstd'], decompress: zstdDecompressSync },
    // Brotli where it takes Brotli and not Zstandard, or Zstandard less, even listed after gzip.
    { encoding: 'br', accepts: ['br', 'gzip, deflate, br', 'gzip, deflate, br, zstd;q=0.5'], decompress: brotliDecompressSync },
  ])('sends a page in $encoding when the request takes it best', async ({ encoding, accepts, decompress }) => {
    for (const accept of accepts) {
      const answer = await raw('/page', { 'Accept-Encoding': accept });
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      expect(answer.headers.vary).toContain('Accept-Encoding');
      expect(decompress(answer.body).toString('utf8')).toBe(PAGE);
      expect(answer.body.length).toBeLessThan(PAGE.length / 10);
    }
  });

  it('sends gzip where Brotli is not taken, and the page as it is where neither is', async () => {
    const gzip = await raw('/page', { 'Accept-Encoding': 'br;q=0, gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(Number(gzip.headers['content-length'])).toBe(gzip.body.length);
    expect(gunzipSync(gzip.body).toString('utf8')).toBe(PAGE);
    for (const accept of [undefined, 'identity']) {
      const plain = await raw('/page', accept ? { 'Accept-Encoding': accept } : {});
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString('utf8')).toBe(PAGE);
    }
  });

  it('sends a page under the threshold as it is, with its length', async () => {
    const answer = await raw('/small', { 'Accept-Encoding': 'br' });
    expect(answer.body.length).toBeLessThan(PAGE_COMPRESSION_THRESHOLD);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.toString('utf8')).toBe('<p>Hello</p>');
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
  });

  it('leaves what is not a page to the compression middleware, and an answer that must not change alone', async () => {
    // The middleware streams: no length, and the JSON arrives whole.
    const json = await raw('/json', { 'Accept-Encoding': 'br' });
    expect(json.headers['content-encoding']).toBe('br');
    expect(json.headers['content-length']).toBeUndefined();
    expect(JSON.parse(brotliDecompressSync(json.body).toString('utf8'))).toEqual({ words: PAGE });

    const untouched = await raw('/no-transform', { 'Accept-Encoding': 'br' });
    expect(untouched.headers['content-encoding']).toBeUndefined();
    expect(untouched.body.toString('utf8')).toBe(PAGE);

    const encoded = await raw('/encoded', { 'Accept-Encoding': 'br' });
    expect(encoded.headers['content-encoding']).toBe('br');
    expect(encoded.body.toString('utf8')).toBe('already');
  });

  it('answers HEAD with no body', async () => {
    const head = await raw('/page', { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });
});
