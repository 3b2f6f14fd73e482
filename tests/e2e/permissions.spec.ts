import type { APIRequestContext, APIResponse } from '@playwright/test';
import { BIO_MAX } from '../../app/lib/users';
import { ROLES, type Role } from '../../app/lib/permissions';
import { pngBytes } from './content-fixtures';
import { E2E } from './env';
import { expect, test, type StaffFixture } from './fixtures';
import { apiSignIn, db, type Staff, STAFF_PASSWORD, superAdmin, unique, uniqueEmail, userByEmail, userRow } from './staff';

// Issue 4, item 8: every role, and a signed-out visitor, against every user-management action,
// through HTTP. Allowed: a 2xx/3xx answer and the change in the database. Refused: 403 (400 for a
// form the server cannot accept) and the database as it was. Each case is one entry of CASES; content
// actions join the table the same way.

type Actor = Role | 'visitor';
const ACTORS: Actor[] = [...ROLES, 'visitor'];
const SIGNED_IN = ROLES;
const SUPER: readonly Actor[] = ['SUPER_ADMIN'];
const NOBODY: readonly Actor[] = [];

interface World {
  actor: Actor;
  /** The signed-in account (a second SUPER_ADMIN for that role); null for the visitor. */
  me: Staff | null;
  /** The real super admin, who must stay untouchable. */
  superAdmin: Staff;
  /** Makes the accounts a case acts on; they are removed when the test ends. */
  staff: StaffFixture;
  get(path: string): Promise<APIResponse>;
  post(path: string, fields: Record<string, string>, options?: { multipart?: boolean; origin?: string }): Promise<APIResponse>;
  upload(path: string, file: { name: string; mimeType: string; buffer: Buffer }): Promise<APIResponse>;
}

interface Outcome {
  response: APIResponse;
  /** Whether the action took effect (read from the database, or from what was shown). */
  changed: boolean;
}

interface Refusal {
  /** One status, or the statuses any of which is a refusal. */
  status: number | number[];
  /** For a redirect: where to. */
  location?: RegExp;
}

interface Case {
  name: string;
  allowed: readonly Actor[];
  /** How the refusal looks, when not a plain 403. */
  refused?: (actor: Actor) => Refusal;
  run(world: World): Promise<Outcome>;
}

const FORBIDDEN: Refusal = { status: 403 };
/** A page load without a session is sent to the sign-in screen, which comes back to the page. */
const TO_SIGN_IN: Refusal = { status: 302, location: /^\/admin\?redirectTo=/ };
const visitorGet = (actor: Actor): Refusal => (actor === 'visitor' ? TO_SIGN_IN : FORBIDDEN);
/** The form is checked before the rules it would break: 400; a visitor gets no further than 403. */
const invalidForm = (actor: Actor): Refusal => (actor === 'visitor' ? FORBIDDEN : { status: 400 });
/** React Router refuses a form posted from another origin (400) before the app's own guard would (403). */
const FORGED: Refusal = { status: [400, 403] };

/** The user form's fields, as the browser sends them. */
function userForm(user: { name: string; email: string; role?: string; bio?: string; password?: string }): Record<string, string> {
  return {
    name: user.name,
    email: user.email,
    bio: user.bio ?? '',
    profilePicture: '',
    ...(user.role ? { role: user.role } : {}),
    ...(user.password ? { password: user.password } : {}),
  };
}

/** The account the actor acts on as "themselves": their own, or a bystander's for the visitor. */
async function selfOf(w: World): Promise<Staff> {
  return w.me ?? w.staff('VIEWER');
}

type Target = Role | 'self' | 'super admin';

/** The account a case acts on: a new account of a role, the actor themselves or the real super admin. */
async function targetOf(w: World, target: Target): Promise<Staff> {
  return target === 'self' ? selfOf(w) : target === 'super admin' ? w.superAdmin : w.staff(target);
}

const resetLinks = (userId: string) =>
  (db().prepare('SELECT count(*) AS n FROM password_reset_tokens WHERE user_id = ?').get(userId) as { n: number }).n;
const FIELDS = ['name', 'email', 'role', 'bio'] as const;

type Options = { refused?: Case['refused']; origin?: string };

/** Add New User with this role; changed when the account exists afterwards. */
function createUserCase(name: string, allowed: readonly Actor[], role: string, options: Options = {}): Case {
  return {
    name,
    allowed,
    refused: options.refused,
    async run(w) {
      const email = w.staff.track(uniqueEmail('created'));
      const fields = userForm({ name: 'Created User', email, role, password: STAFF_PASSWORD });
      const response = await w.post('/admin/users/new', fields, { multipart: true, origin: options.origin });
      return { response, changed: Boolean(userByEmail(email)) };
    },
  };
}

/** Edit User on a target (a new account of a role, the actor themselves or the super admin); changed when a field changed. */
function editUserCase(
  name: string,
  allowed: readonly Actor[],
  target: Target,
  changes: (target: Staff) => Partial<Record<(typeof FIELDS)[number], string>>,
  options: Options = {},
): Case {
  return {
    name,
    allowed,
    refused: options.refused,
    async run(w) {
      const who = await targetOf(w, target);
      const before = userRow(who.id)!;
      const fields = userForm({ name: who.name, email: who.email, role: who.role, bio: before.bio, ...changes(who) });
      const response = await w.post(`/admin/users/${who.id}/edit`, fields, { multipart: true, origin: options.origin });
      const after = userRow(who.id)!;
      return { response, changed: FIELDS.some((field) => after[field] !== before[field]) };
    },
  };
}

/** Deleting a target; changed when the account is gone. */
function deleteUserCase(name: string, allowed: readonly Actor[], target: Target, options: Options = {}): Case {
  return {
    name,
    allowed,
    refused: options.refused,
    async run(w) {
      const who = await targetOf(w, target);
      const response = await w.post(`/admin/users/${who.id}/delete`, {}, { origin: options.origin });
      return { response, changed: !userRow(who.id) };
    },
  };
}

/** The super admin gets 400 for a form it may send but whose content is refused; everyone else 403. */
const superAdminBadRequest = (actor: Actor): Refusal => (actor === 'SUPER_ADMIN' ? { status: 400 } : FORBIDDEN);
const ATTACKER = 'https://attacker.example';

const CASES: Case[] = [
  createUserCase('create a user', SUPER, 'EDITOR'),
  createUserCase('create a user with the SUPER_ADMIN role', NOBODY, 'SUPER_ADMIN'),
  createUserCase('create a user with a role that does not exist', NOBODY, 'OWNER', { refused: superAdminBadRequest }),
  createUserCase('create a user from another site (forged Origin)', NOBODY, 'VIEWER', {
    refused: () => FORGED,
    origin: ATTACKER,
  }),
  editUserCase('update another user', SUPER, 'VIEWER', (t) => ({ name: `${t.name} Renamed`, role: 'EDITOR' })),
  editUserCase("change another user's email", NOBODY, 'VIEWER', () => ({ email: uniqueEmail('changed') }), {
    refused: superAdminBadRequest,
  }),
  editUserCase('update the super admin', NOBODY, 'super admin', () => ({
    name: 'Taken Over',
    role: 'VIEWER',
    bio: 'taken over',
  })),
  editUserCase('give another user SUPER_ADMIN', NOBODY, 'ADMIN', () => ({ role: 'SUPER_ADMIN' })),
  editUserCase('give a user a role that does not exist', NOBODY, 'VIEWER', () => ({ role: 'OWNER' }), {
    refused: superAdminBadRequest,
  }),
  // The refusal is answered with the page, and one's own Edit User page is My profile.
  editUserCase(
    'change own role through Edit User',
    NOBODY,
    'self',
    (me) => ({ role: me.role === 'ADMIN' ? 'EDITOR' : 'ADMIN' }),
    {
      refused: (actor) => (actor === 'visitor' ? FORBIDDEN : { status: 302, location: /^\/admin\/profile$/ }),
    },
  ),
  editUserCase('update a user from another site (forged Origin)', NOBODY, 'VIEWER', (t) => ({ name: `${t.name} Forged` }), {
    refused: () => FORGED,
    origin: ATTACKER,
  }),
  {
    name: 'edit own profile (a role sent along is ignored)',
    allowed: SIGNED_IN,
    async run(w) {
      const me = await selfOf(w);
      const bio = `Profile edited ${unique()}`;
      const role = me.role === 'SUPER_ADMIN' ? 'VIEWER' : 'SUPER_ADMIN';
      const response = await w.post('/admin/profile', userForm({ name: me.name, email: me.email, role, bio }), {
        multipart: true,
      });
      const after = userRow(me.id)!;
      expect(after.role, 'the role never changes through the profile').toBe(me.role);
      return { response, changed: after.bio === bio };
    },
  },
  {
    name: 'save a bio over 500 characters',
    allowed: NOBODY,
    refused: invalidForm,
    async run(w) {
      const me = await selfOf(w);
      const response = await w.post(
        '/admin/profile',
        userForm({ name: me.name, email: me.email, bio: 'a'.repeat(BIO_MAX + 1) }),
        { multipart: true },
      );
      return { response, changed: userRow(me.id)!.bio.length > BIO_MAX };
    },
  },
  {
    name: 'open own Edit User page (sent to My profile)',
    allowed: SIGNED_IN,
    refused: visitorGet,
    async run(w) {
      const response = await w.get(`/admin/users/${(await selfOf(w)).id}/edit`);
      return { response, changed: response.headers().location === '/admin/profile' };
    },
  },
  deleteUserCase('delete another user', SUPER, 'AUTHOR'),
  deleteUserCase('delete oneself', NOBODY, 'self'),
  deleteUserCase('delete the super admin', NOBODY, 'super admin'),
  deleteUserCase('delete a user from another site (forged Origin)', NOBODY, 'VIEWER', {
    refused: () => FORGED,
    origin: ATTACKER,
  }),
  {
    name: 'send another user a password reset',
    allowed: SUPER,
    async run(w) {
      const target = await w.staff('EDITOR');
      const response = await w.post('/admin/users', { intent: 'reset', userId: target.id });
      return { response, changed: resetLinks(target.id) > 0 };
    },
  },
  {
    name: 'read the users list',
    allowed: SUPER,
    refused: visitorGet,
    async run(w) {
      const bystander = await w.staff('VIEWER');
      const response = await w.get('/admin/users');
      const body = await response.text();
      if (w.actor !== 'SUPER_ADMIN') expect(body).not.toContain(E2E.adminEmail);
      return { response, changed: body.includes(bystander.email) };
    },
  },
  {
    name: 'read the audit log',
    allowed: SUPER,
    refused: visitorGet,
    async run(w) {
      const response = await w.get('/admin/audit');
      const body = await response.text();
      if (w.actor !== 'SUPER_ADMIN') expect(body).not.toContain(E2E.adminEmail);
      return { response, changed: body.includes('Audit log entries') };
    },
  },
  // Issue 28: the Analytics screen (ADMIN and above the whole site, an EDITOR their own items), its CSV and its retention.
  {
    name: 'read the analytics screen',
    allowed: ['SUPER_ADMIN', 'ADMIN', 'EDITOR'],
    refused: visitorGet,
    async run(w) {
      const response = await w.get('/admin/analytics?range=7d');
      const body = await response.text();
      return { response, changed: body.includes('Visits and visitors by day') };
    },
  },
  {
    name: 'download the analytics CSV',
    allowed: ['SUPER_ADMIN', 'ADMIN', 'EDITOR'],
    refused: visitorGet,
    async run(w) {
      const response = await w.get('/admin/analytics/export?range=7d');
      return { response, changed: (await response.text()).includes('Day (UTC),What,Value') };
    },
  },
  {
    name: 'change how long visit counts are kept',
    allowed: ['SUPER_ADMIN', 'ADMIN'],
    async run(w) {
      const months = String(30 + ACTORS.indexOf(w.actor));
      const response = await w.post('/admin/analytics', { intent: 'retention', months });
      const row = db().prepare("SELECT value FROM settings WHERE key = 'analytics_retention_months'").get() as
        { value: string } | undefined;
      return { response, changed: row?.value === months };
    },
  },
  {
    name: 'upload a profile picture',
    allowed: SIGNED_IN,
    async run(w) {
      const name = `matrix-${unique()}.png`;
      const response = await w.upload('/admin/uploads/profile', { name, mimeType: 'image/png', buffer: await pngBytes(32) });
      const stored = db().prepare('SELECT count(*) AS n FROM media WHERE original_name = ?').get(name) as { n: number };
      return { response, changed: stored.n > 0 };
    },
  },
];

/** The actor's world: `request` signed in as a new account of the actor's role (not for the visitor). */
async function worldFor(actor: Actor, request: APIRequestContext, staff: StaffFixture): Promise<World> {
  const me = actor === 'visitor' ? null : await staff(actor);
  if (me) await apiSignIn(request, me);
  return {
    actor,
    me,
    superAdmin: superAdmin(),
    staff,
    get: (path) => request.get(path, { maxRedirects: 0 }),
    post: (path, fields, options = {}) =>
      request.post(path, {
        ...(options.multipart ? { multipart: fields } : { form: fields }),
        headers: { origin: options.origin ?? E2E.baseURL },
        maxRedirects: 0,
      }),
    upload: (path, file) => request.post(path, { multipart: { file }, headers: { origin: E2E.baseURL }, maxRedirects: 0 }),
  };
}

for (const actor of ACTORS) {
  test.describe(`as ${actor === 'visitor' ? 'a signed-out visitor' : actor}`, () => {
    for (const c of CASES) {
      const allowed = c.allowed.includes(actor);
      test(`${c.name}: ${allowed ? 'allowed' : 'refused'}`, async ({ request, staff }) => {
        const world = await worldFor(actor, request, staff);
        const { response, changed } = await c.run(world);
        if (allowed) {
          expect(response.status(), await response.text()).toBeGreaterThanOrEqual(200);
          expect(response.status()).toBeLessThan(400);
          expect(changed, 'the change is made').toBe(true);
        } else {
          const refusal = c.refused?.(actor) ?? FORBIDDEN;
          expect([refusal.status].flat(), await response.text()).toContain(response.status());
          if (refusal.location) expect(response.headers().location).toMatch(refusal.location);
          expect(changed, 'nothing changed').toBe(false);
        }
        expect(userRow(world.superAdmin.id), 'the super admin account is untouched').toMatchObject({
          email: E2E.adminEmail,
          role: 'SUPER_ADMIN',
          name: 'Super Admin',
        });
      });
    }
  });
}
