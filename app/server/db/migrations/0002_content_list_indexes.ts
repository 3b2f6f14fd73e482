import type { Migration } from 'kysely/migration';
import { inTransaction } from './frozen.ts';

// Migration 0002_content_list_indexes. A migration means the same thing forever: it uses only what this file and
// ./frozen.ts hold, never the live code or schema of today.

export default function migration(): Migration {
  return {
    // Lists are ordered newest first with the id as tie-break; indexes in exactly that order let
    // both engines walk them instead of sorting (deep pages of thousands of items stay fast).
    up: (db) =>
      inTransaction(db, async (trx) => {
        await trx.schema.dropIndex('content_collection_created_at').execute();
        await trx.schema.dropIndex('content_collection_category_created_at').execute();
        await trx.schema
          .createIndex('content_collection_created_id')
          .on('content')
          .columns(['collection', 'created_at', 'id'])
          .execute();
        await trx.schema
          .createIndex('content_collection_category_created_id')
          .on('content')
          .columns(['collection', 'category', 'created_at', 'id'])
          .execute();
      }),
  };
}
