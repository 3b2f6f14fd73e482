import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, ENGINES, useTestDatabase, withUnreadableDatabase } from '../../../tests/support/databases';
import { createMigrator } from '../db/migrations.server';
import { setDatabase } from '../db/db.server';
import {
  checkConfirmToken,
  checkUnsubscribeToken,
  CONFIRM_LINK_MS,
  CONFIRM_MAILS_PER_DAY,
  confirmSubscription,
  expirePendingSubscribers,
  mailSite,
  NEWSLETTER_SUBSCRIBE_JOB,
  queueSubscription,
  requestSubscription,
  runSubscribeJob,
  signingKey,
  subscriberOfToken,
  unsubscribe,
  unsubscribeTokenFor,
} from './newsletter.server';
import { saveSiteSettings } from '../site/site-settings.server';
import type { StaffUser } from '../staff/auth.server';

const DAY = 24 * 60 * 60_000;
const SUPER_ADMIN: StaffUser = {
  id: 'id-owner',
  name: 'Owner',
  email: 'owner@example.org',
  role: 'SUPER_ADMIN',
  bio: '',
  profilePicture: null,
  sessionId: 's',
};

describe('the unsubscribe token', () => {
  const key = randomBytes(32);
  const token = unsubscribeTokenFor(key, 'abc-123');

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

describe.each(ENGINES)('queueing what the box received on %s', (engine) => {
  const database = useTestDatabase(engine);

  // The box itself (its checks, limits and answers) is tested with submitNewsletterForm
  // (newsletter-form.server.test.ts, beside the form's action).
  it('queues the address and its page, looking nothing up', async () => {
    const db = database().db;
    await db.deleteFrom('jobs').execute();
    await queueSubscription({ email: 'grace@example.org', source: '/news' }, db);
    await queueSubscription({ email: 'okello@example.org' }, db);
    const jobs = await db.selectFrom('jobs').select(['kind', 'payload', 'max_attempts']).execute();
    const queued = jobs.map((job) => ({ ...job, payload: JSON.parse(job.payload) as { email: string } }));
    expect(queued.sort((a, b) => a.payload.email.localeCompare(b.payload.email))).toEqual([
      {
        kind: NEWSLETTER_SUBSCRIBE_JOB,
        payload: { email: 'grace@example.org', source: '/news', language: 'en' },
        max_attempts: 3,
      },
      { kind: NEWSLETTER_SUBSCRIBE_JOB, payload: { email: 'okello@example.org', source: null, language: 'en' }, max_attempts: 3 },
    ]);
  });

  it('throws when it cannot be queued', async () => {
    await expect(
      withUnreadableDatabase(engine, (broken) => queueSubscription({ email: 'a@example.org' }, broken.db)),
    ).rejects.toThrow();
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
    await runSubscribeJob({ email, source: '/news' });
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

  it('writes the confirmation in the language of the page it was asked on, while the site offers it', async () => {
    await saveSiteSettings(SUPER_ADMIN, 'languages', { languageLg: 'off', languageSw: 'on' }, { ip: '127.0.0.1' });
    const email = unique('swahili');
    await runSubscribeJob({ email, source: '/sw/news', language: 'sw' });
    const [mail] = await outbox(email);
    expect(mail!.subject).toBe(`Tafadhali thibitisha usajili wako wa jarida la ${(await mailSite()).name}`);
    expect(mail!.text_body).toMatch(/\/sw\/newsletter\/confirm\/[A-Za-z0-9_-]{43}/);
    expect(mail!.html_body).toContain('<html lang="sw">');
    expect(mail!.html_body).toContain('Thibitisha usajili wangu');
    expect(await row(email)).toMatchObject({ language: 'sw' });
    // Confirmed, then asked again: "already subscribed", in Swahili, with a Swahili unsubscribe page.
    expect(await confirmSubscription(tokenIn(mail!.text_body)!)).toBe(true);
    await runSubscribeJob({ email, source: '/sw/news', language: 'sw' });
    const again = (await outbox(email))[1]!;
    expect(again.subject).toContain('Tayari umejiandikisha');
    expect(JSON.parse(again.headers!)['List-Unsubscribe']).toMatch(/\/sw\/newsletter\/unsubscribe\//);
    // Luganda is off: its pages answer 404, so the mail is English, with English links.
    const other = unique('luganda');
    await runSubscribeJob({ email: other, source: '/lg/news', language: 'lg' });
    const [english] = await outbox(other);
    expect(english!.subject).toContain('Please confirm your subscription');
    expect(english!.text_body).toMatch(/localhost:3000\/newsletter\/confirm\//);
    // A job queued before languages were known is English.
    const old = unique('old');
    await runSubscribeJob({ email: old, source: '/news' });
    expect((await outbox(old))[0]!.html_body).toContain('<html lang="en">');
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
    expect(await unsubscribe(`${token.slice(0, -2)}${token.endsWith('zz') ? 'yy' : 'zz'}`)).toBe(false);
    // Nor is another spelling of the same signature (the last character's unused bits set).
    const last = token.at(-1)!;
    const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const respelled = `${token.slice(0, -1)}${ALPHABET[ALPHABET.indexOf(last) ^ 1]}`;
    expect(Buffer.from(respelled.split('.')[1]!, 'base64url')).toEqual(Buffer.from(token.split('.')[1]!, 'base64url'));
    expect(await unsubscribe(respelled)).toBe(false);
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
      // Migration 0023: asked for before the site had other languages.
      language: 'en',
    });
    // Never asked: the daily expiry leaves it for staff to ask.
    await expirePendingSubscribers(Date.now(), database.db);
    expect(await database.db.selectFrom('newsletter_subscribers').select('id').execute()).toHaveLength(1);
  });
});
