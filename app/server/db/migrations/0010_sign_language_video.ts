import type { Migration } from 'kysely/migration';
import { inTransaction, text } from './frozen.ts';

// Migration 0010_sign_language_video. A migration means the same thing forever: it uses only what this file and
// ./frozen.ts hold, never the live code or schema of today.

export default function migration(): Migration {
  return {
    // Issue 14: sign-language videos (docs/decisions/020-sign-language-video.md). Items keep a
    // pointer to theirs; nothing stored so far has one.
    up: (db) =>
      inTransaction(db, async (trx) => {
        await trx.schema
          .createTable('videos')
          .addColumn('id', text, (c) => c.primaryKey())
          .addColumn('status', text, (c) => c.notNull())
          .addColumn('original_name', text, (c) => c.notNull())
          .addColumn('size_bytes', 'integer', (c) => c.notNull())
          .addColumn('received_bytes', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('uploaded_by', text, (c) => c.notNull())
          .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('error', text)
          .addColumn('duration_ms', 'integer')
          .addColumn('width', 'integer')
          .addColumn('height', 'integer')
          .addColumn('rendition_360_key', text)
          .addColumn('rendition_360_bytes', 'integer')
          .addColumn('rendition_240_key', text)
          .addColumn('rendition_240_bytes', 'integer')
          .addColumn('poster_key', text)
          .addColumn('captions_key', text)
          .addColumn('captions_vtt', text)
          .addColumn('transcript', text, (c) => c.notNull().defaultTo(''))
          .addColumn('created_at', text, (c) => c.notNull())
          .addColumn('updated_at', text, (c) => c.notNull())
          .execute();
        // The clean-up's question: which uploads are old and in which state.
        await trx.schema.createIndex('videos_status_updated_at').on('videos').columns(['status', 'updated_at']).execute();
        await trx.schema.alterTable('content').addColumn('video_id', text).execute();
        await trx.schema.createIndex('content_video_id').on('content').column('video_id').execute();
      }),
  };
}
