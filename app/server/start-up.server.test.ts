import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENGINES, useTestDatabase } from '../../tests/support/databases';
import { startS3, type S3Sink } from '../../tests/support/s3';
import { startServices, SUPER_ADMIN_PASSWORD_FILE } from './start-up.server';
import { ConfigError, loadConfig } from './platform/config.server';
import { getDatabase, setDatabase } from './db/db.server';
import { ensureSuperAdmin } from './demo/seed.server';
import { createLogger } from './platform/logger.server';
import { verifyPassword } from './staff/passwords.server';
import { getMediaStore, setUploadsRoot } from './media/storage.server';

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

// issue 15: instances (or cluster workers) started together on an empty database each ran the
// first-start work, and one died with `duplicate key value violates unique constraint
// "system_users_email_key"`. It now runs once, under a database lock; the others wait, then find it done.
describe.each(ENGINES)('two instances starting at the same moment on one empty %s database', (engine) => {
  const dataDirs: string[] = [];
  let schema: string | undefined;
  afterAll(async () => {
    setDatabase(undefined);
    if (schema) {
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('both come up, with one super admin and the demo content once', async () => {
    const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-two-starts-'));
    dataDirs.push(shared);
    const env: Record<string, string> = {
      NODE_ENV: 'test',
      SUPER_ADMIN_EMAIL: 'first@example.org',
      SUPER_ADMIN_PASSWORD: 'a-chosen-passphrase',
    };
    if (engine === 'postgres') {
      schema = `test_${randomBytes(6).toString('hex')}`;
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(`CREATE SCHEMA ${schema}`);
      await client.end();
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.searchParams.set('options', `-c search_path=${schema}`);
      env.DATABASE_URL = url.href;
    }
    const logger = createLogger('silent');
    // On PostgreSQL each instance has its own data folder; on SQLite they share the one holding the database.
    const configFor = () => {
      const dataDir = engine === 'postgres' ? fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-two-starts-')) : shared;
      dataDirs.push(dataDir);
      return loadConfig({ ...env, DATA_DIR: dataDir });
    };
    const starts = await Promise.allSettled([startServices(configFor(), logger), startServices(configFor(), logger)]);
    const handles = starts.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    try {
      expect(starts.map((s) => (s.status === 'rejected' ? String(s.reason) : 'started'))).toEqual(['started', 'started']);
      const db = handles[0]!.db;
      const admins = await db.selectFrom('system_users').select('email').where('role', '=', 'SUPER_ADMIN').execute();
      expect(admins).toEqual([{ email: 'first@example.org' }]);
      const titles = await db.selectFrom('content').select('title').execute();
      expect(titles.length).toBeGreaterThan(0);
      expect(new Set(titles.map((t) => t.title)).size).toBe(titles.length);
      const services = await db.selectFrom('services').select('title').execute();
      expect(new Set(services.map((s) => s.title)).size).toBe(services.length);
    } finally {
      for (const handle of handles) await handle.close();
    }
  });
});

describe('start-up with uploads in a bucket', () => {
  let s3: S3Sink;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-bucket-start-'));
  beforeAll(async () => {
    s3 = await startS3('tdg-present');
  });
  afterAll(async () => {
    setDatabase(undefined);
    setUploadsRoot(dataDir);
    await s3.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops with one clear line when the bucket cannot be used', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, ...s3.env, STORAGE_URL: 's3://tdg-missing/site' });
    const failure = startServices(config, createLogger('silent'));
    await expect(failure).rejects.toBeInstanceOf(ConfigError);
    await expect(failure).rejects.toThrow('STORAGE_URL s3://tdg-missing/site/ cannot be used (no such bucket)');
  });

  it('writes the demo pictures to the bucket and none to the data folder', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, SUPER_ADMIN_PASSWORD: 'a-chosen-passphrase', ...s3.env });
    const handle = await startServices(config, createLogger('silent'));
    try {
      expect(getMediaStore().kind).toBe('s3');
      const pictures = await handle.db.selectFrom('media').select('key').execute();
      expect(pictures.length).toBeGreaterThan(0);
      for (const { key } of pictures) expect(await getMediaStore().head(key), key).toBeDefined();
      expect(fs.existsSync(path.join(dataDir, 'uploads'))).toBe(false);
    } finally {
      await handle.close();
    }
  });
});
