import type { Migration } from 'kysely/migration';
import { inTransaction, text } from './frozen.ts';

// Migration 0013_applications. A migration means the same thing forever: it uses only what this file and
// ./frozen.ts hold, never the live code or schema of today.

export default function migration(): Migration {
  return {
    // Issue 27 part 1: volunteer, partnership, speaker and design-help applications are inbox
    // messages of a kind (docs/decisions/027-applications.md). Every row so far is a contact
    // message. An application keeps its answers as JSON text, and the id of the confirmation mail
    // sent to the applicant, so deleting the application deletes that mail too.
    up: (db) =>
      inTransaction(db, async (trx) => {
        await trx.schema
          .alterTable('contacts')
          .addColumn('kind', text, (c) => c.notNull().defaultTo('message'))
          .execute();
        await trx.schema.alterTable('contacts').addColumn('answers', text).execute();
        await trx.schema.alterTable('contacts').addColumn('confirmation_mail_id', text).execute();
        // The inbox filtered by kind, and by kind and status, pages by (created_at, id) on these.
        await trx.schema
          .createIndex('contacts_kind_created_at_id')
          .on('contacts')
          .columns(['kind', 'created_at', 'id'])
          .execute();
        await trx.schema
          .createIndex('contacts_kind_status_created_at_id')
          .on('contacts')
          .columns(['kind', 'status', 'created_at', 'id'])
          .execute();
      }),
  };
}
