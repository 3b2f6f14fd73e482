import type { Kysely } from 'kysely';
import type { Role } from '~/lib/permissions';
import { staffUserFromRow, type StaffUser } from '~/server/staff/auth.server';
import type { Database } from '~/server/db/schema';

/** The stored account with this email as a signed-in staff member, as the rules see an actor. */
export async function staffUserByEmail(db: Kysely<Database>, email: string): Promise<StaffUser> {
  const row = await db.selectFrom('system_users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  return staffUserFromRow(row, 's');
}

/**
 * A signed-in staff member with `role` who is not stored, for calling the rules directly: "EDITOR
 * Person", editor@example.org. `who` names a second one of the same role.
 */
export function staffAs(role: Role, who: string = role): StaffUser {
  return {
    id: `id-${who}`,
    name: `${who} Person`,
    email: `${who.toLowerCase()}@example.org`,
    role,
    bio: '',
    profilePicture: null,
    sessionId: 's',
  };
}
