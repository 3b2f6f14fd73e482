import { RouterContextProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { resetTokenIn, startSmtpSink, type SmtpSink } from '../../../tests/support/smtp';
import { action, FORGOT_PASSWORD_SENT, forgotPasswordLimited } from '../../routes/admin/forgot-password';
import type { Route } from '../../routes/admin/+types/forgot-password';
import { startBackgroundJobs } from '../start-up.server';
import { ensureSuperAdmin } from '../demo/seed.server';
import { checkResetToken, FORGOT_PASSWORD_LIMITS, PASSWORD_RESET_JOB } from './password-reset.server';
import { requestContext } from '../http/request-context.server';

// The public forgot-password form, through its route action: it answers at once and the same way for
// every address, the lookup and the mail happen in the background worker, and requests are limited
// per visitor address and per email address.

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
  vi.stubEnv('SMTP_URL', sink.url);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await sink.close();
});

interface Answer {
  status: number;
  body: { sent: boolean; error: string | null };
  retryAfter: string | null;
}

async function forgotPassword(email: string, ip: string): Promise<Answer> {
  const body = new URLSearchParams({ email }).toString();
  const request = new Request('http://localhost/admin/forgot-password', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) },
  });
  const context = new RouterContextProvider();
  context.set(requestContext, { nonce: '', clientIp: ip, publicPagesChanged: () => undefined });
  const result = await action({ request, context, params: {} } as unknown as Route.ActionArgs);
  if (result && typeof result === 'object' && 'init' in result) {
    const init = (result.init ?? {}) as ResponseInit;
    return { status: init.status ?? 200, body: result.data, retryAfter: new Headers(init.headers).get('Retry-After') };
  }
  return { status: 200, body: result, retryAfter: null };
}

describe.each(ENGINES)('forgot password on %s', (engine) => {
  const database = useTestDatabase(engine);
  let stopJobs: (() => Promise<void>) | undefined;
  const known = `boss-${engine}@example.org`;

  beforeAll(async () => {
    await ensureSuperAdmin(database().db, { email: known, password: 'boss-passphrase' });
  });
  afterEach(async () => {
    await stopJobs?.();
    stopJobs = undefined;
  });

  const mailsTo = (address: string) => sink.received.filter((m) => m.to.includes(address));
  const requestJobs = () => database().db.selectFrom('jobs').selectAll().where('kind', '=', PASSWORD_RESET_JOB).execute();
  const audit = (target: string) =>
    database().db.selectFrom('audit_log').select('action').where('target', '=', target).orderBy('at').execute();

  it('answers before looking the account up or mailing; the worker does both', async () => {
    const answer = await forgotPassword(known, '198.51.100.1');
    expect(answer).toEqual({ status: 200, body: { sent: true, error: null }, retryAfter: null });
    // Nothing has been looked up, made or sent yet: only the request is queued.
    expect(await requestJobs()).toMatchObject([
      { status: 'queued', payload: JSON.stringify({ email: known, ip: '198.51.100.1' }) },
    ]);
    expect(await database().db.selectFrom('password_reset_tokens').selectAll().execute()).toEqual([]);
    expect(await database().db.selectFrom('mail_outbox').selectAll().execute()).toEqual([]);
    expect(await audit(known)).toEqual([]);

    stopJobs = startBackgroundJobs({ pollMs: 50 });
    await vi.waitFor(() => expect(mailsTo(known)).toHaveLength(1), { timeout: 10_000 });
    const token = resetTokenIn(mailsTo(known)[0]!);
    expect(token).toBeTruthy();
    expect(await checkResetToken(token!)).toMatchObject({ status: 'valid', email: known });
    expect((await audit(known)).map((a) => a.action)).toEqual(['user.password_reset_requested', 'user.password_reset_sent']);

    // Once sent, the outbox keeps who, what and when, not the link.
    await vi.waitFor(async () => {
      const [row] = await database().db.selectFrom('mail_outbox').selectAll().where('to_address', '=', known).execute();
      expect(row).toMatchObject({ carries_secret: 1, text_body: '', html_body: null });
      expect(row!.sent_at).not.toBeNull();
    });
    expect(await requestJobs()).toMatchObject([{ status: 'done' }]);
  });

  it('gives a known and an unknown address the same answer, and mails only the known one', async () => {
    const stranger = `nobody-${engine}@example.org`;
    const before = mailsTo(known).length;
    const forKnown = await forgotPassword(known, '198.51.100.2');
    const forStranger = await forgotPassword(stranger, '198.51.100.2');
    expect(forStranger).toEqual(forKnown);
    expect(forKnown.body).toEqual({ sent: true, error: null });

    stopJobs = startBackgroundJobs({ pollMs: 50 });
    await vi.waitFor(async () => expect((await requestJobs()).every((job) => job.status === 'done')).toBe(true), {
      timeout: 10_000,
    });
    await vi.waitFor(() => expect(mailsTo(known)).toHaveLength(before + 1), { timeout: 10_000 });
    expect(mailsTo(stranger)).toEqual([]);
    expect(await database().db.selectFrom('mail_outbox').select('id').where('to_address', '=', stranger).execute()).toEqual([]);
    expect(await audit(stranger)).toEqual([{ action: 'user.password_reset_requested' }]);
  });

  it('refuses a visitor address after its limit, saying when to try again', async () => {
    const ip = '203.0.113.50';
    const answers: Answer[] = [];
    for (let i = 0; i < 30; i++) answers.push(await forgotPassword(`visitor-${i}-${engine}@example.org`, ip));
    const accepted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(accepted).toHaveLength(FORGOT_PASSWORD_LIMITS.perAddress);
    expect(refused).toHaveLength(30 - FORGOT_PASSWORD_LIMITS.perAddress);
    expect(answers.slice(0, FORGOT_PASSWORD_LIMITS.perAddress).every((a) => a.status === 200)).toBe(true);
    for (const answer of refused) {
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(FORGOT_PASSWORD_LIMITS.windowMs / 1000);
      expect(answer.body).toEqual({ sent: false, error: forgotPasswordLimited(Number(answer.retryAfter)) });
    }
    expect(refused[0]!.body.error).toMatch(/^Too many password reset requests .* Please try again in \d+ minutes?\.$/);
    // Refused requests leave no work behind.
    const queued = (await requestJobs()).filter((job) => (JSON.parse(job.payload) as { ip: string }).ip === ip);
    expect(queued).toHaveLength(FORGOT_PASSWORD_LIMITS.perAddress);
    // Another address is not affected.
    expect((await forgotPassword(`visitor-0-${engine}@example.org`, '203.0.113.51')).status).toBe(200);
  });

  it('answers an address over its limit before reading the form, counting nothing more', async () => {
    const ip = '203.0.113.60';
    for (let i = 0; i < FORGOT_PASSWORD_LIMITS.perAddress; i++)
      expect((await forgotPassword(`early-${i}-${engine}@example.org`, ip)).status).toBe(200);
    const key = `forgot-password:address:${ip}`;
    const hits = async () =>
      Number(
        (await database().db.selectFrom('rate_limits').select('hits').where('key', '=', key).executeTakeFirstOrThrow()).hits,
      );
    // Not a form at all (refused with 415 when read): the limit answers first, and the body is only dropped.
    const body = JSON.stringify({ email: 'someone@example.org' });
    const request = new Request('http://localhost/admin/forgot-password', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
    });
    const context = new RouterContextProvider();
    context.set(requestContext, { nonce: '', clientIp: ip, publicPagesChanged: () => undefined });
    const result = (await action({ request, context, params: {} } as unknown as Route.ActionArgs)) as {
      data: Answer['body'];
      init: ResponseInit;
    };
    const retryAfter = Number(new Headers(result.init.headers).get('Retry-After'));
    expect(result.init.status).toBe(429);
    expect(result.data).toEqual({ sent: false, error: forgotPasswordLimited(retryAfter) });
    expect(request.bodyUsed).toBe(true);
    const again = await forgotPassword(`early-more-${engine}@example.org`, ip);
    expect(again.status).toBe(429);
    expect(again.body).toEqual({ sent: false, error: forgotPasswordLimited(Number(again.retryAfter)) });
    expect(await hits()).toBe(FORGOT_PASSWORD_LIMITS.perAddress);
  });

  it('refuses an email address after its limit, from any network, whether or not it has an account', async () => {
    const stranger = `ghost-${engine}@example.org`;
    const outcomes = async (email: string, net: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) statuses.push((await forgotPassword(email, `10.${net}.0.${i}`)).status);
      return statuses;
    };
    const expected = [
      ...Array<number>(FORGOT_PASSWORD_LIMITS.perEmail).fill(200),
      ...Array<number>(30 - FORGOT_PASSWORD_LIMITS.perEmail).fill(429),
    ];
    const forKnownUser = `known-${engine}@example.org`;
    await ensureSuperAdmin(database().db, { email: forKnownUser, password: 'a-passphrase' });
    expect(await outcomes(forKnownUser, 1)).toEqual(expected);
    expect(await outcomes(stranger, 2)).toEqual(expected);
    const last = await forgotPassword(stranger, '10.3.0.1');
    const lastKnown = await forgotPassword(forKnownUser, '10.3.0.2');
    expect(last.status).toBe(429);
    expect(last.body).toEqual(lastKnown.body);
  });

  it('refuses an address that is not an email', async () => {
    const answer = await forgotPassword('not-an-email', '198.51.100.9');
    expect(answer.status).toBe(400);
    expect(answer.body.sent).toBe(false);
    expect(answer.body.error).not.toBe(FORGOT_PASSWORD_SENT);
  });
});
