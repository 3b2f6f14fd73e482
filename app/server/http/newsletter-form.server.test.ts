import { beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase, withUnreadableDatabase } from '../../../tests/support/databases';
import { formPost } from '../../../tests/support/requests';
import { NEWSLETTER_MESSAGES } from '~/lib/newsletter';
import { NEWSLETTER_SUBSCRIBE_JOB } from '../newsletter/newsletter.server';
import {
  backPath,
  NEWSLETTER_RATE_LIMIT,
  NEWSLETTER_RATE_LIMITED,
  safeLocalPath,
  submitNewsletterForm,
} from './newsletter-form.server';

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

describe.each(ENGINES)('the newsletter box on %s', (engine) => {
  const database = useTestDatabase(engine);
  const submit = (request: Request, clientIp = '203.0.113.7') => submitNewsletterForm({ request, clientIp, db: database().db });
  const queued = async () =>
    (await database().db.selectFrom('jobs').select('payload').where('kind', '=', NEWSLETTER_SUBSCRIBE_JOB).execute()).map(
      (r) => JSON.parse(r.payload) as { email: string; source: string | null },
    );

  beforeEach(async () => {
    // Each test starts with no counted attempts.
    await database().db.deleteFrom('rate_limits').execute();
    await database().db.deleteFrom('jobs').execute();
    await database().db.deleteFrom('newsletter_subscribers').execute();
  });

  it('answers the same neutral words for an unknown, a waiting, a confirmed and an unsubscribed address, and only queues them', async () => {
    const db = database().db;
    const at = new Date().toISOString();
    await db
      .insertInto('newsletter_subscribers')
      .values([
        { id: 'w', email: 'waiting@example.org', created_at: at, status: 'pending', confirm_sent_at: at },
        { id: 'c', email: 'confirmed@example.org', created_at: at, status: 'confirmed', confirmed_at: at },
        { id: 'u', email: 'gone@example.org', created_at: at, status: 'unsubscribed', unsubscribed_at: at },
      ])
      .execute();
    const before = await db.selectFrom('newsletter_subscribers').selectAll().orderBy('id').execute();
    const answers = [];
    for (const email of ['new@example.org', 'Waiting@Example.org', 'confirmed@example.org', 'gone@example.org'])
      answers.push(await submit(post({ email, source: '/news' })));
    for (const outcome of answers)
      expect(outcome).toEqual({
        status: 200,
        result: { status: 'received', message: NEWSLETTER_MESSAGES.received, back: '/news' },
      });
    // The request looked nothing up and changed nothing: the job does that, later.
    expect(await db.selectFrom('newsletter_subscribers').selectAll().orderBy('id').execute()).toEqual(before);
    expect((await queued()).map((p) => p.email)).toEqual([
      'new@example.org',
      'waiting@example.org',
      'confirmed@example.org',
      'gone@example.org',
    ]);
  });

  it('queues the language of the page the box was on, for the confirmation', async () => {
    await submit(formPost('http://localhost/lg/newsletter', { email: 'nakato@example.org', source: '/lg/news' }));
    await submit(post({ email: 'grace@example.org', source: '/news' }));
    expect((await queued()).map((p) => [p.email, (p as { language?: string }).language])).toEqual([
      ['nakato@example.org', 'lg'],
      ['grace@example.org', 'en'],
    ]);
  });

  it('refuses an invalid address with 400 and queues nothing', async () => {
    for (const email of ['', 'grace', 'grace@', '@example.org', `${'x'.repeat(250)}@example.org`]) {
      const outcome = await submit(post({ email, source: '/blog' }));
      expect(outcome.status, email).toBe(400);
      expect(outcome.result).toEqual({ status: 'invalid', message: NEWSLETTER_MESSAGES.invalid, back: '/blog' });
    }
    expect(await queued()).toEqual([]);
  });

  it('queues at most twenty of 25 simultaneous subscriptions from one address, counted in the database', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 25 }, (_, n) => submit(post({ email: `s${n}@example.org` }), '192.0.2.78')),
    );
    expect(outcomes.filter((o) => o.status === 200)).toHaveLength(NEWSLETTER_RATE_LIMIT.limit);
    expect(outcomes.filter((o) => o.status === 429)).toHaveLength(25 - NEWSLETTER_RATE_LIMIT.limit);
    expect(await queued()).toHaveLength(NEWSLETTER_RATE_LIMIT.limit);
  });

  it('limits each visitor address with 429 and a polite message', async () => {
    for (let i = 0; i < NEWSLETTER_RATE_LIMIT.limit; i++) await submit(post({ email: `p${i}@example.org` }));
    const refused = await submit(post({ email: 'late@example.org' }));
    expect(refused.status).toBe(429);
    expect(refused.result).toMatchObject({ status: 'failed', message: NEWSLETTER_RATE_LIMITED });
    expect(refused.headers?.['Retry-After']).toBeDefined();
    expect((await queued()).map((p) => p.email)).not.toContain('late@example.org');
  });

  it('answers a visitor already over the limit before checking the address, counting nothing more', async () => {
    const hits = async () =>
      Number(
        (
          await database()
            .db.selectFrom('rate_limits')
            .select('hits')
            .where('key', '=', 'newsletter:192.0.2.61')
            .executeTakeFirstOrThrow()
        ).hits,
      );
    for (let i = 0; i < NEWSLETTER_RATE_LIMIT.limit; i++) await submit(post({ email: `q${i}@example.org` }), '192.0.2.61');
    for (const email of ['late@example.org', 'not-an-address']) {
      const refused = await submit(post({ email, source: '/blog' }), '192.0.2.61');
      expect(refused.status, email).toBe(429);
      expect(refused.result).toEqual({ status: 'failed', message: NEWSLETTER_RATE_LIMITED, back: '/blog' });
      expect(Number(refused.headers?.['Retry-After'])).toBeGreaterThan(0);
    }
    expect(await hits()).toBe(NEWSLETTER_RATE_LIMIT.limit);
    expect(await queued()).toHaveLength(NEWSLETTER_RATE_LIMIT.limit);
  });

  it('answers 413 to an oversized post', async () => {
    const outcome = await submit(post({ email: 'a@example.org', source: 'x'.repeat(20_000) }));
    expect(outcome.status).toBe(413);
    expect(await queued()).toEqual([]);
  });

  it('answers failed when the request cannot be queued', async () => {
    const outcome = await withUnreadableDatabase(engine, (broken) =>
      submitNewsletterForm({ request: post({ email: 'a@example.org' }), clientIp: '203.0.113.7', db: broken.db }),
    );
    expect(outcome.status).toBe(503);
    expect(outcome.result).toMatchObject({ status: 'failed', message: NEWSLETTER_MESSAGES.failed });
  });
});

describe.each(ENGINES)('the answer does not depend on the list on %s', (engine) => {
  const database = useTestDatabase(engine);

  it('answers and queues even when the subscribers table cannot be read: the request never looks an address up', async () => {
    const db = database().db;
    await db.schema.dropTable('newsletter_deliveries').execute();
    await db.schema.alterTable('newsletter_subscribers').renameTo('newsletter_subscribers_gone').execute();
    const outcome = await submitNewsletterForm({
      request: post({ email: 'anyone@example.org' }),
      clientIp: '198.51.100.4',
      db,
    });
    expect(outcome).toMatchObject({ status: 200, result: { status: 'received' } });
  });
});
