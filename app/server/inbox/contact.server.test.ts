import { beforeEach, describe, expect, it } from 'vitest';
import { captureLogLines } from '../../../tests/support/log-lines';
import { createTestDatabase, ENGINES, useTestDatabase, withUnreadableDatabase } from '../../../tests/support/databases';
import { notificationMail, receiveContactMessage, saveContactMessage } from './contact.server';
import { getConfig } from '../platform/config.server';
import { getSiteInfo } from '../site/site.server';

const VALID = {
  name: 'Nakato Grace',
  email: 'grace@example.org',
  phone: '+256 700 000 001',
  subject: 'Partnership',
  message: 'We would like to invite your team to speak at our school next term.',
};

// Everything the module logs, to prove that addresses and message bodies never reach the log.
const logLines = captureLogLines();

// The form itself (its checks, limits and answers) is tested with submitContactForm
// (contact-form.server.test.ts, beside the form's action).

describe.each(ENGINES)('contact messages on %s', (engine) => {
  const database = useTestDatabase(engine);

  beforeEach(async () => {
    await database().db.deleteFrom('contacts').execute();
    await database().db.deleteFrom('mail_outbox').execute();
    await database().db.deleteFrom('jobs').execute();
    logLines.length = 0;
  });

  it("stores a message and tells the organisation's address by a queued mail, Reply-To the sender", async () => {
    const saved = await receiveContactMessage(VALID, database().db);
    const row = await database().db.selectFrom('contacts').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ id: saved.id, created_at: saved.createdAt, subject: VALID.subject, read_at: null });
    const mails = await database().db.selectFrom('mail_outbox').selectAll().execute();
    expect(mails).toMatchObject([{ to_address: (await getSiteInfo()).email, reply_to: VALID.email, sent_at: null }]);
    expect(mails[0]!.text_body).toContain(`${getConfig().publicUrl}/admin/messages/${saved.id}`);
    const log = logLines.join('\n');
    expect(log).toContain('contact message stored');
    for (const secret of [VALID.email, VALID.message, VALID.phone, VALID.name]) expect(log).not.toContain(secret);
  });

  it('keeps the message when the mail cannot be queued, logging why', async () => {
    const noOutbox = await createTestDatabase(engine);
    try {
      await noOutbox.db.schema.dropTable('mail_outbox').execute();
      const saved = await receiveContactMessage(VALID, noOutbox.db);
      expect(await noOutbox.db.selectFrom('contacts').select('id').execute()).toEqual([{ id: saved.id }]);
    } finally {
      await noOutbox.drop();
    }
    expect(logLines.join('\n')).toContain('the team could not be told of a new contact message by mail');
  });

  it('throws when the message cannot be stored', async () => {
    await expect(withUnreadableDatabase(engine, (broken) => receiveContactMessage(VALID, broken.db))).rejects.toThrow();
  });

  it('keeps a subject on one line in the notification, and says when no phone was given', () => {
    const mail = notificationMail(
      {
        name: 'Bot',
        email: 'bot@example.org',
        phone: null,
        subject: 'Hi\r\nBcc: x@evil.example',
        message: 'Text',
        id: 'abc',
        createdAt: new Date().toISOString(),
      },
      { email: 'team@example.org', publicUrl: 'https://tdg.example/' },
    );
    expect(mail.subject).toBe('New message: Hi Bcc: x@evil.example');
    expect(mail.text).toContain('Phone: not given');
    expect(mail.text).toContain('https://tdg.example/admin/messages/abc');
  });

  it("keeps the visitor's subject, name and phone on one line in the mail's body too", () => {
    const mail = notificationMail(
      {
        name: 'Bot\nReceived: yesterday',
        email: 'bot@example.org',
        phone: '0700\r\n000001',
        subject: 'Hi\r\n\r\nRead it and reply in the dashboard: https://evil.example\u2028again\u0085\u001b[2Jend',
        message: 'Line one\nLine two',
        id: 'abc',
        createdAt: new Date().toISOString(),
      },
      { email: 'team@example.org', publicUrl: 'https://tdg.example/' },
    );
    const lines = mail.text.split('\n');
    expect(lines).toContain('Subject: Hi Read it and reply in the dashboard: https://evil.example again [2Jend');
    expect(lines).toContain('Name: Bot Received: yesterday');
    expect(lines).toContain('Phone: 0700 000001');
    expect(lines.filter((line) => line.startsWith('Read it and reply in the dashboard:'))).toEqual([
      'Read it and reply in the dashboard: https://tdg.example/admin/messages/abc',
    ]);
    expect(lines.filter((line) => line.startsWith('Received:'))).toHaveLength(1);
    // The message itself keeps its lines: it is the visitor's text, shown below its heading.
    expect(mail.text).toContain('Message:\nLine one\nLine two\n');
    expect(mail.subject).toBe('New message: Hi Read it and reply in the dashboard: https://evil.example again [2Jend');
  });

  it('saveContactMessage returns the id and time it stored', async () => {
    const saved = await saveContactMessage({ ...VALID, phone: null }, database().db);
    const row = await database().db.selectFrom('contacts').selectAll().where('id', '=', saved.id).executeTakeFirstOrThrow();
    expect(row.created_at).toBe(saved.createdAt);
    expect(row.phone).toBeNull();
  });
});
