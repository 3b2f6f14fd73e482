import type { Browser } from '@playwright/test';
import { expect as baseExpect, test } from './fixtures';
import { postSave } from './content-fixtures';
import { apiSignIn } from './staff';
import { DESKTOP, expectNoA11yIssues, MOBILE } from './support';

// Issue 28: privacy-first visit counts, against the SQLite server and the PostgreSQL one. Three
// readers in fresh browsers are three visits and three visitors of a new story; a crawler's reads
// and a signed-in staff member's are not counted; no public page sets a cookie; the Analytics screen
// shows the chart with its table (axe clean) and the story's edit screen its own numbers.

test.describe.configure({ mode: 'default', timeout: 90_000 });
test.use({ viewport: DESKTOP });
const expect = baseExpect.configure({ timeout: 10_000 });

const READER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CRAWLER_AGENT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** A fresh browser (no cookies, no cache) for one reader, speaking from its own address through the trusted proxy. */
async function reader(browser: Browser, serverURL: string, address: string, userAgent = READER_AGENT) {
  return browser.newContext({ baseURL: serverURL, userAgent, extraHTTPHeaders: { 'X-Forwarded-For': address } });
}

test('counts three readers as three visits and visitors, leaves out a crawler and staff, and sets no cookie', async ({
  browser,
  serverURL,
  staffRequest,
  staff,
  database,
  tag,
}) => {
  const { request: admin } = await staffRequest('ADMIN');
  const title = `Counted story ${tag}`;
  const saved = await postSave(admin, 'news', { title, summary: 'A story three people read.' });
  expect(saved.status(), await saved.text()).toBe(200);
  const { id } = await database.selectFrom('content').select('id').where('title', '=', title).executeTakeFirstOrThrow();
  const path = `/news/${id}`;
  const missing = `zzq${tag}`;

  try {
    // Three readers, each in a browser of its own; the third also reads other public pages.
    for (const [i, address] of ['203.0.113.10', '203.0.113.11', '203.0.113.12'].entries()) {
      const context = await reader(browser, serverURL, address);
      const tab = await context.newPage();
      // The second reader came from a partner's tagged link, shared on Facebook (which adds its own
      // parameter): the story's page, counted with its campaign (issue 29).
      const response = await tab.goto(i === 1 ? `${path}?utm_source=Partner${tag}&fbclid=IwAR${tag}` : path);
      expect(response?.status()).toBe(200);
      await expect(tab.getByRole('heading', { level: 1, name: title })).toBeVisible();
      if (i === 2) {
        for (const other of ['/', '/blog', `/blog?q=${missing}`, '/news', '/privacy'])
          expect((await tab.goto(other))?.status()).toBe(200);
        await expect(tab.getByRole('heading', { name: 'What this website counts' })).toBeVisible();
      }
      expect(await context.cookies(), 'no public page sets a cookie').toEqual([]);
      await context.close();
    }

    // A crawler reads the story twice; a signed-in staff member reads it once. Neither is counted.
    const crawler = await reader(browser, serverURL, '203.0.113.20', CRAWLER_AGENT);
    const crawlerTab = await crawler.newPage();
    for (let i = 0; i < 2; i++) expect((await crawlerTab.goto(path))?.status()).toBe(200);
    await crawler.close();
    // The staff member uses the same browser as the readers: only the session leaves them out.
    const staffContext = await reader(browser, serverURL, '203.0.113.30');
    await apiSignIn(staffContext.request, await staff('ADMIN'));
    const page = await staffContext.newPage();
    expect((await page.goto(path))?.status()).toBe(200);

    // The feed's counting link sends the reader on, and never anywhere but this site.
    const api = await reader(browser, serverURL, '203.0.113.40');
    const followed = await api.request.get(`/go/rss?to=${path}`, { maxRedirects: 0 });
    expect(followed.status()).toBe(302);
    expect(followed.headers().location).toBe(path);
    expect((await api.request.get('/go/rss?to=//evil.example/x', { maxRedirects: 0 })).status()).toBe(400);
    // The sign-language player's beacon: a play, counted; a made-up one refused.
    expect(
      (
        await api.request.post('/count/video', { data: JSON.stringify({ p: path, m: 0 }), headers: { origin: serverURL } })
      ).status(),
    ).toBe(204);
    expect((await api.request.post('/count/video', { data: '{"p":"/x","m":33}', headers: { origin: serverURL } })).status()).toBe(
      400,
    );
    await api.close();

    // The story's own numbers on its edit screen.
    await page.goto(`/admin/content/${id}/edit`);
    const figures = page.locator('section[aria-labelledby="item-numbers"]');
    await expect(figures.getByRole('heading', { name: 'Readers in the last 30 days' })).toBeVisible();
    await expect(figures.locator('[data-item-figure="Page views"]')).toHaveText('3');
    await expect(figures.locator('[data-item-figure="Visits"]')).toHaveText('3');
    await expect(figures.locator('[data-item-figure="Visitors"]')).toHaveText('3');
    await expect(figures.locator('[data-item-figure="Video plays"]')).toHaveText('1');
    await expect(figures.locator('[data-item-figure="Feed and newsletter clicks"]')).toHaveText('1');

    // The Analytics screen: the chart with its table, the story at the top of its own numbers, the empty search.
    await page.goto('/admin/analytics?range=7d');
    await expect(page.getByRole('heading', { level: 1, name: 'Analytics' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Visits and visitors by day' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Visits, visitors and page views by day' });
    await expect(table.getByRole('row')).toHaveCount(8);
    const storyRow = page
      .getByRole('table', { name: 'Pages and stories by views' })
      .getByRole('row', { name: new RegExp(title) });
    await expect(storyRow.getByRole('cell')).toHaveText(['3', '3']);
    await expect(page.getByRole('table', { name: 'Searches with no result' })).toContainText(missing);
    await expect(page.getByRole('table', { name: 'Campaign tags' })).toContainText(`utm_source: partner${tag}`.toLowerCase());
    await expectNoA11yIssues(page);
    await page.setViewportSize(MOBILE);
    await expectNoA11yIssues(page);
    // On a phone the chart is the narrow drawing, one image, whose dates and counts stay readable.
    await expect(page.getByRole('img', { name: 'Visits and visitors by day' })).toHaveCount(1);
    const smallest = await page
      .getByRole('img', { name: 'Visits and visitors by day' })
      .evaluate((svg) => Math.min(...[...svg.querySelectorAll('text')].map((text) => text.getBoundingClientRect().height)));
    expect(smallest).toBeGreaterThanOrEqual(9);
    const download = await page.request.get('/admin/analytics/export?range=7d');
    expect(download.headers()['content-type']).toContain('text/csv');
    expect(await download.text()).toContain(`path,${path},${id},3,3,`);
    await staffContext.close();
  } finally {
    await admin.post(`/admin/content/${encodeURIComponent(id)}/delete`, { maxRedirects: 0 });
  }
});

test('an editor sees the Analytics screen for their own stories only', async ({ signIn, page }) => {
  await signIn('EDITOR');
  await page.goto('/admin/analytics');
  await expect(page.getByRole('heading', { level: 1, name: 'Analytics' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your stories' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Where visitors came from' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'How long counts are kept' })).toHaveCount(0);
});
