import { spawn } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { DRAIN_LIMIT_BYTES, FORM_TEXTS } from '../../app/server/request-info.server';
import { E2E } from './env';

test('GET /healthz answers 200 while the database is reachable', async ({ request }) => {
  const response = await request.get('/healthz');
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ status: 'ok', database: 'sqlite' });
});

test('pages carry the security headers', async ({ request }) => {
  // A query string no one else asks for, so this is a freshly rendered page with its own nonce
  // (a page served from the cache carries its inline scripts' hashes instead: cache.spec.ts).
  const response = await request.get(`/?fresh=${Date.now()}${Math.random()}`);
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
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-shutdown-'));
  const port = '3199';
  const child = spawn(process.execPath, ['server.ts'], {
    env: {
      ...process.env,
      PORT: port,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      SUPER_ADMIN_PASSWORD: 'shutdown-test',
    },
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await expect.poll(() => stdout, { timeout: 150_000 }).toContain(`is running at http://127.0.0.1:${port}`);
  const page = await fetch(`http://127.0.0.1:${port}/`);
  expect(page.status).toBe(200);
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(stdout).toContain('"msg":"stopped"');
  // better-sqlite3 folds the write-ahead log back into the database when the last connection closes.
  expect(fs.existsSync(path.join(dataDir, 'tdg.sqlite-wal'))).toBe(false);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// Node's fetch sends the next request on the same connection once the last one is answered. A form
// post too large even to read and drop (see request-info.server.ts) is answered at once, and the
// answer says Connection: close, so Node closes the connection after it instead of leaving the
// unread rest of the body in the way of the next request.
test('a post too large even to read is answered 413 with Connection: close, and the next request gets through', async () => {
  const refused = await fetch(`${E2E.baseURL}/admin/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: E2E.baseURL },
    body: `email=a%40example.org&password=${'x'.repeat(DRAIN_LIMIT_BYTES + 1024)}`,
  });
  expect(refused.status).toBe(413);
  expect(refused.headers.get('connection')).toBe('close');
  expect(await refused.json()).toEqual({ error: FORM_TEXTS.tooLarge });
  const next = await fetch(`${E2E.baseURL}/healthz`, { signal: AbortSignal.timeout(5_000) });
  expect(next.status).toBe(200);
});

// A page route's own `headers` keep only what they name; the server adds Connection: close to every
// 411 and 413 itself, so a body sent in pieces and left unread never blocks the next request.
test('a page form sent in pieces past what the server reads answers 413 and closes the connection', async () => {
  const piece = new TextEncoder().encode('x'.repeat(1024 * 1024));
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === 0) controller.enqueue(new TextEncoder().encode('name=A&message='));
      if (sent > DRAIN_LIMIT_BYTES + 2 * piece.length) return controller.close();
      controller.enqueue(piece);
      sent += piece.length;
    },
  });
  const refused = await fetch(`${E2E.baseURL}/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: E2E.baseURL },
    body,
    duplex: 'half',
  } as RequestInit);
  expect(refused.status).toBe(413);
  expect(refused.headers.get('connection')).toBe('close');
  await refused.arrayBuffer();
  const next = await fetch(`${E2E.baseURL}/contact`, { signal: AbortSignal.timeout(5_000) });
  expect(next.status).toBe(200);
});
