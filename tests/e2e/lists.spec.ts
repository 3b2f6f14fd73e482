import { expect, test, type Page } from '@playwright/test';
import { E2E } from './env';
import { DESKTOP, expectNoA11yIssues, MOBILE } from './support';

// The story list /blog and the news list /news (spec §2, §4, §8, §9) against the seeded demo
// content: 8 stories and 8 news articles, so each list has a single page.

const LISTS = [
  {
    path: '/blog',
    h1: 'Stories',
    searchLabel: 'Search stories',
    featuredLabel: 'Featured story',
    moreHeading: 'More Stories',
    loading: 'Loading stories...',
    all: 'Showing all 8 stories',
    newest: 'Front Row, Eyes Open: A Deaf Student’s Week in a Kampala Classroom',
    match: { q: 'wakiso', title: 'A Mother’s New Language: Learning to Sign with My Daughter in Wakiso', found: '1 story found' },
    noMatch: { title: 'No stories found', hint: 'Try adjusting your search or filter to find what you are looking for.' },
    category: {
      label: 'Personal Experience',
      value: 'personal-experience',
      titles: [
        'Seeing the Job, Not the Eyes: Job-Hunting with Low Vision in Jinja',
        'The Day My Teacher Turned Around: Growing Up Deaf in Mukono',
      ],
      found: '2 stories found',
      // Narrows the category to its second title.
      narrowQ: 'teacher',
    },
    // 73 characters: shortened to 60 on its card.
    longTitle: { text: 'Boda-Bodas, Ramps and Taxi Stages: Getting Around Kampala in a Wheelchair', max: 60 },
  },
  {
    path: '/news',
    h1: 'In Media: News and Resources',
    searchLabel: 'Search articles',
    featuredLabel: 'Featured update',
    moreHeading: 'More Updates',
    loading: 'Loading articles...',
    all: 'Showing all 8 articles',
    newest: 'Sign Language Awareness Workshops Reach Workplaces in Mukono and Jinja',
    match: {
      q: 'partnership',
      title: 'New Partnership Brings Sign Language Clubs to Three Wakiso Primary Schools',
      found: '1 article found',
    },
    noMatch: { title: 'No articles found for "zebra"', hint: 'Try other words, another category, or clear the search.' },
    category: {
      label: 'Opportunities',
      value: 'opportunities',
      titles: [
        'Applications Open: Free Digital Skills Course for Young People with Disabilities',
        'Call for Storytellers: Share Your Experience on the TDG Uganda Blog',
      ],
      found: '2 articles found',
      narrowQ: 'storytellers',
    },
    // 80 characters exactly: shown whole on its card.
    longTitle: { text: 'Applications Open: Free Digital Skills Course for Young People with Disabilities', max: 80 },
  },
] as const;

type List = (typeof LISTS)[number];

const featured = (page: Page, title: string) => page.getByRole('heading', { level: 2, name: title, exact: true });
const grid = (page: Page, list: List) => page.getByRole('region', { name: list.moreHeading });
const status = (page: Page) => page.getByRole('main').getByRole('status').first();

/** Waits until the page script (app/client/reading.ts, issue 24) has attached its handlers. */
async function waitForHydration(page: Page, _list: List) {
  await expect(page.locator('html')).toHaveAttribute('data-enhanced', 'true', { timeout: 10_000 });
}

/** The script's requests for the list's results: the list's own address with a search in it. */
const isResultsRequest = (list: List, url: URL) => url.pathname === list.path && url.searchParams.has('q');

/**
 * Searching, filtering and bad input behave the same at any width (the same form, the same loader):
 * each behaviour runs at one width, the two widths sharing them, while the layout is checked at both.
 */

for (const viewport of [DESKTOP, MOBILE]) {
  const wide = viewport === DESKTOP;
  for (const list of LISTS) {
    test.describe(`${list.path} at ${viewport.width} px`, () => {
      test.use({ viewport });

      test('shows one featured item, then the rest in the grid, with no page links', async ({ page }) => {
        const response = await page.goto(list.path);
        expect(response?.status()).toBe(200);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(list.h1);
        await expect(page.locator('h1')).toHaveCount(1);
        await expect(status(page)).toHaveText(list.all);

        const hero = page.getByRole('article').filter({ has: featured(page, list.newest) });
        await expect(hero).toContainText(list.featuredLabel);
        await expect(hero.getByRole('link', { name: list.newest })).toHaveAttribute('href', new RegExp(`^${list.path}/[\\w-]+$`));
        await expect(hero.locator('time')).toHaveText(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
        await expect(hero.getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveCount(4);
        await expect(hero).not.toContainText('more');
        await expect(hero.locator('img')).toHaveAttribute('loading', 'eager');

        await expect(page.getByRole('heading', { level: 2, name: list.moreHeading })).toBeVisible();
        const cards = grid(page, list).getByRole('article');
        await expect(cards).toHaveCount(7);
        for (const card of await cards.all()) {
          await expect(card.getByRole('link')).toHaveAttribute('href', new RegExp(`^${list.path}/[\\w-]+$`));
          await expect(card.locator('time')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
          // Every seeded item has five tags: three are shown, with a note for the other two.
          await expect(card.getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveText([/^#/, /^#/, /^#/, '+2 more']);
          await expect(card.locator('img')).toHaveAttribute('loading', 'lazy');
          await expect(card).toContainText(/By \S+/);
        }

        // Card titles are shortened for the eye (spec §9) but read in full to screen readers.
        const long = grid(page, list).getByRole('link', { name: list.longTitle.text });
        await expect(long).toHaveCount(1);
        const shown = await long.evaluate((el) => (el.querySelector('[aria-hidden="true"]') ?? el).textContent ?? '');
        expect(shown.length).toBeLessThanOrEqual(list.longTitle.max);
        expect(shown.endsWith('…')).toBe(list.longTitle.text.length > list.longTitle.max);

        await expect(page.getByRole('navigation', { name: 'Pagination' })).toHaveCount(0);
        await expect(page.getByRole('link', { name: /Next page/ })).toHaveCount(0);
        await expectNoA11yIssues(page);
      });

      if (wide)
        test('a search that matches shows that item, and the URL carries it', async ({ page }) => {
          await page.goto(list.path);
          await page.getByLabel(list.searchLabel).fill(list.match.q);
          await page.getByRole('button', { name: 'Search' }).click();
          await expect(page).toHaveURL(new RegExp(`${list.path}\\?q=${list.match.q}$`));
          await expect(featured(page, list.match.title)).toBeVisible();
          await expect(status(page)).toHaveText(list.match.found);
          await expect(page.getByRole('heading', { name: list.moreHeading })).toHaveCount(0);
          await expect(page.getByLabel(list.searchLabel)).toHaveValue(list.match.q);
        });

      if (!wide)
        test('a search with no match says so in the words of the spec', async ({ page }) => {
          await page.goto(`${list.path}?q=zebra`);
          await expect(page.getByText(list.noMatch.title, { exact: true })).toBeVisible();
          await expect(page.getByText(list.noMatch.hint)).toBeVisible();
          await expect(page.getByRole('main').getByRole('article')).toHaveCount(0);
          await expect(page.getByLabel(list.searchLabel)).toHaveValue('zebra');
          await expectNoA11yIssues(page);
          await page.getByRole('link', { name: 'Clear search and filter' }).click();
          await expect(page).toHaveURL(new RegExp(`${list.path}$`));
          await expect(featured(page, list.newest)).toBeVisible();
          await expect(page.getByLabel(list.searchLabel)).toHaveValue('');
        });

      if (wide)
        test('the category filter keeps to one category and is in the URL', async ({ page }) => {
          await page.goto(list.path);
          await waitForHydration(page, list);
          await page.getByLabel('Category').selectOption({ label: list.category.label });
          await expect(page).toHaveURL(new RegExp(`${list.path}\\?category=${list.category.value}$`));
          await expect(status(page)).toHaveText(list.category.found);
          await expect(featured(page, list.category.titles[0])).toBeVisible();
          await expect(grid(page, list).getByRole('link', { name: list.category.titles[1] })).toBeVisible();
          const badges = page.getByRole('main').getByRole('article').getByText(list.category.label, { exact: true });
          await expect(badges).toHaveCount(2);
          await expect(page.getByLabel('Category')).toHaveValue(list.category.value);
          // A shared link opens the same results.
          await page.goto(`${list.path}?category=${list.category.value}&q=${list.category.narrowQ}`);
          await expect(featured(page, list.category.titles[1])).toBeVisible();
          await expect(page.getByLabel('Category')).toHaveValue(list.category.value);
        });

      if (!wide)
        test('typing updates the results without a full reload, showing the loading text meanwhile', async ({ page }) => {
          await page.goto(list.path);
          await waitForHydration(page, list);
          await page.evaluate(() => Object.assign(window, { __sameDocument: 'yes' }));
          // Hold the data requests back until the loading state has been seen.
          let answer!: () => void;
          const seenLoading = new Promise<void>((resolve) => (answer = resolve));
          await page.route(
            (url) => isResultsRequest(list, url),
            async (route) => {
              await seenLoading;
              await route.continue();
            },
          );
          const requests: string[] = [];
          page.on('request', (r) => {
            if (isResultsRequest(list, new URL(r.url()))) requests.push(r.url());
          });
          await page.getByLabel(list.searchLabel).pressSequentially(list.match.q, { delay: 20 });
          await expect(status(page)).toHaveText(list.loading);
          answer();
          await expect(page).toHaveURL(new RegExp(`${list.path}\\?q=${list.match.q}$`));
          await expect(featured(page, list.match.title)).toBeVisible();
          await expect(status(page)).toHaveText(list.match.found);
          expect(await page.evaluate(() => (window as unknown as { __sameDocument?: string }).__sameDocument)).toBe('yes');
          // Debounced: not one request per key, and the last one is for the whole word.
          const dataRequests = requests;
          expect(dataRequests.length).toBeLessThan(list.match.q.length);
          expect(dataRequests.at(-1)).toContain(`q=${list.match.q}`);
          await expect(page.getByLabel(list.searchLabel)).toHaveValue(list.match.q);
          await expect(page.getByLabel(list.searchLabel)).toBeFocused();
        });

      if (wide)
        test('bad input gets a clear page, never a server error', async ({ page, request }) => {
          const long = await request.get(`${list.path}?q=${'a'.repeat(5000)}`);
          expect(long.status()).toBe(400);
          expect(await long.text()).toContain('Your search is too long. Please use at most 200 characters.');

          let dialogs = 0;
          page.on('dialog', (dialog) => {
            dialogs++;
            void dialog.dismiss();
          });
          const script = '<script>alert(1)</script>';
          const response = await page.goto(`${list.path}?category=${encodeURIComponent(script)}`);
          expect(response?.status()).toBe(200);
          await expect(page.getByText(`There is no category “${script}”.`, { exact: false })).toBeVisible();
          await expect(featured(page, list.newest)).toBeVisible();
          await expect(page.getByLabel('Category')).toHaveValue('');
          expect(dialogs).toBe(0);
          await expectNoA11yIssues(page);

          for (const bad of ['-1', 'abc', '999', '1e9']) {
            const paged = await page.goto(`${list.path}?page=${bad}`);
            expect(paged?.status()).toBe(200);
            await expect(featured(page, list.newest)).toBeVisible();
          }
        });

      if (!wide)
        test('a search keeps the canonical address on the bare list', async ({ page }) => {
          await page.goto(`${list.path}?q=sign&category=community`);
          await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${E2E.baseURL}${list.path}`);
          await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{40,}/);
        });
    });

    test.describe(`${list.path} without JavaScript at ${viewport.width} px`, () => {
      test.use({ viewport, javaScriptEnabled: false });

      if (!wide)
        test('search and category work as a plain form', async ({ page }) => {
          await page.goto(list.path);
          await expect(featured(page, list.newest)).toBeVisible();
          await page.getByLabel(list.searchLabel).fill(list.category.narrowQ);
          await page.getByLabel('Category').selectOption({ label: list.category.label });
          await page.getByRole('button', { name: 'Search' }).click();
          await expect(page).toHaveURL(new RegExp(`${list.path}\\?q=${list.category.narrowQ}&category=${list.category.value}$`));
          await expect(featured(page, list.category.titles[1])).toBeVisible();
          await expect(page.getByLabel('Category')).toHaveValue(list.category.value);

          await page.getByLabel(list.searchLabel).fill('zebra');
          await page.getByLabel(list.searchLabel).press('Enter');
          await expect(page.getByText(list.noMatch.title, { exact: true })).toBeVisible();
        });
    });
  }

  test.describe(`list calls to action at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('/blog ends with submit-a-story and mission links', async ({ page }) => {
      await page.goto('/blog');
      await expect(page.getByRole('link', { name: 'Submit your story' })).toHaveAttribute(
        'href',
        '/contact?subject=Share%20my%20story',
      );
      await page.getByRole('link', { name: 'Learn about our mission' }).click();
      await expect(page).toHaveURL(/\/about$/);
    });

    test('/news has the Helpful Resources cards and the newsletter box', async ({ page }) => {
      await page.goto('/news');
      const resources = page.getByRole('region', { name: 'Helpful Resources' });
      await expect(resources.getByRole('listitem')).toHaveCount(3);
      await expect(resources.getByRole('link', { name: 'Take Course' })).toHaveAttribute('href', '/course');
      await expect(resources.getByRole('link', { name: 'Join Program' })).toHaveAttribute('href', '/services');
      await expect(resources.getByRole('link', { name: 'Get Resources' })).toHaveAttribute('href', '/contact');
      const newsletter = page.getByRole('region', { name: 'Stay informed' });
      await expect(newsletter.getByLabel('Email address')).toBeVisible();
      await expect(newsletter.getByRole('button', { name: 'Subscribe' })).toBeVisible();
      await expect(newsletter.locator('input[name="source"]')).toHaveValue('/news');
    });
  });
}
