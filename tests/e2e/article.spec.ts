import path from 'node:path';
import SQLite from 'better-sqlite3';
import { expect, test, type Page } from '@playwright/test';
import { ARTICLE_TEXTS } from '../../app/lib/article';
import { articlePath, type Collection } from '../../app/lib/collections';
import { categoryLabel } from '../../app/lib/categories';
import { formatDate } from '../../app/lib/format';
import { truncate } from '../../app/lib/text';
import { SEED_ARTICLES, SEED_AUTHORS, type SeedArticle } from '../../app/server/demo/seed-data';
import { E2E } from './env';
import { DESKTOP, expectNoA11yIssues, MOBILE } from './support';

// The article page (spec §2 "Article page", §7 related articles, §8 errors) for the demo content the
// server seeds on start. Ids carry a random suffix, so they are read from the journeys' database.

interface Seeded extends SeedArticle {
  id: string;
  createdAt: string;
  path: string;
}

function seeded(title: string): Seeded {
  const seed = SEED_ARTICLES.find((a) => a.title === title);
  if (!seed) throw new Error(`No seed article ${title}`);
  const db = new SQLite(path.join(E2E.dataDir!, 'tdg.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare('SELECT id, created_at FROM content WHERE title = ? AND collection = ?')
      .get(title, seed.collection) as { id: string; created_at: string } | undefined;
    if (!row) throw new Error(`Seed article ${title} is not in the database`);
    return { ...seed, id: row.id, createdAt: row.created_at, path: articlePath(seed.collection, row.id) };
  } finally {
    db.close();
  }
}

/** The read time a visitor should see, counted here from the seeded body (200 words a minute, rounded up). */
function expectedReadTime(html: string): string {
  const text = html
    .replace(/<\/(p|h[1-6]|li|blockquote)>|<br\s*\/?>/gi, ' ')
    .replace(/<[^<>]+>/g, '')
    .replace(/&[a-z]+;/g, ' ');
  const words = text.split(/\s+/).filter(Boolean).length;
  return `${Math.max(1, Math.ceil(words / 200))} min read`;
}

const BLOG = 'Front Row, Eyes Open: A Deaf Student’s Week in a Kampala Classroom';
const NEWS = 'Know Your Rights: Community Sessions on the Persons with Disabilities Act 2020';
const RESOURCE = SEED_ARTICLES.find((a) => a.collection === 'resources')!.title;

const SECTION: Record<Collection, { label: string; href: string }> = {
  blogs: { label: 'Stories', href: '/blog' },
  news: { label: 'In Media', href: '/news' },
  resources: { label: 'Resources', href: '/resources' },
};

async function expectWholeArticle(page: Page, article: Seeded) {
  const response = await page.goto(article.path);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(`${article.title} | TDG Uganda`);
  await expect(page.locator('h1')).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(article.title);

  // Breadcrumb: Home / section / title shortened to 50 characters.
  const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(breadcrumb.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
  const section = SECTION[article.collection];
  await expect(breadcrumb.getByRole('link', { name: section.label })).toHaveAttribute('href', section.href);
  const crumb = breadcrumb.locator('[aria-current="page"]');
  await expect(crumb).toHaveText(truncate(article.title, 50));
  expect(article.title.length).toBeGreaterThan(50);
  expect((await crumb.textContent())!.length).toBeLessThanOrEqual(50);
  await expect(crumb).toHaveText(/…$/);

  const main = page.getByRole('main');
  await expect(main.getByText(`Category: ${categoryLabel(article.category)}`, { exact: true })).toBeVisible();
  await expect(main.locator('header time')).toHaveText(formatDate(article.createdAt));
  await expect(main.getByText(expectedReadTime(article.content), { exact: true })).toBeVisible();
  await expect(main.getByText(article.summary, { exact: true })).toBeVisible();

  // Author block from the staff profile.
  const author = SEED_AUTHORS.find((a) => a.email === article.authorEmail)!;
  await expect(main.locator('header').getByText(author.name)).toBeVisible();
  await expect(main.locator('header').getByText(author.title)).toBeVisible();

  // Hero image with the content's alt text, loaded eagerly.
  const hero = main.getByRole('img', { name: article.image.alt, exact: true }).first();
  await expect(hero).toBeVisible();
  await expect(hero).toHaveAttribute('loading', 'eager');

  // The HTML body: its first subheading is a real heading.
  const firstSubheading = /<h2>([^<]+)<\/h2>/.exec(article.content)![1]!;
  await expect(main.getByRole('heading', { level: 2, name: firstSubheading })).toBeVisible();

  for (const tag of article.tags) await expect(main.getByText(`#${tag}`, { exact: true })).toBeVisible();

  // Share links: the sharers' addresses with this page's address encoded, in a new tab.
  const encoded = encodeURIComponent(page.url());
  for (const [network, host] of [
    ['Facebook', 'https://www.facebook.com/sharer/sharer.php?u='],
    ['Twitter', 'https://twitter.com/intent/tweet?url='],
    ['LinkedIn', 'https://www.linkedin.com/sharing/share-offsite/?url='],
  ] as const) {
    const link = main.getByRole('link', { name: `Share on ${network} (opens in a new tab)` });
    await expect(link).toHaveAttribute('href', new RegExp(`^${escapeRegExp(host + encoded)}`));
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  }
  await expect(main.getByRole('button', { name: 'Copy Link' })).toBeVisible();

  const about = main.getByRole('region', { name: 'About the Author' });
  await expect(about.getByText(author.fullBio)).toBeVisible();
  if (author.linkedin)
    await expect(about.getByRole('link', { name: 'LinkedIn (opens in a new tab)' })).toHaveAttribute('href', author.linkedin);

  const cta = main.getByRole('region', { name: 'Need help making your organisation more inclusive?' });
  await expect(cta.getByRole('link', { name: 'Book a consultation' })).toHaveAttribute('href', /^\/contact/);
  await expect(cta.getByRole('link', { name: 'Browse resources' })).toHaveAttribute('href', '/resources');
  await expect(main.getByRole('region', { name: 'Stay informed' }).getByLabel('Email address')).toBeVisible();
}

async function relatedLinks(page: Page) {
  return page.getByRole('region', { name: 'Related Articles' }).getByRole('listitem').getByRole('link');
}

/** Waits until the page's script runs: the reading-progress bar then follows a small scroll. */
async function waitForScript(page: Page) {
  await page.evaluate(() => window.scrollTo(0, 400));
  await expect(page.locator('[data-reading-progress]')).not.toHaveAttribute('data-progress', '0');
  await page.evaluate(() => window.scrollTo(0, 0));
}

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

for (const viewport of [DESKTOP, MOBILE]) {
  test.describe(`article page at ${viewport.width} px`, () => {
    test.use({ viewport });

    // Only two resources exist, so a resource has one related article; stories and news have 3.
    for (const [kind, title, relatedCount] of [
      ['a story', BLOG, 3],
      ['a news article', NEWS, 3],
      ['a resource', RESOURCE, 1],
    ] as const) {
      test(`${kind} shows every element, ${relatedCount} related and no accessibility issue`, async ({ page }) => {
        const article = seeded(title);
        await expectWholeArticle(page, article);
        const links = await relatedLinks(page);
        await expect(links).toHaveCount(relatedCount);
        const hrefs = await links.evaluateAll((els) => els.map((el) => el.getAttribute('href')));
        for (const href of hrefs) {
          expect(href?.startsWith(`${articlePath(article.collection, '')}`)).toBe(true);
          expect(href).not.toBe(article.path);
        }
        expect(new Set(hrefs).size).toBe(hrefs.length);
        await expectNoA11yIssues(page);
      });
    }

    test('a missing article answers 404 with Article Not Found and no accessibility issue', async ({ page }) => {
      const response = await page.goto('/blog/no-such-story');
      expect(response?.status()).toBe(404);
      await expect(page).toHaveTitle(`${ARTICLE_TEXTS.notFoundTitle} | TDG Uganda`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Article Not Found');
      await expect(page.getByRole('link', { name: 'Go Back' })).toBeVisible();
      await expectNoA11yIssues(page);
    });
  });
}

test.describe('article page behaviour', () => {
  test.use({ viewport: DESKTOP });

  test('Copy Link copies the page address and says so', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: E2E.baseURL });
    const article = seeded(NEWS);
    await page.goto(article.path);
    await waitForScript(page);
    await page.getByRole('button', { name: 'Copy Link' }).click();
    await expect(page.getByRole('status').getByText('Link copied to clipboard!')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
  });

  test('the reading-progress bar follows the scroll position', async ({ page }) => {
    await page.goto(seeded(BLOG).path);
    const bar = page.locator('[data-reading-progress]');
    const width = () => bar.evaluate((el) => el.getBoundingClientRect().width);
    await expect(bar).toHaveAttribute('data-progress', '0');
    expect(await width()).toBe(0);

    await page.evaluate(() => window.scrollTo(0, (document.documentElement.scrollHeight - window.innerHeight) / 2));
    await expect(bar).toHaveAttribute('data-progress', /^(4[5-9]|5[0-5])$/);
    expect(await width()).toBeGreaterThan(DESKTOP.width * 0.4);
    expect(await width()).toBeLessThan(DESKTOP.width * 0.6);

    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(bar).toHaveAttribute('data-progress', '100');
    expect(await width()).toBe(DESKTOP.width);
    // Decorative: nothing is announced to screen readers on every scroll.
    await expect(page.getByRole('progressbar')).toHaveCount(0);
  });

  test('a related article opens, with a skeleton in place of the old one while it loads', async ({ page }) => {
    const article = seeded(BLOG);
    await page.goto(article.path);
    await waitForScript(page);
    const first = (await relatedLinks(page)).first();
    const title = (await first.textContent())!;
    // Issue 24: the next article is an ordinary page load, and Playwright's click waits for it to
    // arrive, so the moment between is seen by stopping that one load after the page has reacted
    // to the click (a listener on the window runs after the page's own).
    await page.evaluate(() => window.addEventListener('click', (event) => event.preventDefault(), { once: true }));
    await first.click();
    await expect(page.getByRole('status').getByText('Loading article...')).toBeAttached();
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(0);
    expect(page.url()).toContain(article.path);

    // Followed for real, the link opens the article without the skeleton.
    await page.goto(article.path);
    await (await relatedLinks(page)).first().click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByText('Loading article...')).toHaveCount(0);
  });

  test('search engines and sharing cards get the article: Open Graph, Twitter card and JSON-LD', async ({ page }) => {
    const article = seeded(NEWS);
    await page.goto(article.path);
    const url = `${E2E.baseURL}${article.path}`;
    const head = page.locator('head');
    await expect(head.locator('meta[property="og:type"]')).toHaveAttribute('content', 'article');
    await expect(head.locator('meta[name="description"]')).toHaveAttribute('content', article.summary);
    await expect(head.locator('meta[property="og:title"]')).toHaveAttribute('content', article.title);
    await expect(head.locator('meta[property="og:image"]')).toHaveAttribute(
      'content',
      /^http:\/\/127\.0\.0\.1:\d+\/media\/news\//,
    );
    await expect(head.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image');
    await expect(head.locator('link[rel="canonical"]')).toHaveAttribute('href', url);
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
    expect(jsonLd).toMatchObject({
      '@type': 'Article',
      headline: article.title,
      description: article.summary,
      datePublished: article.createdAt,
      author: { '@type': 'Person', name: SEED_AUTHORS.find((a) => a.email === article.authorEmail)!.name },
      publisher: { '@type': 'Organization', name: 'TDG Uganda' },
    });
    expect(jsonLd.image[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/news\//);
  });

  test('Go Back returns to the page whose link led to the missing article', async ({ page }) => {
    await page.goto('/about');
    // A broken link, as one might find on another page or another site.
    await page.evaluate(() => {
      const link = Object.assign(document.createElement('a'), { href: '/news/no-such-article', textContent: 'Broken link' });
      document.body.append(link);
    });
    await page.getByRole('link', { name: 'Broken link' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Article Not Found');
    // Going back through history needs the page script (issue 24).
    await expect(page.locator('html')).toHaveAttribute('data-enhanced', 'true');
    await page.getByRole('link', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(/\/about$/);
  });

  test('Go Back leads to the section list when the article was opened directly', async ({ page }) => {
    for (const [missing, list] of [
      ['/blog/no-such-story', /\/blog$/],
      ['/news/no-such-article', /\/news$/],
      ['/resources/no-such-resource', /\/resources$/],
    ] as const) {
      const fresh = await page.context().newPage();
      await fresh.goto(missing);
      await fresh.getByRole('link', { name: 'Go Back' }).click();
      await expect(fresh).toHaveURL(list);
      await fresh.close();
    }
  });

  test('an article is read from the collection of its path only', async ({ request }) => {
    const story = seeded(BLOG);
    expect((await request.get(`/blog/${story.id}`)).status()).toBe(200);
    expect((await request.get(`/news/${story.id}`)).status()).toBe(404);
    expect((await request.get(`/resources/${story.id}`)).status()).toBe(404);
  });

  test('odd and overlong ids are a 404, never a 500', async ({ request }) => {
    for (const path of [
      '/blog/%3Cscript%3E',
      `/blog/${'x'.repeat(500)}`,
      '/news/%27%20OR%20%271%27%3D%271',
      '/resources/%E2%80%AE%00',
      '/news/..%2F..%2Fetc%2Fpasswd',
      '/blog/a.b',
    ]) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(404);
      expect(await response.text(), path).toContain('Article Not Found');
    }
  });
});
