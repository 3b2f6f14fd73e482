import { RouterContextProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { staffAs } from '../support/staff';
import { ENGINES, useTestDatabase } from '../support/databases';
import { readFlash } from '~/server/http/flash.server';
import { saveContactMessage } from '~/server/inbox/contact.server';
import { MESSAGE_TEXT } from '~/lib/messages';

// A reply without a mail server is kept in the outbox and never sent: staff are told so, not "on its way".

describe.each(ENGINES)('replying to a message on %s', (engine) => {
  const database = useTestDatabase(engine);

  async function reply(smtpUrl: string): Promise<{ type: string; message: string } | null> {
    const { id } = await saveContactMessage({
      name: 'Apio Grace',
      email: 'grace@example.org',
      phone: null,
      subject: 'Interpreter for a clinic visit',
      message: 'Can your team help us find an interpreter for next week?',
    });
    vi.stubEnv('SMTP_URL', smtpUrl);
    vi.resetModules(); // the settings are read once per process (the database handle is kept on globalThis)
    try {
      const { action } = await import('~/routes/admin/message');
      const { adminAccessContext } = await import('~/server/http/staff-context.server');
      const context = new RouterContextProvider();
      context.set(adminAccessContext, { current: { status: 'signed-in', user: staffAs('ADMIN', 'inbox') } });
      const body = new URLSearchParams({ intent: 'reply', body: 'Yes: we will call you tomorrow morning.' });
      const request = new Request(`http://localhost/admin/messages/${id}`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.toString().length) },
      });
      const response = (await action({ request, params: { id }, context } as never)) as Response;
      expect(response.status).toBe(303);
      const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
      return readFlash(new Request('http://localhost/admin', { headers: { cookie } })).flash;
    } finally {
      vi.unstubAllEnvs();
    }
  }

  it('says the reply is on its way only when a mail server is set, and kept but not sent otherwise', async () => {
    expect(await reply('smtp://127.0.0.1:2525')).toMatchObject({
      type: 'success',
      message: MESSAGE_TEXT.replySent('grace@example.org'),
    });
    expect(await reply('')).toMatchObject({ type: 'warning', message: MESSAGE_TEXT.replyKept('grace@example.org') });
    const kept = await database()
      .db.selectFrom('mail_outbox')
      .select('subject')
      .where('to_address', '=', 'grace@example.org')
      .execute();
    expect(kept).toHaveLength(2);
  });
});
