import type { Migration } from 'kysely/migration';
import { inTransaction, text, type Db } from './frozen.ts';

// Migration 0023_registration_language. A migration means the same thing forever: it uses only what
// this file and ./frozen.ts hold, never the live code or schema of today.

export default function migration(): Migration {
  return {
    // The language of the page a registration was made on (en, lg or sw), so the mails about it (its
    // place, the waiting list, a reminder, a cancelled event) are written in it and link to its pages.
    // Registrations stored before were all mailed in English, and stay so.
    up: (db) =>
      inTransaction(db, async (trx: Db) => {
        await trx.schema
          .alterTable('event_registrations')
          .addColumn('language', text, (c) => c.notNull().defaultTo('en'))
          .execute();
      }),
  };
}
