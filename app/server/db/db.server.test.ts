import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, ENGINES } from '../../../tests/support/databases';
import { isDatabaseReachable, openDatabase } from './db.server';

describe.each(ENGINES)('the %s database', (engine) => {
  it('answers the health check while open, and not once closed', async () => {
    const database = await createTestDatabase(engine);
    expect(await isDatabaseReachable(database.db)).toBe(true);
    await database.close();
    expect(await isDatabaseReachable(database.db)).toBe(false);
    await database.drop().catch(() => undefined);
  });
});

describe('SQLite', () => {
  it('runs in WAL mode with foreign keys and a busy timeout', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-db-'));
    const handle = await openDatabase({ dataDir });
    const { sql } = await import('kysely');
    const mode = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(handle.db);
    const fk = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(handle.db);
    const timeout = await sql<{ timeout: number }>`PRAGMA busy_timeout`.execute(handle.db);
    expect(mode.rows[0]?.journal_mode).toBe('wal');
    expect(fk.rows[0]?.foreign_keys).toBe(1);
    expect(timeout.rows[0]?.timeout).toBe(5000);
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
