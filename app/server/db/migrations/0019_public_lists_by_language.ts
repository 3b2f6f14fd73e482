import type { Migration } from 'kysely/migration';
import { inTransaction } from './frozen.ts';

// Migration 0019_public_lists_by_language. A migration means the same thing forever: it uses only what
// this file and ./frozen.ts hold, never the live code or schema of today.

export default function migration(): Migration {
  return {
    // Issue 29: every public list, count and category menu reads English items only since issue 26
    // (`language = 'en'`), and `language` was not in the lists' indexes. SQLite then read each
    // published row of the collection to check it, and since the column was added after the body,
    // that meant walking each body's overflow pages: with 5,000 stories the categories took 19 ms and
    // a list page 15 ms, and an uncached /blog fell from 172 to 15 requests a second. With the
    // language in the index the list, its count and its categories walk the index alone again.
    up: (db) =>
      inTransaction(db, async (trx) => {
        await trx.schema.dropIndex('content_public_created_id').execute();
        await trx.schema.dropIndex('content_public_category_created_id').execute();
        await trx.schema
          .createIndex('content_public_created_id')
          .on('content')
          .columns(['collection', 'status', 'language', 'created_at', 'id'])
          .execute();
        await trx.schema
          .createIndex('content_public_category_created_id')
          .on('content')
          .columns(['collection', 'status', 'language', 'category', 'created_at', 'id'])
          .execute();
      }),
  };
}
