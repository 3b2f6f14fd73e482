import http from 'node:http';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { SIGN_IN_MESSAGES } from '../../app/lib/auth';
import { E2E } from './env';
import { expect, test } from './fixtures';
import { freePort, startServer } from './support';

// The sign-in limits against the real server (issue point 2) and the client address behind a proxy
// (issue point 3). docs/decisions/009-sign-in-limits-and-proxies.md.

// The `staff` fixture forgets, when a test ends, the failures counted for its accounts (and for the
// address every journey signs in from).
test('25 simultaneous wrong passwords for one account: 5 are checked, the other 20 are refused', async ({ request, staff }) => {
  const user = await staff('VIEWER');
  const answers = await Promise.all(
    Array.from({ length: 25 }, (_, i) =>
      request.post('/admin', {
        form: { email: user.email, password: `Wrong-password-${i}` },
        headers: { Origin: E2E.baseURL },
        maxRedirects: 0,
      }),
    ),
  );
  const statuses = answers.map((answer) => answer.status());
  expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(5);
  expect(statuses.filter((status) => status === 401)).toHaveLength(5);
  expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  const refused = answers.find((answer) => answer.status() === 429)!;
  expect(await refused.text()).toContain(SIGN_IN_MESSAGES.tooManyAttempts);
  // The page says when to try again: within the 15-minute window.
  expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);
  expect(Number(refused.headers()['retry-after'])).toBeLessThanOrEqual(15 * 60);
});

test('behind one proxy (TRUST_PROXY=1) a forged X-Forwarded-For is ignored: the address is the one the proxy added', async () => {
  // A second server seeds its own demo content first, which takes a while on a busy machine.
  test.setTimeout(180_000);
  const adminEmail = 'proxy-admin@e2e.example';
  const server = await startServer(
    { TRUST_PROXY: '1', SUPER_ADMIN_EMAIL: adminEmail, SUPER_ADMIN_PASSWORD: 'proxy-test-passphrase' },
    'tdg-proxy-',
  );
  const proxyPort = await freePort();

  // The proxy does what nginx's $proxy_add_x_forwarded_for does: keeps what the client sent and
  // appends the address it saw the client connect from (here always this one, as if the visitor
  // came from outside).
  const CLIENT = '203.0.113.77';
  const proxy = http.createServer((req, res) => {
    const forwarded = [req.headers['x-forwarded-for'], CLIENT].filter(Boolean).join(', ');
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-for': forwarded },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(proxyPort, '127.0.0.1', resolve));
  const proxyUrl = `http://127.0.0.1:${proxyPort}`;

  try {
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) {
      const answer = await fetch(`${proxyUrl}/admin`, {
        method: 'POST',
        body: new URLSearchParams({ email: adminEmail, password: `Wrong-password-${i}` }),
        // Each attempt claims to come from somewhere new.
        headers: { Origin: proxyUrl, 'X-Forwarded-For': `198.51.100.${i}` },
      });
      statuses.push(answer.status);
    }
    // One visitor, however many addresses it claims: the sixth failure in a row is refused.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);

    const database = new SQLite(path.join(server.dataDir, 'tdg.sqlite'), { readonly: true });
    try {
      const rows = database.prepare("SELECT ip FROM audit_log WHERE action = 'auth.sign_in_failed'").all() as { ip: string }[];
      expect(rows.map((row) => row.ip)).toEqual(Array<string>(5).fill(CLIENT));
    } finally {
      database.close();
    }
  } finally {
    await server.dispose();
    await new Promise((resolve) => proxy.close(resolve));
  }
});
