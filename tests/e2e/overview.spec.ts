import type { Page } from '@playwright/test';
import type { Kysely } from 'kysely';
import { articlePath, type Collection } from '../../app/lib/collections';
import type { Role } from '../../app/lib/permissions';
import type { Database } from '../../app/server/db/schema';
import { expect, LAYOUT, test } from './fixtures';
import { DESKTOP, expectNoA11yIssues, MOBILE } from './support';

// Issue 11: the dashboard's first screen. Every role lands on it from the sign-in form and sees what
// is theirs (unread messages, new subscribers, the latest published items, demo content to remove),
// each linking to its screen, and nothing that is not.

test.use({ viewport: DESKTOP });
test.describe.configure({ timeout: 60_000 });

const messagesCard = (page: Page) => page.getByRole('region', { name: 'Messages' });
const subscribersCard = (page: Page) => page.getByRole('region', { name: 'Newsletter subscribers' });
const latestCard = (page: Page) => page.getByRole('region', { name: 'Latest published' });
const demoNotice = (page: Page) => page.getByRole('region', { name: 'Demo content is still on the site' });

const number = (n: number) => n.toLocaleString('en-US');
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

async function unreadMessages(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('contacts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'new')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Confirmed subscribers (issue 12), new by when they confirmed. */
async function subscribers(db: Kysely<Database>): Promise<{ recent: number; total: number }> {
  const since = new Date(Date.now() - 30 * 86_400_000).toISOString();
  const rows = await db.selectFrom('newsletter_subscribers').select('confirmed_at').where('status', '=', 'confirmed').execute();
  return { recent: rows.filter((r) => (r.confirmed_at ?? '') >= since).length, total: rows.length };
}

async function latest(db: Kysely<Database>): Promise<{ id: string; collection: Collection; title: string }[]> {
  return (
    db
      .selectFrom('content')
      .select(['id', 'collection', 'title'])
      .where('status', '=', 'published')
      // Issue 26: an item once, in English; its Luganda and Swahili versions are not items of their own.
      .where('language', '=', 'en')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(5)
      .execute()
  );
}

/**
 * The page agrees with the database. Other journeys add messages, subscribers and stories while this
 * one runs, so the page is read again until both were read between the same changes.
 */
async function expectFigures(page: Page, check: () => Promise<void>) {
  await expect(async () => {
    await page.reload();
    await check();
  }).toPass({ timeout: 30_000 });
}

test('an admin lands on the Overview and sees unread messages, new subscribers and the latest items, each linked', async ({
  page,
  signIn,
  database,
}) => {
  // Something to count whatever other journeys left: an unread and a read message, a subscriber who
  // confirmed this week, one who confirmed last year and one still waiting (all removed at the end).
  const mark = `overview-${Date.now()}`;
  const now = new Date().toISOString();
  const message = {
    name: 'Overview test',
    email: `${mark}@e2e.example`,
    phone: null,
    subject: mark,
    message: 'Hello',
    created_at: now,
  };
  await database
    .insertInto('contacts')
    .values([
      { ...message, id: `${mark}-new`, read_at: null, status: 'new', status_changed_at: null, status_changed_by: null },
      { ...message, id: `${mark}-read`, read_at: now, status: 'read', status_changed_at: now, status_changed_by: null },
    ])
    .execute();
  await database
    .insertInto('newsletter_subscribers')
    .values([
      {
        id: `${mark}-recent`,
        email: `${mark}-recent@e2e.example`,
        source: null,
        created_at: daysAgo(3),
        status: 'confirmed',
        confirmed_at: daysAgo(2),
      },
      {
        id: `${mark}-old`,
        email: `${mark}-old@e2e.example`,
        source: null,
        created_at: daysAgo(401),
        status: 'confirmed',
        confirmed_at: daysAgo(400),
      },
      // Waiting for confirmation: not a subscriber yet.
      {
        id: `${mark}-pending`,
        email: `${mark}-pending@e2e.example`,
        source: null,
        created_at: daysAgo(1),
        status: 'pending',
        confirmed_at: null,
      },
    ])
    .execute();
  try {
    await signIn('ADMIN', { via: 'form' });
    await expect(page).toHaveURL(/\/admin\/overview$/);
    await expect(page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link').first()).toHaveText('Overview');
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await expect(page.getByText('You are signed in as Admin: manages all content but not users.')).toBeVisible();

    await expectFigures(page, async () => {
      const unread = await unreadMessages(database);
      expect(unread).toBeGreaterThan(0);
      await expect(messagesCard(page)).toContainText(
        unread === 0 ? 'No unread messages' : `${number(unread)} unread message${unread === 1 ? '' : 's'}`,
        { timeout: 1_000 },
      );
    });
    await expectFigures(page, async () => {
      const { recent, total } = await subscribers(database);
      expect(total).toBeGreaterThan(recent);
      const card = subscribersCard(page);
      await expect(card).toContainText(`${number(recent)} new subscriber${recent === 1 ? '' : 's'}`, { timeout: 1_000 });
      await expect(card).toContainText(`in the last 30 days, ${number(total)} in total.`, { timeout: 1_000 });
    });
    // The items the page was checked against: another journey may publish one a moment later.
    let shown: Awaited<ReturnType<typeof latest>> = [];
    await expectFigures(page, async () => {
      const items = await latest(database);
      const links = latestCard(page).getByRole('listitem');
      await expect(links).toHaveCount(items.length, { timeout: 1_000 });
      for (const [i, item] of items.entries()) await expect(links.nth(i)).toContainText(item.title, { timeout: 1_000 });
      shown = items;
    });

    // An admin edits news and blogs: their titles open the edit screen; resources open on the site.
    const first = shown[0]!;
    const row = latestCard(page).getByRole('listitem').first();
    if (first.collection === 'resources') {
      await expect(row.getByRole('link', { name: first.title })).toHaveAttribute('href', articlePath('resources', first.id));
    } else {
      await expect(row.getByRole('link', { name: 'View' })).toHaveAttribute('href', articlePath(first.collection, first.id));
      await row.getByRole('link', { name: `${first.title} (edit)` }).click();
      await expect(page).toHaveURL(new RegExp(`/admin/content/${first.id}/edit$`));
      await page.goBack();
    }

    await messagesCard(page).getByRole('link', { name: 'Open Messages' }).click();
    await expect(page).toHaveURL(/\/admin\/messages$/);
    // Demo content is the super admin's to remove.
    await page.goto('/admin/overview');
    await expect(demoNotice(page)).toHaveCount(0);
  } finally {
    await database.deleteFrom('contacts').where('subject', '=', mark).execute();
    await database
      .deleteFrom('newsletter_subscribers')
      .where('id', 'in', [`${mark}-recent`, `${mark}-old`, `${mark}-pending`])
      .execute();
  }
});

test('the super admin is also told about demo content still to remove, and the link leads to its screen', async ({
  page,
  signIn,
  database,
}) => {
  await signIn('SUPER_ADMIN', { via: 'form' });
  await expect(page).toHaveURL(/\/admin\/overview$/);
  const demoLeft = await database.selectFrom('content').select('id').where('demo', '=', 1).limit(1).executeTakeFirst();
  // The journeys' servers start with the demo, and no shared journey removes it.
  expect(demoLeft).toBeDefined();
  await expect(messagesCard(page)).toBeVisible();
  await expect(subscribersCard(page)).toBeVisible();
  await expect(latestCard(page)).toBeVisible();
  await demoNotice(page).getByRole('link', { name: 'Review and remove demo content' }).click();
  await expect(page).toHaveURL(/\/admin\/demo-content$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Remove demo content' })).toBeVisible();
});

for (const role of ['EDITOR', 'AUTHOR'] as const satisfies Role[]) {
  test(`${role === 'EDITOR' ? 'an editor' : 'an author'} sees the latest items, and no messages, subscribers or demo`, async ({
    page,
    signIn,
    database,
  }) => {
    await signIn(role, { via: 'form' });
    await expect(page).toHaveURL(/\/admin\/overview$/);
    await expect(latestCard(page)).toBeVisible();
    await expect(messagesCard(page)).toHaveCount(0);
    await expect(subscribersCard(page)).toHaveCount(0);
    await expect(demoNotice(page)).toHaveCount(0);

    await expectFigures(page, async () => {
      const items = await latest(database);
      const row = latestCard(page).getByRole('listitem').first();
      const first = items[0]!;
      const editable = role === 'EDITOR' && first.collection !== 'resources';
      const link = row.getByRole('link', { name: editable ? `${first.title} (edit)` : first.title, exact: true });
      await expect(link).toHaveAttribute(
        'href',
        editable ? `/admin/content/${first.id}/edit` : articlePath(first.collection, first.id),
        { timeout: 1_000 },
      );
    });
    // An author cannot edit: every title leads to the public page.
    if (role === 'AUTHOR') await expect(latestCard(page).getByRole('link', { name: /\(edit\)$/ })).toHaveCount(0);
    const row = latestCard(page).getByRole('listitem').first();
    const href = await row.getByRole('link').first().getAttribute('href');
    await row.getByRole('link').first().click();
    await expect(page).toHaveURL(new RegExp(`${href!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  });
}

test('a viewer lands on the Overview and reads what the role can do', async ({ page, signIn }) => {
  await signIn('VIEWER', { via: 'form' });
  await expect(page).toHaveURL(/\/admin\/overview$/);
  await expect(page.getByText('You are signed in as Viewer: views the dashboard only.')).toBeVisible();
  await expect(page.getByText('Your role can view the dashboard only.')).toBeVisible();
  await expect(latestCard(page)).toHaveCount(0);
  await expect(messagesCard(page)).toHaveCount(0);
  await page.getByRole('main').getByRole('link', { name: 'profile' }).click();
  await expect(page).toHaveURL(/\/admin\/profile$/);
});

for (const viewport of [DESKTOP, MOBILE]) {
  test(`the Overview passes axe and fits at ${viewport.width} px`, { tag: LAYOUT }, async ({ page, signIn }) => {
    await page.setViewportSize(viewport);
    await signIn('SUPER_ADMIN');
    await page.goto('/admin/overview');
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await expectNoA11yIssues(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // Every part is reached with Tab from the top of the page, in reading order.
    const reached: string[] = [];
    await page.locator('#main').focus();
    for (let i = 0; i < 40 && !reached.includes('Audit Log'); i++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''));
    }
    const order = ['Review and remove demo content', 'Open Messages', 'Manage Content', 'Audit Log'].map((name) =>
      reached.indexOf(name),
    );
    expect(
      order.every((at) => at >= 0),
      reached.join(' | '),
    ).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
}
