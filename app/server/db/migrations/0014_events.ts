import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { inTransaction, text } from './frozen.ts';

// Migration 0014_events. A migration means the same thing forever: it uses only what this file and
// ./frozen.ts hold, never the live code or schema of today.

export default function migration(): Migration {
  return {
    // Issue 27, parts 2-5: trainings and events people register for (docs/decisions/028-events.md).
    up: (db) =>
      inTransaction(db, async (trx) => {
        // One event. `taken` counts the confirmed places and is only ever changed by a conditional
        // UPDATE (taken < capacity), so it never passes `capacity` however many register at once;
        // `next_seq` numbers the registrations in the order they arrived (the waiting list's order).
        await trx.schema
          .createTable('events')
          .addColumn('id', text, (c) => c.primaryKey())
          .addColumn('slug', text, (c) => c.notNull().unique())
          .addColumn('title', text, (c) => c.notNull())
          .addColumn('summary', text, (c) => c.notNull())
          .addColumn('description', text, (c) => c.notNull())
          .addColumn('starts_at', text, (c) => c.notNull())
          .addColumn('ends_at', text, (c) => c.notNull())
          .addColumn('place', text, (c) => c.notNull().defaultTo(''))
          .addColumn('online_url', text, (c) => c.notNull().defaultTo(''))
          .addColumn('capacity', 'integer', (c) => c.notNull())
          .addColumn('taken', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_seq', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('sign_language', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('captioning', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('step_free', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('image_url', text)
          .addColumn('image_alt', text)
          .addColumn('registration_open', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('registration_deadline', text)
          // 'draft' | 'published' | 'cancelled'
          .addColumn('status', text, (c) => c.notNull().defaultTo('draft'))
          .addColumn('demo', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('author_email', text)
          .addColumn('created_at', text, (c) => c.notNull())
          .addColumn('updated_at', text, (c) => c.notNull())
          .addColumn('updated_by', text)
          .execute();
        await trx.schema.createIndex('events_status_starts').on('events').columns(['status', 'starts_at']).execute();
        // One person's registration. Only the SHA-256 of the cancellation token is kept; `cancel_token_hash`
        // is cleared when used, so a link works once.
        await trx.schema
          .createTable('event_registrations')
          .addColumn('id', text, (c) => c.primaryKey())
          .addColumn('event_id', text, (c) => c.notNull())
          .addColumn('seq', 'integer', (c) => c.notNull())
          .addColumn('name', text, (c) => c.notNull())
          .addColumn('email', text)
          .addColumn('phone', text)
          .addColumn('access_needs', text, (c) => c.notNull().defaultTo(''))
          // 'confirmed' | 'waiting' | 'cancelled'
          .addColumn('status', text, (c) => c.notNull())
          .addColumn('cancel_token_hash', text)
          .addColumn('attended', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('reminded_at', text)
          .addColumn('created_at', text, (c) => c.notNull())
          .addColumn('updated_at', text, (c) => c.notNull())
          .execute();
        await trx.schema
          .createIndex('event_registrations_event_seq')
          .on('event_registrations')
          .columns(['event_id', 'seq'])
          .unique()
          .execute();
        await trx.schema.createIndex('event_registrations_token').on('event_registrations').column('cancel_token_hash').execute();
        // One live registration per address and event (a second post mails the first's details again).
        await sql`CREATE UNIQUE INDEX event_registrations_email ON event_registrations (event_id, email) WHERE email IS NOT NULL AND status <> 'cancelled'`.execute(
          trx,
        );
        // A mail may carry files (an event's .ics): JSON [{ filename, contentType, content }].
        await trx.schema.alterTable('mail_outbox').addColumn('attachments', text).execute();
      }),
  };
}
