import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startSiteProcess } from '../tests/support/site-process';
import { createLogger } from '~/server/platform/logger.server';
import { watchEventLoop, type EventLoopWatch } from './event-loop.ts';

// Issue 22: a request that holds the event loop is logged at warn level with its path (never its
// body), and /healthz tells operators how late the loop has been over the last minute.

/** Holds the event loop for `ms`, as a quadratic parse of a hostile form would. */
function holdLoop(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('watchEventLoop', () => {
  let server: Server | undefined;
  let watch: EventLoopWatch | undefined;
  afterEach(async () => {
    watch?.stop();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  async function start() {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger('info', {
      write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
    });
    watch = watchEventLoop(logger);
    const app = express();
    app.use(watch.requests);
    app.post(['/contact', '/admin/reset-password/:token'], (_req, res) => {
      holdLoop(300);
      res.send('done');
    });
    app.get('/quick', (_req, res) => res.send('quick'));
    app.get('/healthz', (_req, res) => res.json(watch!.figures()));
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { lines, origin };
  }

  it('logs a request that holds the loop for 300 ms at warn, with its path and not its body, and /healthz shows it', async () => {
    const { lines, origin } = await start();
    await sleep(50);
    const answer = await fetch(`${origin}/contact`, { method: 'POST', body: 'message=a private message' });
    expect(await answer.text()).toBe('done');
    await sleep(60);
    // (A busy machine may pause the whole process too; only the line naming the request counts here.)
    const warned = lines.filter((line) => line.level === 'warn' && String(line.requests).includes('POST /contact'));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({
      requests: ['POST /contact'],
      msg: expect.stringMatching(/^a request held the event loop for \d+ ms$/),
    });
    expect(warned[0]!.blockedMs).toBeGreaterThanOrEqual(250);
    expect(JSON.stringify(lines)).not.toContain('private message');

    const after = (await (await fetch(`${origin}/healthz`)).json()) as { p99Ms: number; maxMs: number; windowSeconds: number };
    expect(after.maxMs).toBeGreaterThanOrEqual(250);
    expect(after.p99Ms).toBeGreaterThan(0);
    expect(after.p99Ms).toBeLessThanOrEqual(after.maxMs);
    expect(after.windowSeconds).toBe(60);
  });

  it('cuts a secret out of the path it logs', async () => {
    const { lines, origin } = await start();
    await sleep(50);
    await (await fetch(`${origin}/admin/reset-password/secret-token-123`, { method: 'POST' })).text();
    await sleep(60);
    const warned = lines.filter((line) => line.level === 'warn' && String(line.requests).includes('reset-password'));
    expect(warned.map((line) => line.requests)).toEqual([['POST /admin/reset-password/[token]']]);
    expect(JSON.stringify(lines)).not.toContain('secret-token-123');
  });
});

describe('the site’s /healthz', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-event-loop-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('reports the event loop’s delays over the last minute', { timeout: 60_000 }, async () => {
    const site = await startSiteProcess({
      DATA_DIR: dataDir,
      SUPER_ADMIN_EMAIL: 'owner@example.org',
      SUPER_ADMIN_PASSWORD: 'a-long-owner-passphrase',
      DEMO_CONTENT: 'false',
      BACKUPS: 'off',
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
    });
    try {
      await sleep(100);
      const health = (await (await fetch(`${site.origin}/healthz`)).json()) as Record<string, unknown>;
      expect(health).toMatchObject({
        status: 'ok',
        eventLoop: { p99Ms: expect.any(Number), maxMs: expect.any(Number), windowSeconds: 60 },
      });
    } finally {
      await site.stop();
    }
  });
});
