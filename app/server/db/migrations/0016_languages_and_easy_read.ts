import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { inTransaction, text } from './frozen.ts';

// Migration 0016_languages_and_easy_read. A migration means the same thing forever: it uses only
// what this file and ./frozen.ts hold, never the live code or schema of today.

export default function migration(): Migration {
  return {
    // Issue 26, items 4 and 6: a story, news item or resource in Luganda or Swahili is a content row
    // of its own (its own title, body, status, revisions and video), pointing at the English item it
    // translates; every item and every version can carry an easy-read text. A service's versions are
    // rows of `service_translations`, published on their own.
    up: (db) =>
      inTransaction(db, async (trx) => {
        await trx.schema
          .alterTable('content')
          .addColumn('language', text, (c) => c.notNull().defaultTo('en'))
          .execute();
        await trx.schema.alterTable('content').addColumn('translation_of', text).execute();
        await trx.schema.alterTable('content').addColumn('easy_read', text).execute();
        // One version per language of an item.
        await sql`CREATE UNIQUE INDEX content_translation_language ON content (translation_of, language) WHERE translation_of IS NOT NULL`.execute(
          trx,
        );
        await trx.schema.alterTable('services').addColumn('easy_read', text).execute();
        await trx.schema
          .createTable('service_translations')
          .addColumn('service_id', text, (c) => c.notNull())
          .addColumn('language', text, (c) => c.notNull())
          .addColumn('title', text, (c) => c.notNull())
          .addColumn('description', text, (c) => c.notNull())
          // JSON array of strings, as services.features.
          .addColumn('features', text, (c) => c.notNull().defaultTo('[]'))
          .addColumn('easy_read', text)
          // 'draft' | 'published'
          .addColumn('status', text, (c) => c.notNull().defaultTo('draft'))
          .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('updated_by', text)
          .addColumn('created_at', text, (c) => c.notNull())
          .addColumn('updated_at', text, (c) => c.notNull())
          .addColumn('published_at', text)
          .addPrimaryKeyConstraint('service_translations_pk', ['service_id', 'language'])
          .execute();
      }),
  };
}
