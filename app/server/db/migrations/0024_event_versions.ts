import type { Migration } from 'kysely/migration';
import { inTransaction, text, type Db } from './frozen.ts';

// Migration 0024_event_versions. A migration means the same thing forever: it uses only what this
// file and ./frozen.ts hold, never the live code or schema of today.

export default function migration(): Migration {
  return {
    // An event's Luganda and Swahili versions (decision 051): its own title, summary, description,
    // and, where they need words of their own, place and picture description; drafted and published
    // on their own, as a service's versions are. The times, places, access and registrations stay
    // the event's.
    up: (db) =>
      inTransaction(db, async (trx: Db) => {
        await trx.schema
          .createTable('event_translations')
          .addColumn('event_id', text, (c) => c.notNull())
          .addColumn('language', text, (c) => c.notNull())
          .addColumn('title', text, (c) => c.notNull())
          .addColumn('summary', text, (c) => c.notNull())
          .addColumn('description', text, (c) => c.notNull())
          // Empty: the event's own.
          .addColumn('place', text, (c) => c.notNull().defaultTo(''))
          .addColumn('image_alt', text, (c) => c.notNull().defaultTo(''))
          // 'draft' | 'published'
          .addColumn('status', text, (c) => c.notNull().defaultTo('draft'))
          .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('updated_by', text)
          .addColumn('created_at', text, (c) => c.notNull())
          .addColumn('updated_at', text, (c) => c.notNull())
          .addColumn('published_at', text)
          .addPrimaryKeyConstraint('event_translations_pk', ['event_id', 'language'])
          .execute();
      }),
  };
}
