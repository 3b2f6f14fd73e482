import type { AccessTable } from '~/server/http/admin-access.server';
import { USER_MESSAGES } from '~/lib/users';
import { TWO_FACTOR_MESSAGES } from '~/lib/two-factor';

const FORBIDDEN_TWO_FACTOR = TWO_FACTOR_MESSAGES.onlySuperAdmin;

// spec §6, route by route: what every /admin route of app/routes.ts needs for its loader and its
// action. The admin layout's middleware (routes/admin/layout.tsx) enforces it before any handler runs,
// and refuses a route or method missing here. tests/unit/admin-access.test.ts walks the route table
// and fails when a route is missing, when an entry names no route, or when the rules and the module's
// loader/action disagree. A route without an action has no `action` rule.

export const ADMIN_ACCESS: AccessTable = {
  // The screens of a signed-out visitor: the short explicit list that needs no session.
  '/admin': { loader: 'public', action: 'public' },
  '/admin/logout': { loader: 'public', action: 'public' },
  // Issue 25: the second step after a right password; what it checks is the pending step's cookie.
  '/admin/verify': { loader: 'public', action: 'public' },
  // Issue 25: a passkey sign-in's JSON (its loader only answers 405); it answers only the challenge its cookie names.
  '/admin/passkey': { loader: 'public', action: 'public' },
  '/admin/forgot-password': { loader: 'public', action: 'public' },
  '/admin/reset-password/:token': { loader: 'public', action: 'public' },

  // Endpoints without a page (their loaders only answer 405).
  '/admin/uploads/profile': { loader: 'signed-in', action: 'signed-in' },
  '/admin/uploads/content': { loader: 'signed-in', action: 'content:create' },
  // Issue 14: sign-language videos, for whoever may write content; an upload answers only its uploader.
  // Nothing uploaded shows until a form is saved, so the chunks leave the public pages cached.
  '/admin/uploads/video': { loader: 'signed-in', action: 'content:create', privateWrites: true },
  '/admin/uploads/video/:id': { loader: 'content:create', action: 'content:create', privateWrites: true },
  '/admin/content/preview': { loader: 'signed-in', action: 'content:create' },
  // Issue 13: the content form's autosave slot; an existing item's only for whoever may edit it (the service).
  '/admin/content/autosave': { loader: 'content:create', action: 'content:create', privateWrites: true },
  '/admin/uploads/services': { loader: 'signed-in', action: 'services:edit' },
  '/admin/uploads/site': { loader: 'signed-in', action: 'settings:texts' },
  '/admin/messages/export': { loader: 'messages:manage' },
  '/admin/subscribers/export': { loader: 'subscribers:manage' },
  '/admin/newsletter/:id/preview': { loader: 'newsletter:send' },
  // Issue 28: the Analytics screen's CSV (an EDITOR's own items; the service scopes it).
  '/admin/analytics/export': { loader: 'analytics:view' },

  // The dashboard. A section a role cannot use answers "Access Restricted" (spec §2) in the dashboard's
  // frame, from the middleware: the section's own loader and action never run for that role.
  '/admin/overview': { loader: 'signed-in' },
  '/admin/users': { loader: { restricted: 'userManagement' }, action: 'users:manage' },
  '/admin/users/new': {
    loader: { restricted: 'users:manage', refusal: USER_MESSAGES.onlySuperAdminCreates },
    action: { permission: 'users:manage', refusal: USER_MESSAGES.createForbidden },
  },
  '/admin/users/roles': { loader: { restricted: 'roleInfo' } },
  // Anyone reaches Edit User: their own card sends them to My profile; the service refuses the rest.
  '/admin/users/:id/edit': { loader: 'signed-in', action: 'signed-in' },
  '/admin/users/:id/delete': {
    loader: { permission: 'users:manage', refusal: USER_MESSAGES.deleteForbidden },
    action: { permission: 'users:manage', refusal: USER_MESSAGES.deleteForbidden },
  },
  '/admin/profile': { loader: 'signed-in', action: 'signed-in' },
  // Issue 25: one's own second step, sessions and remembered devices; the super admin's requirement by role.
  '/admin/security': { loader: 'signed-in', action: 'signed-in', privateWrites: true },
  '/admin/security/passkeys': { loader: 'signed-in', action: 'signed-in', privateWrites: true },
  // Issue 25: the super admin resets another person's second factor (the service refuses anyone else).
  '/admin/users/:id/two-factor': {
    loader: { permission: 'users:manage', refusal: FORBIDDEN_TWO_FACTOR },
    action: { permission: 'users:manage', refusal: FORBIDDEN_TWO_FACTOR },
    privateWrites: true,
  },
  '/admin/roles': { loader: { restricted: 'roleInfo' } },
  '/admin/audit': { loader: { restricted: 'auditLog' } },
  '/admin/content': { loader: { restricted: 'contentManagement' } },
  '/admin/content/new/:type': {
    loader: { restricted: ({ type }) => (type === 'news' ? 'addNews' : 'addBlog') },
    action: { restricted: ({ type }) => (type === 'news' ? 'addNews' : 'addBlog') },
  },
  // Issue 13: a role that may create (AUTHOR) edits its own items until they are published; the
  // service (content-admin.server.ts) refuses the rest with 403.
  '/admin/content/:id/edit': { loader: 'content:create', action: 'content:create' },
  // Issue 26: adding a version; the service asks whether the staff member may edit the English item.
  '/admin/content/:id/versions': { loader: 'content:create', action: 'content:create' },
  // Issue 13: an item's history is for whoever may edit it (a role that only creates: its own unpublished items).
  '/admin/content/:id/history': { loader: 'content:create' },
  '/admin/content/:id/history/:revisionId': { loader: 'content:create' },
  '/admin/content/:id/delete': { loader: 'content:delete', action: 'content:delete' },
  // Issue 11: the inbox, services, site settings and the demo's removal. Settings answers ADMIN's
  // texts; the service refuses contact details and links to anyone without settings:links.
  '/admin/messages': { loader: { restricted: 'messages' }, action: 'messages:manage' },
  '/admin/messages/:id': { loader: { restricted: 'messages' }, action: 'messages:manage' },
  '/admin/messages/:id/delete': { loader: 'messages:manage', action: 'messages:manage' },
  // Issue 12: the subscribers and sending a published item to them.
  '/admin/subscribers': { loader: { restricted: 'subscribers' }, action: 'subscribers:manage' },
  '/admin/subscribers/:id/delete': { loader: 'subscribers:manage', action: 'subscribers:manage' },
  '/admin/newsletter/:id': { loader: { restricted: 'newsletter:send' }, action: 'newsletter:send' },
  '/admin/services': { loader: { restricted: 'services' }, action: 'services:edit' },
  '/admin/services/new': { loader: { restricted: 'services' }, action: 'services:edit' },
  '/admin/services/:id/edit': { loader: 'services:edit', action: 'services:edit' },
  '/admin/services/:id/versions/:language': { loader: 'services:edit', action: 'services:edit' },
  '/admin/services/:id/delete': { loader: 'services:delete', action: 'services:delete' },
  // Issue 27: events. A role that may only draft (AUTHOR) edits its own drafts: the service refuses the rest.
  '/admin/events': { loader: { restricted: 'events' } },
  '/admin/events/new': { loader: { restricted: 'events' }, action: 'events:draft' },
  '/admin/events/:id/edit': { loader: 'events:draft', action: 'events:draft' },
  // Decision 051: an event's Luganda and Swahili versions, for the roles that publish events.
  '/admin/events/:id/versions/:language': { loader: 'events:publish', action: 'events:publish' },
  '/admin/events/:id/registrations': { loader: 'events:manage', action: 'events:manage' },
  '/admin/events/:id/export': { loader: 'events:manage' },
  '/admin/settings': { loader: { restricted: 'settings' }, action: 'settings:texts' },
  // Issue 26 item 3: the interface's texts per language, for whoever may change the site's texts.
  '/admin/translations': { loader: { restricted: 'translations' }, action: 'translations:edit' },
  '/admin/translations/export': { loader: 'translations:edit' },
  '/admin/demo-content': { loader: { restricted: 'demo:remove' }, action: 'demo:remove' },
  // Issue 28: ADMIN and above see the whole site and set the retention; an EDITOR their own items.
  // Setting the retention writes nothing visitors see, so public pages stay cached.
  '/admin/analytics': { loader: { restricted: 'analytics' }, action: 'analytics:all', privateWrites: true },
  '/admin/*': { loader: 'signed-in', action: 'signed-in' },
};
