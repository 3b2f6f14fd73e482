import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { staffUserByEmail } from '../../../tests/support/staff';
import { ensureSuperAdmin } from '../demo/seed.server';
import { getCurrentUser, signIn, type StaffUser } from './auth.server';
import { createUser, deleteUser, updateUser, UserRuleError } from './users.server';
import { checkResetToken, resetPassword, sendPasswordResetLink } from './password-reset.server';
import { createSession, endAllSessions, sessionCookieName } from './sessions.server';
import { USER_MESSAGES } from '../../lib/users';

const IP = '203.0.113.7';

function requestWith(cookie?: string): Request {
  return new Request('http://localhost/admin', { headers: cookie ? { cookie } : {} });
}

async function refusal(promise: Promise<unknown>): Promise<{ message: string; status: number }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UserRuleError) return { message: error.message, status: error.status };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe.each(ENGINES)('staff accounts on %s', (engine) => {
  const database = useTestDatabase(engine);
  let boss: StaffUser;

  beforeAll(async () => {
    await ensureSuperAdmin(database().db, { email: 'boss@example.org', password: 'boss-passphrase' });
    boss = await staffUserByEmail(database().db, 'boss@example.org');
  });

  const base = { bio: '', profilePicture: '', password: 'a-fine-passphrase' };

  it('only the super admin creates users, never another super admin, never a duplicate or a common password', async () => {
    const ann = await createUser(boss, { ...base, name: 'Ann', email: 'ann@example.org', role: 'ADMIN' }, IP);
    expect(ann.role).toBe('ADMIN');
    const annActor = await staffUserByEmail(database().db, 'ann@example.org');
    expect(await refusal(createUser(annActor, { ...base, name: 'X', email: 'x@example.org', role: 'VIEWER' }, IP))).toEqual({
      message: USER_MESSAGES.createForbidden,
      status: 403,
    });
    expect(
      (await refusal(createUser(boss, { ...base, name: 'Y', email: 'y@example.org', role: 'SUPER_ADMIN' }, IP))).status,
    ).toBe(403);
    expect(await refusal(createUser(boss, { ...base, name: 'Ann 2', email: 'ann@example.org', role: 'VIEWER' }, IP))).toEqual({
      message: USER_MESSAGES.alreadyExists,
      status: 409,
    });
    expect(
      await refusal(
        createUser(boss, { ...base, name: 'Z', email: 'z@example.org', role: 'VIEWER', password: 'password123' }, IP),
      ),
    ).toEqual({
      message: USER_MESSAGES.commonPassword,
      status: 400,
    });
    expect(
      await database()
        .db.selectFrom('system_users')
        .select('email')
        .where('email', 'in', ['x@example.org', 'y@example.org', 'z@example.org'])
        .execute(),
    ).toEqual([]);
  });

  it('lets everyone edit their own card but not their role; only the super admin edits others; nobody touches the super admin', async () => {
    await createUser(boss, { ...base, name: 'Ben', email: 'ben@example.org', role: 'EDITOR' }, IP);
    const ben = await staffUserByEmail(database().db, 'ben@example.org');
    const cat = await createUser(boss, { ...base, name: 'Cat', email: 'cat@example.org', role: 'VIEWER' }, IP);

    const renamed = await updateUser(ben, ben.id, { name: 'Benjamin', bio: 'Writes news.', profilePicture: '' }, IP);
    expect(renamed).toMatchObject({ name: 'Benjamin', bio: 'Writes news.', role: 'EDITOR' });
    expect(
      (await refusal(updateUser(ben, ben.id, { name: 'Ben', bio: '', profilePicture: '', role: 'ADMIN' }, IP))).message,
    ).toBe(USER_MESSAGES.roleForbidden);
    expect(await refusal(updateUser(ben, cat.id, { name: 'Cat', bio: '', profilePicture: '', role: 'VIEWER' }, IP))).toEqual({
      message: USER_MESSAGES.updateForbidden,
      status: 403,
    });
    expect(await refusal(updateUser(ben, boss.id, { name: 'Boss', bio: '', profilePicture: '' }, IP))).toEqual({
      message: USER_MESSAGES.superAdminUntouchable,
      status: 403,
    });
    expect(
      (await refusal(updateUser(boss, cat.id, { name: 'Cat', bio: '', profilePicture: '', email: 'other@example.org' }, IP)))
        .message,
    ).toBe(USER_MESSAGES.emailImmutable);
    expect(
      (await refusal(updateUser(boss, cat.id, { name: 'Cat', bio: '', profilePicture: '', role: 'SUPER_ADMIN' }, IP))).status,
    ).toBe(403);

    const promoted = await updateUser(boss, cat.id, { name: 'Cat', bio: '', profilePicture: '', role: 'EDITOR' }, IP);
    expect(promoted.role).toBe('EDITOR');
    expect(promoted.updatedBy).toBe('boss@example.org');
    const audit = await database()
      .db.selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.updated')
      .where('target', '=', 'cat@example.org')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.detail)).toMatchObject({ role: { from: 'VIEWER', to: 'EDITOR' } });
    expect(audit.actor_email).toBe('boss@example.org');
    expect(audit.ip).toBe(IP);
  });

  it('deletes users only as the super admin, never themselves or the super admin, and ends their sessions', async () => {
    const dan = await createUser(boss, { ...base, name: 'Dan', email: 'dan@example.org', role: 'ADMIN' }, IP);
    const danActor = await staffUserByEmail(database().db, 'dan@example.org');
    expect(await refusal(deleteUser(danActor, dan.id, IP))).toEqual({ message: USER_MESSAGES.deleteForbidden, status: 403 });
    expect(await refusal(deleteUser(boss, boss.id, IP))).toEqual({ message: USER_MESSAGES.deleteSelf, status: 403 });

    const token = await createSession({ userId: dan.id, remember: false, ip: IP, userAgent: null });
    const cookie = `${sessionCookieName()}=${token}`;
    expect((await getCurrentUser(requestWith(cookie))).status).toBe('signed-in');
    await deleteUser(boss, dan.id, IP);
    expect(await getCurrentUser(requestWith(cookie))).toEqual({ status: 'signed-out', reason: 'account-removed' });
    expect(await getCurrentUser(requestWith(cookie))).toEqual({ status: 'signed-out' });
  });

  it('signs in with the same answer for unknown accounts and wrong passwords, and rate-limits failures', async () => {
    await createUser(boss, { ...base, name: 'Eve', email: 'eve@example.org', role: 'AUTHOR' }, IP);
    const attempt = (email: string, password: string, ip = IP) =>
      signIn({ email, password, remember: false, ip, userAgent: null, request: requestWith() });
    expect((await attempt('nobody@example.org', 'whatever-pass')).status).toBe('invalid');
    expect((await attempt('eve@example.org', 'wrong-password')).status).toBe('invalid');
    const ok = await attempt('eve@example.org', 'a-fine-passphrase');
    expect(ok.status).toBe('ok');
    const row = await database()
      .db.selectFrom('system_users')
      .select('last_login')
      .where('email', '=', 'eve@example.org')
      .executeTakeFirstOrThrow();
    expect(row.last_login).not.toBeNull();

    for (let i = 0; i < 4; i++) expect((await attempt('eve@example.org', 'wrong-password')).status).toBe('invalid');
    // Five failures in the window (one from before the success, four now): even the right password waits.
    expect((await attempt('eve@example.org', 'a-fine-passphrase')).status).toBe('rate-limited');
    // Another address is not affected.
    expect((await attempt('eve@example.org', 'a-fine-passphrase', '198.51.100.1')).status).toBe('ok');

    await database().db.updateTable('system_users').set({ disabled: 1 }).where('email', '=', 'eve@example.org').execute();
    expect((await attempt('eve@example.org', 'wrong-password', '198.51.100.2')).status).toBe('invalid');
    expect((await attempt('eve@example.org', 'a-fine-passphrase', '198.51.100.2')).status).toBe('disabled');
  });

  it('mails a single-use reset link valid for an hour that signs every session out', async () => {
    const fay = await createUser(boss, { ...base, name: 'Fay', email: 'fay@example.org', role: 'EDITOR' }, IP);
    const token = await createSession({ userId: fay.id, remember: true, ip: IP, userAgent: null });
    const cookie = `${sessionCookieName()}=${token}`;

    expect(await sendPasswordResetLink('nobody@example.org', { actor: null, ip: IP })).toBe(false);
    expect(await sendPasswordResetLink('fay@example.org', { actor: null, ip: IP })).toBe(true);
    const mails = await database().db.selectFrom('mail_outbox').selectAll().where('to_address', '=', 'fay@example.org').execute();
    expect(mails).toHaveLength(1);
    const link = mails[0]!.text_body.match(/\/admin\/reset-password\/([A-Za-z0-9_-]+)/)?.[1];
    expect(link).toBeTruthy();
    expect(
      await database().db.selectFrom('mail_outbox').select('id').where('to_address', '=', 'nobody@example.org').execute(),
    ).toEqual([]);
    // Only a hash of the token is stored.
    expect(JSON.stringify(await database().db.selectFrom('password_reset_tokens').selectAll().execute())).not.toContain(link);

    expect((await checkResetToken(link!)).status).toBe('valid');
    await expect(resetPassword(link!, 'password123', IP)).rejects.toThrow(USER_MESSAGES.commonPassword);
    expect(await resetPassword(link!, 'a-new-long-passphrase', IP)).toBe(true);
    expect(await resetPassword(link!, 'another-passphrase', IP)).toBe(false);
    expect(await getCurrentUser(requestWith(cookie))).toEqual({ status: 'signed-out', reason: 'password-changed' });
    const signedIn = await signIn({
      email: 'fay@example.org',
      password: 'a-new-long-passphrase',
      remember: false,
      ip: '192.0.2.9',
      userAgent: null,
      request: requestWith(),
    });
    expect(signedIn.status).toBe('ok');

    // An expired link is refused.
    await sendPasswordResetLink('fay@example.org', { actor: 'boss@example.org', ip: IP });
    const second = (
      await database()
        .db.selectFrom('mail_outbox')
        .select('text_body')
        .where('to_address', '=', 'fay@example.org')
        .orderBy('created_at', 'desc')
        .execute()
    )[0]!;
    const secondToken = second.text_body.match(/\/admin\/reset-password\/([A-Za-z0-9_-]+)/)![1]!;
    await database()
      .db.updateTable('password_reset_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('used_at', 'is', null)
      .execute();
    expect((await checkResetToken(secondToken)).status).toBe('invalid');
  });

  it('ends every session of a user at once', async () => {
    const gus = await createUser(boss, { ...base, name: 'Gus', email: 'gus@example.org', role: 'VIEWER' }, IP);
    const cookies = await Promise.all(
      [1, 2].map(
        async () => `${sessionCookieName()}=${await createSession({ userId: gus.id, remember: false, ip: IP, userAgent: null })}`,
      ),
    );
    await endAllSessions(gus.id, 'password-changed');
    for (const cookie of cookies) expect((await getCurrentUser(requestWith(cookie))).status).toBe('signed-out');
  });
});
