import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { captureLogLines } from '../../../tests/support/log-lines';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { staffUserByEmail } from '../../../tests/support/staff';
import { ensureSuperAdmin } from '../demo/seed.server';
import { failureReason } from '../platform/failure.server';
import type { StaffUser } from '../staff/auth.server';
import { saveContentPost } from './content-save.server';

// spec §8: a save that fails for no fault of the form says 'Please try again or contact support if the
// problem persists.' followed by the error: here in staff's words, with a reference that is on the
// log line too (docs/decisions/048-failure-reference.md). A full disk is made real on each engine.

const logLines = captureLogLines();

const story = {
  title: 'Sign language at the clinic',
  category: 'community',
  summary: 'Nurses in Mbale learn greetings in Uganda Sign Language.',
  content: `<p>${'Nurses at the regional hospital learnt greetings and the signs for pain and medicine. '.repeat(400)}</p>`,
  intent: 'publish',
};

describe.each(ENGINES)('a content save that fails on %s', (engine) => {
  const database = useTestDatabase(engine);
  let editor: StaffUser;

  beforeAll(async () => {
    await ensureSuperAdmin(database().db, { email: 'boss@example.org', password: 'boss-passphrase' });
    editor = await staffUserByEmail(database().db, 'boss@example.org');
  });

  it('says the disk is full and gives a reference that is on the log line, keeping what was typed', async () => {
    const { db } = database();
    // The database may grow no further: SQLite by its page limit, PostgreSQL by the answer a full disk gives.
    if (engine === 'sqlite') {
      const { rows } = await sql<{ page_count: number }>`PRAGMA page_count`.execute(db);
      await sql.raw(`PRAGMA max_page_count = ${rows[0]!.page_count}`).execute(db);
    } else {
      await sql`CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'could not extend file' USING ERRCODE = '53100'; END $$`.execute(
        db,
      );
      await sql`CREATE TRIGGER disk_full BEFORE INSERT ON content FOR EACH ROW EXECUTE FUNCTION disk_full()`.execute(db);
    }
    const result = await saveContentPost(
      { ok: true, values: { ...story, imageFile: undefined, captionsFile: undefined } },
      editor,
      { mode: 'create', type: 'news' },
      '203.0.113.9',
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({});
    expect(result.status).toBe(500);
    const reference = /\(Reference ([0-9A-F]{8})\.\)$/.exec(result.message)?.[1];
    expect(result.message).toBe(
      `Failed to publish story. Please try again or contact support if the problem persists. The server’s disk is full. (Reference ${reference}.)`,
    );
    const logged = logLines.map((line) => JSON.parse(line) as { msg: string; reference?: string; err?: { message: string } });
    expect(logged.find((line) => line.reference === reference)).toMatchObject({
      msg: 'saving content failed',
      err: expect.any(Object),
    });
    // The database's own words stay in the log, not on the screen.
    expect(result.message).not.toMatch(/SQLITE|full database|could not extend/i);
    expect(result.values.title).toBe(story.title);
    expect(await db.selectFrom('content').select('id').where('title', '=', story.title).execute()).toEqual([]);
  });
});

describe('failureReason', () => {
  it('names what staff can pass on, by the code of the error or of the one it wraps', () => {
    const coded = (code: string, cause?: unknown) => Object.assign(new Error('x', { cause }), { code });
    expect(failureReason(coded('SQLITE_BUSY_SNAPSHOT'))).toBe('The database was busy.');
    expect(failureReason(coded('40P01'))).toBe('The database was busy.');
    expect(failureReason(new Error('wrapped', { cause: coded('ECONNREFUSED') }))).toBe('The database could not be reached.');
    expect(failureReason(coded('SQLITE_READONLY'))).toBe('The database cannot be written to.');
    expect(failureReason(coded('EACCES'))).toBe('The server cannot write its files.');
    expect(failureReason(coded('SQLITE_FULLNESS'))).toBe('Something unexpected went wrong on the server.');
    expect(failureReason(new Error('no code'))).toBe('Something unexpected went wrong on the server.');
    expect(failureReason('a string')).toBe('Something unexpected went wrong on the server.');
  });
});
