import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { DRAIN_LIMIT_BYTES } from '../../app/server/http/request-info.server';
import { E2E } from './env';
import { startServer } from './support';

test('GET /healthz answers 200 while the database is reachable', async ({ request }) => {
  const response = await request.get('/healthz');
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ status: 'ok', database: 'sqlite' });
});

test('pages carry the security headers', async ({ request }) => {
  // A query string no one else asks for, so this is a freshly rendered page with its own nonce
  // (a page served from the cache carries its inline scripts' hashes instead: cache.spec.ts).
  const response = await request.get(`/?sign=fresh-${Date.now()}${Math.random()}`);
  const headers = response.headers();
  const csp = headers['content-security-policy'] ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
  expect(csp).not.toMatch(/https?:\/\//);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['x-powered-by']).toBeUndefined();
  // Plain http here, so no HSTS (it is sent when PUBLIC_URL is https).
  expect(headers['strict-transport-security']).toBeUndefined();
});

test('hashed assets are cached for a year and compressed', async ({ request }) => {
  const html = await (await request.get('/')).text();
  const asset = html.match(/\/assets\/[\w.-]+\.js/)?.[0];
  expect(asset).toBeTruthy();
  const response = await request.get(asset!, { headers: { 'Accept-Encoding': 'br, gzip' } });
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(response.headers()['content-encoding']).toBe('br');
  // A file, not a page: a CSP that lets it run nothing, nosniff, and none of a page's other headers.
  expect(response.headers()['content-security-policy']).toBe("default-src 'none'");
  expect(response.headers()['x-content-type-options']).toBe('nosniff');
  expect(response.headers()['x-frame-options']).toBeUndefined();
  const gzip = await request.get('/', { headers: { 'Accept-Encoding': 'gzip' } });
  expect(gzip.headers()['content-encoding']).toBe('gzip');
});

test('uploaded images are served from the data folder', async ({ request }) => {
  const html = await (await request.get('/')).text();
  const image = html.match(/\/media\/blogs\/[\w.-]+\.webp/)?.[0];
  expect(image).toBeTruthy();
  const response = await request.get(image!);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('image/webp');
  expect(response.headers()['content-security-policy']).toBe("default-src 'none'");
  expect(response.headers()['x-content-type-options']).toBe('nosniff');
  expect(response.headers()['referrer-policy']).toBeUndefined();
});

test('a second server on a busy port stops with one clear line and exit code 1', async () => {
  const port = new URL(E2E.baseURL).port;
  const child = spawn(process.execPath, ['server.ts'], {
    env: { ...process.env, PORT: port, HOST: '127.0.0.1', DATA_DIR: E2E.dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code).toBe(1);
  expect(stderr.trim()).toBe(`Cannot start: Port ${port} is already in use: stop the other program or set PORT to a free port`);
});

test('SIGTERM stops the server cleanly and closes the database', async () => {
  // A second server seeds its own demo content first, which takes a while on a busy machine.
  test.setTimeout(180_000);
  const server = await startServer({ SUPER_ADMIN_PASSWORD: 'shutdown-test' }, 'tdg-shutdown-');
  try {
    const page = await fetch(`http://127.0.0.1:${server.port}/`);
    expect(page.status).toBe(200);
    expect(await server.stop()).toBe(0);
    expect(server.stdout()).toContain('"msg":"stopped"');
    // better-sqlite3 folds the write-ahead log back into the database when the last connection closes.
    expect(fs.existsSync(path.join(server.dataDir, 'tdg.sqlite-wal'))).toBe(false);
  } finally {
    await server.dispose();
  }
});

/**
 * Sends a form post over a raw socket: the headers, then `bodyBytes` of body in pieces of at most
 * 1 MB, then stops (a chunked body is left unfinished), and reads the answer to the end of the
 * connection. It stops writing once an answer has begun: bytes a closing server never reads would
 * make it reset the connection, and the answer could be lost with them.
 */
function rawPost(path: string, headers: Record<string, string>, bodyBytes: number) {
  const url = new URL(E2E.baseURL);
  return new Promise<{ head: string; closedByServer: boolean }>((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve({ head: answer.split('\r\n\r\n')[0] ?? '', closedByServer: answer.length > 0 }));
    socket.setTimeout(20_000, () => socket.destroy(new Error('no answer within 20 s')));
    const lines = [
      `POST ${path} HTTP/1.1`,
      `Host: ${url.host}`,
      `Origin: ${E2E.baseURL}`,
      'Content-Type: application/x-www-form-urlencoded',
    ];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    const chunked = headers['Transfer-Encoding'] === 'chunked';
    let sent = 0;
    const writeMore = () => {
      while (answer === '' && !socket.destroyed && sent < bodyBytes) {
        const size = Math.min(1024 * 1024, bodyBytes - sent);
        sent += size;
        const piece = 'x'.repeat(size);
        if (!socket.write(chunked ? `${size.toString(16)}\r\n${piece}\r\n` : piece)) return void socket.once('drain', writeMore);
      }
    };
    socket.write(`${lines.join('\r\n')}\r\n\r\n`, writeMore);
  });
}

// A form post too large even to read and drop (see request-info.server.ts) is answered at once,
// saying Connection: close, and the server closes the connection after it instead of leaving the
// unread rest of the body in the way of a next request on it.
test('a post too large even to read is answered 413 with Connection: close, and the next request gets through', async () => {
  const declared = DRAIN_LIMIT_BYTES + 1024;
  const answer = await rawPost('/admin', { 'Content-Length': String(declared) }, 0);
  expect(answer.head).toMatch(/^HTTP\/1\.1 413 /);
  expect(answer.head).toMatch(/\r\nconnection: close(\r\n|$)/i);
  expect(answer.closedByServer).toBe(true);
  const next = await fetch(`${E2E.baseURL}/healthz`, { signal: AbortSignal.timeout(5_000) });
  expect(next.status).toBe(200);
});

// A page route's own `headers` keep only what they name; the server adds Connection: close to every
// 411 and 413 itself, so a body sent in pieces and left unread never blocks the next request.
test('a page form sent in pieces past what the server reads answers 413 and closes the connection', async () => {
  const answer = await rawPost('/contact', { 'Transfer-Encoding': 'chunked' }, DRAIN_LIMIT_BYTES + 1024);
  expect(answer.head).toMatch(/^HTTP\/1\.1 413 /);
  expect(answer.head).toMatch(/\r\nconnection: close(\r\n|$)/i);
  expect(answer.closedByServer).toBe(true);
  const next = await fetch(`${E2E.baseURL}/contact`, { signal: AbortSignal.timeout(5_000) });
  expect(next.status).toBe(200);
});
