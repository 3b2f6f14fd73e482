import { beforeEach, describe, expect, it } from 'vitest';
import { captureLogLines } from '../../../tests/support/log-lines';
import { createTestDatabase, ENGINES, useTestDatabase, withUnreadableDatabase } from '../../../tests/support/databases';
import { formPost, streamedFormPost } from '../../../tests/support/requests';
import { CONTACT_ERRORS, CONTACT_LIMITS, CONTACT_RATE_LIMIT, CONTACT_TEXT, type ContactResult } from '~/lib/contact';
import { submitContactForm } from './contact-form.server';
import { getMessage } from '../inbox/messages.server';
import { getConfig } from '../platform/config.server';
import { getSiteInfo } from '../site/site.server';
import { CLOSE_CONNECTION, DRAIN_LIMIT_BYTES } from './request-info.server';

const VALID = {
  name: 'Nakato Grace',
  email: 'grace@example.org',
  phone: '+256 700 000 001',
  subject: 'Partnership',
  message: 'We would like to invite your team to speak at our school next term.',
  website: '',
};

const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  formPost('http://localhost/contact', fields, headers);

// Everything the form logs, to prove that addresses and message bodies never reach the log.
const logLines = captureLogLines();

// How the body is read (its cap, streamed bodies, refusals) is tested with parseForm (forms.server.test.ts).

describe.each(ENGINES)('the contact form on %s', (engine) => {
  const database = useTestDatabase(engine);
  const submit = (request: Request, clientIp = '203.0.113.7') => submitContactForm({ request, clientIp, db: database().db });
  const count = async () =>
    Number(
      (
        await database()
          .db.selectFrom('contacts')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeEach(async () => {
    // Each test starts with no counted attempts.
    await database().db.deleteFrom('rate_limits').execute();
    await database().db.deleteFrom('contacts').execute();
    await database().db.deleteFrom('mail_outbox').execute();
    await database().db.deleteFrom('jobs').execute();
    logLines.length = 0;
  });
  const outbox = () => database().db.selectFrom('mail_outbox').selectAll().execute();

  it('stores a valid message with the server time and answers sent', async () => {
    const before = Date.now();
    const outcome = await submit(post(VALID));
    expect(outcome).toEqual({ status: 200, result: { status: 'sent' } });
    const rows = await database().db.selectFrom('contacts').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: VALID.name,
      email: VALID.email,
      phone: VALID.phone,
      subject: VALID.subject,
      message: VALID.message,
      read_at: null,
    });
    const created = Date.parse(rows[0]!.created_at);
    expect(created).toBeGreaterThanOrEqual(before - 1000);
    expect(created).toBeLessThanOrEqual(Date.now() + 1000);
    expect(rows[0]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('keeps the language of the page it was sent from, and tells the team in its mail and the inbox', async () => {
    await submit(formPost('http://localhost/sw/contact', VALID));
    const [row] = await database().db.selectFrom('contacts').selectAll().execute();
    expect(row!.language).toBe('sw');
    expect((await getMessage(row!.id, database().db))?.language).toBe('sw');
    const [mail] = await outbox();
    expect(mail!.text_body).toContain('Sent from the Swahili pages of the website: a reply in Swahili may suit them best.');
    await database().db.deleteFrom('contacts').execute();
    await database().db.deleteFrom('mail_outbox').execute();
    await submit(post(VALID));
    const [english] = await outbox();
    expect(english!.text_body).not.toContain('Sent from the');
    expect((await database().db.selectFrom('contacts').select('language').executeTakeFirstOrThrow()).language).toBe('en');
    // A message stored before languages were kept says none, rather than English.
    await database()
      .db.insertInto('contacts')
      .values({
        id: 'old-message',
        name: 'Old',
        email: 'old@example.org',
        phone: null,
        subject: 'Hi',
        message: 'Hello',
        created_at: new Date().toISOString(),
        read_at: null,
      })
      .execute();
    expect((await getMessage('old-message', database().db))?.language).toBeNull();
  });

  it('trims values and stores an empty phone as none', async () => {
    await submit(post({ ...VALID, name: '  Okello  ', phone: '   ' }));
    const row = await database().db.selectFrom('contacts').selectAll().executeTakeFirstOrThrow();
    expect(row.name).toBe('Okello');
    expect(row.phone).toBeNull();
  });

  it('answers each missing field with its own message and keeps what was typed', async () => {
    const outcome = await submit(post({ name: '', email: '', phone: '', subject: ' ', message: '', website: '' }));
    expect(outcome.status).toBe(400);
    expect(outcome.result).toEqual({
      status: 'invalid',
      message: CONTACT_TEXT.invalid,
      errors: {
        name: CONTACT_ERRORS.name.required,
        email: CONTACT_ERRORS.email.required,
        subject: CONTACT_ERRORS.subject.required,
        message: CONTACT_ERRORS.message.required,
      },
      values: { name: '', email: '', phone: '', subject: ' ', message: '' },
    });
    expect(await count()).toBe(0);
  });

  it('checks the email shape, the phone characters and every maximum length', async () => {
    const long = (n: number) => 'x'.repeat(n + 1);
    const cases: [Record<string, string>, string, string][] = [
      [{ email: 'grace@' }, 'email', CONTACT_ERRORS.email.invalid],
      [{ email: 'not an email' }, 'email', CONTACT_ERRORS.email.invalid],
      [{ email: `${long(CONTACT_LIMITS.email)}@example.org` }, 'email', CONTACT_ERRORS.email.tooLong],
      [{ phone: 'call me' }, 'phone', CONTACT_ERRORS.phone.invalid],
      [{ phone: '1'.repeat(CONTACT_LIMITS.phone + 1) }, 'phone', CONTACT_ERRORS.phone.tooLong],
      [{ name: long(CONTACT_LIMITS.name) }, 'name', CONTACT_ERRORS.name.tooLong],
      [{ subject: long(CONTACT_LIMITS.subject) }, 'subject', CONTACT_ERRORS.subject.tooLong],
      [{ message: long(CONTACT_LIMITS.message) }, 'message', CONTACT_ERRORS.message.tooLong],
    ];
    for (const [change, field, message] of cases) {
      const outcome = await submit(post({ ...VALID, ...change }));
      expect(outcome.status, field).toBe(400);
      const result = outcome.result as Extract<ContactResult, { status: 'invalid' }>;
      expect(result.errors, JSON.stringify(change).slice(0, 60)).toEqual({ [field]: message });
      expect(result.values[field as keyof typeof result.values]).toBe(change[field]);
    }
    // At the limits exactly, the message is accepted.
    const atLimit = await submit(
      post({ ...VALID, name: 'n'.repeat(CONTACT_LIMITS.name), message: 'm'.repeat(CONTACT_LIMITS.message) }),
    );
    expect(atLimit.status).toBe(200);
    expect(await count()).toBe(1);
  });

  it('turns away a filled honeypot politely, storing nothing', async () => {
    const outcome = await submit(post({ ...VALID, website: 'https://spam.example' }));
    expect(outcome.status).toBe(400);
    expect(outcome.result).toMatchObject({ status: 'refused', message: CONTACT_TEXT.automated, values: { name: VALID.name } });
    expect(await count()).toBe(0);
  });

  it('limits each address to five messages in ten minutes with 429 and Retry-After', async () => {
    for (let i = 0; i < CONTACT_RATE_LIMIT.limit; i++) expect((await submit(post(VALID))).status).toBe(200);
    const refused = await submit(post(VALID));
    expect(refused.status).toBe(429);
    expect(refused.result).toMatchObject({
      status: 'refused',
      message: CONTACT_TEXT.rateLimited,
      values: { message: VALID.message },
    });
    expect(Number(refused.headers?.['Retry-After'])).toBeGreaterThan(0);
    expect(await count()).toBe(CONTACT_RATE_LIMIT.limit);
    // Another visitor is not affected; invalid attempts do not use up the allowance.
    expect((await submit(post(VALID), '198.51.100.4')).status).toBe(200);
    expect((await submit(post({ ...VALID, email: 'bad' }), '192.0.2.1')).status).toBe(400);
  });

  it('answers a visitor already over the limit before checking their post, counting and storing nothing more', async () => {
    const hits = async () =>
      Number(
        (
          await database()
            .db.selectFrom('rate_limits')
            .select('hits')
            .where('key', '=', 'contact:192.0.2.60')
            .executeTakeFirstOrThrow()
        ).hits,
      );
    for (let i = 0; i < CONTACT_RATE_LIMIT.limit; i++) expect((await submit(post(VALID), '192.0.2.60')).status).toBe(200);
    // A message that would be refused for its words (or as a bot's) is refused for the limit: it is not checked.
    for (const change of [{}, { email: 'bad' }, { website: 'https://spam.example' }]) {
      const refused = await submit(post({ ...VALID, ...change }), '192.0.2.60');
      expect(refused.status, JSON.stringify(change)).toBe(429);
      expect(refused.result).toMatchObject({
        status: 'refused',
        message: CONTACT_TEXT.rateLimited,
        values: { name: VALID.name },
      });
      expect(Number(refused.headers?.['Retry-After'])).toBeGreaterThan(0);
    }
    // Refused before anything was counted or stored: a flood of them costs one read each.
    expect(await hits()).toBe(CONTACT_RATE_LIMIT.limit);
    expect(await count()).toBe(CONTACT_RATE_LIMIT.limit);
  });

  it('lets at most five of 25 simultaneous messages from one address through, counted in the database', async () => {
    const outcomes = await Promise.all(Array.from({ length: 25 }, () => submit(post(VALID), '192.0.2.77')));
    expect(outcomes.filter((o) => o.status === 200)).toHaveLength(CONTACT_RATE_LIMIT.limit);
    expect(outcomes.filter((o) => o.status === 429)).toHaveLength(25 - CONTACT_RATE_LIMIT.limit);
    expect(await count()).toBe(CONTACT_RATE_LIMIT.limit);
    // The count lives in rate_limits, where every process and instance reads it. Every post that
    // got past the check made before its body is counted; one that came after the limit was full is
    // refused unread and uncounted, so how many were counted depends on their order.
    const row = await database()
      .db.selectFrom('rate_limits')
      .select('hits')
      .where('key', '=', 'contact:192.0.2.77')
      .executeTakeFirstOrThrow();
    expect(Number(row.hits)).toBeGreaterThanOrEqual(CONTACT_RATE_LIMIT.limit);
    expect(Number(row.hits)).toBeLessThanOrEqual(25);
  });

  it('answers 413 to a huge post, declared or streamed, storing nothing', async () => {
    const big = post({ ...VALID, message: 'x'.repeat(70 * 1024) });
    const declared = await submit(
      post({ ...VALID, message: 'x'.repeat(70 * 1024) }, { 'content-length': String(70 * 1024 + 200) }),
    );
    expect(declared).toMatchObject({ status: 413, result: { status: 'refused', message: CONTACT_TEXT.tooLarge }, headers: {} });
    // Too large even to read and drop: the answer closes the connection.
    const beyond = await submit(post(VALID, { 'content-length': String(DRAIN_LIMIT_BYTES + 1) }));
    expect(beyond).toMatchObject({ status: 413, headers: CLOSE_CONNECTION });
    expect((await submit(big)).status).toBe(413);
    expect((await submit(streamedFormPost('http://localhost/contact', 'message', 500 * 1024).request)).status).toBe(413);
    expect(await count()).toBe(0);
  });

  it('answers 400 to a body that is not a form', async () => {
    const request = new Request('http://localhost/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(VALID),
    });
    expect((await submit(request)).status).toBe(400);
    expect(await count()).toBe(0);
  });

  it('answers failed, keeping the values, when the database cannot store the message', async () => {
    const outcome = await withUnreadableDatabase(engine, (broken) =>
      submitContactForm({ request: post(VALID), clientIp: '203.0.113.7', db: broken.db }),
    );
    expect(outcome.status).toBe(503);
    expect(outcome.result).toEqual({
      status: 'failed',
      message: CONTACT_TEXT.failed,
      values: { ...VALID, website: undefined },
    });
  });

  it('never writes the address or the message to the log', async () => {
    await submit(post(VALID));
    await submit(post({ ...VALID, website: 'x' }));
    await submit(post({ ...VALID, email: 'bad' }));
    const log = logLines.join('\n');
    expect(log).toContain('contact message stored');
    expect(log).toContain('honeypot');
    for (const secret of [VALID.email, VALID.message, VALID.phone, VALID.name]) expect(log).not.toContain(secret);
  });

  it("tells the organisation's address of each stored message by a queued mail, Reply-To the sender", async () => {
    expect((await submit(post(VALID))).status).toBe(200);
    const stored = await database().db.selectFrom('contacts').selectAll().executeTakeFirstOrThrow();
    const mails = await outbox();
    expect(mails).toHaveLength(1);
    const team = (await getSiteInfo()).email;
    expect(mails[0]).toMatchObject({
      to_address: team,
      reply_to: VALID.email,
      subject: `New message: ${VALID.subject}`,
      sent_at: null,
    });
    for (const part of [
      `Name: ${VALID.name}`,
      `Email: ${VALID.email}`,
      `Phone: ${VALID.phone}`,
      `Subject: ${VALID.subject}`,
      VALID.message,
      `${getConfig().publicUrl}/admin/messages/${stored.id}`,
    ])
      expect(mails[0]!.text_body).toContain(part);
    // Queued as a job: nobody waited for a mail server.
    const jobs = await database().db.selectFrom('jobs').selectAll().execute();
    expect(jobs).toMatchObject([{ kind: 'mail.send', status: 'queued', payload: JSON.stringify({ outboxId: mails[0]!.id }) }]);
  });

  it('notifies nobody of a refused message (honeypot, invalid, over the limit)', async () => {
    await submit(post({ ...VALID, website: 'x' }));
    await submit(post({ ...VALID, email: 'bad' }));
    for (let i = 0; i < CONTACT_RATE_LIMIT.limit; i++) await submit(post(VALID), '192.0.2.9');
    expect(await outbox()).toHaveLength(CONTACT_RATE_LIMIT.limit);
    expect((await submit(post(VALID), '192.0.2.9')).status).toBe(429);
    expect(await outbox()).toHaveLength(CONTACT_RATE_LIMIT.limit);
    expect(await count()).toBe(CONTACT_RATE_LIMIT.limit);
  });

  it('keeps the message and answers sent when the notification cannot be queued, logging why', async () => {
    const noOutbox = await createTestDatabase(engine);
    try {
      await noOutbox.db.schema.dropTable('mail_outbox').execute();
      const outcome = await submitContactForm({ request: post(VALID), clientIp: '203.0.113.7', db: noOutbox.db });
      expect(outcome).toEqual({ status: 200, result: { status: 'sent' } });
      const rows = await noOutbox.db.selectFrom('contacts').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ subject: VALID.subject, status: 'new' });
    } finally {
      await noOutbox.drop();
    }
    const log = logLines.join('\n');
    expect(log).toContain('the team could not be told of a new contact message by mail');
    for (const secret of [VALID.email, VALID.message, VALID.name]) expect(log).not.toContain(secret);
  });
});
