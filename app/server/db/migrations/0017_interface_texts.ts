import type { Migration } from 'kysely/migration';
import { inTransaction, text } from './frozen.ts';

// Migration 0017_interface_texts. A migration means the same thing forever: it uses only what this file
// and ./frozen.ts hold, never the live code or schema of today.

export default function migration(): Migration {
  return {
    // Issue 26 item 3: the interface's words as staff corrected them on the Translations screen
    // (docs/decisions/032-translations-screen.md). One row per language and key; a key without a row
    // shows the built-in catalogue's text. `source_text` is the English the text was written against.
    up: (db) =>
      inTransaction(db, async (trx) => {
        await trx.schema
          .createTable('interface_texts')
          .addColumn('language', text, (c) => c.notNull())
          .addColumn('key', text, (c) => c.notNull())
          .addColumn('text', text, (c) => c.notNull())
          .addColumn('source_text', text, (c) => c.notNull())
          .addColumn('updated_by', text)
          .addColumn('updated_at', text, (c) => c.notNull())
          .addPrimaryKeyConstraint('interface_texts_pk', ['language', 'key'])
          .execute();
      }),
  };
}
