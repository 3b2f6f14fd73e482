import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  dropUnreadParameters,
  PAGE_PARAMETERS,
  pageQuery,
  QUERY_TEXT,
  queryHasControlCharacter,
  refuseControlCharactersInQuery,
} from './query-check.ts';

// Issue 22: a NUL in a query (`/blog?q=%00`) reached PostgreSQL and failed the request with 503
// or 500, and cut a CSV export short. The site's first middleware now refuses any query holding a
// control character, whatever the route behind it.

/** An Express app with `middleware` in front, listening on a free port; `reached` records what got past it. */
async function behind(middleware: RequestHandler) {
  const reached: { url: string; originalUrl: string }[] = [];
  const app = express();
  app.use(middleware);
  app.use((req, res) => {
    reached.push({ url: req.url, originalUrl: req.originalUrl });
    res.send('page');
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return { server, reached, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let server: Server;
let base: string;
/** What reached the routes behind the check. */
let reached: { originalUrl: string }[];

beforeAll(async () => {
  ({ server, base, reached } = await behind(refuseControlCharactersInQuery));
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a query with a control character', () => {
  it('is refused with 400 and a plain message, before any route reads it', async () => {
    const addresses = [
      '/blog?q=%00',
      '/admin/messages?q=%00',
      '/admin/messages/export?q=%00&status=all',
      '/admin/subscribers/export?q=a%00b',
      '/blog?page=1&q=%0A',
      '/admin?redirectTo=%2Fadmin%0D%0ASet-Cookie:x',
      '/news?q=%1b%5B31m',
      '/news?q=%7F',
      '/media/images/x.png?v=%00',
    ];
    for (const address of addresses) {
      const response = await fetch(base + address);
      expect(response.status, address).toBe(400);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.text()).toBe(QUERY_TEXT.controlCharacter);
    }
    expect(reached).toEqual([]);
  });

  it('is told apart from queries that only look like one, and from a path (the routes answer those)', async () => {
    const addresses = [
      '/blog/%00',
      '/services/%00?',
      '/blog?q=%2500',
      '/blog?q=disability%20rights',
      '/blog?q=two%09words',
      '/blog?q=%C3%A9cole',
      '/blog?q=%C2%85',
      '/contact?subject=Book+a+speaker',
    ];
    for (const address of addresses) expect((await fetch(base + address)).status, address).toBe(200);
    expect(reached.map((r) => r.originalUrl)).toEqual(addresses);
  });

  it('is found in one pass, however long the query', () => {
    expect(queryHasControlCharacter(`/blog?q=${'%'.repeat(200_000)}0`)).toBe(false);
    expect(queryHasControlCharacter(`/blog?q=${'%0'.repeat(100_000)}`)).toBe(false);
    expect(queryHasControlCharacter(`/blog?q=${'%0'.repeat(100_000)}0`)).toBe(true);
    expect(queryHasControlCharacter('/blog/%00')).toBe(false);
  });
});

describe('parameters no page reads (issue 29)', () => {
  let shortened: Server;
  let shortenedBase: string;
  let seen: { url: string; originalUrl: string }[];

  beforeAll(async () => {
    ({ server: shortened, base: shortenedBase, reached: seen } = await behind(dropUnreadParameters));
  });

  afterAll(() => new Promise<void>((resolve) => shortened.close(() => resolve())));

  it("are left out of a public page's address, and the ones pages read are kept as sent", () => {
    expect(pageQuery('fbclid=IwAR0abc')).toBe('');
    expect(pageQuery('q=sign+language&utm_source=partner&page=2&utm_campaign=may')).toBe('q=sign+language&page=2');
    expect(pageQuery('subject=Share%20my%20story&gclid=x')).toBe('subject=Share%20my%20story');
    expect(pageQuery('past&&x')).toBe('past');
    // The names are read as URLSearchParams reads them.
    expect(pageQuery('%71=kampala&%zz=1')).toBe('%71=kampala');
    expect(pageQuery('q=a&q=b&category=Health')).toBeUndefined();
    expect(pageQuery('_routes=routes%2Fpublic%2Fblog')).toBeUndefined();
    expect(pageQuery('')).toBe('');
  });

  it('is one pass, however long the query', () => {
    expect(pageQuery(`q=${'%'.repeat(200_000)}&${'x=1&'.repeat(50_000)}`)).toBe(`q=${'%'.repeat(200_000)}`);
  });

  it('rewrites GET and HEAD of public pages only, before anything reads the address', async () => {
    const cases: [string, string, string?][] = [
      ['/blog/abc?fbclid=1', '/blog/abc'],
      ['/blog?q=water&utm_source=x', '/blog?q=water'],
      ['/events?past&t=123', '/events?past'],
      ['/about.data?_routes=routes%2Fpublic%2Fabout&v=2', '/about.data?_routes=routes%2Fpublic%2Fabout'],
      ['/blog?q=water', '/blog?q=water'],
      // The dashboard, files and our own handlers read queries of their own.
      ['/admin/content?type=news&status=draft', '/admin/content?type=news&status=draft'],
      ['/admin?redirectTo=%2Fadmin%2Fusers', '/admin?redirectTo=%2Fadmin%2Fusers'],
      ['/media/images/a.webp?w=480', '/media/images/a.webp?w=480'],
      ['/healthz?detail', '/healthz?detail'],
      ['/go/rss?to=%2Fnews%2Fx', '/go/rss?to=%2Fnews%2Fx'],
    ];
    for (const [address, expected] of cases) {
      seen.length = 0;
      expect((await fetch(shortenedBase + address)).status, address).toBe(200);
      expect(seen, address).toEqual([{ url: expected, originalUrl: expected }]);
    }
    seen.length = 0;
    await fetch(`${shortenedBase}/contact?utm_source=x`, { method: 'POST', body: 'a=1' });
    expect(seen).toEqual([{ url: '/contact?utm_source=x', originalUrl: '/contact?utm_source=x' }]);
  });

  it('lists every parameter the public pages and their loaders read', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const folders = ['app/routes/public', 'app/routes/resources', 'app/components', 'app/server/content', 'app/client'];
    const read = new Set<string>();
    const files = folders.flatMap((folder) =>
      readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
        .filter((file) => /\.tsx?$/.test(file) && !file.includes('.test.') && !file.startsWith('admin'))
        .map((file) => path.join(root, folder, file)),
    );
    for (const file of files) {
      for (const match of readFileSync(file, 'utf8').matchAll(/(?:searchParams|params)\.(?:get|has|getAll)\('([^']+)'\)/g))
        read.add(match[1]!);
    }
    expect(files.length).toBeGreaterThan(50);
    for (const name of ['q', 'category', 'page', 'past', 'subject']) expect(read).toContain(name);
    for (const name of read) expect(PAGE_PARAMETERS, name).toContain(name);
  });
});
