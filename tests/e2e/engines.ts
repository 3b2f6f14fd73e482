import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Kysely } from 'kysely';
import { openDatabase, type Engine } from '../../app/server/db/db.server.ts';
import type { Database } from '../../app/server/db/schema.ts';
import { E2E } from './env.ts';

// The journeys' databases on both engines. The shared servers: the `site` and `publishing` projects
// run against SQLite in E2E.dataDir; the `postgres` project (when TEST_DATABASE_URL is set) against a
// second server whose data lives in the PostgreSQL schema E2E.postgres.schema. Journeys that need a
// server of their own (startServer) ask `serverDatabase` for an empty database on either engine.

export type { Engine };

/** The engines journeys run on here: SQLite always, PostgreSQL when the machine has one for tests. */
export const E2E_ENGINES: Engine[] = E2E.postgres ? ['sqlite', 'postgres'] : ['sqlite'];

function postgresUrl(schema: string): string {
  const url = new URL(E2E.postgres!.url);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.href;
}

/** The DATABASE_URL of a server that keeps its data in `schema`, which must exist. */
export function postgresServerUrl(schema: string): string {
  return postgresUrl(schema);
}

/** Drops and makes `schema` again, empty. */
export async function freshPostgresSchema(schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid schema name ${schema}`);
  const client = new pg.Client({ connectionString: E2E.postgres!.url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await client.end();
  }
}

async function dropPostgresSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: E2E.postgres!.url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

/** The database of one of the shared journey servers, for reading and arranging what a test needs. */
export async function openServerDatabase(engine: Engine): Promise<{ db: Kysely<Database>; close(): Promise<void> }> {
  const handle =
    engine === 'postgres'
      ? await openDatabase({ dataDir: os.tmpdir(), databaseUrl: E2E.postgres!.url, schema: E2E.postgres!.schema })
      : await openDatabase({ dataDir: E2E.dataDir! });
  return { db: handle.db, close: () => handle.close() };
}

export interface ServerDatabase {
  /** The environment to start a server with (startServer in support.ts): its DATA_DIR, and DATABASE_URL on PostgreSQL. */
  env: Record<string, string>;
  /** Opens the server's database (once it has started and migrated it); closed by `dispose`. */
  database(): Promise<Kysely<Database>>;
  /** Closes the connection and deletes the data (folder or schema). Stop the server first. */
  dispose(): Promise<void>;
}

/** An empty database of `engine` for a server of a journey's own. */
export async function serverDatabase(engine: Engine): Promise<ServerDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `tdg-${engine}-`));
  const schema = `e2e_own_${randomBytes(5).toString('hex')}`;
  if (engine === 'postgres') await freshPostgresSchema(schema);
  let opened: { db: Kysely<Database>; close(): Promise<void> } | undefined;
  return {
    env: engine === 'postgres' ? { DATA_DIR: dataDir, DATABASE_URL: postgresUrl(schema) } : { DATA_DIR: dataDir },
    async database() {
      if (!opened) {
        const handle =
          engine === 'postgres'
            ? await openDatabase({ dataDir, databaseUrl: E2E.postgres!.url, schema })
            : await openDatabase({ dataDir });
        opened = { db: handle.db, close: () => handle.close() };
      }
      return opened.db;
    },
    async dispose() {
      await opened?.close();
      if (engine === 'postgres') await dropPostgresSchema(schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
