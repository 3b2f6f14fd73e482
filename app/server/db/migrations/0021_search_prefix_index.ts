import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Engine } from '../db.server.ts';
import { inTransaction } from './frozen.ts';

// Migration 0021_search_prefix_index. A migration means the same thing forever: it uses only what
// this file and ./frozen.ts hold, never the live code or schema of today.

export default function migration(engine: Engine): Migration {
  return {
    // Issue 29, SQLite only: a word of three letters or more also finds the words it begins, and a
    // three-letter start ("acc", typed before the search box's pause) matched thousands of index
    // terms, each read in turn. The search index now keeps a second index of every term's first
    // three letters (FTS5's `prefix`), so such a word is one lookup. The table is made again with
    // the same columns, filled from `content`; the triggers of 0020 write to it by name, unchanged.
    up: (db) =>
      engine !== 'sqlite'
        ? Promise.resolve()
        : inTransaction(db, async (trx) => {
            await sql`DROP TABLE content_fts`.execute(trx);
            await sql`CREATE VIRTUAL TABLE content_fts USING fts5(
              title, summary, body, tags, scope,
              content = '', contentless_delete = 1,
              tokenize = 'porter unicode61 remove_diacritics 2',
              prefix = '3'
            )`.execute(trx);
            await sql`INSERT INTO content_fts (rowid, title, summary, body, tags, scope)
              SELECT seq, title, coalesce(summary, '') || ' ' || coalesce(excerpt, ''), search_text, tags,
                's' || collection || 'x' || status || 'x' || language || '0'
              FROM content`.execute(trx);
          }),
  };
}
