import type { Selectable } from 'kysely';
import type { SystemUserTable } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { newId, nowIso } from '../platform/ids.server.ts';
import { hashPassword } from './passwords.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import { endAllSessions } from './sessions.server.ts';
import { forgetFactorsOf } from './two-factor.server.ts';
import { isCommonPassword } from './common-passwords.server.ts';
import { removeImageIfUnused } from '../media/media.server.ts';
import { staffProfileFromRow, type StaffProfile, type StaffUser } from './auth.server.ts';
import { RuleError } from '../platform/rule-error.server.ts';
import { can } from '../../lib/permissions.ts';
import { USER_MESSAGES, type CreateUserInput, type UpdateUserInput } from '../../lib/users.ts';

// Every rule of spec §5/§6 for user accounts, enforced here whatever the browser sent.

export interface SystemUser extends StaffProfile {
  createdAt: string;
  updatedAt: string;
  updatedBy: string | null;
  lastLogin: string | null;
}

/** A refusal of a user-account rule: a RuleError whose field is one of the user form's. */
export type UserField = 'name' | 'email' | 'role' | 'password' | 'bio' | 'profilePicture';
export class UserRuleError extends RuleError {
  declare readonly field: UserField | undefined;
  constructor(message: string, status: 400 | 403 | 404 | 409, field?: UserField) {
    super(message, status, field);
  }
}

function toUser(row: Selectable<SystemUserTable>): SystemUser {
  return {
    ...staffProfileFromRow(row),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by,
    lastLogin: row.last_login,
  };
}

/** spec §7: newest first by createdAt. */
export async function listUsers(): Promise<SystemUser[]> {
  const rows = await getDb().selectFrom('system_users').selectAll().orderBy('created_at', 'desc').orderBy('id').execute();
  return rows.map(toUser);
}

export async function getUser(id: string): Promise<SystemUser | undefined> {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(id)) return undefined;
  const row = await getDb().selectFrom('system_users').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toUser(row) : undefined;
}

/**
 * spec §5/§6: anyone may edit their own card; only the super admin edits others; nobody but the super
 * admin edits the super admin. Throws the refusal, so routes can ask before reading a form.
 */
export function assertMayEdit(actor: StaffUser, target: SystemUser): void {
  if (target.id === actor.id) return;
  if (target.role === 'SUPER_ADMIN') throw new UserRuleError(USER_MESSAGES.superAdminUntouchable, 403);
  if (!can(actor.role, 'users:manage')) throw new UserRuleError(USER_MESSAGES.updateForbidden, 403);
}

export async function createUser(actor: StaffUser, input: CreateUserInput, ip: string): Promise<SystemUser> {
  if (!can(actor.role, 'users:manage')) throw new UserRuleError(USER_MESSAGES.createForbidden, 403);
  // Nobody can create a second super admin (spec §6: one fixed account).
  if (input.role === 'SUPER_ADMIN') throw new UserRuleError(USER_MESSAGES.invalidRole, 403, 'role');
  if (isCommonPassword(input.password)) throw new UserRuleError(USER_MESSAGES.commonPassword, 400, 'password');
  const db = getDb();
  const existing = await db.selectFrom('system_users').select('id').where('email', '=', input.email).executeTakeFirst();
  if (existing) throw new UserRuleError(USER_MESSAGES.alreadyExists, 409, 'email');
  const now = nowIso();
  const id = newId();
  try {
    await db
      .insertInto('system_users')
      .values({
        id,
        name: input.name,
        email: input.email,
        role: input.role,
        bio: input.bio,
        profile_picture: input.profilePicture || null,
        password_hash: await hashPassword(input.password),
        created_at: now,
        updated_at: now,
        updated_by: actor.email,
      })
      .execute();
  } catch (error) {
    // Two creations racing for one email: the unique index decides.
    if (await db.selectFrom('system_users').select('id').where('email', '=', input.email).executeTakeFirst()) {
      throw new UserRuleError(USER_MESSAGES.alreadyExists, 409, 'email');
    }
    throw error;
  }
  await recordAudit({ actor: actor.email, action: 'user.created', target: input.email, ip, detail: { role: input.role } });
  return (await getUser(id))!;
}

/**
 * Edits a user card. Anyone may edit their own name, bio and picture; only the super admin edits
 * others and changes roles; nobody changes an email, edits the super admin but the super admin, or
 * gives anyone SUPER_ADMIN.
 */
export async function updateUser(actor: StaffUser, id: string, input: UpdateUserInput, ip: string): Promise<SystemUser> {
  const target = await getUser(id);
  if (!target) throw new UserRuleError(USER_MESSAGES.updateFailed, 404);
  assertMayEdit(actor, target);
  const self = target.id === actor.id;
  if (input.email !== undefined && input.email !== target.email)
    throw new UserRuleError(USER_MESSAGES.emailImmutable, 400, 'email');

  let role = target.role;
  if (input.role !== undefined && input.role !== target.role) {
    if (self) throw new UserRuleError(USER_MESSAGES.roleForbidden, 403, 'role');
    if (input.role === 'SUPER_ADMIN') throw new UserRuleError(USER_MESSAGES.invalidRole, 403, 'role');
    role = input.role;
  }
  await getDb()
    .updateTable('system_users')
    .set({
      name: input.name,
      role,
      bio: input.bio,
      profile_picture: input.profilePicture || null,
      updated_at: nowIso(),
      updated_by: actor.email,
    })
    .where('id', '=', id)
    .execute();
  if (target.profilePicture !== (input.profilePicture || null)) await removeImageIfUnused(target.profilePicture);
  const detail: Record<string, unknown> = {};
  if (role !== target.role) detail.role = { from: target.role, to: role };
  if (input.name !== target.name) detail.name = { from: target.name, to: input.name };
  if (input.bio !== target.bio) detail.bio = 'changed';
  if ((input.profilePicture || null) !== target.profilePicture) detail.profilePicture = 'changed';
  await recordAudit({ actor: actor.email, action: 'user.updated', target: target.email, ip, detail });
  return (await getUser(id))!;
}

export async function deleteUser(actor: StaffUser, id: string, ip: string): Promise<SystemUser> {
  if (!can(actor.role, 'users:manage')) throw new UserRuleError(USER_MESSAGES.deleteForbidden, 403);
  const target = await getUser(id);
  if (!target) throw new UserRuleError(USER_MESSAGES.deleteFailed, 404);
  if (target.id === actor.id) throw new UserRuleError(USER_MESSAGES.deleteSelf, 403);
  if (target.role === 'SUPER_ADMIN') throw new UserRuleError(USER_MESSAGES.deleteSuperAdmin, 403);
  const db = getDb();
  await db.deleteFrom('system_users').where('id', '=', id).execute();
  await endAllSessions(id, 'account-removed');
  await forgetFactorsOf(id);
  await removeImageIfUnused(target.profilePicture);
  await recordAudit({
    actor: actor.email,
    action: 'user.deleted',
    target: target.email,
    ip,
    detail: { name: target.name, role: target.role },
  });
  return target;
}

/** Sets a new password and ends every session of the user (spec: password change signs out everywhere). */
export async function setPassword(userId: string, password: string): Promise<void> {
  if (isCommonPassword(password)) throw new UserRuleError(USER_MESSAGES.commonPassword, 400, 'password');
  await getDb()
    .updateTable('system_users')
    .set({ password_hash: await hashPassword(password), updated_at: nowIso() })
    .where('id', '=', userId)
    .execute();
  await endAllSessions(userId, 'password-changed');
}
