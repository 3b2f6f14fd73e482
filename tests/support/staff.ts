import type { Kysely } from 'kysely';
import type { StaffUser } from '~/server/auth.server';
import type { Database } from '~/server/db/schema';
import { roleOf } from '~/lib/permissions';

/** The stored account with this email as a signed-in staff member, as the rules see an actor. */
export async function staffUserByEmail(db: Kysely<Database>, email: string): Promise<StaffUser> {
  const row = await db.selectFrom('system_users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  const role = roleOf(row.role);
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role,
    bio: row.bio,
    profilePicture: row.profile_picture,
    isSuperAdmin: role === 'SUPER_ADMIN',
    sessionId: 's',
  };
}
