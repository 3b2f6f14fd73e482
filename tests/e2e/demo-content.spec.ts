import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { Kysely } from 'kysely';
import { accessRestrictedText } from '../../app/lib/permissions';
import type { Database } from '../../app/server/db/schema';
import { SEED_AUTHORS } from '../../app/server/demo/seed-data';
import { DEMO_MESSAGES, demoRemovedMessage, type DemoCounts } from '../../app/server/demo/demo.server';
import { postSave } from './content-fixtures';
import { E2E_ENGINES, serverDatabase, type ServerDatabase } from './engines';
import { expect, test } from './fixtures';
import { apiSignIn, createStaff, signInWithForm, type Staff } from './staff';
import { DESKTOP, expectNoA11yIssues, MOBILE, startServer, type OtherServer } from './support';

// Issue 11: demo content. Each part runs on a server of its own (it deletes the demo the other
// journeys read), on SQLite and, when the machine has one for tests, PostgreSQL: one started with
// DEMO_CONTENT=false, which has none to begin with, and one with the demo, which the super admin
// removes from the dashboard while a story the team wrote stays.

const OWNER = { email: 'owner@demo.e2e.example', password: 'Owner-demo-passphrase-42', role: 'SUPER_ADMIN' } as const;
const BUILT_IN = [
  'Digital Skills Training',
  'Disability Inclusion Talks',
  'Inclusive Communication & Design',
  'Awareness Merchandise',
];

interface OwnServer {
  server: OtherServer;
  data: ServerDatabase;
  db: Kysely<Database>;
  baseURL: string;
}

async function startOwnServer(engine: (typeof E2E_ENGINES)[number], demo: boolean): Promise<OwnServer> {
  const data = await serverDatabase(engine);
  const server = await startServer(
    {
      ...data.env,
      SUPER_ADMIN_EMAIL: OWNER.email,
      SUPER_ADMIN_PASSWORD: OWNER.password,
      DEMO_CONTENT: demo ? 'true' : 'false',
    },
    `tdg-demo-${engine}-`,
  );
  return { server, data, db: await data.database(), baseURL: `http://127.0.0.1:${server.port}` };
}

async function stopOwnServer(own: OwnServer | undefined) {
  await own?.server.dispose();
  await own?.data.dispose();
}

async function pageOn(browser: Browser, own: OwnServer, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: own.baseURL, viewport });
  return { context, page: await context.newPage() };
}

const count = async (db: Kysely<Database>, table: 'content' | 'services' | 'system_users', demo?: 0 | 1) => {
  let query = db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
  if (demo !== undefined) query = query.where('demo', '=', demo);
  return Number((await query.executeTakeFirstOrThrow()).n);
};

for (const engine of E2E_ENGINES) {
  test.describe(`DEMO_CONTENT=false on ${engine}`, () => {
    test.describe.configure({ mode: 'serial', timeout: 180_000 });
    let own: OwnServer | undefined;
    test.beforeAll(async () => {
      test.setTimeout(180_000);
      own = await startOwnServer(engine, false);
    });
    test.afterAll(async () => stopOwnServer(own));

    test('the site starts with no demo stories, news or staff, and the four built-in services', async ({ browser }) => {
      const { db } = own!;
      expect(await count(db, 'content')).toBe(0);
      expect((await db.selectFrom('system_users').select('email').execute()).map((r) => r.email)).toEqual([OWNER.email]);
      expect(await count(db, 'services', 0)).toBe(4);

      const { context, page } = await pageOn(browser, own!);
      try {
        // The lists show the spec's empty states (§8).
        await page.goto('/blog');
        await expect(page.getByText('No stories available yet. Check back soon for new content.')).toBeVisible();
        await page.goto('/news');
        await expect(page.getByText('No articles available. Check back later for updates.')).toBeVisible();
        await page.goto('/services');
        await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toContainText(BUILT_IN);

        // The super admin lands on the Overview, which has nothing to remove and nothing published.
        await signInWithForm(page, OWNER);
        await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
        await expect(page.getByRole('heading', { name: 'Demo content is still on the site' })).toHaveCount(0);
        await expect(page.getByRole('region', { name: 'Latest published' })).toContainText('Nothing is published yet.');
        await page.goto('/admin/demo-content');
        await expect(page.getByText('There is no demo content on this site.')).toBeVisible();
        await expectNoA11yIssues(page);
      } finally {
        await context.close();
      }
    });
  });

  test.describe(`removing the demo on ${engine}`, () => {
    test.describe.configure({ mode: 'serial', timeout: 240_000 });
    let own: OwnServer | undefined;
    let editor: Staff;
    let admin: Staff;
    const teamStory = `Our own story from the team ${Date.now()}`;

    test.beforeAll(async ({ playwright }) => {
      test.setTimeout(240_000);
      own = await startOwnServer(engine, true);
      // A story the team writes through the dashboard: it must survive.
      editor = await createStaff(own.db, 'EDITOR');
      const request = await playwright.request.newContext({ baseURL: own.baseURL });
      await apiSignIn(request, editor);
      const saved = await postSave(request, 'news', {
        title: teamStory,
        category: 'community',
        summary: 'Written by our team after the site went live.',
        content: '<p>Our team wrote this story after the site went live, about a workshop we ran in Mukono last month.</p>',
      });
      expect(saved.status(), await saved.text()).toBe(200);
      await request.dispose();
    });
    test.afterAll(async () => stopOwnServer(own));

    test('the confirmation names what will go and passes axe at 375 and 1280 px; others are refused', async ({
      browser,
      playwright,
    }) => {
      const { db } = own!;
      const demoStories = Number(
        (
          await db
            .selectFrom('content')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('demo', '=', 1)
            .where('collection', '=', 'blogs')
            // Issue 26: a story's Luganda and Swahili versions go with it; they are not stories of their own.
            .where('language', '=', 'en')
            .executeTakeFirstOrThrow()
        ).n,
      );
      expect(demoStories).toBeGreaterThan(0);
      const { context, page } = await pageOn(browser, own!);
      try {
        await signInWithForm(page, OWNER);
        const notice = page.getByRole('region', { name: 'Demo content is still on the site' });
        await expect(notice).toBeVisible();
        await notice.getByRole('link', { name: 'Review and remove demo content' }).click();
        await expect(page).toHaveURL(/\/admin\/demo-content$/);
        await expect(page.getByRole('heading', { level: 1, name: 'Remove demo content' })).toBeVisible();
        const list = page.getByRole('main').getByRole('listitem');
        await expect(list.filter({ hasText: `${demoStories} demo stories` })).toHaveCount(1);
        const staffList = page.getByRole('list', { name: 'Demo staff accounts' }).getByRole('listitem');
        await expect(staffList).toHaveCount(SEED_AUTHORS.length);
        for (const author of SEED_AUTHORS)
          await expect(staffList.filter({ hasText: `${author.name} (${author.email})` })).toHaveCount(1);
        await expect(page.getByText('This action cannot be undone.')).toBeVisible();
        await expect(page.getByRole('heading', { name: 'The founder story' })).toBeVisible();
        await expectNoA11yIssues(page);
        await page.setViewportSize(MOBILE);
        await expectNoA11yIssues(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      } finally {
        await context.close();
      }

      // Anyone but the super admin: Access Restricted, and a hand-made post is refused.
      admin = await createStaff(own!.db, 'ADMIN');
      const request = await playwright.request.newContext({ baseURL: own!.baseURL });
      try {
        await apiSignIn(request, admin);
        const refusedPage = await request.get('/admin/demo-content');
        expect(refusedPage.status()).toBe(403);
        const text = (await refusedPage.text()).replace(/&#x27;|&#39;/g, "'");
        expect(text).toContain(accessRestrictedText('ADMIN'));
        const refused = await request.post('/admin/demo-content', { form: { confirm: 'yes' }, maxRedirects: 0 });
        expect(refused.status()).toBe(403);
        expect(await count(own!.db, 'content', 1)).toBeGreaterThan(0);
      } finally {
        await request.dispose();
      }
    });

    test('the super admin removes the demo in one action; the team’s story, services and accounts stay', async ({ browser }) => {
      const { db } = own!;
      const before = await db.selectFrom('content').select(['collection', 'language']).where('demo', '=', 1).execute();
      // Issue 26: the message counts items; their Luganda and Swahili versions go with them.
      const items = before.filter((r) => r.language === 'en');
      const expected: DemoCounts = {
        stories: items.filter((r) => r.collection === 'blogs').length,
        news: items.filter((r) => r.collection === 'news').length,
        resources: items.filter((r) => r.collection === 'resources').length,
        services: 0,
        staff: await count(db, 'system_users', 1),
      };
      expect(expected.staff).toBe(SEED_AUTHORS.length);

      const { context, page } = await pageOn(browser, own!);
      try {
        await signInWithForm(page, OWNER);
        await page.goto('/admin/demo-content');
        // Without the box ticked the browser asks first; the server would refuse it too.
        await page.getByRole('button', { name: 'Remove demo content' }).click();
        await expect(page).toHaveURL(/\/admin\/demo-content$/);
        expect(await count(db, 'content', 1)).toBe(before.length);

        await page.getByLabel('I understand that the demo content listed above will be removed for good.').check();
        await page.getByRole('button', { name: 'Remove demo content' }).click();
        await expect(page.getByText(demoRemovedMessage(expected))).toBeVisible();
        await expect(page.getByText('There is no demo content on this site.')).toBeVisible();

        expect(await count(db, 'content', 1)).toBe(0);
        expect(await count(db, 'system_users', 1)).toBe(0);
        expect((await db.selectFrom('content').select('title').execute()).map((r) => r.title)).toEqual([teamStory]);
        expect((await db.selectFrom('system_users').select('email').orderBy('email').execute()).map((r) => r.email)).toEqual(
          [admin.email, editor.email, OWNER.email].sort(),
        );
        expect(await count(db, 'services', 0)).toBe(4);
        const audit = await db
          .selectFrom('audit_log')
          .select(['actor_email', 'detail'])
          .where('action', '=', 'demo.removed')
          .execute();
        expect(audit).toEqual([{ actor_email: OWNER.email, detail: JSON.stringify(expected) }]);

        // The Overview no longer asks, and the public site shows only what the team made.
        await page.goto('/admin/overview');
        await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
        await expect(page.getByRole('region', { name: 'Demo content is still on the site' })).toHaveCount(0);
        await page.goto('/blog');
        await expect(page.getByText('No stories available yet. Check back soon for new content.')).toBeVisible();
        await page.goto('/news');
        await expect(page.getByRole('main').getByRole('heading', { name: teamStory })).toBeVisible();
        await page.goto('/services');
        await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toContainText(BUILT_IN);

        // A second removal finds nothing and says so.
        const again = await page.request.post('/admin/demo-content', { form: { confirm: 'yes' }, maxRedirects: 0 });
        expect(again.status()).toBe(303);
        await page.goto('/admin/demo-content');
        await expect(page.getByText(DEMO_MESSAGES.nothing)).toBeVisible();
        expect(await db.selectFrom('audit_log').select('id').where('action', '=', 'demo.removed').execute()).toHaveLength(1);
      } finally {
        await context.close();
      }
    });
  });
}
