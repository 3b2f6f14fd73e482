import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Engine } from '../db.server.ts';
import { inTransaction } from './frozen.ts';

// Migration 0003_search_by_row_number. A migration means the same thing forever: it uses only what this file and
// ./frozen.ts hold, never the live code or schema of today.

export default function migration(engine: Engine): Migration {
  return {
    // SQLite only: the FTS5 table was keyed by the text id, so a broad search read every match's
    // id back out of the index before it could join (about 40 ms for 5,000 matches). Now `content`
    // has a stable integer row number, `seq`, the search index is keyed by it, and matches join
    // through the list indexes alone (docs/decisions/407-search-row-number.md). The index keeps
    // no copy of the text (contentless); only ever asked which rows match.
    up: (db) =>
      engine !== 'sqlite'
        ? Promise.resolve()
        : inTransaction(db, async (trx) => {
            const columns = sql.raw(
              'id, collection, title, summary, excerpt, content, search_text, category, author, author_email, author_role, image_url, image_alt, tags, status, created_at, published_at, updated_at',
            );
            await sql`CREATE TABLE content_next (
              seq integer PRIMARY KEY,
              id text NOT NULL UNIQUE,
              collection text NOT NULL CHECK (collection in ('blogs', 'news', 'resources')),
              title text NOT NULL,
              summary text,
              excerpt text,
              content text NOT NULL,
              search_text text DEFAULT '' NOT NULL,
              category text NOT NULL,
              author text NOT NULL,
              author_email text,
              author_role text,
              image_url text,
              image_alt text,
              tags text DEFAULT '[]' NOT NULL,
              status text DEFAULT 'published' NOT NULL,
              created_at text NOT NULL,
              published_at text NOT NULL,
              updated_at text NOT NULL
            )`.execute(trx);
            await sql`INSERT INTO content_next (seq, ${columns}) SELECT rowid, ${columns} FROM content ORDER BY rowid`.execute(
              trx,
            );
            await sql`DROP TABLE content_fts`.execute(trx);
            await sql`DROP TABLE content`.execute(trx); // its triggers and indexes go with it
            await sql`ALTER TABLE content_next RENAME TO content`.execute(trx);
            await sql`CREATE INDEX content_collection_created_id ON content (collection, created_at, id)`.execute(trx);
            await sql`CREATE INDEX content_collection_category_created_id ON content (collection, category, created_at, id)`.execute(
              trx,
            );
            await sql`CREATE VIRTUAL TABLE content_fts USING fts5(
              title, summary, body, tags,
              content = '', contentless_delete = 1,
              tokenize = 'porter unicode61 remove_diacritics 2'
            )`.execute(trx);
            const fields = (row: 'new' | 'content') =>
              sql.raw(
                `${row}.seq, ${row}.title, coalesce(${row}.summary, '') || ' ' || coalesce(${row}.excerpt, ''), ${row}.search_text, ${row}.tags`,
              );
            await sql`INSERT INTO content_fts (rowid, title, summary, body, tags) SELECT ${fields('content')} FROM content`.execute(
              trx,
            );
            await sql`CREATE TRIGGER content_fts_insert AFTER INSERT ON content BEGIN
              INSERT INTO content_fts (rowid, title, summary, body, tags) VALUES (${fields('new')});
            END`.execute(trx);
            await sql`CREATE TRIGGER content_fts_update AFTER UPDATE OF seq, title, summary, excerpt, search_text, tags ON content BEGIN
              DELETE FROM content_fts WHERE rowid = old.seq;
              INSERT INTO content_fts (rowid, title, summary, body, tags) VALUES (${fields('new')});
            END`.execute(trx);
            await sql`CREATE TRIGGER content_fts_delete AFTER DELETE ON content BEGIN
              DELETE FROM content_fts WHERE rowid = old.seq;
            END`.execute(trx);
          }),
  };
}
