import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express, { type ErrorRequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type S3Sink } from '../../../tests/support/s3';
import { mediaHandler } from '../../../server/media';
import { createLogger } from '../platform/logger.server';
import { contentTypeOf, createDiskStore, createS3Store, isSafeKey, type ObjectStore } from './object-store.server';

// Uploads kept on disk or in an S3-compatible bucket behave the same, and /media sends them the same
// way from either: type, a year of immutable caching, ETag/304, byte ranges, cross-origin use.

const BYTES = Buffer.from('0123456789abcdefghij');

describe('stored file names', () => {
  it('accepts the names uploads get and refuses anything that could leave the store', () => {
    expect(isSafeKey('news/1733000000000_class_photo-480w.webp')).toBe(true);
    for (const key of [
      '',
      '../etc/passwd',
      'news/../../x',
      'news//a.webp',
      '/news/a.webp',
      'news/a b.webp',
      'news\\a.webp',
      'news/%2e%2e',
    ])
      expect(isSafeKey(key)).toBe(false);
  });

  it('knows the types of pictures and videos', () => {
    expect(contentTypeOf('a/b.webp')).toBe('image/webp');
    expect(contentTypeOf('a/b.MP4')).toBe('video/mp4');
    expect(contentTypeOf('a/b.unknown')).toBe('application/octet-stream');
  });
});

describe.each(['disk', 's3'] as const)('uploads kept %s', (kind) => {
  let s3: S3Sink | undefined;
  let root: string;
  let store: ObjectStore;
  let base: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-store-'));
    if (kind === 's3') {
      s3 = await startS3();
      store = await createS3Store(s3.settings('site-a/'));
    } else store = createDiskStore(path.join(root, 'uploads'));
    await store.check();

    const app = express();
    app.use(
      '/media',
      mediaHandler(() => store, createLogger('silent')),
    );
    const errors: ErrorRequestHandler = (error: { status?: number }, _req, res, _next) => {
      res.status(error.status ?? 500).send('error page');
    };
    app.use(errors);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(async () => {
    await close();
    await s3?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('keeps, describes, lists, sends in parts and removes a file', async () => {
    await store.put('news/1_a.webp', BYTES, 'image/webp');
    await store.put('news/1_a-480w.webp', BYTES.subarray(0, 5), 'image/webp');
    await store.put('services/2_b.webp', BYTES, 'image/webp');
    const info = await store.head('news/1_a.webp');
    expect(info).toMatchObject({ size: BYTES.length });
    expect(info!.etag).toMatch(/^"[^"]+"$/);

    const part = await store.get('news/1_a.webp', { start: 2, end: 5 });
    const chunks: Buffer[] = [];
    for await (const chunk of part!.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('2345');
    expect(part!.info.size).toBe(BYTES.length);

    const listed: string[] = [];
    for await (const item of store.list('news/')) listed.push(item.key);
    expect(listed.toSorted()).toEqual(['news/1_a-480w.webp', 'news/1_a.webp']);

    await store.delete('news/1_a-480w.webp');
    await store.delete('news/never-there.webp');
    expect(await store.head('news/1_a-480w.webp')).toBeUndefined();
    expect(await store.get('news/1_a-480w.webp')).toBeUndefined();
    await expect(store.put('../outside.webp', BYTES, 'image/webp')).rejects.toThrow('Not a storable file name');
  });

  it('stores a large file from its path, streamed, and gives it back byte for byte', async () => {
    // 12 MB of random bytes: many times any stream's buffer, so a part lost or repeated would show.
    const source = path.join(root, 'rendition.mp4');
    const written = fs.createWriteStream(source);
    const digest = createHash('sha256');
    for (let n = 0; n < 12; n++) {
      const block = randomBytes(1024 * 1024);
      digest.update(block);
      written.write(block);
    }
    await new Promise((resolve) => written.end(resolve));

    expect(await store.putFile('videos/6_f-360p.mp4', source, 'video/mp4')).toBe(12 * 1024 * 1024);
    expect(fs.existsSync(source)).toBe(true);
    expect(await store.head('videos/6_f-360p.mp4')).toMatchObject({ size: 12 * 1024 * 1024 });
    const stored = await store.get('videos/6_f-360p.mp4');
    const readBack = createHash('sha256');
    for await (const chunk of stored!.body) readBack.update(chunk as Buffer);
    expect(readBack.digest('hex')).toBe(digest.digest('hex'));

    const served = await fetch(`${base}/media/videos/6_f-360p.mp4`, { headers: { Range: 'bytes=0-3' } });
    expect([served.status, served.headers.get('content-type'), served.headers.get('content-range')]).toEqual([
      206,
      'video/mp4',
      `bytes 0-3/${12 * 1024 * 1024}`,
    ]);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(fs.readFileSync(source).subarray(0, 4));

    // A file that is not there stores nothing, and no half-written copy is left behind.
    await expect(store.putFile('videos/7_g.mp4', path.join(root, 'missing.mp4'), 'video/mp4')).rejects.toThrow();
    expect(await store.head('videos/7_g.mp4')).toBeUndefined();
    if (kind === 'disk')
      expect(fs.readdirSync(path.join(root, 'uploads', 'videos')).filter((name) => name.startsWith('.'))).toEqual([]);
    await expect(store.putFile('../outside.mp4', source, 'video/mp4')).rejects.toThrow('Not a storable file name');
  });

  it('serves a file under /media with its type, immutable caching and cross-origin use allowed', async () => {
    await store.put('news/3_c.webp', BYTES, 'image/webp');
    const response = await fetch(`${base}/media/news/3_c.webp`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('content-length')).toBe(String(BYTES.length));
    expect(Buffer.from(await response.arrayBuffer())).toEqual(BYTES);

    const head = await fetch(`${base}/media/news/3_c.webp`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(BYTES.length));
  });

  it('answers 304 when the browser has this file (ETag or date)', async () => {
    await store.put('news/4_d.webp', BYTES, 'image/webp');
    const first = await fetch(`${base}/media/news/4_d.webp`);
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    expect((await fetch(`${base}/media/news/4_d.webp`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    expect((await fetch(`${base}/media/news/4_d.webp`, { headers: { 'If-None-Match': `"other", ${etag}` } })).status).toBe(304);
    expect((await fetch(`${base}/media/news/4_d.webp`, { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
    expect((await fetch(`${base}/media/news/4_d.webp`, { headers: { 'If-Modified-Since': lastModified } })).status).toBe(304);
    const older = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect((await fetch(`${base}/media/news/4_d.webp`, { headers: { 'If-Modified-Since': older } })).status).toBe(200);
  });

  it('sends the byte range asked for with 206, and 416 for one past the end', async () => {
    await store.put('videos/5_e.mp4', BYTES, 'video/mp4');
    const url = `${base}/media/videos/5_e.mp4`;
    const part = await fetch(url, { headers: { Range: 'bytes=2-5' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-type')).toBe('video/mp4');
    expect(part.headers.get('content-range')).toBe(`bytes 2-5/${BYTES.length}`);
    expect(part.headers.get('content-length')).toBe('4');
    expect(await part.text()).toBe('2345');

    const tail = await fetch(url, { headers: { Range: 'bytes=-3' } });
    expect([tail.status, await tail.text()]).toEqual([206, 'hij']);
    const rest = await fetch(url, { headers: { Range: 'bytes=15-' } });
    expect([rest.status, await rest.text()]).toEqual([206, 'fghij']);
    const beyond = await fetch(url, { headers: { Range: 'bytes=1000-' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${BYTES.length}`);

    // A range for a file that has changed since (If-Range no longer matches): the whole file.
    const stale = await fetch(url, { headers: { Range: 'bytes=2-5', 'If-Range': '"an-old-version"' } });
    expect([stale.status, (await stale.text()).length]).toEqual([200, BYTES.length]);
    const etag = (await fetch(url, { method: 'HEAD' })).headers.get('etag')!;
    const resumed = await fetch(url, { headers: { Range: 'bytes=2-5', 'If-Range': etag } });
    expect([resumed.status, await resumed.text()]).toEqual([206, '2345']);
  });

  it('asks the bucket about a file once for many parts of it, and answers 404 once it is removed', async () => {
    const heads: string[] = [];
    const counted: ObjectStore = { ...store, head: (key) => (heads.push(key), store.head(key)) };
    const app = express();
    app.use(
      '/media',
      mediaHandler(() => counted, createLogger('silent')),
    );
    app.use(((error: { status?: number }, _req, res, _next) => res.status(error.status ?? 500).end()) as ErrorRequestHandler);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/media/videos/7_g-240p.mp4`;
    try {
      await store.put('videos/7_g-240p.mp4', BYTES, 'video/mp4');
      for (const range of ['bytes=0-1', 'bytes=2-5', 'bytes=-3']) {
        const part = await fetch(url, { headers: { Range: range } });
        expect(part.status).toBe(206);
        await part.arrayBuffer();
      }
      // The bucket once; the folder every time (a stat).
      expect(heads).toHaveLength(kind === 's3' ? 1 : 3);
      await store.delete('videos/7_g-240p.mp4');
      expect((await fetch(url)).status).toBe(404);
      expect((await fetch(url)).status).toBe(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('never sends a video’s upload chunks, the raw file of a story perhaps never published', async () => {
    await store.put('video-uploads/0b4a9c1e-1111-4a2b-8c3d-123456789abc/000000.part', BYTES, 'application/octet-stream');
    expect((await fetch(`${base}/media/video-uploads/0b4a9c1e-1111-4a2b-8c3d-123456789abc/000000.part`)).status).toBe(404);
    expect(await store.head('video-uploads/0b4a9c1e-1111-4a2b-8c3d-123456789abc/000000.part')).toBeDefined();
  });

  it('answers 404 for a missing file or a name that tries to leave the store, and 405 to a post', async () => {
    fs.writeFileSync(path.join(root, 'secret.txt'), 'not for visitors');
    for (const name of ['news/missing.webp', '..%2fsecret.txt', '%2e%2e/secret.txt', 'news/%2e%2e/%2e%2e/secret.txt', ''])
      expect((await fetch(`${base}/media/${name}`)).status, name).toBe(404);
    const post = await fetch(`${base}/media/news/3_c.webp`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});
