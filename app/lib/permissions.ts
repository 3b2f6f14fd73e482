// spec §6: the one table of roles, their permissions and their dashboard sections. The server checks
// every loader and action against it (app/server/staff/auth.server.ts); the UI asks it only to hide what a
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
  | 'content:view'
  // Issue 11: the dashboard runs the site.
  | 'messages:manage' // the inbox: read, reply, mark, delete, export, retention (applications too, issue 27)
  | 'subscribers:view' // newsletter counts on the overview
  | 'subscribers:manage' // the subscribers screen: search, erase, export (issue 12)
  | 'newsletter:send' // send a published story or news item to the confirmed subscribers (issue 12)
  | 'settings:texts' // site texts, stats, founder story, legal pages
  | 'settings:links' // contact details and every outgoing link (a changed donation link sends money elsewhere)
  | 'services:edit' // create, edit and reorder services
  | 'services:delete'
  | 'demo:remove' // remove all demo content in one action
  // Issue 27: trainings and events. A role that may only draft (AUTHOR) edits its own drafts.
  | 'events:draft' // add events as drafts, edit one's own drafts
  | 'events:publish' // edit any event, publish it
  | 'events:manage' // attendees and waiting lists, export, attended, messages, close registration, cancel
  // Issue 28: visit counts. 'analytics:view' opens the Analytics screen (an EDITOR's own items);
  // 'analytics:all' shows the whole site's and sets how long counts are kept.
  | 'analytics:view'
  | 'analytics:all'
  // Issue 26 item 3: the interface's Luganda and Swahili texts (the Translations screen), like the site texts.
  | 'translations:edit';

export type Section =
  | 'overview'
  | 'userManagement'
  | 'contentManagement'
  | 'addNews'
  | 'addBlog'
  | 'messages'
  | 'subscribers'
  | 'services'
  | 'events'
  | 'settings'
  | 'translations'
  | 'roleInfo'
  | 'auditLog'
  | 'analytics';

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

const ALL: Permission[] = [
  'users:manage',
  'content:create',
  'content:edit',
  'content:delete',
  'content:view',
  'messages:manage',
  'subscribers:view',
  'subscribers:manage',
  'newsletter:send',
  'settings:texts',
  'settings:links',
  'services:edit',
  'services:delete',
  'demo:remove',
  'events:draft',
  'events:publish',
  'events:manage',
  'analytics:view',
  'analytics:all',
  'translations:edit',
];

export const ROLE_INFO: Record<Role, RoleInfo> = {
  SUPER_ADMIN: {
    label: 'Super Admin',
    specPermissions: ['all'],
    permissions: ALL,
    sections: [
      'overview',
      'userManagement',
      'contentManagement',
      'addNews',
      'addBlog',
      'messages',
      'subscribers',
      'services',
      'events',
      'settings',
      'translations',
      'roleInfo',
      'auditLog',
      'analytics',
    ],
    description: 'Full system access and user management',
    badge: 'bg-purple-100 text-purple-900 ring-purple-300',
  },
  ADMIN: {
    label: 'Admin',
    specPermissions: ['content_create', 'content_edit', 'content_delete', 'content_view'],
    permissions: [
      'content:create',
      'content:edit',
      'content:delete',
      'content:view',
      'messages:manage',
      'subscribers:view',
      'subscribers:manage',
      'newsletter:send',
      'settings:texts',
      'services:edit',
      'services:delete',
      'events:draft',
      'events:publish',
      'events:manage',
      'analytics:view',
      'analytics:all',
      'translations:edit',
    ],
    sections: [
      'overview',
      'contentManagement',
      'addNews',
      'addBlog',
      'events',
      'messages',
      'subscribers',
      'services',
      'settings',
      'translations',
      'analytics',
    ],
    description: 'Manages all content but not users',
    badge: 'bg-red-100 text-red-900 ring-red-300',
  },
  EDITOR: {
    label: 'Editor',
    specPermissions: ['content_create', 'content_edit', 'content_view'],
    permissions: [
      'content:create',
      'content:edit',
      'content:view',
      'services:edit',
      'events:draft',
      'events:publish',
      'events:manage',
      'analytics:view',
    ],
    sections: ['overview', 'contentManagement', 'addNews', 'addBlog', 'events', 'services', 'analytics'],
    description: 'Creates and edits news stories and blog posts',
    badge: 'bg-blue-100 text-blue-900 ring-blue-300',
  },
  AUTHOR: {
    label: 'Author',
    specPermissions: ['content_create', 'content_view'],
    permissions: ['content:create', 'content:view', 'events:draft'],
    sections: ['overview', 'addNews', 'addBlog', 'events'],
    description: 'Writes new news stories and blog posts',
    badge: 'bg-emerald-100 text-emerald-900 ring-emerald-300',
  },
  VIEWER: {
    label: 'Viewer',
    specPermissions: ['content_view'],
    permissions: ['content:view'],
    sections: ['overview'],
    description: 'Views the dashboard only',
    badge: 'bg-slate-100 text-slate-800 ring-slate-300',
  },
};

/** Each permission in staff's words, for Role Information: what a role may do, read from the table the server checks. */
export const PERMISSION_TEXT: Record<Permission, string> = {
  'users:manage': 'Add, edit and remove staff accounts, send password resets and read the audit log',
  'content:create': 'Write news stories and blog posts, and edit, schedule and publish their own until published',
  'content:edit': 'Edit, schedule and publish anyone’s news stories and blog posts, published ones too',
  'content:delete': 'Delete news stories and blog posts',
  'content:view': 'See the dashboard',
  'messages:manage': 'Read, answer, export and delete contact messages and applications',
  'subscribers:view': 'See newsletter subscriber counts',
  'subscribers:manage': 'Search, export and erase newsletter subscribers',
  'newsletter:send': 'Send a story or news item to newsletter subscribers',
  'settings:texts': 'Change the site’s texts, figures, founder story and legal pages',
  'settings:links': 'Change contact details, the donation link and every other outgoing link',
  'services:edit': 'Add, edit and reorder services',
  'services:delete': 'Delete services',
  'demo:remove': 'Remove all demo content',
  'events:draft': 'Add events as drafts and edit their own drafts',
  'events:publish': 'Edit and publish any event',
  'events:manage':
    'See and export attendee lists and waiting lists, mark attendance, message attendees, close registration and cancel events',
  'analytics:view': 'See visit counts of their own items',
  'analytics:all': 'See the whole site’s visit counts and set how long they are kept',
  'translations:edit': 'Edit the Luganda and Swahili texts of the site',
};

export const SECTION_INFO: Record<Section, { label: string; path: string }> = {
  overview: { label: 'Overview', path: '/admin/overview' },
  userManagement: { label: 'User Management', path: '/admin/users' },
  contentManagement: { label: 'Manage Content', path: '/admin/content' },
  addNews: { label: 'Add Story', path: '/admin/content/new/news' },
  addBlog: { label: 'Add Blog', path: '/admin/content/new/blogs' },
  messages: { label: 'Messages', path: '/admin/messages' },
  subscribers: { label: 'Subscribers', path: '/admin/subscribers' },
  services: { label: 'Services', path: '/admin/services' },
  events: { label: 'Events', path: '/admin/events' },
  settings: { label: 'Site settings', path: '/admin/settings' },
  translations: { label: 'Translations', path: '/admin/translations' },
  roleInfo: { label: 'Role Information', path: '/admin/roles' },
  auditLog: { label: 'Audit Log', path: '/admin/audit' },
  analytics: { label: 'Analytics', path: '/admin/analytics' },
};

/**
 * Issue 23: the dashboard's navigation groups the sections under a few headings (the overview stands
 * above them), so it stays short on a phone as sections are added. Each section but the overview is in
 * exactly one group; a role sees a group only when it has one of its sections.
 */
export const SECTION_GROUPS: readonly { label: string; sections: readonly Section[] }[] = [
  { label: 'Content', sections: ['contentManagement', 'addNews', 'addBlog', 'events'] },
  { label: 'People', sections: ['messages', 'subscribers'] },
  { label: 'Site', sections: ['services', 'settings', 'translations', 'analytics'] },
  { label: 'Team', sections: ['userManagement', 'roleInfo', 'auditLog'] },
];

/** A role's sections as the navigation shows them: the overview, then each group it has any of. */
export function sectionGroupsFor(role: Role): { label: string | null; sections: Section[] }[] {
  const mine = ROLE_INFO[role].sections;
  const groups = SECTION_GROUPS.map((group) => ({
    label: group.label as string | null,
    sections: group.sections.filter((section) => mine.includes(section)),
  }));
  return [{ label: null, sections: mine.filter((section) => section === 'overview') }, ...groups].filter(
    (group) => group.sections.length > 0,
  );
}

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

/**
 * Where a role lands after sign-in: its first section, which is the overview for every role since
 * issue 11 (what waits for the role: unread messages, new subscribers, the latest items).
 */
export function homePathFor(role: Role): string {
  const first = ROLE_INFO[role].sections[0];
  return first ? SECTION_INFO[first].path : '/admin/overview';
}

/** The sections a role has beside the overview every role has (spec §6's "dashboard only" when none). */
export function sectionsBeyondOverview(sections: readonly Section[]): Section[] {
  return sections.filter((section) => section !== 'overview');
}

export function accessRestrictedText(role: Role): string {
  return `Access Restricted - Your current role (${role}) doesn't have access to this section.`;
}

/** What the dashboard's frame shows around every section: who is signed in and the sections of their role. */
export interface DashboardFrameData {
  user: { id: string; name: string; email: string; role: Role };
  groups: { label: string | null; sections: { section: Section; path: string; label: string }[] }[];
  unreadMessages: number;
  /** No mail server is set (SMTP_URL), and this role sends mail: resets, replies, newsletters, messages to attendees. */
  mailOff: boolean;
}
