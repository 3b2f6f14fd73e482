import type { Migration } from 'kysely/migration';
import { inTransaction, text } from './frozen.ts';

// Migration 0015_analytics. A migration means the same thing forever: it uses only what this file and
// ./frozen.ts hold, never the live code or schema of today.

export default function migration(): Migration {
  return {
    // Issue 28: privacy-first visit counts (docs/decisions/029-privacy-first-visit-counts.md).
    up: (db) =>
      inTransaction(db, async (trx) => {
        // One row per UTC day, dimension and value: views and visits, added to by every process's
        // batched writes; `visitors` stays null until the day is over and the roll-up job fills it in.
        await trx.schema
          .createTable('analytics_daily')
          .addColumn('day', text, (c) => c.notNull())
          .addColumn('dimension', text, (c) => c.notNull())
          .addColumn('value', text, (c) => c.notNull())
          .addColumn('item_id', text)
          .addColumn('views', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('visits', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('visitors', 'bigint')
          .addPrimaryKeyConstraint('analytics_daily_pk', ['day', 'dimension', 'value'])
          .execute();
        await trx.schema
          .createIndex('analytics_daily_dimension_day')
          .on('analytics_daily')
          .columns(['dimension', 'day'])
          .execute();
        await trx.schema.createIndex('analytics_daily_item_day').on('analytics_daily').columns(['item_id', 'day']).execute();
        // Each finished month's sums of its daily rows (made by the roll-up job), so a year's figures
        // read about twelve rows per value instead of 365.
        await trx.schema
          .createTable('analytics_monthly')
          .addColumn('month', text, (c) => c.notNull())
          .addColumn('dimension', text, (c) => c.notNull())
          .addColumn('value', text, (c) => c.notNull())
          .addColumn('item_id', text)
          .addColumn('views', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('visits', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('visitors', 'bigint')
          .addPrimaryKeyConstraint('analytics_monthly_pk', ['month', 'dimension', 'value'])
          .execute();
        await trx.schema
          .createIndex('analytics_monthly_dimension_month')
          .on('analytics_monthly')
          .columns(['dimension', 'month', 'value', 'item_id', 'views', 'visits', 'visitors'])
          .execute();
        await trx.schema
          .createIndex('analytics_monthly_item_month')
          .on('analytics_monthly')
          .columns(['item_id', 'month'])
          .execute();
        // The day's visitor marks: one row per day, visitor hash and scope ('' the whole site, or an
        // item's id), for counting unique visitors. Deleted after 48 hours by the roll-up job.
        await trx.schema
          .createTable('analytics_recent')
          .addColumn('day', text, (c) => c.notNull())
          .addColumn('visitor', text, (c) => c.notNull())
          .addColumn('scope', text, (c) => c.notNull())
          .addPrimaryKeyConstraint('analytics_recent_pk', ['day', 'scope', 'visitor'])
          .execute();
        // An EDITOR's own items, looked up by the screen.
        await trx.schema.createIndex('content_author_email').on('content').column('author_email').execute();
        // Today's random salt, shared by every process and instance; deleted when the day is over.
        await trx.schema
          .createTable('analytics_salts')
          .addColumn('day', text, (c) => c.primaryKey())
          .addColumn('salt', text, (c) => c.notNull())
          .execute();
      }),
  };
}
