import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { inTransaction, text, type Db } from './frozen.ts';

// Migration 0022_registration_phone_key. A migration means the same thing forever: it uses only what
// this file and ./frozen.ts hold, never the live code or schema of today.

/** The phone number's digits, Uganda's +256 as a leading 0 (the rule of 2026-11; lib/events.ts `phoneKey`). */
function keyOf(phone: string): string | null {
  const digits = phone.replace(/\D/g, '').replace(/^00/, '');
  if (!digits) return null;
  return digits.startsWith('256') && digits.length === 12 ? `0${digits.slice(3)}` : digits;
}

export default function migration(): Migration {
  return {
    // An event registration given a phone number and no email address was stored again each time it
    // was sent, so a double tap took two places. Such a registration now keeps its number as a key,
    // one live registration per number and event, as 0014 did for addresses. Registrations stored
    // before get their key in order; a later live duplicate of a number keeps none (it stays as it is).
    up: (db) =>
      inTransaction(db, async (trx: Db) => {
        await trx.schema.alterTable('event_registrations').addColumn('phone_key', text).execute();
        const rows = await trx
          .selectFrom('event_registrations')
          .select(['id', 'event_id', 'phone'])
          .where('email', 'is', null)
          .where('phone', 'is not', null)
          .where('status', '<>', 'cancelled')
          .orderBy('seq')
          .execute();
        const seen = new Set<string>();
        for (const row of rows as { id: string; event_id: string; phone: string }[]) {
          const key = keyOf(row.phone);
          if (!key || seen.has(`${row.event_id} ${key}`)) continue;
          seen.add(`${row.event_id} ${key}`);
          await trx.updateTable('event_registrations').set({ phone_key: key }).where('id', '=', row.id).execute();
        }
        await sql`CREATE UNIQUE INDEX event_registrations_phone ON event_registrations (event_id, phone_key) WHERE phone_key IS NOT NULL AND status <> 'cancelled'`.execute(
          trx,
        );
      }),
  };
}
