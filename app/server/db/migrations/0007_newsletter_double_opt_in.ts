import type { Migration } from 'kysely/migration';
import { inTransaction, text } from './frozen.ts';

// Migration 0007_newsletter_double_opt_in. A migration means the same thing forever: it uses only what this file and
// ./frozen.ts hold, never the live code or schema of today.

export default function migration(): Migration {
  return {
    // Issue 12: double opt-in, unsubscribe and sending (docs/decisions/505-newsletter.md). Addresses
    // stored before never confirmed: they become 'pending' with no link out (confirm_sent_at null),
    // so nothing is sent to them and nothing removes them until staff ask them to confirm.
    up: (db) =>
      inTransaction(db, async (trx) => {
        await trx.schema
          .alterTable('newsletter_subscribers')
          .addColumn('status', text, (c) => c.notNull().defaultTo('pending'))
          .execute();
        for (const column of ['confirmed_at', 'unsubscribed_at', 'confirm_token_hash', 'confirm_sent_at'])
          await trx.schema.alterTable('newsletter_subscribers').addColumn(column, text).execute();
        await trx.schema
          .createIndex('newsletter_subscribers_confirm_token')
          .on('newsletter_subscribers')
          .column('confirm_token_hash')
          .unique()
          .execute();
        await trx.schema
          .createIndex('newsletter_subscribers_created_at_id')
          .on('newsletter_subscribers')
          .columns(['created_at', 'id'])
          .execute();
        await trx.schema
          .createIndex('newsletter_subscribers_status_created_at_id')
          .on('newsletter_subscribers')
          .columns(['status', 'created_at', 'id'])
          .execute();

        await trx.schema
          .createTable('newsletter_sends')
          .addColumn('id', text, (c) => c.primaryKey())
          .addColumn('content_id', text, (c) => c.notNull())
          .addColumn('subject', text, (c) => c.notNull())
          .addColumn('snapshot', text, (c) => c.notNull())
          .addColumn('status', text, (c) => c.notNull().defaultTo('sending'))
          .addColumn('recipients', 'integer', (c) => c.notNull())
          .addColumn('batch_job_id', text)
          .addColumn('created_by', text, (c) => c.notNull())
          .addColumn('created_at', text, (c) => c.notNull())
          .addColumn('finished_at', text)
          .execute();
        await trx.schema
          .createIndex('newsletter_sends_content_id')
          .on('newsletter_sends')
          .columns(['content_id', 'created_at'])
          .execute();

        // One row per item and subscriber: the key that keeps anyone from receiving an item twice.
        await trx.schema
          .createTable('newsletter_deliveries')
          .addColumn('content_id', text, (c) => c.notNull())
          .addColumn('subscriber_id', text, (c) => c.notNull().references('newsletter_subscribers.id').onDelete('cascade'))
          .addColumn('send_id', text, (c) => c.notNull().references('newsletter_sends.id').onDelete('cascade'))
          .addColumn('status', text, (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('error', text)
          .addColumn('updated_at', text, (c) => c.notNull())
          .addPrimaryKeyConstraint('newsletter_deliveries_pk', ['content_id', 'subscriber_id'])
          .execute();
        await trx.schema
          .createIndex('newsletter_deliveries_send_status')
          .on('newsletter_deliveries')
          .columns(['send_id', 'status'])
          .execute();
        await trx.schema
          .createIndex('newsletter_deliveries_subscriber')
          .on('newsletter_deliveries')
          .column('subscriber_id')
          .execute();

        await trx.schema.alterTable('mail_outbox').addColumn('headers', text).execute();
      }),
  };
}
