import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Engine } from '../db.server.ts';
import { inTransaction } from './frozen.ts';

// Migration 0020_search_scope. A migration means the same thing forever: it uses only what this file
// and ./frozen.ts hold, never the live code or schema of today.

export default function migration(engine: Engine): Migration {
  return {
    // Issue 29, SQLite only: a public search is of one collection's published English items, and the
    // search index did not know which rows those were. A common word matched about 9,500 of 10,000
    // stories; the list then checked each against the collection's index, and its count did it all
    // again (4.5–8 ms a search). The index now holds each row's collection, status and language as
    // one word in a column of its own, `scope` ("s" collection "x" status "x" language "0", which no
    // tokenizer step changes), so the index alone answers which of them match, and how many.
    up: (db) =>
      engine !== 'sqlite'
        ? Promise.resolve()
        : inTransaction(db, async (trx) => {
            await sql`DROP TRIGGER content_fts_insert`.execute(trx);
            await sql`DROP TRIGGER content_fts_update`.execute(trx);
            await sql`DROP TRIGGER content_fts_delete`.execute(trx);
            await sql`DROP TABLE content_fts`.execute(trx);
            await sql`CREATE VIRTUAL TABLE content_fts USING fts5(
              title, summary, body, tags, scope,
              content = '', contentless_delete = 1,
              tokenize = 'porter unicode61 remove_diacritics 2'
            )`.execute(trx);
            const fields = (row: 'new' | 'content') =>
              sql.raw(
                `${row}.seq, ${row}.title, coalesce(${row}.summary, '') || ' ' || coalesce(${row}.excerpt, ''), ${row}.search_text, ${row}.tags, 's' || ${row}.collection || 'x' || ${row}.status || 'x' || ${row}.language || '0'`,
              );
            await sql`INSERT INTO content_fts (rowid, title, summary, body, tags, scope) SELECT ${fields('content')} FROM content`.execute(
              trx,
            );
            await sql`CREATE TRIGGER content_fts_insert AFTER INSERT ON content BEGIN
              INSERT INTO content_fts (rowid, title, summary, body, tags, scope) VALUES (${fields('new')});
            END`.execute(trx);
            await sql`CREATE TRIGGER content_fts_update
              AFTER UPDATE OF seq, title, summary, excerpt, search_text, tags, collection, status, language ON content BEGIN
              DELETE FROM content_fts WHERE rowid = old.seq;
              INSERT INTO content_fts (rowid, title, summary, body, tags, scope) VALUES (${fields('new')});
            END`.execute(trx);
            await sql`CREATE TRIGGER content_fts_delete AFTER DELETE ON content BEGIN
              DELETE FROM content_fts WHERE rowid = old.seq;
            END`.execute(trx);
          }),
  };
}
