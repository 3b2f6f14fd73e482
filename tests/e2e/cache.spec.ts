import { expect, test, type APIRequestContext } from '@playwright/test';
import { MOBILE } from './support';

// The public page cache (docs/decisions/402-page-cache.md). Each test uses its own query string so
// that what other tests fetched does not decide whether a request is a hit: a parameter pages read
// (a parameter no page reads is left out of the address, issue 29), with a value that changes nothing.
const unique = (path: string) =>
  `${path}${path.includes('?') ? '&' : '?'}sign=probe-${Date.now()}-${Math.random().toString(36).slice(2)}`;

/**
 * Issue 29: an address with a query is kept from its second request (server/page-cache.ts), so a
 * test's own address is asked for once first; from then on it behaves as a page without a query.
 */
async function askedBefore(request: APIRequestContext, url: string): Promise<string> {
  expect((await request.get(url)).headers()['x-cache']).toBe('MISS');
  return url;
}

test('an anonymous page is rendered once, then served from memory with the same HTML', async ({ request }) => {
  const url = await askedBefore(request, unique('/about'));
  const first = await request.get(url);
  expect(first.status()).toBe(200);
  expect(first.headers()['x-cache']).toBe('MISS');
  expect(first.headers()['cache-control']).toBe('public, max-age=0, must-revalidate');
  const second = await request.get(url);
  expect(second.headers()['x-cache']).toBe('HIT');
  expect(await second.text()).toBe(await first.text());
  expect(second.headers()['cache-control']).toBe('public, max-age=0, must-revalidate');

  // A browser that already has the page is told it is unchanged.
  const etag = second.headers()['etag']!;
  const revalidated = await request.get(url, { headers: { 'If-None-Match': etag } });
  expect(revalidated.status()).toBe(304);
});

test('a cached page carries a CSP that matches it: no violations, and its page script runs', async ({ page, request }) => {
  await page.setViewportSize(MOBILE);
  const url = await askedBefore(request, unique('/contact'));
  expect((await request.get(url)).headers()['x-cache']).toBe('MISS');

  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to execute/i.test(message.text())) violations.push(message.text());
  });
  page.on('pageerror', (error) => violations.push(error.message));
  const response = await page.goto(url);
  expect(response!.headers()['x-cache']).toBe('HIT');
  const csp = response!.headers()['content-security-policy']!;
  // No inline script on a public page (issue 24): the page script is allowed as 'self'.
  expect(csp).toMatch(/script-src 'self';/);
  expect(csp).not.toContain('nonce-');

  // The page script ran (issue 24: public pages load it instead of React), and the menu opens.
  await expect(page.locator('html')).toHaveAttribute('data-enhanced', 'true');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
  expect(violations).toEqual([]);
});

test('a cached public page has no inline script, and its stored CSP allows none: neither nonce nor hash', async ({ request }) => {
  // Issue 24: public pages load no framework, so they write no inline script; the page cache's
  // hashing of inline scripts (unit-tested in server/page-cache.test.ts) then allows nothing inline.
  const url = await askedBefore(request, unique('/news'));
  const first = await request.get(url);
  expect(first.headers()['x-cache']).toBe('MISS');
  expect(first.headers()['content-security-policy']).toMatch(/'nonce-[^']+'/);
  const inline = [...(await first.text()).matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
    ([, attributes]) => !/\ssrc=|application\/(ld\+)?json/.test(attributes!),
  );
  expect(inline).toEqual([]);

  const second = await request.get(url);
  expect(second.headers()['x-cache']).toBe('HIT');
  const scriptSrc = /script-src ([^;]*)/.exec(second.headers()['content-security-policy'] ?? '')?.[1] ?? '';
  expect(scriptSrc.trim()).toBe("'self'");
});

test('client-side navigation data of public pages is cached too', async ({ request }) => {
  const url = await askedBefore(request, unique('/about.data'));
  expect((await request.get(url)).headers()['x-cache']).toBe('MISS');
  const second = await request.get(url);
  expect(second.headers()['x-cache']).toBe('HIT');
  expect(second.headers()['content-type']).toMatch(/^text\/x-script/);
});

test('a request with a staff session cookie is never served from the cache, nor stored', async ({ request }) => {
  const url = await askedBefore(request, unique('/about'));
  await request.get(url);
  expect((await request.get(url)).headers()['x-cache']).toBe('HIT');
  for (const cookie of ['tdg_session=abc', '__Host-tdg_session=abc', 'theme=dark; tdg_session=abc']) {
    const staff = await request.get(url, { headers: { Cookie: cookie } });
    expect(staff.status()).toBe(200);
    expect(staff.headers()['x-cache'], cookie).toBe('BYPASS');
  }

  const fresh = unique('/news');
  await request.get(fresh, { headers: { Cookie: 'tdg_session=abc' } });
  expect((await request.get(fresh)).headers()['x-cache']).toBe('MISS');
});

test('an address with a query asked for once is not kept: a new word searched each time fills no memory', async ({ request }) => {
  const url = unique('/blog?q=accessibility');
  expect((await request.get(url)).headers()['x-cache']).toBe('MISS');
  expect((await request.get(url)).headers()['x-cache']).toBe('MISS');
  expect((await request.get(url)).headers()['x-cache']).toBe('HIT');
  // A page without a query is kept from its first request.
  const page = '/privacy';
  await request.get(page);
  expect((await request.get(page)).headers()['x-cache']).toBe('HIT');
});

test('parameters no page reads are left out: a shared link with its own fbclid is the page already kept (issue 29)', async ({
  request,
}) => {
  const url = await askedBefore(request, unique('/about'));
  const kept = await request.get(url);
  expect(kept.headers()['x-cache']).toBe('MISS');
  for (const extra of ['fbclid=IwAR0abc', 'utm_source=partner&utm_medium=email', 'fbclid=IwAR1def&t=1']) {
    const shared = await request.get(`${url}&${extra}`);
    expect(shared.status(), extra).toBe(200);
    expect(shared.headers()['x-cache'], extra).toBe('HIT');
    expect(await shared.text(), extra).toBe(await kept.text());
  }
  // A parameter a page reads still makes a page of its own.
  const searched = await request.get(`${url}&q=accessibility`);
  expect(searched.headers()['x-cache']).toBe('MISS');
});

test('pages that are not found, and the health check, are not cached', async ({ request }) => {
  const missing = unique('/no-such-page');
  await request.get(missing);
  const again = await request.get(missing);
  expect(again.status()).toBe(404);
  expect(again.headers()['x-cache']).toBe('MISS');
  expect((await request.get('/healthz')).headers()['x-cache']).toBeUndefined();
});
