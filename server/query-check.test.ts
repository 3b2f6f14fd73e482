import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUERY_TEXT, queryHasControlCharacter, refuseControlCharactersInQuery } from './query-check.ts';

// Issue 22: a NUL in a query (`/blog?q=%00`) reached PostgreSQL and failed the request with 503
// or 500, and cut a CSV export short. The site's first middleware now refuses any query holding a
// control character, whatever the route behind it.

let server: Server;
let base: string;
/** What reached the routes behind the check. */
const reached: string[] = [];

beforeAll(async () => {
  const app = express();
  app.use(refuseControlCharactersInQuery);
  app.use((req, res) => {
    reached.push(req.originalUrl);
    res.send('page');
  });
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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
    expect(reached).toEqual(addresses);
  });

  it('is found in one pass, however long the query', () => {
    expect(queryHasControlCharacter(`/blog?q=${'%'.repeat(200_000)}0`)).toBe(false);
    expect(queryHasControlCharacter(`/blog?q=${'%0'.repeat(100_000)}`)).toBe(false);
    expect(queryHasControlCharacter(`/blog?q=${'%0'.repeat(100_000)}0`)).toBe(true);
    expect(queryHasControlCharacter('/blog/%00')).toBe(false);
  });
});
