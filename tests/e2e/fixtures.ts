import { test as base, expect, type APIRequestContext } from '@playwright/test';
import type { Kysely } from 'kysely';
import type { Role } from '../../app/lib/permissions';
import type { Database } from '../../app/server/db/schema';
import { removeTagged } from './content-fixtures';
import { E2E } from './env';
import { openServerDatabase, type Engine } from './engines';
import { apiSignIn, createStaff, removeStaff, signInWithForm, unique, type Staff, type StaffOptions } from './staff';

// The journeys' one `test` (in the manner of the Epic Stack's playwright-utils): staff accounts that
// are removed when the test ends, a page or an API client signed in as one, and a tag for the
// content a test publishes, deleted when it ends. Helpers without clean-up stay in staff.ts and
// content-fixtures.ts.

export interface StaffFixture {
  /** A new staff account of `role` (SUPER_ADMIN: a second one; `superAdmin()` is the real one). */
  (role: Role, options?: StaffOptions): Promise<Staff>;
  /**
   * Also removes, when the test ends, the account with this email (one made through the site) and
   * forgets the failed sign-ins counted for it (an email no account has, too). Returns the email.
   */
  track(email: string): string;
}

export interface SignInOptions {
  /**
   * 'cookie' (the default): the sign-in form's POST /admin with the page's own request, so the
   * page's context holds the session; the page stays where it is. 'form': the real sign-in screen,
   * which lands on the role's first dashboard section.
   */
  via?: 'cookie' | 'form';
  remember?: boolean;
}

export interface Fixtures {
  /** Creates staff accounts; each, with its sessions, reset links and sign-in counters, is removed when the test ends. */
  staff: StaffFixture;
  /** Signs the test's `page` in as `who`: a staff member, or a new account of a role (made with `staff`). */
  signIn(who: Role | Staff, options?: SignInOptions): Promise<Staff>;
  /** An API client signed in as `who` (a staff member, or a new account of a role), disposed when the test ends. */
  staffRequest(who: Role | Staff): Promise<{ user: Staff; request: APIRequestContext }>;
  /** A random word for this test's titles: whatever carries it is deleted (by `adminApi`) when the test ends. */
  tag: string;
}

/** What a project sets: the engine of the server it runs against, and that server's address. */
export interface EngineOptions {
  engine: Engine;
  serverURL: string;
}

export interface WorkerFixtures extends EngineOptions {
  /** An API client signed in as an Admin of this worker (who may publish and delete). */
  adminApi: APIRequestContext;
  /** The database of the server under test (SQLite or PostgreSQL, by the project), for arranging and checking. */
  database: Kysely<Database>;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  engine: ['sqlite', { scope: 'worker', option: true }],
  serverURL: [E2E.baseURL, { scope: 'worker', option: true }],

  database: [
    async ({ engine }, provide) => {
      const opened = await openServerDatabase(engine);
      await provide(opened.db);
      await opened.close();
    },
    { scope: 'worker' },
  ],

  staff: async ({ database }, provide) => {
    const emails: string[] = [];
    const staff = Object.assign(
      async (role: Role, options?: StaffOptions) => {
        const user = await createStaff(database, role, options);
        emails.push(user.email);
        return user;
      },
      {
        track(email: string) {
          emails.push(email.toLowerCase());
          return email;
        },
      },
    );
    await provide(staff);
    await removeStaff(database, emails);
  },

  signIn: async ({ page, staff, javaScriptEnabled }, provide) => {
    await provide(async (who, options = {}) => {
      const user = typeof who === 'string' ? await staff(who) : who;
      if (options.via === 'form') await signInWithForm(page, user, { remember: options.remember, javaScript: javaScriptEnabled });
      else await apiSignIn(page.request, user, { remember: options.remember });
      return user;
    });
  },

  staffRequest: async ({ playwright, staff, serverURL }, provide) => {
    const contexts: APIRequestContext[] = [];
    await provide(async (who) => {
      const user = typeof who === 'string' ? await staff(who) : who;
      const request = await playwright.request.newContext({ baseURL: serverURL });
      contexts.push(request);
      await apiSignIn(request, user);
      return { user, request };
    });
    for (const request of contexts) await request.dispose();
  },

  adminApi: [
    async ({ playwright, database, serverURL }, provide) => {
      // One account for the worker's whole life, so it is made and removed here rather than by `staff`.
      const admin = await createStaff(database, 'ADMIN');
      const request = await playwright.request.newContext({ baseURL: serverURL });
      await apiSignIn(request, admin);
      await provide(request);
      await request.dispose();
      await removeStaff(database, [admin.email]);
    },
    { scope: 'worker' },
  ],

  tag: async ({ adminApi }, provide) => {
    const tag = `t${unique()}`;
    await provide(tag);
    await removeTagged(adminApi, tag);
  },
});

export { expect };

/**
 * A journey about layout, keyboard or axe: what it checks does not depend on the database, so the
 * `postgres` project leaves it to the SQLite run (playwright.config.ts) and spends its time on data.
 */
export const LAYOUT = '@layout';

/**
 * A journey that starts servers of its own, one per engine: the `postgres` project leaves it to the
 * SQLite run rather than start the same servers twice.
 */
export const OWN_SERVERS = '@own-servers';
