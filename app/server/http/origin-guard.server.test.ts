import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { unsubscribeTokenFor } from '../newsletter/newsletter.server';
import { isCrossOriginWrite } from './origin-guard.server';

describe('the one-click unsubscribe POST', () => {
  const key = randomBytes(32);
  const token = unsubscribeTokenFor(key, 'abc-123');

  // RFC 8058: the mail provider's server posts, with no Origin and no Sec-Fetch-Site (it is not a
  // browser). The site's write guard lets such a request through; a browser page of another site
  // (which always names its Origin) is still refused (docs/decisions/505-newsletter.md).
  it('lets the server of a mail provider post to an unsubscribe link, and still refuses a page of another site', () => {
    const path = `http://localhost:3000/newsletter/unsubscribe/${token}`;
    const body = 'List-Unsubscribe=One-Click';
    expect(isCrossOriginWrite(new Request(path, { method: 'POST', body }))).toBe(false);
    expect(isCrossOriginWrite(new Request(path, { method: 'POST', body, headers: { origin: 'https://evil.example' } }))).toBe(
      true,
    );
    expect(isCrossOriginWrite(new Request(path, { method: 'POST', body, headers: { 'sec-fetch-site': 'cross-site' } }))).toBe(
      true,
    );
  });
});
