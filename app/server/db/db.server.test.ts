import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
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

  it('creates DATA_DIR and the database for the site user only, whatever the umask, and leaves a folder the operator made as it is', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-db-'));
    const previous = process.umask(0o022);
    try {
      const dataDir = path.join(parent, 'new', 'data');
      const handle = await openDatabase({ dataDir });
      await handle.db.schema.createTable('note').addColumn('text', 'text').execute();
      const modeOf = (file: string) => fs.statSync(file).mode & 0o7777;
      expect(modeOf(path.join(parent, 'new'))).toBe(0o700);
      expect(modeOf(dataDir)).toBe(0o700);
      expect(fs.readdirSync(dataDir).sort()).toEqual(['tdg.sqlite', 'tdg.sqlite-shm', 'tdg.sqlite-wal']);
      for (const name of fs.readdirSync(dataDir)) expect([name, modeOf(path.join(dataDir, name))]).toEqual([name, 0o600]);
      await handle.close();

      const made = path.join(parent, 'made-by-the-operator');
      fs.mkdirSync(made, { mode: 0o750 });
      const second = await openDatabase({ dataDir: made });
      await second.close();
      expect(modeOf(made)).toBe(0o750);
      expect(modeOf(path.join(made, 'tdg.sqlite'))).toBe(0o600);
    } finally {
      process.umask(previous);
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  it('takes the write lock as a transaction begins, so a write from another process cannot break it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-db-'));
    const handle = await openDatabase({ dataDir });
    await handle.db.schema.createTable('counter').addColumn('n', 'integer').execute();
    await handle.db
      .insertInto('counter' as never)
      .values({ n: 1 } as never)
      .execute();
    // Another process's connection (a second worker), told not to wait.
    const other = new SQLite(path.join(dataDir, 'tdg.sqlite'));
    other.pragma('busy_timeout = 0');
    try {
      await handle.db.transaction().execute(async (trx) => {
        await trx
          .selectFrom('counter' as never)
          .selectAll()
          .execute();
        // A deferred transaction would let this write through, and its own UPDATE below would then
        // fail with SQLITE_BUSY; an immediate one holds the lock, so the other process must wait.
        expect(() => other.prepare('UPDATE counter SET n = n + 10').run()).toThrow(/locked|busy/i);
        await trx
          .updateTable('counter' as never)
          .set({ n: 2 } as never)
          .execute();
      });
      expect(other.prepare('SELECT n FROM counter').get()).toEqual({ n: 2 });
    } finally {
      other.close();
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
