import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../app/server/platform/logger.server.ts';
import { CROSS_ORIGIN_REFUSAL } from '../app/server/http/origin-guard.server.ts';
import { refuseCrossOriginWrites } from './cross-origin.ts';

// A write another site made a browser send is refused by the HTTP server before any route runs:
// 403 in plain words, one warn line without a stack. Writes from this site, and every read, go on.
// The whole site answering so as `npm start` runs it: tests/unit/production-start.test.ts.

const lines: Record<string, unknown>[] = [];
const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
let server: Server;
let port: number;

beforeAll(async () => {
  const app = express();
  app.set('trust proxy', 'loopback');
  app.use(refuseCrossOriginWrites(logger));
  app.use((_req, res) => void res.send('reached the routes'));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function send(method: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end(method === 'POST' ? 'name=Grace' : undefined);
  });
}

const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe('writes from another site', () => {
  it.each([
    ['another Origin', { origin: 'https://evil.example' }],
    ['an Origin of "null" (a sandboxed frame or a data: page)', { origin: 'null' }],
    ['an Origin that is no address', { origin: 'not a url' }],
    ['no Origin but Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
  ])('are refused with a 403 and a warn line without a stack: %s', async (_name, headers) => {
    lines.length = 0;
    expect(await send('POST', '/contact', { ...form, ...headers })).toEqual({ status: 403, body: CROSS_ORIGIN_REFUSAL });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'warn',
      method: 'POST',
      path: '/contact',
      msg: 'a write from another site was refused',
    });
    expect(lines[0]).not.toHaveProperty('err');
    expect(JSON.stringify(lines[0])).not.toContain('stack');
  });

  it('log the path with its secret cut out, and the other site shortened', async () => {
    lines.length = 0;
    const origin = `https://${'a'.repeat(500)}.example`;
    expect((await send('POST', '/preview/Secret-Preview-Token.data', { ...form, origin })).status).toBe(403);
    expect(lines[0]).toMatchObject({ path: '/preview/[token]', origin: origin.slice(0, 200) });
    expect(JSON.stringify(lines)).not.toContain('Secret-Preview-Token');
  });
});

describe('requests that go on to the routes', () => {
  it.each([
    ['a write from this site', 'POST', { origin: 'http://127.0.0.1:PORT' }],
    ['a write from this site, the Host written differently', 'POST', { origin: 'http://example.org', host: 'Example.ORG:80' }],
    [
      'a write from the site behind a trusted proxy',
      'POST',
      { origin: 'https://tdg.example', 'x-forwarded-host': 'tdg.example' },
    ],
    ['a write from the site’s PUBLIC_URL', 'POST', { origin: 'http://localhost:3000' }],
    ['a write with no Origin (a script, or an old browser)', 'POST', {}],
    ['a write with Sec-Fetch-Site: same-origin', 'POST', { 'sec-fetch-site': 'same-origin' }],
    ['a read from another site', 'GET', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }],
  ])('%s', async (_name, method, headers) => {
    lines.length = 0;
    const withPort = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('PORT', String(port))]));
    expect(await send(method, '/contact', { ...form, ...withPort })).toEqual({ status: 200, body: 'reached the routes' });
    expect(lines).toEqual([]);
  });
});
