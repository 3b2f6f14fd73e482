import type { Migration } from 'kysely/migration';
import { inTransaction, text } from './frozen.ts';

// Migration 0011_services_video. A migration means the same thing forever: it uses only what this file and
// ./frozen.ts hold, never the live code or schema of today.

export default function migration(): Migration {
  return {
    // Issue 14: a service may carry a sign-language video too, as a story does (decision 020, Services).
    up: (db) =>
      inTransaction(db, async (trx) => {
        await trx.schema.alterTable('services').addColumn('video_id', text).execute();
        await trx.schema.createIndex('services_video_id').on('services').column('video_id').execute();
      }),
  };
}
