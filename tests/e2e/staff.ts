import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type APIResponse, type Page } from '@playwright/test';
import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '../../app/server/db/schema';
import { hashPassword } from '../../app/server/staff/passwords.server';
import { homePathFor, type Role } from '../../app/lib/permissions';
import { E2E } from './env';

// Helpers for the staff-account journeys: users made directly in the journeys' server database,
// signing in through the real form or endpoint, and the mail the server sent to the test SMTP server.
// Journeys reach most of them through the fixtures of fixtures.ts (`staff`, `signIn`, `staffRequest`).

export interface Staff {
  id: string;
  name: string;
  email: string;
  password: string;
  role: Role;
}

export interface StaffOptions {
  name?: string;
  email?: string;
  password?: string;
  bio?: string;
  disabled?: boolean;
}

export interface UserRow {
  id: string;
  name: string;
  email: string;
  role: string;
  bio: string;
  disabled: number;
  password_hash: string | null;
  profile_picture: string | null;
}

let connection: SQLite.Database | undefined;

/** The journeys' server database (SQLite, shared with the running server). */
export function db(): SQLite.Database {
  if (!connection) {
    connection = new SQLite(path.join(E2E.dataDir!, 'tdg.sqlite'));
    connection.pragma('journal_mode = WAL');
    connection.pragma('busy_timeout = 5000');
  }
  return connection;
}

/** A short random suffix, so every test's users and emails are its own. */
export function unique(): string {
  return randomBytes(5).toString('hex');
}

export function uniqueEmail(prefix = 'staff'): string {
  return `${prefix}-${unique()}@e2e.example`;
}

/** A password that is long enough and on no list of common passwords. */
export const STAFF_PASSWORD = 'Kampala-River-7421';
const hashes = new Map<string, Promise<string>>();
function hashOf(password: string): Promise<string> {
  let pending = hashes.get(password);
  if (!pending) {
    pending = hashPassword(password);
    hashes.set(password, pending);
  }
  return pending;
}

/**
 * Creates a staff account of `role` with a known password, straight in the database. (A second
 * SUPER_ADMIN cannot be made through the site; the permission matrix makes one so that its writes
 * never touch the real super admin account other journeys use.) Journeys use the `staff` fixture
 * (fixtures.ts), which also removes the account after the test.
 */
export async function createStaff(database: Kysely<Database>, role: Role, options: StaffOptions = {}): Promise<Staff> {
  const suffix = unique();
  const staff: Staff = {
    id: randomUUID(),
    name: options.name ?? `${role[0]}${role.slice(1).toLowerCase()} ${suffix}`,
    email: options.email ?? `${role.toLowerCase()}-${suffix}@e2e.example`,
    password: options.password ?? STAFF_PASSWORD,
    role,
  };
  const now = new Date().toISOString();
  await database
    .insertInto('system_users')
    .values({
      id: staff.id,
      name: staff.name,
      email: staff.email,
      role,
      bio: options.bio ?? '',
      profile_picture: null,
      password_hash: await hashOf(staff.password),
      disabled: options.disabled ? 1 : 0,
      created_at: now,
      updated_at: now,
      updated_by: null,
      last_login: null,
    })
    .execute();
  return staff;
}

/**
 * Removes the accounts with these emails (if they exist), with their sessions and reset links, and
 * forgets the failed sign-ins counted for the emails, so the shared server's user list stays short.
 */
export async function removeStaff(database: Kysely<Database>, emails: readonly string[]): Promise<void> {
  if (emails.length === 0) return;
  const list = emails.map((email) => email.toLowerCase());
  // Every statement writes (none reads first): on SQLite a transaction that read first could not take
  // the write lock while another process holds it, and would fail at once instead of waiting.
  await database.transaction().execute(async (trx) => {
    const ids = trx.selectFrom('system_users').select('id').where('email', 'in', list);
    await trx.deleteFrom('sessions').where('user_id', 'in', ids).execute();
    await trx.deleteFrom('password_reset_tokens').where('user_id', 'in', ids).execute();
    // Issue 25: their second sign-in step.
    for (const table of [
      'two_factor_totp',
      'two_factor_recovery_codes',
      'passkeys',
      'sign_in_challenges',
      'remembered_devices',
    ] as const)
      await trx.deleteFrom(table).where('user_id', 'in', ids).execute();
    await trx.deleteFrom('system_users').where('email', 'in', list).execute();
    await trx.deleteFrom('login_attempts').where('email', 'in', list).execute();
    await trx
      .deleteFrom('rate_limits')
      .where((eb) =>
        eb.or([
          eb('key', 'in', [
            ...list.map((email) => `sign-in:pair:127.0.0.1|${email}`),
            ...list.map((email) => `sign-in:account:${email}`),
          ]),
          eb('key', 'like', 'sign-in:address:%'),
        ]),
      )
      .execute();
  });
}

/** The super admin the server was started with. */
export function superAdmin(): Staff {
  const row = userByEmail(E2E.adminEmail);
  if (!row) throw new Error('the super admin account is missing');
  return { id: row.id, name: row.name, email: row.email, password: E2E.adminPassword, role: 'SUPER_ADMIN' };
}

export function userRow(id: string): UserRow | undefined {
  return db().prepare('SELECT * FROM system_users WHERE id = ?').get(id) as UserRow | undefined;
}

export function userByEmail(email: string): UserRow | undefined {
  return db().prepare('SELECT * FROM system_users WHERE email = ?').get(email.toLowerCase()) as UserRow | undefined;
}

export function deleteUserRow(id: string): void {
  db().prepare('DELETE FROM system_users WHERE id = ?').run(id);
}

/**
 * Signs in through the sign-in screen and waits for the role's first dashboard section. With
 * JavaScript (the default) it first waits for the screen's scripts, which show the password toggle.
 * (The `signIn` fixture does this for the test's page; this is for a page of another context.)
 */
export async function signInWithForm(
  page: Page,
  user: Pick<Staff, 'email' | 'password' | 'role'>,
  options: { remember?: boolean; javaScript?: boolean } = {},
): Promise<void> {
  await page.goto('/admin');
  if (options.javaScript !== false)
    await expect(page.getByRole('button', { name: 'Show password' })).toBeVisible({ timeout: 15_000 });
  await page.getByLabel('Email address').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  if (options.remember) await page.getByLabel('Remember me').check();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // A 500 ms pause, an argon2 check and a page load: allow for a busy machine.
  await expect(page).toHaveURL(new URL(homePathFor(user.role), page.url()).href, { timeout: 15_000 });
}

/**
 * Signs in by posting the sign-in form to POST /admin, as a browser without JavaScript does (the
 * answer is a redirect into the dashboard); `request` keeps the cookie, which is also returned ('name=value').
 */
export async function apiSignIn(
  request: APIRequestContext,
  user: Pick<Staff, 'email' | 'password'>,
  options: { remember?: boolean } = {},
): Promise<string> {
  const response = await request.post('/admin', {
    form: { email: user.email, password: user.password, ...(options.remember ? { remember: 'on' } : {}) },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  expect(response.headers()['location']).toMatch(/^\/admin\//);
  return sessionCookieOf(response);
}

/** The 'name=value' of the session cookie a response sets. */
export function sessionCookieOf(response: APIResponse): string {
  const header = response
    .headersArray()
    .filter((h) => h.name.toLowerCase() === 'set-cookie')
    .map((h) => h.value)
    .find((v) => v.startsWith('tdg_session='));
  if (!header) throw new Error('no session cookie was set');
  return header.split(';')[0]!;
}

export interface Mail {
  file: string;
  raw: string;
  /** The text body, quoted-printable decoded. */
  text: string;
}

function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Every message the test SMTP server received for `to`. */
export function mailsTo(to: string): Mail[] {
  const folder = E2E.mailDir!;
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => {
      const raw = fs.readFileSync(path.join(folder, name), 'utf8');
      const [head = '', ...body] = raw.split(/\r?\n\r?\n/);
      const text = /content-transfer-encoding:\s*quoted-printable/i.test(head)
        ? decodeQuotedPrintable(body.join('\n\n'))
        : body.join('\n\n');
      return { file: name, raw, text, head };
    })
    .filter((mail) => new RegExp(`^X-Envelope-To:.*\\b${escapeRegExp(to.toLowerCase())}\\b`, 'im').test(mail.head.toLowerCase()))
    .map(({ file, raw, text }) => ({ file, raw, text }));
}

/** Waits for a message to `to` and returns the reset link in it. */
export async function resetLinkMailedTo(to: string): Promise<string> {
  let link = '';
  await expect
    .poll(
      () => {
        const mail = mailsTo(to).at(-1);
        link = mail?.text.match(/https?:\/\/\S+\/admin\/reset-password\/[A-Za-z0-9_-]+/)?.[0] ?? '';
        return link;
      },
      { message: `a reset link mailed to ${to}`, timeout: 10_000 },
    )
    .not.toBe('');
  // The link names the public URL the server runs with; follow it on the test server whatever it says.
  const url = new URL(link);
  return `${E2E.baseURL}${url.pathname}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A reset link for `userId`, made directly in the database (as the server would mail it). */
export function createResetLink(userId: string): string {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  db()
    .prepare('INSERT INTO password_reset_tokens (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
    .run(
      createHash('sha256').update(token).digest('hex'),
      userId,
      new Date(now).toISOString(),
      new Date(now + 60 * 60 * 1000).toISOString(),
    );
  return `/admin/reset-password/${token}`;
}
