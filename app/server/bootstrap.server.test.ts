import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ENGINES, useTestDatabase } from '../../tests/support/databases';
import { startServices, SUPER_ADMIN_PASSWORD_FILE } from './bootstrap.server';
import { loadConfig } from './config.server';
import { getDatabase, setDatabase } from './db/db.server';
import { ensureSuperAdmin } from './db/seed.server';
import { createLogger } from './logger.server';
import { verifyPassword } from './passwords.server';

// A generated super admin password is handed over in a file only its owner can read, never on the
// terminal or in the log.

const passwordIn = (file: string) => fs.readFileSync(file, 'utf8').match(/password: (\S+)/)?.[1];
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe.each(ENGINES)('the generated super admin password on %s', (engine) => {
  const database = useTestDatabase(engine);

  it('is written to an owner-only file, replacing an old one, and works for signing in', async () => {
    const file = path.join(database().dataDir, 'secrets', SUPER_ADMIN_PASSWORD_FILE);
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, 'left from an earlier database', { mode: 0o644 });

    const result = await ensureSuperAdmin(database().db, { email: 'Chief@Example.org', passwordFile: file });
    expect(result.created).toBe(true);
    expect(modeOf(file)).toBe(0o600);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('email:    chief@example.org');
    expect(text).toMatch(/delete this file/i);
    const password = passwordIn(file)!;
    expect(password).toBe(result.generatedPassword);
    const user = await database()
      .db.selectFrom('system_users')
      .selectAll()
      .where('email', '=', 'chief@example.org')
      .executeTakeFirstOrThrow();
    expect(await verifyPassword(user.password_hash!, password)).toBe(true);

    // A later start leaves the account and the file as they are.
    const again = await ensureSuperAdmin(database().db, { email: 'chief@example.org', passwordFile: file });
    expect(again).toEqual({ created: false, email: 'chief@example.org' });
    expect(passwordIn(file)).toBe(password);
  });

  it('is not written when the password was chosen', async () => {
    const file = path.join(database().dataDir, 'chosen', SUPER_ADMIN_PASSWORD_FILE);
    await ensureSuperAdmin(database().db, { email: 'owner@example.org', password: 'a-chosen-passphrase', passwordFile: file });
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe('start-up with no SUPER_ADMIN_PASSWORD', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-bootstrap-'));
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    await getDatabase()
      .close()
      .catch(() => undefined);
    setDatabase(undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints where the password is, never the password', async () => {
    const printed: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
    const logged: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void logged.push(line) });
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, SUPER_ADMIN_EMAIL: 'first@example.org' });
    await startServices(config, logger);

    const file = path.join(dataDir, SUPER_ADMIN_PASSWORD_FILE);
    const password = passwordIn(file)!;
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(modeOf(file)).toBe(0o600);
    const output = printed.join('') + logged.join('');
    expect(output).toContain(file);
    expect(output).toContain('first@example.org');
    expect(output).not.toContain(password);
  });
});
