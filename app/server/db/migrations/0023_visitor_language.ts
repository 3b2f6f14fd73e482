import type { Migration } from 'kysely/migration';
import { inTransaction, text, type Db } from './frozen.ts';

// Migration 0023_visitor_language. A migration means the same thing forever: it uses only what
// this file and ./frozen.ts hold, never the live code or schema of today.

export default function migration(): Migration {
  return {
    // The language of the page a registration or a newsletter subscription was made on (en, lg or
    // sw), so the mails about it (a place, the waiting list, a reminder, a cancelled event; the link to
    // confirm a subscription) are written in it and link to its pages (decision 050). Those stored
    // before were all mailed in English, and stay so.
    up: (db) =>
      inTransaction(db, async (trx: Db) => {
        await trx.schema
          .alterTable('event_registrations')
          .addColumn('language', text, (c) => c.notNull().defaultTo('en'))
          .execute();
        await trx.schema
          .alterTable('newsletter_subscribers')
          .addColumn('language', text, (c) => c.notNull().defaultTo('en'))
          .execute();
        // An inbox message or application: staff see which pages it came from, to answer in that
        // language. Unknown (null) for those stored before: they may have come from any.
        await trx.schema.alterTable('contacts').addColumn('language', text).execute();
      }),
  };
}
