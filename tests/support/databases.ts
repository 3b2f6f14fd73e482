import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, setDatabase, type DatabaseHandle, type Engine } from '~/server/db/db.server';
import { migrateToLatest } from '~/server/db/migrations.server';
import { setUploadsRoot } from '~/server/media/storage.server';

// Tests run against real databases: always SQLite, and PostgreSQL too when TEST_DATABASE_URL is set.
// Each test database is new and private to its test: a temporary folder, or a fresh schema.

export const ENGINES: Engine[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestDatabase extends DatabaseHandle {
  dataDir: string;
  /** Closes the database and removes everything the test created. */
  drop(): Promise<void>;
}

export async function createTestDatabase(engine: Engine, options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-test-'));
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const databaseUrl = engine === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  const handle = await openDatabase({ dataDir, databaseUrl, ...(databaseUrl ? { schema } : {}) });
  if (options.migrate !== false) await migrateToLatest(handle.db, handle.engine);
  return {
    ...handle,
    dataDir,
    async drop() {
      await handle.close();
      if (databaseUrl) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * For the calling describe block: a fresh database of `engine` (migrated unless `migrate: false`),
 * made the process's database (and, with `uploads`, its data folder the uploads folder) before the
 * tests and dropped after them. Returns a getter, since the database exists only once the block's
 * tests start.
 */
export function useTestDatabase(engine: Engine, options: { uploads?: boolean; migrate?: boolean } = {}): () => TestDatabase {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(engine, { migrate: options.migrate });
    setDatabase(database);
    if (options.uploads) setUploadsRoot(database.dataDir);
  });
  afterAll(async () => {
    setDatabase(undefined);
    await database?.drop();
  });
  return () => {
    if (!database) throw new Error('useTestDatabase: the database exists only inside the tests of its block');
    return database;
  };
}

/** Runs `run` with a database of `engine` that has no tables, so every read and write fails; drops it after. */
export async function withUnreadableDatabase<T>(engine: Engine, run: (database: TestDatabase) => Promise<T>): Promise<T> {
  const database = await createTestDatabase(engine, { migrate: false });
  try {
    return await run(database);
  } finally {
    await database.drop();
  }
}
