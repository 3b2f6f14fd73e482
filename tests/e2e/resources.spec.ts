import { expect, test, type Page } from '@playwright/test';
import { SEED_ARTICLES } from '../../app/server/demo/seed-data';
import { E2E } from './env';
import { DESKTOP, expectNoA11yIssues, MOBILE } from './support';

// /resources (spec §2; docs/decisions/204-resources-page.md): the resource articles listed and
// searched like In Media, against the seeded demo content (two resources, newest first).

const RESOURCES = SEED_ARTICLES.filter((a) => a.collection === 'resources').sort((a, b) => a.daysAgo - b.daysAgo);
const NEWEST = RESOURCES[0]!;
const CHECKLIST = RESOURCES.find((a) => /checklist/i.test(a.title))!;

const featured = (page: Page, title: string) => page.getByRole('heading', { level: 2, name: title, exact: true });
const status = (page: Page) => page.getByRole('main').getByRole('status').first();
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search resources' });

/** Waits until the page script (app/client/reading.ts, issue 24) has attached its handlers. */
async function waitForHydration(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-enhanced', 'true', { timeout: 10_000 });
}

test('the seed has resources for the page to show', () => {
  expect(RESOURCES.length).toBeGreaterThanOrEqual(2);
  expect(CHECKLIST).toBeDefined();
  expect(CHECKLIST).not.toBe(NEWEST);
});

for (const viewport of [DESKTOP, MOBILE]) {
  test.describe(`/resources at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('lists the resources, the newest featured and the rest in the grid, with no axe findings', async ({ page }) => {
      const response = await page.goto('/resources');
      expect(response?.status()).toBe(200);
      await expect(page).toHaveTitle('Resources | TDG Uganda');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Resources');
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${E2E.baseURL}/resources`);
      await expect(status(page)).toHaveText(`Showing all ${RESOURCES.length} resources`);

      const hero = page.getByRole('article').filter({ has: featured(page, NEWEST.title) });
      await expect(hero).toContainText('Featured resource');
      await expect(hero.getByRole('link', { name: NEWEST.title })).toHaveAttribute('href', /^\/resources\/[\w-]+$/);
      const grid = page.getByRole('region', { name: 'More Resources' });
      await expect(grid.getByRole('article')).toHaveCount(RESOURCES.length - 1);
      await expect(grid.getByRole('link', { name: CHECKLIST.title })).toHaveAttribute('href', /^\/resources\/[\w-]+$/);
      // The search box alone: a handful of guides needs no category dropdown.
      await expect(searchBox(page)).toBeVisible();
      await expect(page.getByRole('combobox', { name: 'Category' })).toHaveCount(0);
      await expect(page.getByRole('link', { name: 'Ask for a resource' })).toHaveAttribute('href', '/contact?subject=Resources');
      // Nothing runs off the side of a small screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await expectNoA11yIssues(page);
    });

    test('searching narrows the list in the URL, and no match says so', async ({ page }) => {
      await page.goto('/resources');
      await waitForHydration(page);
      await searchBox(page).fill('checklist');
      await expect(page).toHaveURL(/\/resources\?q=checklist$/);
      await expect(status(page)).toHaveText('1 resource found');
      await expect(featured(page, CHECKLIST.title)).toBeVisible();
      await expect(page.getByRole('region', { name: 'More Resources' })).toHaveCount(0);

      await page.goto('/resources?q=zebra');
      await expect(page.getByText('No resources found for "zebra"', { exact: true })).toBeVisible();
      await expect(page.getByRole('main').getByRole('article')).toHaveCount(0);
      await expectNoA11yIssues(page);
      await page.getByRole('link', { name: 'Clear search and filter' }).click();
      await expect(page).toHaveURL(/\/resources$/);
      await expect(featured(page, NEWEST.title)).toBeVisible();
    });

    test('an item opens as an article, whose call to action leads back to /resources', async ({ page }) => {
      await page.goto('/resources');
      await page.getByRole('link', { name: CHECKLIST.title }).click();
      await expect(page).toHaveURL(/\/resources\/[\w-]+$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(CHECKLIST.title);
      const cta = page.getByRole('region', { name: 'Need help making your organisation more inclusive?' });
      const browse = cta.getByRole('link', { name: 'Browse resources' });
      await expect(browse).toHaveAttribute('href', '/resources');
      await browse.click();
      await expect(page).toHaveURL(/\/resources$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Resources');
    });
  });

  test.describe(`/resources without JavaScript at ${viewport.width} px`, () => {
    test.use({ viewport, javaScriptEnabled: false });

    test('search works as a plain GET form', async ({ page }) => {
      await page.goto('/resources');
      await expect(featured(page, NEWEST.title)).toBeVisible();
      await searchBox(page).fill('checklist');
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(page).toHaveURL(/\/resources\?q=checklist$/);
      await expect(featured(page, CHECKLIST.title)).toBeVisible();
      await expect(searchBox(page)).toHaveValue('checklist');

      await searchBox(page).fill('zebra');
      await searchBox(page).press('Enter');
      await expect(page.getByText('No resources found for "zebra"', { exact: true })).toBeVisible();
    });
  });
}

test('the news article call to action leads to /resources too', async ({ request }) => {
  const html = await (await request.get('/news')).text();
  const article = /href="(\/news\/[\w-]+)"/.exec(html)?.[1];
  expect(article).toBeTruthy();
  expect(await (await request.get(article!)).text()).toMatch(/<a[^>]*href="\/resources"[^>]*>Browse resources<\/a>/);
});
