import { randomUUID } from 'node:crypto';
import type { Migration } from 'kysely/migration';
import { chunks, inTransaction, parseTags, text } from './frozen.ts';

// Migration 0009_revisions. A migration means the same thing forever: it uses only what this file and
// ./frozen.ts hold, never the live code or schema of today.

export default function migration(): Migration {
  return {
    // Issue 13: revision history and autosave slots (docs/decisions/016-revisions-and-autosave.md).
    // Each story and news item starts its history with the version it has now, so the first edit
    // after this release can still be compared with, and undone to, what was there before.
    up: (db) =>
      inTransaction(db, async (trx) => {
        await trx.schema
          .createTable('content_revisions')
          .addColumn('id', text, (c) => c.primaryKey())
          .addColumn('content_id', text, (c) => c.notNull().references('content.id').onDelete('cascade'))
          .addColumn('number', 'integer', (c) => c.notNull())
          .addColumn('kind', text, (c) => c.notNull())
          .addColumn('actor_email', text)
          .addColumn('actor_name', text)
          .addColumn('snapshot', text, (c) => c.notNull())
          .addColumn('created_at', text, (c) => c.notNull())
          .execute();
        // Also the guard that two saves of one item can never take the same number.
        await trx.schema
          .createIndex('content_revisions_content_number')
          .on('content_revisions')
          .columns(['content_id', 'number'])
          .unique()
          .execute();

        await trx.schema
          .createTable('content_autosaves')
          .addColumn('staff_email', text, (c) => c.notNull())
          .addColumn('slot', text, (c) => c.notNull())
          .addColumn('content_id', text, (c) => c.references('content.id').onDelete('cascade'))
          .addColumn('form_values', text, (c) => c.notNull())
          .addColumn('saved_at', text, (c) => c.notNull())
          .addPrimaryKeyConstraint('content_autosaves_pk', ['staff_email', 'slot'])
          .execute();
        await trx.schema.createIndex('content_autosaves_saved_at').on('content_autosaves').column('saved_at').execute();
        await trx.schema.createIndex('content_autosaves_content_id').on('content_autosaves').column('content_id').execute();

        const ids: { id: string }[] = await trx
          .selectFrom('content')
          .select('id')
          .where('collection', 'in', ['blogs', 'news'])
          .orderBy('id')
          .execute();
        for (const batch of chunks(
          ids.map((row) => row.id),
          100,
        )) {
          const rows = await trx.selectFrom('content').selectAll().where('id', 'in', batch).execute();
          await trx
            .insertInto('content_revisions')
            .values(
              rows.map((row) => {
                // Never edited: its author published it then. Edited: by someone history did not record.
                const published = row.updated_at === row.published_at;
                return {
                  id: randomUUID(),
                  content_id: row.id,
                  number: 1,
                  kind: published ? 'published' : 'updated',
                  actor_email: published ? row.author_email : null,
                  actor_name: published ? row.author : null,
                  snapshot: JSON.stringify({
                    title: row.title,
                    category: row.category,
                    tags: parseTags(row.tags),
                    summary: (row.collection === 'blogs' ? row.excerpt : row.summary) ?? null,
                    imageUrl: row.image_url ?? null,
                    imageAlt: row.image_alt ?? '',
                    content: row.content,
                    status: row.status,
                    scheduledAt: null,
                  }),
                  created_at: row.updated_at,
                };
              }),
            )
            .execute();
        }
      }),
  };
}
