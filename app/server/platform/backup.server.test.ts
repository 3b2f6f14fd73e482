import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import sharp from 'sharp';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../../tests/support/databases';
import { freePort } from '../../../scripts/free-port';
import {
  BACKUP_JOB,
  backupInOwnProcess,
  backupTime,
  createBackup,
  pruneBackups,
  readBackupManifest,
  registerNightlyBackup,
  restoreBackup,
  postgresToolsInstalled,
  uploadsPlaceOf,
} from './backup.server';
import { loadConfig } from './config.server';
import { publishContent } from '../content/content-admin.server';
import { SUPER_ADMIN_PASSWORD_FILE } from '../start-up.server';
import { openDatabase, setDatabase, type DatabaseHandle } from '../db/db.server';
import { migrateToLatest } from '../db/migrations.server';
import type { Database } from '../db/schema';
import { recurringJobId, runNextJob, scheduleRecurringJobs } from './jobs.server';
import { setUploadsRoot, storeImage } from '../media/storage.server';
import type { StaffUser } from '../staff/auth.server';
import { contentSchema } from '../../lib/content-form';

// The whole round trip on real databases and files: a site with content and an image is backed up,
// restored into a fresh folder (and database), and the site started on what was restored serves the
// same article page and the same image bytes.

const root = path.resolve(import.meta.dirname, '../../..');
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-backup-test-'));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

const editor: StaffUser = {
  id: 'id-editor',
  name: 'Grace Editor',
  email: 'grace@example.org',
  role: 'EDITOR',
  bio: '',
  profilePicture: null,
  sessionId: 's',
};

const STORY_TITLE = 'Sign language in every classroom';

/** A story with a stored image and a news item, published through the services as staff do. */
async function publishSite(db: Kysely<Database>) {
  const png = await sharp({ create: { width: 1000, height: 600, channels: 3, background: '#0f766e' } })
    .png()
    .toBuffer();
  const image = await storeImage(db, { folder: 'blogs', originalName: 'classroom.png', bytes: png });
  const story = await publishContent(
    editor,
    'blogs',
    contentSchema('blogs').parse({
      title: STORY_TITLE,
      category: 'education',
      tags: 'education, sign language',
      summary: 'Teachers in Mukono learn to sign.',
      content:
        '<p>Twelve teachers in Mukono finished a sign language course this term, and their deaf pupils now follow every lesson.</p>',
      imageUrl: image.url,
      imageAlt: 'A teacher signing to her class',
    }),
    '198.51.100.7',
  );
  await publishContent(
    editor,
    'news',
    contentSchema('news').parse({
      title: 'Captioned council meetings',
      category: 'advocacy',
      tags: '',
      summary: 'The district council now captions its meetings.',
      content: '<p>Every meeting of the district council is now captioned live, after a year of asking by our members.</p>',
    }),
    '198.51.100.7',
  );
  return { story, imageUrl: image.url };
}

function filesUnder(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const full = path.join(entry.parentPath, entry.name);
      files.set(path.relative(dir, full), fs.readFileSync(full));
    }
  return files;
}

async function entriesOf(file: string): Promise<string[]> {
  const names: string[] = [];
  await tar.list({ file, onReadEntry: (entry) => names.push(entry.path) });
  return names;
}

async function contentRows(db: Kysely<Database>) {
  return db.selectFrom('content').selectAll().orderBy('id').execute();
}

/** The built site started on `env` (a restored data folder or database); stopped after the test file. */
const servers: ChildProcess[] = [];
afterAll(async () => {
  await Promise.all(
    servers.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
});

async function startSite(env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, ['server.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: String(port),
      DEMO_CONTENT: 'false',
      BACKUPS: 'off',
      ...(process.env.BUILD_DIR ? { BUILD_DIR: process.env.BUILD_DIR } : {}),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  servers.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The site did not start: ${stderr}`);
    const up = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return url;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What a visitor sees on the restored site: the story's page, its picture, the blog list. */
async function expectSameSite(url: string, story: { id: string }, imageUrl: string, uploadsDir: string) {
  const page = await fetch(`${url}/blog/${story.id}`);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain(STORY_TITLE);
  expect(html).toContain('Twelve teachers in Mukono finished a sign language course');
  expect(html).toContain('A teacher signing to her class');
  const image = await fetch(`${url}${imageUrl}`);
  expect(image.status).toBe(200);
  expect(
    Buffer.from(await image.arrayBuffer()).equals(fs.readFileSync(path.join(uploadsDir, imageUrl.slice('/media/'.length)))),
  ).toBe(true);
  expect(await (await fetch(`${url}/blog`)).text()).toContain(STORY_TITLE);
}

describe('backup and restore on SQLite', () => {
  const database = useTestDatabase('sqlite', { uploads: true });
  let site: Awaited<ReturnType<typeof publishSite>>;
  let backupFile: string;

  beforeAll(async () => {
    site = await publishSite(database().db);
    // Secrets that sit in the data folder and must stay out of every backup.
    fs.writeFileSync(path.join(database().dataDir, SUPER_ADMIN_PASSWORD_FILE), 'generated-secret\n');
    fs.writeFileSync(path.join(database().dataDir, '.env'), 'SMTP_URL=smtp://user:secret@mail\n');
    const backup = await createBackup({ dataDir: database().dataDir, outDir: path.join(temp, 'sqlite-backups') });
    backupFile = backup.file;
  });

  it('writes one dated archive with a manifest, the database and the images, and nothing secret', async () => {
    expect(path.basename(backupFile)).toMatch(/^tdg-backup-\d{8}-\d{6}Z\.tar\.gz$/);
    expect(fs.statSync(backupFile).mode & 0o777).toBe(0o600);
    const names = await entriesOf(backupFile);
    expect(names[0]).toBe('manifest.json');
    expect(names).toContain('database/tdg.sqlite');
    const stored = [...filesUnder(path.join(database().dataDir, 'uploads')).keys()].map((name) => `uploads/${name}`);
    expect(stored.length).toBeGreaterThanOrEqual(4); // the image and its responsive widths
    expect(names.filter((name) => name.startsWith('uploads/')).sort()).toEqual(stored.sort());
    expect(names.filter((name) => /password|\.env|backups/.test(name))).toEqual([]);

    const manifest = await readBackupManifest(backupFile);
    expect(manifest).toMatchObject({ format: 'tdg-backup', version: 1, engine: 'sqlite' });
    expect(manifest.counts).toMatchObject({ content: 2, media: 1 });
    expect(manifest.uploads).toEqual({ location: 'disk', files: stored.length, bytes: expect.any(Number) });
    const applied = await database()
      .db.selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute();
    expect(manifest.migrations).toHaveLength(applied.length);
  });

  it('restores into a fresh folder: the same rows, the same image bytes, and the site serves them', async () => {
    const restoredDir = path.join(temp, 'sqlite-restored');
    const result = await restoreBackup({ file: backupFile, dataDir: restoredDir });
    expect(result.database).toBe(path.join(restoredDir, 'tdg.sqlite'));
    expect(fs.readdirSync(restoredDir).sort()).toEqual(['tdg.sqlite', 'uploads']);

    const restored = await openDatabase({ dataDir: restoredDir });
    try {
      expect(await contentRows(restored.db)).toEqual(await contentRows(database().db));
    } finally {
      await restored.close();
    }
    const original = filesUnder(path.join(database().dataDir, 'uploads'));
    const copy = filesUnder(path.join(restoredDir, 'uploads'));
    expect([...copy.keys()].sort()).toEqual([...original.keys()].sort());
    for (const [name, bytes] of original) expect(copy.get(name)!.equals(bytes)).toBe(true);

    const url = await startSite({ DATA_DIR: restoredDir });
    await expectSameSite(url, site.story, site.imageUrl, path.join(database().dataDir, 'uploads'));
  });

  it('leaves images kept in object storage out, with a note in the manifest', async () => {
    const uploads = uploadsPlaceOf(loadConfig({ STORAGE_URL: 's3://tdg-media/site-a', AWS_REGION: 'eu-west-1' }));
    expect(uploads).toEqual({ location: 's3', url: 's3://tdg-media/site-a/' });
    const backup = await createBackup({ dataDir: database().dataDir, outDir: path.join(temp, 's3-backups'), uploads });
    expect((await entriesOf(backup.file)).filter((name) => name.startsWith('uploads/'))).toEqual([]);
    expect(backup.manifest.uploads).toEqual({
      location: 's3',
      url: 's3://tdg-media/site-a/',
      note: "Uploaded images are in object storage (s3://tdg-media/site-a/) and are not in this archive: back up the bucket with your storage provider's tools (versioning, replication or a copy).",
    });
    const restoredDir = path.join(temp, 's3-restored');
    const result = await restoreBackup({ file: backup.file, dataDir: restoredDir });
    expect(result.uploadsDir).toBeUndefined();
    expect(fs.readdirSync(restoredDir)).toEqual(['tdg.sqlite']);
  });

  it('refuses a folder that is not empty, and leaves it as it was', async () => {
    const busy = path.join(temp, 'busy');
    fs.mkdirSync(busy);
    fs.writeFileSync(path.join(busy, 'tdg.sqlite'), 'the live site');
    await expect(restoreBackup({ file: backupFile, dataDir: busy })).rejects.toThrow(
      `${busy} is not empty: restore only into an empty or new folder (move the current one aside first, or name another with --data-dir)`,
    );
    expect(fs.readdirSync(busy)).toEqual(['tdg.sqlite']);
    expect(fs.readFileSync(path.join(busy, 'tdg.sqlite'), 'utf8')).toBe('the live site');
  });

  it('refuses a damaged backup and one from a newer version, leaving the folder empty', async () => {
    const unpacked = path.join(temp, 'unpacked');
    fs.mkdirSync(unpacked);
    await tar.extract({ file: backupFile, cwd: unpacked });
    const manifest = JSON.parse(fs.readFileSync(path.join(unpacked, 'manifest.json'), 'utf8'));
    const repack = async (name: string, change: (m: typeof manifest) => void) => {
      const copy = structuredClone(manifest);
      change(copy);
      fs.writeFileSync(path.join(unpacked, 'manifest.json'), JSON.stringify(copy));
      const file = path.join(temp, name);
      await tar.create({ file, gzip: true, cwd: unpacked }, fs.readdirSync(unpacked));
      return file;
    };
    const target = path.join(temp, 'target');
    fs.mkdirSync(target);

    const damaged = await repack('damaged.tar.gz', (m) => (m.database.sha256 = '0'.repeat(64)));
    await expect(restoreBackup({ file: damaged, dataDir: target })).rejects.toThrow(
      'does not match its manifest: the file is damaged',
    );
    expect(fs.readdirSync(target)).toEqual([]);

    const newer = await repack('newer.tar.gz', (m) => m.migrations.push('9999_from_the_future'));
    await expect(restoreBackup({ file: newer, dataDir: target })).rejects.toThrow(
      'This backup was made by a newer version of the site (its database has migration 9999_from_the_future, which this version does not know): upgrade the site first',
    );
    fs.writeFileSync(path.join(temp, 'not-a-backup.tar.gz'), 'hello');
    await expect(restoreBackup({ file: path.join(temp, 'not-a-backup.tar.gz'), dataDir: target })).rejects.toThrow(
      'is not a backup made by npm run backup',
    );
    await expect(restoreBackup({ file: backupFile, dataDir: target, databaseUrl: 'postgres://x@127.0.0.1/y' })).rejects.toThrow(
      'This backup holds a SQLite database, but DATABASE_URL is set: unset it to restore into DATA_DIR',
    );
    expect(fs.readdirSync(target)).toEqual([]);
  });

  it("restores files as the restoring user's only, whatever modes and owners the archive names", async () => {
    // A hostile or careless archive: a setuid database, a setgid upload, a sticky folder anyone may
    // write, all owned by another user when the archive was made as root.
    const unpacked = path.join(temp, 'modes-unpacked');
    fs.mkdirSync(unpacked);
    await tar.extract({ file: backupFile, cwd: unpacked });
    const uploads = path.join(unpacked, 'uploads');
    const anUpload = [...filesUnder(uploads).keys()][0]!;
    // Owners first: a change of owner clears setuid bits.
    if (process.getuid?.() === 0)
      for (const entry of fs.readdirSync(unpacked, { recursive: true }))
        fs.chownSync(path.join(unpacked, String(entry)), 4321, 4321);
    fs.chmodSync(path.join(unpacked, 'database', 'tdg.sqlite'), 0o4777);
    fs.chmodSync(path.join(uploads, anUpload), 0o6775);
    fs.chmodSync(uploads, 0o1777);
    fs.chmodSync(path.join(unpacked, 'manifest.json'), 0o666);
    const hostile = path.join(temp, 'modes.tar.gz');
    await tar.create({ file: hostile, gzip: true, cwd: unpacked, portable: false }, fs.readdirSync(unpacked));
    const listed = new Map<string, number>();
    await tar.list({ file: hostile, onReadEntry: (entry) => listed.set(entry.path, entry.mode ?? 0) });
    expect(listed.get('database/tdg.sqlite')! & 0o7777).toBe(0o4777);

    const restoredDir = path.join(temp, 'modes-restored');
    const previous = process.umask(0o022);
    try {
      await restoreBackup({ file: hostile, dataDir: restoredDir });
    } finally {
      process.umask(previous);
    }
    const seen: string[] = [];
    const check = (full: string) => {
      const stat = fs.statSync(full);
      seen.push(path.relative(restoredDir, full));
      expect([path.relative(restoredDir, full), (stat.mode & 0o7777).toString(8)]).toEqual([
        path.relative(restoredDir, full),
        stat.isDirectory() ? '700' : '600',
      ]);
      expect(stat.uid).toBe(process.getuid?.());
    };
    check(restoredDir);
    for (const entry of fs.readdirSync(restoredDir, { recursive: true })) check(path.join(restoredDir, String(entry)));
    expect(seen).toContain('tdg.sqlite');
    expect(seen).toContain(path.join('uploads', anUpload));
  });

  it('npm run restore refuses to run as root unless told --allow-root', async () => {
    const run = (...args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['scripts/restore.ts', ...args], {
          cwd: root,
          env: { PATH: process.env.PATH ?? '', DATA_DIR: path.join(temp, 'unused-data') },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('exit', (code) => resolve({ code, stdout, stderr }));
      });
    const target = path.join(temp, 'script-restored');
    if (process.getuid?.() === 0) {
      expect(await run(backupFile, '--data-dir', target)).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'Restore failed: run it as the system user the site runs as (sudo -u tdg npm run restore -- …), not as root: restored as root, the files would belong to root and the site could not write them. To restore as root all the same (a container that runs the site as root), add --allow-root\n',
      });
      expect(fs.existsSync(target)).toBe(false);
    }
    const allowed = await run(backupFile, '--data-dir', target, '--allow-root');
    expect(allowed).toMatchObject({ code: 0, stderr: '' });
    expect(allowed.stdout).toContain(`Restored ${backupFile}`);
    expect((fs.statSync(path.join(target, 'tdg.sqlite')).mode & 0o777).toString(8)).toBe('600');
    expect((fs.statSync(target).mode & 0o777).toString(8)).toBe('700');
  });

  it('runs the nightly backup as one recurring job, then keeps the days it is told to', async () => {
    const backupDir = path.join(temp, 'nightly');
    fs.mkdirSync(backupDir);
    const old = 'tdg-backup-20200101-020000Z.tar.gz';
    fs.writeFileSync(path.join(backupDir, old), 'an old backup');
    fs.writeFileSync(path.join(backupDir, 'notes.txt'), 'not ours');
    const config = loadConfig({ DATA_DIR: database().dataDir, BACKUP_DIR: backupDir, BACKUP_KEEP_DAYS: '3' });
    expect(config.backups).toEqual({ nightly: true, keepDays: 3, dir: backupDir });
    const unregister = registerNightlyBackup(config);
    try {
      expect(await scheduleRecurringJobs(Date.now(), [BACKUP_JOB])).toEqual([BACKUP_JOB]);
      const outcome = await runNextJob({ workerId: 'test-worker' });
      expect(outcome).toMatchObject({ id: recurringJobId(BACKUP_JOB), kind: BACKUP_JOB, status: 'done' });
    } finally {
      unregister();
    }
    const names = fs.readdirSync(backupDir);
    expect(names).not.toContain(old);
    expect(names).toContain('notes.txt');
    const written = names.filter((name) => backupTime(name) !== undefined);
    expect(written).toHaveLength(1);
    expect((await readBackupManifest(path.join(backupDir, written[0]!))).counts.content).toBe(2);
    const row = await database()
      .db.selectFrom('jobs')
      .selectAll()
      .where('id', '=', recurringJobId(BACKUP_JOB))
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('queued');
    expect(Date.parse(row.run_at) - Date.now()).toBeGreaterThan(23 * 60 * 60_000);
  });

  it('writes the backup in a process of its own at a low priority, and says why when it cannot', async () => {
    const outDir = path.join(temp, 'own-process');
    const backup = await backupInOwnProcess({ dataDir: database().dataDir, outDir });
    expect(backup.pid).not.toBe(process.pid);
    expect(backup.priority).toBeGreaterThanOrEqual(10);
    expect(backup.peakResidentBytes).toBeGreaterThan(0);
    expect(path.dirname(backup.file)).toBe(outDir);
    expect(fs.statSync(backup.file).size).toBe(backup.bytes);
    expect((await readBackupManifest(backup.file)).counts.content).toBe(2);

    const empty = path.join(temp, 'no-database');
    fs.mkdirSync(empty);
    await expect(backupInOwnProcess({ dataDir: empty, outDir })).rejects.toThrow(
      `There is no database at ${path.join(empty, 'tdg.sqlite')}: check DATA_DIR`,
    );
    expect(fs.readdirSync(outDir).filter((name) => name.startsWith('.'))).toEqual([]);
  });
});

describe('backup settings and retention', () => {
  it('is on by default for SQLite, off for PostgreSQL, and can be turned either way', () => {
    expect(loadConfig({}).backups.nightly).toBe(true);
    expect(loadConfig({}).backups.keepDays).toBe(14);
    expect(loadConfig({ DATA_DIR: '/srv/tdg' }).backups.dir).toBe('/srv/tdg/backups');
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db/tdg' }).backups.nightly).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db/tdg', BACKUPS: 'on' }).backups.nightly).toBe(true);
    expect(loadConfig({ BACKUPS: 'off' }).backups.nightly).toBe(false);
    expect(() => loadConfig({ BACKUPS: 'nightly' })).toThrow('BACKUPS must be on or off');
    expect(() => loadConfig({ BACKUP_KEEP_DAYS: '0' })).toThrow('BACKUP_KEEP_DAYS must be a whole number of days from 1 to 3650');
  });

  it('registers nothing when backups are off', async () => {
    const unregister = registerNightlyBackup(loadConfig({ BACKUPS: 'off' }));
    unregister();
    const dir = path.join(temp, 'off');
    fs.mkdirSync(dir);
    expect(await pruneBackups(dir, 14)).toEqual([]);
  });

  it('removes backups older than the kept days, never the newest, and no other file', async () => {
    const dir = path.join(temp, 'retention');
    fs.mkdirSync(dir);
    const now = Date.parse('2026-07-20T03:00:00Z');
    const names = [
      'tdg-backup-20260719-020000Z.tar.gz',
      'tdg-backup-20260706-030000Z.tar.gz', // 14 days to the hour: kept
      'tdg-backup-20260706-020000Z.tar.gz', // 14 days and an hour: removed
      'tdg-backup-20260101-020000Z-2.tar.gz',
      'my-own-copy.tar.gz',
    ];
    for (const name of names) fs.writeFileSync(path.join(dir, name), name);
    expect((await pruneBackups(dir, 14, now)).sort()).toEqual([
      'tdg-backup-20260101-020000Z-2.tar.gz',
      'tdg-backup-20260706-020000Z.tar.gz',
    ]);
    expect(fs.readdirSync(dir).sort()).toEqual([
      'my-own-copy.tar.gz',
      'tdg-backup-20260706-030000Z.tar.gz',
      'tdg-backup-20260719-020000Z.tar.gz',
    ]);

    // The only backup there is stays, however old.
    const lonely = path.join(temp, 'lonely');
    fs.mkdirSync(lonely);
    fs.writeFileSync(path.join(lonely, 'tdg-backup-20200101-020000Z.tar.gz'), 'the last one');
    expect(await pruneBackups(lonely, 14, now)).toEqual([]);
  });
});

// PostgreSQL: pg_dump into the archive, pg_restore into a new, empty database, on the server the
// tests use. Needs TEST_DATABASE_URL and the PostgreSQL client tools.
const POSTGRES_URL = process.env.TEST_DATABASE_URL;
const POSTGRES_SKIP = !POSTGRES_URL
  ? 'TEST_DATABASE_URL is not set'
  : !postgresToolsInstalled()
    ? 'pg_dump and pg_restore are not installed'
    : undefined;

describe.skipIf(POSTGRES_SKIP !== undefined)(
  `backup and restore on PostgreSQL${POSTGRES_SKIP ? ` (skipped: ${POSTGRES_SKIP})` : ''}`,
  () => {
    const suffix = randomBytes(5).toString('hex');
    const names = { source: `tdg_backup_${suffix}_src`, target: `tdg_backup_${suffix}_dst` };
    const urlOf = (name: string) => {
      const url = new URL(POSTGRES_URL!);
      url.pathname = `/${name}`;
      return url.href;
    };
    const admin = async (statement: string) => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      try {
        await client.query(statement);
      } finally {
        await client.end();
      }
    };
    const sourceDir = path.join(temp, 'pg-source');
    let source: DatabaseHandle;
    let site: Awaited<ReturnType<typeof publishSite>>;

    beforeAll(async () => {
      await admin(`CREATE DATABASE ${names.source}`);
      await admin(`CREATE DATABASE ${names.target}`);
      source = await openDatabase({ dataDir: sourceDir, databaseUrl: urlOf(names.source) });
      await migrateToLatest(source.db, source.engine);
      setDatabase(source);
      setUploadsRoot(sourceDir);
      site = await publishSite(source.db);
    });
    afterAll(async () => {
      setDatabase(undefined);
      await source?.close();
      for (const name of Object.values(names)) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });

    it('dumps with pg_dump, restores into an empty database, and the site serves the same story and image', async () => {
      const backup = await createBackup({
        dataDir: sourceDir,
        databaseUrl: urlOf(names.source),
        outDir: path.join(temp, 'pg-backups'),
      });
      expect(backup.manifest).toMatchObject({ engine: 'postgres', database: { file: 'database/tdg.pgdump' } });
      expect(backup.manifest.counts).toMatchObject({ content: 2, media: 1 });
      expect(await entriesOf(backup.file)).toContain('database/tdg.pgdump');

      const restoredDir = path.join(temp, 'pg-restored');
      const result = await restoreBackup({ file: backup.file, dataDir: restoredDir, databaseUrl: urlOf(names.target) });
      expect(result.database).toMatch(new RegExp(`/${names.target}$`));
      const restored = await openDatabase({ dataDir: restoredDir, databaseUrl: urlOf(names.target) });
      try {
        expect(await contentRows(restored.db)).toEqual(await contentRows(source.db));
      } finally {
        await restored.close();
      }
      const original = filesUnder(path.join(sourceDir, 'uploads'));
      const copy = filesUnder(path.join(restoredDir, 'uploads'));
      expect([...copy.keys()].sort()).toEqual([...original.keys()].sort());
      for (const [name, bytes] of original) expect(copy.get(name)!.equals(bytes)).toBe(true);

      // A second restore finds the database in use and refuses, before touching anything.
      const again = path.join(temp, 'pg-again');
      await expect(restoreBackup({ file: backup.file, dataDir: again, databaseUrl: urlOf(names.target) })).rejects.toThrow(
        /^The database .* is not empty \(it has \d+ tables\): restore only into a new, empty database$/,
      );
      expect(fs.existsSync(again)).toBe(false);

      const url = await startSite({ DATA_DIR: restoredDir, DATABASE_URL: urlOf(names.target) });
      await expectSameSite(url, site.story, site.imageUrl, path.join(sourceDir, 'uploads'));
    });
  },
);
