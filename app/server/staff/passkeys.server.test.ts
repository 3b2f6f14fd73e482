import { beforeAll, describe, expect, it } from 'vitest';
import { RouterContextProvider } from 'react-router';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { staffUserByEmail } from '../../../tests/support/staff';
import { ensureSuperAdmin } from '../demo/seed.server';
import { passkeySignInOptions, signInWithPasskey, type StaffUser } from './auth.server';
import { finishPasskeyRegistration, passkeyRegistrationOptions, removePasskey, renamePasskey } from './passkeys.server';
import { passkeyCookieName } from './two-factor.server';
import { requestContext } from '../http/request-context.server';
import { action as passkeyAction } from '../../routes/admin/passkey';
import type { Route } from '../../routes/admin/+types/passkey';
import { PASSKEY_MESSAGES } from '../../lib/two-factor';

// Issue 25: the passkey paths a browser's virtual authenticator does not reach (the journey in
// tests/e2e/two-factor.spec.ts makes and uses a real one): made-up answers, used challenges, bad JSON.

const token = (cookie: string) => cookie.split(';')[0]!.split('=')[1]!;

describe.each(ENGINES)('passkeys on %s', (engine) => {
  const database = useTestDatabase(engine);
  let boss: StaffUser;

  beforeAll(async () => {
    await ensureSuperAdmin(database().db, { email: 'boss@example.org', password: 'boss-passphrase' });
    boss = await staffUserByEmail(database().db, 'boss@example.org');
  });

  const attempt = (t: string | undefined, response: unknown) =>
    signInWithPasskey({
      token: t,
      response,
      ip: '203.0.113.9',
      userAgent: null,
      request: new Request('http://localhost/admin/passkey'),
    });

  it('refuses a made-up answer, and a challenge used once is gone', async () => {
    const { cookie } = await passkeySignInOptions();
    const fake = {
      id: 'bm8tc3VjaC1wYXNza2V5',
      rawId: 'bm8tc3VjaC1wYXNza2V5',
      type: 'public-key',
      response: {},
      clientExtensionResults: {},
    };
    expect(await attempt(token(cookie), fake)).toEqual({ status: 'invalid' });
    expect(await attempt(token(cookie), fake)).toEqual({ status: 'expired' });
    expect(await attempt(undefined, fake)).toEqual({ status: 'expired' });
    const sessions = await database().db.selectFrom('sessions').select('id').execute();
    expect(sessions).toEqual([]);
  });

  it('refuses a registration answer that is not one, and only the owner renames or removes a passkey', async () => {
    const { token: t } = await passkeyRegistrationOptions(boss);
    await expect(
      finishPasskeyRegistration(boss, { token: t, response: { id: 'x' }, name: 'Laptop' }, '203.0.113.9'),
    ).rejects.toThrow(PASSKEY_MESSAGES.notAdded);
    // The challenge is used up by the attempt.
    await expect(
      finishPasskeyRegistration(boss, { token: t, response: { id: 'x' }, name: 'Laptop' }, '203.0.113.9'),
    ).rejects.toThrow(PASSKEY_MESSAGES.expired);
    await expect(renamePasskey(boss, 'nope', 'New name', '203.0.113.9')).rejects.toThrow(PASSKEY_MESSAGES.noSuchPasskey);
    await expect(renamePasskey(boss, 'nope', '', '203.0.113.9')).rejects.toThrow(PASSKEY_MESSAGES.nameLength);
    await expect(removePasskey(boss, 'nope', '203.0.113.9')).rejects.toThrow(PASSKEY_MESSAGES.noSuchPasskey);
  });

  it('answers bad requests to the passkey endpoint with 4xx, never a 500', async () => {
    async function post(body: string, contentType = 'application/json', cookie?: string) {
      const context = new RouterContextProvider();
      context.set(requestContext, { nonce: '', clientIp: '203.0.113.9', publicPagesChanged: () => undefined });
      const headers: Record<string, string> = { 'content-type': contentType };
      if (cookie) headers.cookie = cookie;
      const request = new Request('http://localhost/admin/passkey', { method: 'POST', headers, body });
      try {
        return (await passkeyAction({ request, context, params: {} } as unknown as Route.ActionArgs)) as Response;
      } catch (thrown) {
        if (thrown instanceof Response) return thrown;
        throw thrown;
      }
    }
    expect((await post('not json')).status).toBe(400);
    expect((await post('[]')).status).toBe(400);
    expect((await post('{}', 'text/plain')).status).toBe(415);
    expect((await post('x'.repeat(20_000))).status).toBe(413);
    expect((await post('{"intent":"nothing"}')).status).toBe(400);
    expect((await post('{"intent":"sign-in","response":{"id":"x"}}')).status).toBe(410);
    expect((await post('{"intent":"step-options"}')).status).toBe(410);
    const options = await post('{"intent":"options"}');
    expect(options.status).toBe(200);
    const cookie = options.headers.get('set-cookie')!.split(';')[0]!;
    expect(cookie.startsWith(`${passkeyCookieName()}=`)).toBe(true);
    expect(((await options.json()) as { options: { challenge: string } }).options.challenge).toMatch(/^[\w-]+$/);
    expect((await post('{"intent":"sign-in","response":{"id":"x"}}', 'application/json', cookie)).status).toBe(401);
  });
});
