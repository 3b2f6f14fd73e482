import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import { ConfigError } from '../platform/config.server.ts';
import { OwnSchemaPostgresDialect } from './own-schema-introspector.server.ts';
import type { Database } from './schema.ts';

export type Engine = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  engine: Engine;
  /** Where the data lives, for log lines: a file path or the PostgreSQL host and database. */
  location: string;
  /** PostgreSQL only: the connection pool's clients in use, idle and waited for (issue 29: /metrics). */
  poolUse?(): { total: number; idle: number; waiting: number; max: number };
  close(): Promise<void>;
}

/** The database cannot be opened or reached: a problem the operator fixes, like a bad setting. */
export class DatabaseOpenError extends ConfigError {
  override name = 'DatabaseOpenError';
}

export interface OpenOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** PostgreSQL only: work inside this schema (created when missing). Tests use it for isolation. */
  schema?: string;
  /** SQLite only: file name inside dataDir. */
  fileName?: string;
}

export const SQLITE_FILE = 'tdg.sqlite';

/** Opens SQLite in dataDir, or PostgreSQL when databaseUrl is set, and proves it answers. */
export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.schema) : openSqlite(options);
}

/**
 * SQLite transactions take the write lock as they begin (BEGIN IMMEDIATE). A deferred one that reads
 * and then writes fails at once with SQLITE_BUSY when another process (a second worker, a backup, a
 * test) wrote in between, whatever the busy timeout; an immediate one waits its turn instead.
 */
class ImmediateTransactionsDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class SqliteImmediateDialect extends SqliteDialect {
  readonly #settings: SqliteDialectConfig;
  constructor(settings: SqliteDialectConfig) {
    super(settings);
    this.#settings = settings;
  }
  override createDriver(): Driver {
    return new ImmediateTransactionsDriver(this.#settings);
  }
}

/** Prepared statements kept per SQLite connection, by SQL text, the least recently used dropped first. */
const STATEMENTS_KEPT = 250;

/**
 * The connection as Kysely sees it, with its prepared statements kept. Kysely prepares a statement
 * for every query, and each held native memory until the garbage collector got to it: under load
 * that was over 100 MB outside V8's heap per process, and the preparing cost CPU on every request.
 * Reusing one is safe: Kysely runs one query at a time on the connection, a stream included.
 */
function keepingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text) {
      let statement = kept.get(text);
      if (statement) kept.delete(text);
      else statement = sqlite.prepare(text);
      kept.set(text, statement);
      if (kept.size > STATEMENTS_KEPT) kept.delete(kept.keys().next().value!);
      return statement;
    },
  };
}

function openSqlite({ dataDir, fileName = SQLITE_FILE }: OpenOptions): DatabaseHandle {
  try {
    // Staff accounts and visitors' messages: a folder the site creates is its own (0700), and so is a
    // new database file (0600; SQLite gives its WAL and shared-memory files the same mode). A folder the
    // operator made is left as it is (docs/operations.md#data-folder).
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.accessSync(dataDir, fs.constants.W_OK);
  } catch (error) {
    throw new DatabaseOpenError(`DATA_DIR ${dataDir} cannot be created or written (${codeOf(error)})`);
  }
  const file = path.join(dataDir, fileName);
  let sqlite: SQLite.Database;
  try {
    createPrivateFile(file);
    sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.prepare('SELECT count(*) FROM sqlite_master').get();
  } catch (error) {
    const reason = codeOf(error);
    if (reason === 'SQLITE_NOTADB' || reason === 'SQLITE_CORRUPT') {
      throw new DatabaseOpenError(`The database file ${file} is damaged or is not a SQLite database`);
    }
    throw new DatabaseOpenError(`The database file ${file} cannot be opened (${reason})`);
  }
  const db = new Kysely<Database>({ dialect: new SqliteImmediateDialect({ database: keepingStatements(sqlite) }) });
  return {
    db,
    engine: 'sqlite',
    location: file,
    async close() {
      await db.destroy();
    },
  };
}

/** Creates `file` empty and owner-only when it does not exist (SQLite would make it 0644 under a 022 umask). */
function createPrivateFile(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

async function openPostgres(databaseUrl: string, schema?: string): Promise<DatabaseHandle> {
  // Loaded only on PostgreSQL: a site on SQLite never holds the driver.
  const { default: pg } = await import('pg');
  const url = new URL(databaseUrl);
  const location = `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid schema name ${schema}`);
  if (schema) {
    const setup = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
    try {
      await setup.connect();
      await setup.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } catch (error) {
      throw new DatabaseOpenError(`DATABASE_URL ${location} cannot be reached (${describe(error)})`);
    } finally {
      await setup.end().catch(() => undefined);
    }
  }
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
  try {
    await sql`SELECT 1`.execute(db);
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw new DatabaseOpenError(`DATABASE_URL ${location} cannot be reached (${describe(error)})`);
  }
  return {
    db,
    engine: 'postgres',
    location,
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: 10 }),
    async close() {
      await db.destroy();
    },
  };
}

/** True when the database answers a trivial query. */
export async function isDatabaseReachable(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`SELECT 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

function codeOf(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return describe(error);
}

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length) return describe(error.errors[0]);
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

// The process's one global: in development Vite re-runs an edited module, and the open database must
// outlive that (a module-level variable would be emptied, leaving every request without a database).
const HANDLE = Symbol.for('tdg.database');
type Global = typeof globalThis & { [HANDLE]?: DatabaseHandle };

export function setDatabase(handle: DatabaseHandle | undefined): void {
  (globalThis as Global)[HANDLE] = handle;
}

export function getDatabase(): DatabaseHandle {
  const handle = (globalThis as Global)[HANDLE];
  if (!handle) throw new Error('The database has not been opened');
  return handle;
}

export function getDb(): Kysely<Database> {
  return getDatabase().db;
}
