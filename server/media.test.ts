import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiskStore } from '../app/server/media/object-store.server.ts';
import { createLogger } from '../app/server/platform/logger.server.ts';
import { mediaHandler } from './media.ts';

describe('/media and a responsive width a picture does not have yet (issue 24)', () => {
  let dir: string;
  let base: string;
  let close: () => void;
  const MAIN = Buffer.from('the main file');
  const SMALL = Buffer.from('the 480 copy');

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-media-'));
    const store = createDiskStore(dir);
    await store.put('blogs/abc_picture.webp', MAIN, 'image/webp');
    await store.put('blogs/abc_picture-480w.webp', SMALL, 'image/webp');
    const app = express();
    app.use(
      '/media',
      mediaHandler(() => store, createLogger('silent')),
    );
    app.use((error: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(error.status ?? 500).end();
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/media`;
    close = () => server.close();
  });
  afterAll(() => {
    close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers a missing width with the main file, a stored one with itself', async () => {
    const missing = await fetch(`${base}/blogs/abc_picture-720w.webp`);
    expect(missing.status).toBe(200);
    expect(missing.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await missing.arrayBuffer()).equals(MAIN)).toBe(true);
    const stored = await fetch(`${base}/blogs/abc_picture-480w.webp`);
    expect(Buffer.from(await stored.arrayBuffer()).equals(SMALL)).toBe(true);
  });

  it('still says 404 for a width the site never makes, and for a picture that is not there', async () => {
    expect((await fetch(`${base}/blogs/abc_picture-333w.webp`)).status).toBe(404);
    expect((await fetch(`${base}/blogs/none_picture-720w.webp`)).status).toBe(404);
  });
});
