import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { inTransaction } from './frozen.ts';

// Migration 0018_search_per_language. A migration means the same thing forever: it uses only what
// this file and ./frozen.ts hold, never the live code or schema of today.

export default function migration(engine: 'sqlite' | 'postgres'): Migration {
  return {
    // Issue 26, item 4: search finds each version in its own language. PostgreSQL's generated tsvector
    // used the 'english' configuration for every row, which stems Luganda and Swahili words as if they
    // were English and drops English stop words from them; a row in another language is now indexed
    // with 'simple' (lower-cased words, no stemming, no stop words), since PostgreSQL ships no
    // configuration for either language. SQLite's FTS5 table already indexes every row the same way
    // (unicode61, no stemming): nothing to change there.
    up: async (db) => {
      if (engine !== 'postgres') return;
      await inTransaction(db, async (trx) => {
        await sql`DROP INDEX IF EXISTS content_search`.execute(trx);
        await sql`ALTER TABLE content DROP COLUMN search`.execute(trx);
        await sql`ALTER TABLE content ADD COLUMN search tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector(CASE WHEN language = 'en' THEN 'english'::regconfig ELSE 'simple'::regconfig END, title), 'A') ||
          setweight(to_tsvector(CASE WHEN language = 'en' THEN 'english'::regconfig ELSE 'simple'::regconfig END,
            coalesce(summary, '') || ' ' || coalesce(excerpt, '') || ' ' || tags), 'B') ||
          setweight(to_tsvector(CASE WHEN language = 'en' THEN 'english'::regconfig ELSE 'simple'::regconfig END, search_text), 'C')
        ) STORED`.execute(trx);
        await sql`CREATE INDEX content_search ON content USING GIN (search)`.execute(trx);
      });
    },
  };
}
