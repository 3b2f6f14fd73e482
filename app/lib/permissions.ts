// spec §6: the one table of roles, their permissions and their dashboard sections. The server checks
// every loader and action against it (app/server/auth.server.ts); the UI asks it only to hide what a
// role cannot use.

export const ROLES = ['SUPER_ADMIN', 'ADMIN', 'EDITOR', 'AUTHOR', 'VIEWER'] as const;
export type Role = (typeof ROLES)[number];
/** Roles anyone can be given. SUPER_ADMIN belongs to the one fixed account only. */
export const ASSIGNABLE_ROLES = ['ADMIN', 'EDITOR', 'AUTHOR', 'VIEWER'] as const satisfies readonly Role[];
/** spec §6: default role in the user form and fallback for a user without a stored role. */
export const DEFAULT_ROLE: Role = 'VIEWER';

export type Permission =
  | 'users:manage' // create, edit others, delete, send password resets, read the audit log
  | 'content:create'
  | 'content:edit'
  | 'content:delete'
  | 'content:view';

export type Section = 'userManagement' | 'contentManagement' | 'addNews' | 'addBlog' | 'roleInfo' | 'auditLog';

export interface RoleInfo {
  label: string;
  /** The permission names as the spec lists them. */
  specPermissions: string[];
  permissions: Permission[];
  sections: Section[];
  description: string;
  /** Tailwind classes for the role badge (AA contrast). */
  badge: string;
}

const ALL: Permission[] = ['users:manage', 'content:create', 'content:edit', 'content:delete', 'content:view'];

export const ROLE_INFO: Record<Role, RoleInfo> = {
  SUPER_ADMIN: {
    label: 'Super Admin',
    specPermissions: ['all'],
    permissions: ALL,
    sections: ['userManagement', 'contentManagement', 'addNews', 'addBlog', 'roleInfo', 'auditLog'],
    description: 'Full system access and user management',
    badge: 'bg-purple-100 text-purple-900 ring-purple-300',
  },
  ADMIN: {
    label: 'Admin',
    specPermissions: ['content_create', 'content_edit', 'content_delete', 'content_view'],
    permissions: ['content:create', 'content:edit', 'content:delete', 'content:view'],
    sections: ['contentManagement', 'addNews', 'addBlog'],
    description: 'Manages all content but not users',
    badge: 'bg-red-100 text-red-900 ring-red-300',
  },
  EDITOR: {
    label: 'Editor',
    specPermissions: ['content_create', 'content_edit', 'content_view'],
    permissions: ['content:create', 'content:edit', 'content:view'],
    sections: ['contentManagement', 'addNews', 'addBlog'],
    description: 'Creates and edits news stories and blog posts',
    badge: 'bg-blue-100 text-blue-900 ring-blue-300',
  },
  AUTHOR: {
    label: 'Author',
    specPermissions: ['content_create', 'content_view'],
    permissions: ['content:create', 'content:view'],
    sections: ['addNews', 'addBlog'],
    description: 'Writes new news stories and blog posts',
    badge: 'bg-emerald-100 text-emerald-900 ring-emerald-300',
  },
  VIEWER: {
    label: 'Viewer',
    specPermissions: ['content_view'],
    permissions: ['content:view'],
    sections: [],
    description: 'Views the dashboard only',
    badge: 'bg-slate-100 text-slate-800 ring-slate-300',
  },
};

export const SECTION_INFO: Record<Section, { label: string; path: string }> = {
  userManagement: { label: 'User Management', path: '/admin/users' },
  contentManagement: { label: 'Manage Content', path: '/admin/content' },
  addNews: { label: 'Add Story', path: '/admin/content/new/news' },
  addBlog: { label: 'Add Blog', path: '/admin/content/new/blogs' },
  roleInfo: { label: 'Role Information', path: '/admin/roles' },
  auditLog: { label: 'Audit Log', path: '/admin/audit' },
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** spec §4: a user without a (valid) stored role is a VIEWER. */
export function roleOf(value: unknown): Role {
  return isRole(value) ? value : DEFAULT_ROLE;
}

export function can(role: Role, permission: Permission): boolean {
  return ROLE_INFO[role].permissions.includes(permission);
}

export function canUseSection(role: Role, section: Section): boolean {
  return ROLE_INFO[role].sections.includes(section);
}

/** Where a role lands after sign-in: its first section, or the overview for roles with none. */
export function homePathFor(role: Role): string {
  const first = ROLE_INFO[role].sections[0];
  return first ? SECTION_INFO[first].path : '/admin/overview';
}

export function accessRestrictedText(role: Role): string {
  return `Access Restricted - Your current role (${role}) doesn't have access to this section.`;
}
