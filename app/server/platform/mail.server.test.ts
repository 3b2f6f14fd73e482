import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp';
import { registerJobHandler, runNextJob } from './jobs.server';
import { deliverQueuedMail, MAIL_JOB, sendMail } from './mail.server';

let sink: SmtpSink;
let unregister: () => void;

beforeAll(async () => {
  sink = await startSmtpSink();
  vi.stubEnv('SMTP_URL', sink.url);
  unregister = registerJobHandler(MAIL_JOB, deliverQueuedMail);
});
afterAll(async () => {
  unregister();
  vi.unstubAllEnvs();
  await sink.close();
});

describe.each(ENGINES)('the mail queue on %s', (engine) => {
  const database = useTestDatabase(engine);

  const outbox = (id: string) =>
    database().db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const mailJob = (id: string) =>
    database()
      .db.selectFrom('jobs')
      .selectAll()
      .where('kind', '=', MAIL_JOB)
      .where('payload', 'like', `%${id}%`)
      .executeTakeFirstOrThrow();
  const to = (name: string) => `${name}-${engine}@example.org`;
  /** A mail carrying a reset link, as the password reset sends it. */
  const sendLink = (address: string, text: string) => sendMail({ to: address, subject: 'Your link', text, carriesSecret: true });

  it('keeps the message and queues it; the worker sends it', async () => {
    const address = to('ann');
    const { id } = await sendMail({ to: address, subject: 'Hello', text: 'A plain note.' });
    expect(await outbox(id)).toMatchObject({ to_address: address, text_body: 'A plain note.', sent_at: null, attempts: 0 });
    expect(await mailJob(id)).toMatchObject({ status: 'queued' });
    expect(sink.received.filter((m) => m.to.includes(address))).toEqual([]);

    expect(await runNextJob({ workerId: 'w' })).toMatchObject({ kind: MAIL_JOB, status: 'done' });
    const row = await outbox(id);
    expect(row.sent_at).not.toBeNull();
    expect(row).toMatchObject({ attempts: 1, error: null, text_body: 'A plain note.' });
    const received = sink.received.filter((m) => m.to.includes(address));
    expect(received).toHaveLength(1);
    expect(received[0]!.raw).toContain('Subject: Hello');
  });

  it('forgets the body of a mail that carries a secret once it has gone, keeping what was sent to whom', async () => {
    const address = to('ben');
    const { id } = await sendLink(address, 'Open /admin/reset-password/abc');
    expect(await outbox(id)).toMatchObject({ carries_secret: 1, text_body: 'Open /admin/reset-password/abc' });
    await runNextJob({ workerId: 'w' });
    const row = await outbox(id);
    expect(row).toMatchObject({ to_address: address, subject: 'Your link', text_body: '', html_body: null, carries_secret: 1 });
    expect(row.sent_at).not.toBeNull();
    expect(sink.received.filter((m) => m.to.includes(address))[0]!.raw).toContain('/admin/reset-password/abc');
  });

  it('records a refusal on the outbox row, tries again later, and gives up after the last attempt', async () => {
    const address = to('refuse-me');
    const { id } = await sendLink(address, 'Open /admin/reset-password/xyz');
    let now = Date.now();
    expect(await runNextJob({ workerId: 'w', now })).toMatchObject({ status: 'retry' });
    let row = await outbox(id);
    expect(row).toMatchObject({ attempts: 1, sent_at: null, text_body: 'Open /admin/reset-password/xyz' });
    expect(row.error).toMatch(/No such mailbox/);

    // A mail with a secret gets four attempts (its link lives an hour).
    for (const status of ['retry', 'retry', 'failed']) {
      now += 2 * 60 * 60_000;
      expect(await runNextJob({ workerId: 'w', now })).toMatchObject({ status });
    }
    row = await outbox(id);
    expect(row).toMatchObject({ attempts: 4, sent_at: null, text_body: '', html_body: null });
    expect(row.error).toMatch(/No such mailbox/);
    const job = await mailJob(id);
    expect(job).toMatchObject({ status: 'failed', attempts: 4 });
    expect(job.last_error).toMatch(/did not accept the message to refuse-me.*: .*No such mailbox/);
  });
});
