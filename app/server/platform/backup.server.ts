import { fork, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type pg from 'pg';
import { z } from 'zod';
import type { Config } from './config.server.ts';
import { SQLITE_FILE, type Engine } from '../db/db.server.ts';
import { migrationNames } from '../db/migrations.server.ts';
import { registerRecurringJob } from './jobs.server.ts';
import { getLogger } from './logger.server.ts';
import { ALLOCATOR_SETTINGS } from '../../../server/web-concurrency.ts';
import type { BackupProcessAnswer } from './backup-process.ts';

// Backups and restore (docs/decisions/019-backups.md). A backup is one .tar.gz: manifest.json, the
// database (a SQLite copy made by SQLite's online backup API, or a pg_dump custom-format dump taken
// in one snapshot) and the uploaded images. Settings (.env), the generated super admin password file
// and earlier backups are never in it. Restore goes only into an empty data folder (and, on
// PostgreSQL, an empty database), so it can never overwrite a site.

/** An operator can fix it: the scripts print only its message, the nightly job logs it. */
export class BackupError extends Error {
  override name = 'BackupError';
}

export const BACKUP_FORMAT = 'tdg-backup';
export const BACKUP_FORMAT_VERSION = 1;
/** The nightly backup's job kind (one row across every process: registerRecurringJob). */
export const BACKUP_JOB = 'backup.nightly';
export const BACKUP_EVERY_MS = 24 * 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

const MANIFEST = 'manifest.json';
const SQLITE_ENTRY = `database/${SQLITE_FILE}`;
const POSTGRES_ENTRY = 'database/tdg.pgdump';
const UPLOADS = 'uploads';
// tdg-backup-20260714-020000Z.tar.gz, with -2, -3… when two are made in the same second.
const FILE_PATTERN = /^tdg-backup-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})Z(?:-\d+)?\.tar\.gz$/;
const STAGING_PREFIX = '.tdg-backup-';
/** The modes of what a restore writes: the site user's only. */
const PRIVATE_FILE = 0o600;
const PRIVATE_FOLDER = 0o700;

const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.number().int().positive(),
  createdAt: z.iso.datetime(),
  engine: z.enum(['sqlite', 'postgres']),
  /** Every migration the database had, in order: the schema's version. */
  migrations: z.array(z.string()),
  database: z.object({ file: z.enum([SQLITE_ENTRY, POSTGRES_ENTRY]), bytes: z.number().int(), sha256: z.string() }),
  /** Rows in each table at the moment of the copy. */
  counts: z.record(z.string(), z.number().int()),
  uploads: z.discriminatedUnion('location', [
    z.object({ location: z.literal('disk'), files: z.number().int(), bytes: z.number().int() }),
    z.object({ location: z.literal('s3'), url: z.string(), note: z.string() }),
  ]),
  notIncluded: z.string(),
});

export type BackupManifest = z.infer<typeof manifestSchema>;

const NOT_INCLUDED =
  'Settings (.env or the environment), the generated super admin password file and earlier backups are not in this archive.';

/** Where uploaded images live: under DATA_DIR/uploads, or in S3-compatible storage (then not in the archive). */
export type UploadsPlace = { location: 'disk' } | { location: 's3'; url: string };

/** Where this site's uploads are, as a backup names them (never with credentials). */
export function uploadsPlaceOf(config: Pick<Config, 'storage'>): UploadsPlace {
  const storage = config.storage;
  return storage.kind === 's3' ? { location: 's3', url: `s3://${storage.bucket}/${storage.prefix}` } : { location: 'disk' };
}

export interface BackupOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** The folder the archive is written to (created when missing). */
  outDir: string;
  uploads?: UploadsPlace;
  now?: Date;
}

export interface BackupResult {
  file: string;
  bytes: number;
  manifest: BackupManifest;
}

/** Writes a consistent copy of the site to a dated .tar.gz in `outDir`. */
export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const { dataDir, databaseUrl, outDir, uploads = { location: 'disk' }, now = new Date() } = options;
  const engine: Engine = databaseUrl ? 'postgres' : 'sqlite';
  await fsp.mkdir(outDir, { recursive: true, mode: 0o700 });
  const file = freeFileName(outDir, now);
  const partial = path.join(outDir, `${STAGING_PREFIX}${randomBytes(4).toString('hex')}.partial`);
  // Staged beside the archive (same disk), removed whatever happens.
  const staging = await fsp.mkdtemp(path.join(outDir, STAGING_PREFIX));
  try {
    await fsp.mkdir(path.join(staging, 'database'));
    const entry = engine === 'sqlite' ? SQLITE_ENTRY : POSTGRES_ENTRY;
    const copy = path.join(staging, entry);
    const facts = engine === 'sqlite' ? await copySqlite(dataDir, copy) : await dumpPostgres(databaseUrl!, copy);
    const uploadsDir = path.join(dataDir, UPLOADS);
    const uploadFiles = uploads.location === 'disk' ? await listFiles(uploadsDir) : [];
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_FORMAT_VERSION,
      createdAt: now.toISOString(),
      engine,
      migrations: facts.migrations,
      database: { file: entry, bytes: (await fsp.stat(copy)).size, sha256: await sha256Of(copy) },
      counts: facts.counts,
      uploads:
        uploads.location === 'disk'
          ? { location: 'disk', files: uploadFiles.length, bytes: uploadFiles.reduce((sum, f) => sum + f.size, 0) }
          : {
              location: 's3',
              url: uploads.url,
              note: `Uploaded images are in object storage (${uploads.url}) and are not in this archive: back up the bucket with your storage provider's tools (versioning, replication or a copy).`,
            },
      notIncluded: NOT_INCLUDED,
    };
    await fsp.writeFile(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    // The uploads are named by their absolute paths and renamed to uploads/… on their way in, so
    // the archive holds exactly the files counted in the manifest.
    await (
      await import('tar')
    ).create(
      {
        file: partial,
        gzip: true,
        portable: true,
        preservePaths: true,
        cwd: staging,
        mode: 0o600,
        onWriteEntry(written) {
          if (written.path.startsWith(uploadsDir + path.sep))
            written.path = `${UPLOADS}/${path.relative(uploadsDir, written.path).split(path.sep).join('/')}`;
        },
      },
      [MANIFEST, entry, ...uploadFiles.map((f) => f.path)],
    );
    await fsp.rename(partial, file);
    return { file, bytes: (await fsp.stat(file)).size, manifest };
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
    await fsp.rm(partial, { force: true });
  }
}

function stampOf(now: Date): string {
  const iso = now.toISOString(); // 2026-07-14T02:00:00.000Z
  return `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}Z`;
}

function freeFileName(outDir: string, now: Date): string {
  const base = `tdg-backup-${stampOf(now)}`;
  for (let n = 1; ; n++) {
    const file = path.join(outDir, `${base}${n === 1 ? '' : `-${n}`}.tar.gz`);
    if (!fs.existsSync(file)) return file;
  }
}

interface DatabaseFacts {
  migrations: string[];
  counts: Record<string, number>;
}

/** SQLite's online backup API: a consistent copy while the site keeps reading and writing. */
async function copySqlite(dataDir: string, target: string): Promise<DatabaseFacts> {
  const source = path.join(dataDir, SQLITE_FILE);
  if (!fs.existsSync(source)) throw new BackupError(`There is no database at ${source}: check DATA_DIR`);
  const live = new SQLite(source, { fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    await live.backup(target);
  } finally {
    live.close();
  }
  const copy = new SQLite(target);
  try {
    // One self-contained file (no -wal beside it); the site turns WAL back on when it opens it.
    copy.pragma('journal_mode = DELETE');
    return sqliteFacts(copy);
  } finally {
    copy.close();
  }
}

function sqliteFacts(db: SQLite.Database): DatabaseFacts {
  const tables = (
    db
      .prepare(
        "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
      )
      .all() as { name: string }[]
  ).map((row) => row.name);
  if (!tables.includes('kysely_migration'))
    throw new BackupError('The database has no tables yet: start the site once before backing it up');
  const migrations = (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map(
    (row) => row.name,
  );
  const counts: Record<string, number> = {};
  for (const table of tables.filter((name) => !name.startsWith('kysely_')))
    counts[table] = (db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
  return { migrations, counts };
}

/**
 * pg_dump in custom format, inside a snapshot this function exports: the manifest's counts and
 * migrations are read in the same snapshot, so they describe exactly what the dump holds.
 */
async function dumpPostgres(databaseUrl: string, target: string): Promise<DatabaseFacts> {
  return withClient(databaseUrl, async (client) => {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const snapshot = (await client.query<{ snapshot: string }>('SELECT pg_export_snapshot() AS snapshot')).rows[0]!.snapshot;
    const facts = await postgresFacts(client);
    await runTool('pg_dump', ['--format=custom', `--snapshot=${snapshot}`, `--file=${target}`], databaseUrl);
    await client.query('COMMIT');
    return facts;
  });
}

async function postgresTables(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  return rows.map((row) => row.name);
}

async function postgresFacts(client: pg.Client): Promise<DatabaseFacts> {
  const tables = await postgresTables(client);
  if (!tables.includes('kysely_migration'))
    throw new BackupError('The database has no tables yet: start the site once before backing it up');
  const migrations = (await client.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')).rows.map(
    (row) => row.name,
  );
  const counts: Record<string, number> = {};
  for (const table of tables.filter((name) => !name.startsWith('kysely_')))
    counts[table] = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${table}"`)).rows[0]!.n);
  return { migrations, counts };
}

/** Whether the PostgreSQL client tools (pg_dump, pg_restore) can be run here. */
export function postgresToolsInstalled(): boolean {
  return ['pg_dump', 'pg_restore'].every((tool) => !spawnSync(tool, ['--version']).error);
}

/**
 * Runs pg_dump or pg_restore against `databaseUrl`. The password goes in PGPASSWORD, not on the
 * command line, where every user of the machine could read it in the process list.
 */
function runTool(tool: 'pg_dump' | 'pg_restore', args: string[], databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  return new Promise((resolve, reject) => {
    const child = spawn(tool, [...args, `--dbname=${url.href}`], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 10_000) stderr += chunk.toString();
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new BackupError(
              `${tool} is not installed: install the PostgreSQL client tools (the postgresql-client package on Debian and Ubuntu), of the database server's major version or newer`,
            )
          : error,
      );
    });
    child.on('close', (code) => {
      if (code === 0) return resolve();
      const lines = stderr.trim().split('\n').filter(Boolean);
      reject(new BackupError(`${tool} failed: ${lines.slice(-3).join(' / ') || `exit code ${code}`}`));
    });
  });
}

function postgresLocation(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
}

interface FileInfo {
  path: string;
  size: number;
}

/** Every file under `dir` (none when it does not exist), in a stable order. */
async function listFiles(dir: string): Promise<FileInfo[]> {
  if (!fs.existsSync(dir)) return [];
  const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
  const files: FileInfo[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.push({ path: full, size: (await fsp.stat(full)).size });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length) return messageOf(error.errors[0]);
  return error instanceof Error ? error.message || error.name : String(error);
}

/** When a backup file was made, from its name; undefined for any other file. */
export function backupTime(fileName: string): number | undefined {
  const m = FILE_PATTERN.exec(fileName);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m;
  return Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`);
}

/**
 * Removes backups in `dir` made more than `keepDays` days before `now`, never the newest one (a
 * stopped clock or a long pause must not leave no backup at all), and the leftovers of a backup
 * interrupted more than a day ago. Touches no other file. Returns the names removed.
 */
export async function pruneBackups(dir: string, keepDays: number, now = Date.now()): Promise<string[]> {
  if (!fs.existsSync(dir)) return [];
  const names = await fsp.readdir(dir);
  const backups = names
    .map((name) => ({ name, time: backupTime(name) }))
    .filter((b): b is { name: string; time: number } => b.time !== undefined)
    .sort((a, b) => b.time - a.time);
  const cutoff = now - keepDays * DAY_MS;
  const removed: string[] = [];
  for (const backup of backups.slice(1)) {
    if (backup.time >= cutoff) continue;
    await fsp.rm(path.join(dir, backup.name), { force: true });
    removed.push(backup.name);
  }
  for (const name of names.filter((n) => n.startsWith(STAGING_PREFIX))) {
    const full = path.join(dir, name);
    if ((await fsp.stat(full)).mtimeMs < now - DAY_MS) await fsp.rm(full, { recursive: true, force: true });
  }
  return removed;
}

/**
 * The file `backupInOwnProcess` runs, looked for from this module's folder upwards: the source tree
 * beside the build. Undefined where the sources are not deployed; the backup then runs in the site's
 * own process.
 */
export function backupProcessFile(): string | undefined {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'app', 'server', 'platform', 'backup-process.ts');
    if (fs.existsSync(file)) return file;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * Issue 29: writes a backup as `createBackup` does, in a process of its own at a low CPU priority
 * (backup-process.ts). In the site's process, counting a large database's rows and compressing the
 * archive held its event loop for up to 0.9 s at a time, and every request waited. Aborting `signal`
 * stops that process; what it left half made is removed by `pruneBackups` a day later.
 */
export function backupInOwnProcess(
  options: Omit<BackupOptions, 'now'>,
  signal?: AbortSignal,
  file = backupProcessFile(),
): Promise<Extract<BackupProcessAnswer, { ok: true }>> {
  if (!file) return Promise.reject(new BackupError('The backup process is not installed beside the site'));
  return new Promise((resolve, reject) => {
    const child = fork(file, [], {
      // Memory: a young generation of 1 MB and the allocator settings of the site's workers
      // (ALLOCATOR_SETTINGS) kept its peak at 140–146 MB resident for 10,000 stories, against
      // 180–220 MB without them; about 60 MB of that is Node's own code, shared with the site.
      execArgv: ['--max-semi-space-size=1'],
      env: { ...ALLOCATOR_SETTINGS, ...process.env },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    let stderr = '';
    let answer: BackupProcessAnswer | undefined;
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2_000)));
    child.on('message', (message) => (answer = message as BackupProcessAnswer));
    const stop = () => child.kill('SIGTERM');
    signal?.addEventListener('abort', stop, { once: true });
    child.on('error', reject);
    child.on('close', (code, killedBy) => {
      signal?.removeEventListener('abort', stop);
      if (answer?.ok) return resolve(answer);
      if (answer) return reject(new BackupError(answer.message));
      const said = stderr.trim().split('\n').at(-1);
      reject(
        new BackupError(
          `The backup process stopped without a backup (${killedBy ?? `exit code ${code}`})${said ? `: ${said}` : ''}`,
        ),
      );
    });
    child.send(options);
  });
}

/**
 * Lets this process run the nightly backup when BACKUPS allows it: one row in the jobs table, so it
 * runs once a day across every process, then keeps BACKUP_KEEP_DAYS days of backups.
 */
export function registerNightlyBackup(config: Config): () => void {
  if (!config.backups.nightly) return () => undefined;
  const uploads = uploadsPlaceOf(config);
  return registerRecurringJob(
    BACKUP_JOB,
    async (_payload, job) => {
      const options: BackupOptions = {
        dataDir: config.dataDir,
        databaseUrl: config.databaseUrl,
        outDir: config.backups.dir,
        uploads,
      };
      const file = backupProcessFile();
      const backup = file ? await backupInOwnProcess(options, job.signal, file) : await createBackup(options);
      const removed = await pruneBackups(config.backups.dir, config.backups.keepDays);
      getLogger().info({ file: backup.file, bytes: backup.bytes, removed }, 'nightly backup written');
    },
    BACKUP_EVERY_MS,
    // In a lane of its own: copying the uploads (videos too) takes long, and mail must not wait for it.
    { lane: 'backup' },
  );
}

// ---------------------------------------------------------------------------------------------
// Restore

export interface RestoreOptions {
  file: string;
  dataDir: string;
  /** PostgreSQL: the empty database to restore a dump into. */
  databaseUrl?: string | undefined;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** The database file, or the PostgreSQL host and database, restored into. */
  database: string;
  /** The folder the images went to, or undefined when the backup had them in object storage. */
  uploadsDir: string | undefined;
}

/** Reads and checks the manifest of a backup file. */
export async function readBackupManifest(file: string): Promise<BackupManifest> {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new BackupError(`There is no backup file at ${file}`);
  const chunks: Buffer[] = [];
  try {
    await (
      await import('tar')
    ).list({
      file,
      strict: true,
      filter: (entryPath) => entryPath === MANIFEST,
      onReadEntry: (entry) => entry.on('data', (chunk: Buffer) => chunks.push(chunk)),
    });
  } catch {
    throw new BackupError(`${file} is not a backup made by npm run backup (it cannot be read as a .tar.gz)`);
  }
  if (chunks.length === 0) throw new BackupError(`${file} is not a backup made by npm run backup (it has no ${MANIFEST})`);
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BackupError(`The ${MANIFEST} of ${file} is damaged`);
  }
  if (
    raw &&
    typeof raw === 'object' &&
    'version' in raw &&
    typeof raw.version === 'number' &&
    raw.version > BACKUP_FORMAT_VERSION
  )
    throw new BackupError(
      `${file} was written in a newer backup format (${raw.version}): restore it with a newer version of the site`,
    );
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) throw new BackupError(`The ${MANIFEST} of ${file} is not one this site understands`);
  return parsed.data;
}

/**
 * Brings a backup back into an empty data folder (created when missing) and, for a PostgreSQL dump,
 * an empty database. Checks the manifest, the database's checksum and its row counts; on any
 * failure removes what it put in the folder, leaving it as empty as it found it.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const dataDir = path.resolve(options.dataDir);
  const manifest = await readBackupManifest(options.file);
  const known = new Set(migrationNames(manifest.engine));
  const unknown = manifest.migrations.find((name) => !known.has(name));
  if (unknown)
    throw new BackupError(
      `This backup was made by a newer version of the site (its database has migration ${unknown}, which this version does not know): upgrade the site first`,
    );
  if (manifest.engine === 'sqlite' && options.databaseUrl)
    throw new BackupError('This backup holds a SQLite database, but DATABASE_URL is set: unset it to restore into DATA_DIR');
  if (manifest.engine === 'postgres' && !options.databaseUrl)
    throw new BackupError(
      'This backup holds a PostgreSQL dump: set DATABASE_URL (or --database-url) to the empty database to restore it into',
    );
  const existed = fs.existsSync(dataDir);
  if (existed && (!fs.statSync(dataDir).isDirectory() || fs.readdirSync(dataDir).length > 0))
    throw new BackupError(
      `${dataDir} is not empty: restore only into an empty or new folder (move the current one aside first, or name another with --data-dir)`,
    );
  if (manifest.engine === 'postgres') await assertEmptyDatabase(options.databaseUrl!);

  await fsp.mkdir(dataDir, { recursive: true, mode: 0o700 });
  const staging = path.join(dataDir, `${STAGING_PREFIX}restore`);
  try {
    await fsp.mkdir(staging, { mode: PRIVATE_FOLDER });
    await (
      await import('tar')
    ).extract({
      file: options.file,
      cwd: staging,
      strict: true,
      // Only what a backup holds, and only plain files and folders: never links or devices.
      filter: (entryPath, entry) =>
        ('type' in entry ? entry.type === 'File' || entry.type === 'Directory' : true) &&
        (entryPath === MANIFEST || entryPath.startsWith('database/') || entryPath.startsWith(`${UPLOADS}/`)),
      // Whatever modes and owners the archive names (a setuid bit, a folder anyone may write, root's
      // uid), what is restored belongs to whoever runs the restore and is theirs only, as the site makes
      // its own files (docs/operations.md#data-folder).
      preserveOwner: false,
      onReadEntry: (entry) => {
        entry.mode = entry.type === 'Directory' ? PRIVATE_FOLDER : PRIVATE_FILE;
      },
      dmode: PRIVATE_FOLDER,
      fmode: PRIVATE_FILE,
    });
    const dump = path.join(staging, manifest.database.file);
    if (!fs.existsSync(dump) || (await sha256Of(dump)) !== manifest.database.sha256)
      throw new BackupError(`The database in ${options.file} does not match its manifest: the file is damaged`);

    const uploadsDir = path.join(dataDir, UPLOADS);
    if (manifest.uploads.location === 'disk') {
      const files = await listFiles(path.join(staging, UPLOADS));
      const bytes = files.reduce((sum, f) => sum + f.size, 0);
      if (files.length !== manifest.uploads.files || bytes !== manifest.uploads.bytes)
        throw new BackupError(`The uploads in ${options.file} do not match its manifest: the file is damaged`);
    }

    let database: string;
    if (manifest.engine === 'sqlite') {
      database = path.join(dataDir, SQLITE_FILE);
      await fsp.rename(dump, database);
      checkSqlite(database, manifest);
    } else {
      await runTool(
        'pg_restore',
        ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', dump],
        options.databaseUrl!,
      );
      await checkPostgres(options.databaseUrl!, manifest);
      database = postgresLocation(options.databaseUrl!);
    }
    if (manifest.uploads.location === 'disk' && fs.existsSync(path.join(staging, UPLOADS)))
      await fsp.rename(path.join(staging, UPLOADS), uploadsDir);
    else if (manifest.uploads.location === 'disk') await fsp.mkdir(uploadsDir, { mode: PRIVATE_FOLDER });
    await fsp.rm(staging, { recursive: true, force: true });
    return { manifest, database, uploadsDir: manifest.uploads.location === 'disk' ? uploadsDir : undefined };
  } catch (error) {
    // The folder was empty (or missing) before: leave it so.
    if (existed)
      for (const name of fs.readdirSync(dataDir)) await fsp.rm(path.join(dataDir, name), { recursive: true, force: true });
    else await fsp.rm(dataDir, { recursive: true, force: true });
    if (error instanceof BackupError) throw error;
    throw new BackupError(`The restore failed: ${messageOf(error)}`, { cause: error });
  }
}

function compareCounts(manifest: BackupManifest, counts: Record<string, number>): void {
  for (const [table, expected] of Object.entries(manifest.counts)) {
    if (counts[table] !== expected)
      throw new BackupError(
        `The restored table ${table} has ${counts[table] ?? 'no'} rows where the backup's manifest says ${expected}: the backup is damaged`,
      );
  }
}

function checkSqlite(file: string, manifest: BackupManifest): void {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    const verdict = db.pragma('quick_check', { simple: true });
    if (verdict !== 'ok') throw new BackupError(`The restored database fails SQLite's check (${String(verdict)})`);
    compareCounts(manifest, sqliteFacts(db).counts);
  } finally {
    db.close();
  }
}

async function withClient<T>(databaseUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const { default: driver } = await import('pg');
  const client = new driver.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`DATABASE_URL ${postgresLocation(databaseUrl)} cannot be reached (${messageOf(error)})`);
  }
  try {
    return await run(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function assertEmptyDatabase(databaseUrl: string): Promise<void> {
  const tables = await withClient(databaseUrl, postgresTables);
  if (tables.length > 0)
    throw new BackupError(
      `The database ${postgresLocation(databaseUrl)} is not empty (it has ${tables.length} tables): restore only into a new, empty database`,
    );
}

async function checkPostgres(databaseUrl: string, manifest: BackupManifest): Promise<void> {
  const facts = await withClient(databaseUrl, postgresFacts);
  compareCounts(manifest, facts.counts);
}

/** What a backup holds, in lines for the scripts to print. */
export function describeBackup(manifest: BackupManifest): string[] {
  const rows = (table: string) => manifest.counts[table] ?? 0;
  const lines = [
    `made:     ${manifest.createdAt}`,
    `database: ${manifest.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, schema ${manifest.migrations.at(-1) ?? 'empty'} (${manifest.migrations.length} migrations)`,
    `content:  ${rows('content')} articles, ${rows('services')} services, ${rows('system_users')} staff accounts, ${rows('contacts')} contact messages, ${rows('media')} images`,
  ];
  lines.push(
    manifest.uploads.location === 'disk'
      ? `uploads:  ${manifest.uploads.files} files (${formatBytes(manifest.uploads.bytes)})`
      : `uploads:  ${manifest.uploads.note}`,
  );
  return lines;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
