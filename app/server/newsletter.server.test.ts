import { beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase, withUnreadableDatabase } from '../../tests/support/databases';
import { formPost } from '../../tests/support/requests';
import { NEWSLETTER_MESSAGES } from '~/lib/newsletter';
import { createRateLimiter, type RateLimiter } from './rate-limit.server';
import {
  backPath,
  NEWSLETTER_RATE_LIMIT,
  NEWSLETTER_RATE_LIMITED,
  safeLocalPath,
  submitNewsletterForm,
  subscribeToNewsletter,
} from './newsletter.server';

const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  formPost('http://localhost/newsletter', fields, headers);

describe('where "back" leads after a plain post', () => {
  it('accepts only paths on this site', () => {
    expect(safeLocalPath('/news')).toBe('/news');
    expect(safeLocalPath('/blog/abc?q=sign')).toBe('/blog/abc?q=sign');
    for (const bad of ['news', '//evil.example', '/\\evil.example', 'https://evil.example/', '/a b', '/a\nb', '', undefined]) {
      expect(safeLocalPath(bad), String(bad)).toBeUndefined();
    }
  });

  it('uses the source path, else a same-site referrer, else home', () => {
    const from = (referer?: string) =>
      new Request('http://localhost/newsletter', { method: 'POST', headers: referer ? { referer } : {} });
    expect(backPath('/news', from('http://localhost/blog'))).toBe('/news');
    expect(backPath('article', from('http://localhost/blog/abc'))).toBe('/blog/abc');
    expect(backPath('article', from('https://evil.example/blog'))).toBe('/');
    expect(backPath('//evil.example', from())).toBe('/');
    expect(backPath(undefined, from('not a url'))).toBe('/');
  });
});

describe.each(ENGINES)('newsletter subscriptions on %s', (engine) => {
  const database = useTestDatabase(engine);
  let limiter: RateLimiter;
  const submit = (request: Request, clientIp = '203.0.113.7') =>
    submitNewsletterForm({ request, clientIp, db: database().db, limiter });
  const emails = async () =>
    (await database().db.selectFrom('newsletter_subscribers').select('email').orderBy('email').execute()).map((r) => r.email);

  beforeEach(async () => {
    limiter = createRateLimiter(NEWSLETTER_RATE_LIMIT);
    await database().db.deleteFrom('newsletter_subscribers').execute();
  });

  it('stores a new address lower-cased with its source, and answers subscribed', async () => {
    const outcome = await submit(post({ email: '  Grace@Example.ORG ', source: '/news' }));
    expect(outcome).toEqual({
      status: 200,
      result: { status: 'subscribed', message: NEWSLETTER_MESSAGES.subscribed, back: '/news' },
    });
    const row = await database().db.selectFrom('newsletter_subscribers').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ email: 'grace@example.org', source: '/news' });
    expect(Date.parse(row.created_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('answers already, not an error, to a second subscription of the same address', async () => {
    await submit(post({ email: 'grace@example.org' }));
    const again = await submit(post({ email: 'GRACE@example.org' }));
    expect(again.status).toBe(200);
    expect(again.result).toMatchObject({ status: 'already', message: NEWSLETTER_MESSAGES.already });
    expect(await emails()).toEqual(['grace@example.org']);
  });

  it('settles simultaneous subscriptions of one address through the unique index', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => subscribeToNewsletter({ email: 'race@example.org' }, database().db)),
    );
    expect(outcomes.filter((o) => o === 'subscribed')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'already')).toHaveLength(7);
    expect(await emails()).toEqual(['race@example.org']);
  });

  it('refuses an invalid address with 400 and stores nothing', async () => {
    for (const email of ['', 'grace', 'grace@', '@example.org', `${'x'.repeat(250)}@example.org`]) {
      const outcome = await submit(post({ email, source: '/blog' }));
      expect(outcome.status, email).toBe(400);
      expect(outcome.result).toEqual({ status: 'invalid', message: NEWSLETTER_MESSAGES.invalid, back: '/blog' });
    }
    expect(await emails()).toEqual([]);
  });

  it('limits each address with 429 and a polite message', async () => {
    for (let i = 0; i < NEWSLETTER_RATE_LIMIT.limit; i++) await submit(post({ email: `p${i}@example.org` }));
    const refused = await submit(post({ email: 'late@example.org' }));
    expect(refused.status).toBe(429);
    expect(refused.result).toMatchObject({ status: 'failed', message: NEWSLETTER_RATE_LIMITED });
    expect(refused.headers?.['Retry-After']).toBeDefined();
    expect(await emails()).not.toContain('late@example.org');
  });

  it('answers 413 to an oversized post', async () => {
    const outcome = await submit(post({ email: 'a@example.org', source: 'x'.repeat(20_000) }));
    expect(outcome.status).toBe(413);
    expect(await emails()).toEqual([]);
  });

  it('answers failed when the address cannot be stored', async () => {
    const outcome = await withUnreadableDatabase(engine, (broken) =>
      submitNewsletterForm({ request: post({ email: 'a@example.org' }), clientIp: '203.0.113.7', db: broken.db, limiter }),
    );
    expect(outcome.status).toBe(503);
    expect(outcome.result).toMatchObject({ status: 'failed', message: NEWSLETTER_MESSAGES.failed });
  });
});
