import type { Migration } from 'kysely/migration';
import { inTransaction, text } from './frozen.ts';

// Migration 0004_jobs_and_limits. A migration means the same thing forever: it uses only what this file and
// ./frozen.ts hold, never the live code or schema of today.

export default function migration(): Migration {
  return {
    // Background work as rows claimed once across processes (mail first; clean-ups and scheduled
    // publishing later), and rate-limit counters that every process shares, reserved atomically.
    up: (db) =>
      inTransaction(db, async (trx) => {
        await trx.schema
          .createTable('jobs')
          .addColumn('id', text, (c) => c.primaryKey())
          .addColumn('kind', text, (c) => c.notNull())
          .addColumn('payload', text, (c) => c.notNull().defaultTo('{}'))
          // queued → running → done | failed (failed after its last attempt)
          .addColumn('status', text, (c) => c.notNull().defaultTo('queued'))
          .addColumn('run_at', text, (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(5))
          .addColumn('locked_at', text)
          .addColumn('locked_by', text)
          .addColumn('last_error', text)
          .addColumn('created_at', text, (c) => c.notNull())
          .addColumn('finished_at', text)
          .execute();
        await trx.schema.createIndex('jobs_status_run_at').on('jobs').columns(['status', 'run_at']).execute();

        await trx.schema
          .createTable('rate_limits')
          .addColumn('key', text, (c) => c.primaryKey())
          .addColumn('hits', 'integer', (c) => c.notNull())
          .addColumn('window_started_at', text, (c) => c.notNull())
          .execute();
        await trx.schema.createIndex('rate_limits_window').on('rate_limits').column('window_started_at').execute();

        // Mail that carries a secret (a reset link) loses its body once sent; what was sent stays.
        await trx.schema
          .alterTable('mail_outbox')
          .addColumn('carries_secret', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await trx.schema
          .alterTable('mail_outbox')
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await trx
          .updateTable('mail_outbox')
          .set({ text_body: '', html_body: null, carries_secret: 1 })
          .where('text_body', 'like', '%/admin/reset-password/%')
          .execute();
      }),
  };
}
