import type { Kysely } from 'kysely';
import { staffUserFromRow, type StaffUser } from '~/server/auth.server';
import type { Database } from '~/server/db/schema';

/** The stored account with this email as a signed-in staff member, as the rules see an actor. */
export async function staffUserByEmail(db: Kysely<Database>, email: string): Promise<StaffUser> {
  const row = await db.selectFrom('system_users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  return staffUserFromRow(row, 's');
}
