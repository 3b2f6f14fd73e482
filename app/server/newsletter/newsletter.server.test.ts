import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, ENGINES, useTestDatabase, withUnreadableDatabase } from '../../../tests/support/databases';
import { formPost } from '../../../tests/support/requests';
import { NEWSLETTER_MESSAGES } from '~/lib/newsletter';
import { createMigrator } from '../db/migrations.server';
import { setDatabase } from '../db/db.server';
import { isCrossOriginWrite } from '../http/origin-guard.server';
import {
  backPath,
  checkConfirmToken,
  checkUnsubscribeToken,
  CONFIRM_LINK_MS,
  CONFIRM_MAILS_PER_DAY,
  confirmSubscription,
  expirePendingSubscribers,
  NEWSLETTER_RATE_LIMIT,
  NEWSLETTER_RATE_LIMITED,
  NEWSLETTER_SUBSCRIBE_JOB,
  requestSubscription,
  runSubscribeRequest,
  safeLocalPath,
  signingKey,
  submitNewsletterForm,
  subscriberOfToken,
  unsubscribe,
  unsubscribeTokenFor,
} from './newsletter.server';

const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  formPost('http://localhost/newsletter', fields, headers);

const DAY = 24 * 60 * 60_000;

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

describe('the one-click unsubscribe POST and the unsubscribe token', () => {
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

  it('reads the subscriber back only from a token we signed', () => {
    expect(subscriberOfToken(key, token)).toBe('abc-123');
    const [id, mac] = token.split('.') as [string, string];
    expect(subscriberOfToken(key, `${Buffer.from('other-id').toString('base64url')}.${mac}`)).toBeUndefined();
    // The first character changes: the last one's two lowest bits are padding in base64url, so
    // flipping only those would decode to the same signature.
    expect(subscriberOfToken(key, `${id}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`)).toBeUndefined();
    expect(subscriberOfToken(randomBytes(32), token)).toBeUndefined();
    expect(subscriberOfToken(key, 'nonsense')).toBeUndefined();
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

describe.each(ENGINES)('double opt-in and unsubscribing on %s', (engine) => {
  const database = useTestDatabase(engine);
  const db = () => database().db;
  const row = (email: string) =>
    db().selectFrom('newsletter_subscribers').selectAll().where('email', '=', email).executeTakeFirst();
  const outbox = (to: string) =>
    db().selectFrom('mail_outbox').selectAll().where('to_address', '=', to).orderBy('created_at').execute();
  const tokenIn = (text: string) => /\/newsletter\/confirm\/([A-Za-z0-9_-]{43})/.exec(text)?.[1];
  const unique = (name: string) => `${name}-${randomBytes(4).toString('hex')}@example.org`;

  beforeEach(async () => {
    await db().deleteFrom('rate_limits').execute();
  });

  it('stores a new address waiting, and mails a single-use link that confirms it', async () => {
    const email = unique('grace');
    await runSubscribeRequest({ email, source: '/news' });
    const waiting = await row(email);
    expect(waiting).toMatchObject({ status: 'pending', source: '/news', confirmed_at: null });
    expect(waiting!.confirm_token_hash).toMatch(/^[0-9a-f]{64}$/);
    const [mail] = await outbox(email);
    expect(mail).toMatchObject({ carries_secret: 1, subject: expect.stringContaining('confirm your subscription') });
    const token = tokenIn(mail!.text_body)!;
    expect(mail!.html_body).toContain(`/newsletter/confirm/${token}`);
    // Only the hash is stored.
    expect(JSON.stringify(waiting)).not.toContain(token);

    expect(await checkConfirmToken(token)).toBe(true);
    const twice = await Promise.all([confirmSubscription(token), confirmSubscription(token), confirmSubscription(token)]);
    expect(twice.filter(Boolean)).toHaveLength(1);
    expect(await row(email)).toMatchObject({ status: 'confirmed', confirm_token_hash: null, confirm_sent_at: null });
    expect((await row(email))!.confirmed_at).not.toBeNull();
    expect(await checkConfirmToken(token)).toBe(false);
    expect(await confirmSubscription(token)).toBe(false);
  });

  it('refuses a link older than seven days, and a token that is not one', async () => {
    const email = unique('late');
    await requestSubscription({ email });
    const token = tokenIn((await outbox(email))[0]!.text_body)!;
    const later = Date.now() + CONFIRM_LINK_MS + 60_000;
    expect(await checkConfirmToken(token, later)).toBe(false);
    expect(await confirmSubscription(token, later)).toBe(false);
    expect(await row(email)).toMatchObject({ status: 'pending' });
    for (const bad of ['', 'short', `${token}x`, `${token.slice(0, -1)}!`])
      expect(await confirmSubscription(bad), bad).toBe(false);
  });

  it('sends a new link to an address still waiting, after which only the newest works', async () => {
    const email = unique('again');
    await requestSubscription({ email });
    await requestSubscription({ email });
    const [first, second] = (await outbox(email)).map((m) => tokenIn(m.text_body)!);
    expect(first).not.toBe(second);
    expect(await confirmSubscription(first!)).toBe(false);
    expect(await confirmSubscription(second!)).toBe(true);
  });

  it('tells a confirmed address it is subscribed already, with its unsubscribe headers, and changes nothing', async () => {
    const email = unique('known');
    await requestSubscription({ email });
    await confirmSubscription(tokenIn((await outbox(email))[0]!.text_body)!);
    const confirmed = await row(email);
    expect(await requestSubscription({ email })).toBe('already-subscribed-sent');
    const mails = await outbox(email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toContain('already subscribed');
    const headers = JSON.parse(mails[1]!.headers!) as Record<string, string>;
    expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(headers['List-Unsubscribe']).toMatch(/^<http:\/\/localhost:3000\/newsletter\/unsubscribe\/[A-Za-z0-9_.-]+>$/);
    expect(await row(email)).toEqual(confirmed);
  });

  it(`mails one address at most ${CONFIRM_MAILS_PER_DAY} times a day however often it is typed in`, async () => {
    const email = unique('flood');
    const outcomes = [];
    for (let i = 0; i < CONFIRM_MAILS_PER_DAY + 3; i++) outcomes.push(await requestSubscription({ email }));
    expect(outcomes.filter((o) => o === 'confirmation-sent')).toHaveLength(CONFIRM_MAILS_PER_DAY);
    expect(outcomes.filter((o) => o === 'limited')).toHaveLength(3);
    expect(await outbox(email)).toHaveLength(CONFIRM_MAILS_PER_DAY);
  });

  it('unsubscribes through the signed link at once, keeping only a suppression record; the link keeps working', async () => {
    const email = unique('leaving');
    await requestSubscription({ email, source: '/blog/x' });
    await confirmSubscription(tokenIn((await outbox(email))[0]!.text_body)!);
    const id = (await row(email))!.id;
    const token = unsubscribeTokenFor(await signingKey(), id);
    expect(await checkUnsubscribeToken(token)).toBe(true);
    expect(await unsubscribe(token)).toBe(true);
    const kept = await row(email);
    expect(kept).toMatchObject({
      status: 'unsubscribed',
      source: null,
      confirmed_at: null,
      confirm_token_hash: null,
      confirm_sent_at: null,
    });
    const at = kept!.unsubscribed_at;
    expect(at).not.toBeNull();
    // Used again (a second click, a mail program retrying): the same answer, nothing changes.
    expect(await unsubscribe(token, Date.now() + DAY)).toBe(true);
    expect((await row(email))!.unsubscribed_at).toBe(at);
    // A tampered link is not ours.
    expect(await unsubscribe(`${token.slice(0, -2)}zz`)).toBe(false);
    expect(await checkUnsubscribeToken('x.y')).toBe(false);
  });

  it('answers an unsubscribe link the same once the address is deleted', async () => {
    const email = unique('erased');
    await requestSubscription({ email });
    const id = (await row(email))!.id;
    await db().deleteFrom('newsletter_subscribers').where('id', '=', id).execute();
    expect(await unsubscribe(unsubscribeTokenFor(await signingKey(), id))).toBe(true);
    expect(await row(email)).toBeUndefined();
  });

  it('keeps an unsubscribed address suppressed until a new subscription is confirmed', async () => {
    const email = unique('back');
    await requestSubscription({ email });
    await confirmSubscription(tokenIn((await outbox(email))[0]!.text_body)!);
    await unsubscribe(unsubscribeTokenFor(await signingKey(), (await row(email))!.id));
    await requestSubscription({ email });
    expect(await row(email)).toMatchObject({ status: 'unsubscribed' });
    const token = tokenIn((await outbox(email)).at(-1)!.text_body)!;
    expect(await confirmSubscription(token)).toBe(true);
    expect(await row(email)).toMatchObject({ status: 'confirmed', unsubscribed_at: null });
  });

  it('removes addresses whose link ran out, keeps suppression records and those never asked', async () => {
    const old = new Date(Date.now() - CONFIRM_LINK_MS - DAY).toISOString();
    const recent = new Date().toISOString();
    await db()
      .insertInto('newsletter_subscribers')
      .values([
        {
          id: `x-old-${engine}`,
          email: unique('old'),
          created_at: old,
          status: 'pending',
          confirm_sent_at: old,
          confirm_token_hash: 'a'.repeat(64),
        },
        { id: `x-new-${engine}`, email: unique('new'), created_at: recent, status: 'pending', confirm_sent_at: recent },
        { id: `x-legacy-${engine}`, email: unique('legacy'), created_at: old, status: 'pending', confirm_sent_at: null },
        {
          id: `x-unsub-${engine}`,
          email: unique('unsub'),
          created_at: old,
          status: 'unsubscribed',
          unsubscribed_at: old,
          confirm_sent_at: old,
          confirm_token_hash: 'b'.repeat(64),
        },
      ])
      .execute();
    const { removed } = await expirePendingSubscribers();
    expect(removed).toBeGreaterThanOrEqual(1);
    const left = await db().selectFrom('newsletter_subscribers').selectAll().where('id', 'like', 'x-%').orderBy('id').execute();
    expect(left.map((r) => r.id)).toEqual([`x-legacy-${engine}`, `x-new-${engine}`, `x-unsub-${engine}`]);
    expect(left.find((r) => r.id === `x-unsub-${engine}`)).toMatchObject({
      status: 'unsubscribed',
      confirm_token_hash: null,
      confirm_sent_at: null,
    });
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

describe.each(ENGINES)('migration 0007 on %s', (engine) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase(engine, { migrate: false });
    setDatabase(database);
  });
  afterAll(async () => {
    setDatabase(undefined);
    await database.drop();
  });

  it('makes every address stored before double opt-in a waiting one that was never asked', async () => {
    const migrator = await createMigrator(database.db, engine);
    const before = await migrator.migrateTo('0006_dashboard_runs_the_site');
    expect(before.error).toBeUndefined();
    await database.db
      .insertInto('newsletter_subscribers')
      .values({ id: 'old-1', email: 'early@example.org', source: '/news', created_at: '2026-01-05T10:00:00.000Z' })
      .execute();
    const after = await migrator.migrateToLatest();
    expect(after.error).toBeUndefined();
    expect(await database.db.selectFrom('newsletter_subscribers').selectAll().executeTakeFirstOrThrow()).toEqual({
      id: 'old-1',
      email: 'early@example.org',
      source: '/news',
      created_at: '2026-01-05T10:00:00.000Z',
      status: 'pending',
      confirmed_at: null,
      unsubscribed_at: null,
      confirm_token_hash: null,
      confirm_sent_at: null,
    });
    // Never asked: the daily expiry leaves it for staff to ask.
    await expirePendingSubscribers(Date.now(), database.db);
    expect(await database.db.selectFrom('newsletter_subscribers').select('id').execute()).toHaveLength(1);
  });
});
