// Issue 24 (docs/decisions/025-reading-pages-without-react.md): public pages are documents with one
// small page script; every task works with JavaScript off at 375 px; Save-Data leaves pictures out
// until asked; a service worker keeps what was read for offline reading.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ARTICLE_TEXTS } from '../../app/lib/article';
import { SAVE_DATA_TEXTS } from '../../app/lib/save-data';
import { expectNoA11yIssues, MOBILE } from './support';

/** Story addresses as the sitemap lists them. */
async function storyPaths(request: APIRequestContext): Promise<string[]> {
  const xml = await (await request.get('/sitemap.xml')).text();
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)]
    .map((m) => new URL(m[1]!).pathname)
    .filter((p) => /^\/blog\/[^/]+$/.test(p) && p !== '/blog/rss.xml');
}

const PUBLIC_PAGES = ['/', '/about', '/blog', '/news', '/resources', '/services', '/contact', '/newsletter'];

test('public pages send no framework: no modulepreload, no inline script, one page script', async ({ request }) => {
  const [story] = await storyPaths(request);
  for (const path of [...PUBLIC_PAGES, story!]) {
    const html = await (await request.get(path)).text();
    expect(html, path).not.toContain('modulepreload');
    expect(html, path).not.toContain('__reactRouterContext');
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!).filter((a) => !a.includes('application/ld+json'));
    const sources = scripts.map((a) => /src="([^"]+)"/.exec(a)?.[1]);
    expect(sources.every(Boolean), `${path}: an inline script`).toBe(true);
    expect(
      sources.filter((s) => s!.includes('page-reading')),
      path,
    ).toHaveLength(1);
    expect(
      sources.filter((s) => !/page-(reading|sign-language-video)/.test(s!)),
      path,
    ).toEqual([]);
  }
});

test('the public stylesheet has every class the public pages use, and is smaller than the dashboard one', async ({
  page,
  request,
}) => {
  // Some 25 pages, each waited on until its script has run: more than one page's time.
  test.setTimeout(120_000);
  const [story] = await storyPaths(request);
  const pages = [
    ...PUBLIC_PAGES,
    story!,
    '/services/awareness-course',
    '/privacy',
    '/terms',
    '/accessibility',
    '/volunteer',
    '/partner',
    '/book-speaker',
    '/design-help',
    '/events',
    '/events?past',
    '/blog?q=nothing-matches-this',
    '/no-such-page',
  ];
  await page.goto('/admin');
  const dashboardSheet = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]')!.href);
  const dashboardCss = await (await request.get(dashboardSheet)).text();
  /** The class selectors a stylesheet has rules for, as written in it (escaped). */
  const selectorsOf = (css: string) => new Set([...css.matchAll(/\.((?:\\.|[\w-])+)/g)].map((m) => `.${m[1]}`));
  const dashboardSelectors = selectorsOf(dashboardCss);
  let publicCss = '';
  for (const path of pages) {
    await page.goto(path);
    // The page script has run: what it adds in the browser (toasts, placeholders) is in the page too.
    await page.locator('html[data-enhanced]').waitFor({ state: 'attached' });
    const { sheet, classes } = await page.evaluate(() => ({
      // Opened directly, a page carries its stylesheet inside, naming the file it is (lib/first-visit.ts).
      sheet: [
        ...[...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((l) => l.href),
        ...[...document.querySelectorAll<HTMLStyleElement>('style[data-href]')].map(
          (s) => new URL(s.dataset.href!, location.href).href,
        ),
      ],
      classes: [...new Set([...document.querySelectorAll('[class]')].flatMap((e) => [...e.classList]))].map(
        (c) => `.${CSS.escape(c)}`,
      ),
    }));
    expect(sheet, path).toHaveLength(1);
    expect(sheet[0], path).not.toBe(dashboardSheet);
    publicCss ||= await (await request.get(sheet[0]!)).text();
    const publicSelectors = selectorsOf(publicCss);
    // A class Tailwind makes a rule for (the dashboard's sheet has every class) must be in the public sheet.
    const missing = classes.filter((selector) => dashboardSelectors.has(selector) && !publicSelectors.has(selector));
    expect(missing, path).toEqual([]);
  }
  expect(publicCss.length).toBeLessThan(dashboardCss.length);
});

test('a page opened from elsewhere carries its stylesheet; one opened from a link of ours links it (first visit on 2G)', async ({
  page,
}) => {
  await page.goto('/about');
  const inline = page.locator('head style[data-href]');
  await expect(inline).toHaveCount(1);
  const href = await inline.getAttribute('data-href');
  expect(href).toMatch(/^\/assets\/public-[\w-]+\.css$/);
  // The very file, whole (less its last line end), in the one place: the server puts its bytes in after rendering.
  expect(await inline.textContent()).toBe((await (await page.request.get(href!)).text()).trimEnd());
  expect(await page.locator('link[rel="stylesheet"]').count()).toBe(0);
  await expect(page.locator('a[href="#main"]')).toHaveCSS('position', 'absolute');
  // Fetched once the page is idle, for the next page.
  await expect(page.locator(`link[rel="prefetch"][href="${href}"]`)).toHaveCount(1);
  // A link of ours followed: the browser says Sec-Fetch-Site: same-origin, and the page links the file.
  await Promise.all([
    page.waitForURL('**/blog'),
    page.locator('header nav[aria-label="Main"] a[href="/blog"], #mobile-menu a[href="/blog"]').first().dispatchEvent('click'),
  ]);
  await expect(page.locator(`head link[rel="stylesheet"][href="${href}"]`)).toHaveCount(1);
  await expect(page.locator('style[data-href]')).toHaveCount(0);
  // Styled either way: the skip link is visually hidden until focused, as only the stylesheet makes it.
  await expect(page.locator('a[href="#main"]')).toHaveCSS('position', 'absolute');
});

test.describe('with JavaScript off at 375 px', () => {
  test.use({ javaScriptEnabled: false, viewport: MOBILE });

  test('a story reads in full, and the phone menu opens and closes without any script', async ({ page, request }) => {
    const [story] = await storyPaths(request);
    await page.goto(story!);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('article')).toContainText(/\w{20,}/);
    // Copy Link needs a script to copy, so it is not offered without one.
    await expect(page.getByRole('button', { name: 'Copy Link' })).toBeHidden();

    const open = page.getByRole('button', { name: 'Open menu' });
    await open.click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close menu' })).toBeFocused();
    await page.getByRole('button', { name: 'Close menu' }).click();
    await expect(menu).toBeHidden();
    await expect(open).toBeFocused();
    await open.click();
    await menu.getByRole('link', { name: 'Projects' }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole('dialog')).toBeHidden();
  });

  test('search and a category work as a plain form', async ({ page }) => {
    await page.goto('/blog');
    await page.getByLabel('Category').selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\/blog\?(q=&)?category=\w/);
    await expect(page.getByLabel('Category')).not.toHaveValue('');
    await page.getByRole('searchbox').fill('zzzz-no-such-word');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/q=zzzz-no-such-word/);
    await expect(page.getByText('No stories found')).toBeVisible();
  });
});

test.describe('Save-Data', () => {
  test.use({ viewport: MOBILE, extraHTTPHeaders: { 'Save-Data': 'on' } });

  test('a story and a list load no picture; each says what it shows and its size, and loads on request', async ({
    page,
    request,
  }) => {
    const pictures: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/media/')) pictures.push(r.url());
    });
    const [story] = await storyPaths(request);
    for (const path of ['/blog', story!]) {
      const response = await page.goto(path);
      expect(response!.headers()['vary']).toMatch(/Save-Data/i);
      await expect(page.locator('html')).toHaveAttribute('data-enhanced', 'true');
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.waitForLoadState('networkidle');
      expect(pictures, path).toEqual([]);
      await expect(page.getByText(SAVE_DATA_TEXTS.notLoaded).first()).toBeVisible();
    }
    await expectNoA11yIssues(page);

    // The story's own picture: its description, its size, and a link that puts it in place.
    const load = page.getByRole('link', { name: /^Load picture \(\d+ KB\)$/ }).first();
    await load.scrollIntoViewIfNeeded();
    const href = (await load.getAttribute('href'))!;
    expect(href).toMatch(/-480w\.webp$/);
    await load.click();
    await expect(page.locator(`img[src="${href}"]`)).toBeVisible();
    expect(pictures.map((p) => new URL(p).pathname)).toEqual([href]);
    expect(page.url()).toContain(story!);
  });

  test('on a list, a card’s "Load picture" loads the picture, not the story the card links to', async ({ page }) => {
    for (const path of ['/blog', '/sw/news']) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('data-enhanced', 'true');
      const card = page
        .locator('main article')
        .filter({ has: page.locator('[data-load-picture]') })
        .first();
      const load = card.locator('[data-load-picture]');
      const href = (await load.getAttribute('href'))!;
      // A tap where the button is: the button itself is there, above the card's own link.
      await load.scrollIntoViewIfNeeded();
      const box = (await load.boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await expect(page.locator(`main article img[src="${href}"]`).first(), path).toBeVisible();
      expect(new URL(page.url()).pathname, path).toBe(path);
    }
  });

  test('without JavaScript the link opens the picture itself', async ({ browser, request }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: { 'Save-Data': 'on' } });
    const page = await context.newPage();
    const [story] = await storyPaths(request);
    await page.goto(story!);
    await expect(page.locator('main img')).toHaveCount(0);
    const href = (await page
      .getByRole('link', { name: /^Load picture/ })
      .first()
      .getAttribute('href'))!;
    const picture = await page.request.get(href);
    expect(picture.status()).toBe(200);
    expect(picture.headers()['content-type']).toBe('image/webp');
    await context.close();
  });

  test('the page cache keeps both versions of a page apart', async ({ request }) => {
    const url = `/blog?sign=probe-${Date.now()}`;
    const saving = await (await request.get(url)).text();
    const plain = await (await request.get(url, { headers: { 'Save-Data': 'off' } })).text();
    // An address with a query is kept from its second request (issue 29).
    await request.get(url, { headers: { 'Save-Data': 'off' } });
    const plainAgain = await request.get(url, { headers: { 'Save-Data': 'off' } });
    expect(plainAgain.headers()['x-cache']).toBe('HIT');
    expect(saving).toContain(SAVE_DATA_TEXTS.notLoaded);
    expect(plain).not.toContain(SAVE_DATA_TEXTS.notLoaded);
    expect(await plainAgain.text()).not.toContain(SAVE_DATA_TEXTS.notLoaded);
  });
});

test.describe('offline reading', () => {
  test.use({ viewport: MOBILE });

  async function readOnline(page: Page, path: string) {
    await page.goto(path);
    await expect(page.locator('html')).toHaveAttribute('data-enhanced', 'true');
    // The service worker has taken the page in.
    await expect
      .poll(() =>
        page.evaluate(async (url) => Boolean(await caches.match(url, { ignoreVary: true })), new URL(path, page.url()).href),
      )
      .toBe(true);
  }

  test('pages read before open offline, the home page too; another shows our offline page listing them', async ({
    page,
    context,
    request,
  }) => {
    const [first, second, unread] = await storyPaths(request);
    await readOnline(page, '/');
    await readOnline(page, first!);
    const title = (await page.getByRole('heading', { level: 1 }).textContent())!;
    await readOnline(page, second!);

    await context.setOffline(true);
    await page.goto(first!);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByRole('article')).toContainText(/\w{20,}/);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.goto(unread!);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are offline');
    await expect(page.getByRole('link', { name: title })).toBeVisible();
    await expectNoA11yIssues(page);
    await page.getByRole('link', { name: title }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await context.setOffline(false);
  });

  test('pages in Luganda and Swahili are kept too: read before, they open offline; saved, they say so', async ({
    page,
    context,
    request,
  }) => {
    const [story, other] = await storyPaths(request);
    for (const language of ['lg', 'sw']) {
      await readOnline(page, `/${language}`);
      await readOnline(page, `/${language}${story!}`);
    }
    await page.goto(`/sw${other!}`);
    const save = page.locator('[data-save-offline]');
    await expect(save).toBeVisible();
    await save.click();
    await expect(page.getByRole('status').getByText((await save.getAttribute('data-saved-text'))!)).toBeVisible();
    await expect
      .poll(() =>
        page.evaluate(async () => (await caches.open('tdg-saved-v1')).keys().then((k) => k.map((r) => new URL(r.url).pathname))),
      )
      .toContain(`/sw${other!}`);
    await context.setOffline(true);
    for (const path of ['/lg', `/lg${story!}`, '/sw', `/sw${story!}`, `/sw${other!}`]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }), path).toBeVisible();
      await expect(page.locator('html'), path).toHaveAttribute('lang', path.slice(1, 3));
      await expect(page.getByRole('heading', { level: 1 }), path).not.toHaveText(/offline|mukutu|mtandaoni/i);
    }
    await context.setOffline(false);
  });

  test('"Save for offline" keeps a story and says so; the dashboard is never kept', async ({ page, request }) => {
    const [story] = await storyPaths(request);
    await page.goto(story!);
    const save = page.getByRole('button', { name: ARTICLE_TEXTS.saveOffline });
    await save.click();
    await expect(page.getByRole('status').getByText(ARTICLE_TEXTS.savedOffline)).toBeVisible();
    expect(await page.evaluate(async () => (await caches.open('tdg-saved-v1')).keys().then((k) => k.map((r) => r.url)))).toEqual([
      new URL(story!, page.url()).href,
    ]);
    await page.goto('/admin');
    const kept = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) urls.push(r.url);
      return urls;
    });
    expect(kept.filter((u) => new URL(u).pathname.startsWith('/admin'))).toEqual([]);
    // Public pages still set no cookie.
    const response = await request.get(story!);
    expect(response.headers()['set-cookie']).toBeUndefined();
  });
});
