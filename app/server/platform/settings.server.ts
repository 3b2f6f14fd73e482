import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { nowIso } from './ids.server.ts';

export const SETTING_KEYS = {
  superAdminEmail: 'super_admin_email',
  founderEmail: 'founder_email',
  demoSeededAt: 'demo_seeded_at',
} as const;

export async function readSetting<T>(db: Kysely<Database>, key: string): Promise<T | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row ? (JSON.parse(row.value) as T) : undefined;
}

export async function writeSetting(db: Kysely<Database>, key: string, value: unknown): Promise<void> {
  const row = { key, value: JSON.stringify(value), updated_at: nowIso() };
  await db
    .insertInto('settings')
    .values(row)
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: row.value, updated_at: row.updated_at }))
    .execute();
}
