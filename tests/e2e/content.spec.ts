import type { Browser, Page } from '@playwright/test';
import sharp from 'sharp';
import { ARTICLE_TEXTS } from '../../app/lib/article';
import { categoryLabel } from '../../app/lib/categories';
import {
  CONTENT_MESSAGES,
  CONTENT_PAGE,
  DASHBOARD_CATEGORIES,
  emptyListMessage,
  publishedMessage,
  SUMMARY_MAX,
  TITLE_MAX,
  type ContentType,
} from '../../app/lib/content-form';
import { formatDate } from '../../app/lib/format';
import { CONTENT_IMAGE_MAX_BYTES, CONTENT_UPLOAD_MESSAGES } from '../../app/lib/uploads';
import {
  contentByTitle,
  contentRow,
  cookieOf,
  editorOf,
  expectToast,
  insertContent,
  jpegBytes,
  jpegWithGps,
  openForm,
  pngBytes,
  postAnnouncingSize,
  publish,
  storedItem,
  ZIP_BYTES,
} from './content-fixtures';
import { expect, test } from './fixtures';
import { DESKTOP, expectNoA11yIssues, MOBILE } from './support';

// Issue 5, item 10: the dashboard's content side as staff meet it: Manage Content, the content form
// for both types, its validation, publish → public list and article page → edit → delete, the live
// preview, the featured image and its refused files, and the form without JavaScript.

test.use({ viewport: DESKTOP });

const TYPES: {
  type: ContentType;
  tab: string;
  heading: string;
  editHeading: string;
  summaryLabel: string;
  publicPath: string;
  view: string;
}[] = [
  {
    type: 'news',
    tab: 'Add Story',
    heading: 'Add Story',
    editHeading: 'Edit Story',
    summaryLabel: 'Summary',
    publicPath: '/news',
    view: 'View News',
  },
  {
    type: 'blogs',
    tab: 'Add Blog',
    heading: 'Add Blog',
    editHeading: 'Edit Blog',
    summaryLabel: 'Excerpt',
    publicPath: '/blog',
    view: 'View Blogs',
  },
];

const LONG_TEXT = 'Deaf and hard-of-hearing job seekers met employers in Kampala to talk about inclusive hiring.';

/** The rows of the Manage Content list. */
const rows = (page: Page) =>
  page
    .getByRole('main')
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 2 }) });
const rowOf = (page: Page, title: string) =>
  rows(page).filter({ has: page.getByRole('heading', { level: 2, name: title, exact: true }) });
async function searchList(page: Page, type: ContentType, q: string) {
  await page.goto(`/admin/content?type=${type}&q=${encodeURIComponent(q)}`);
  await expect(page.getByRole('searchbox', { name: 'Search titles' })).toHaveValue(q);
}

async function fillForm(
  page: Page,
  type: ContentType,
  values: { title: string; category: string; tags: string; summary: string; body: string },
) {
  const summaryLabel = type === 'news' ? 'Summary' : 'Excerpt';
  await page.getByLabel('Title').fill(values.title);
  await page.getByLabel('Category').selectOption(values.category);
  await page.getByLabel('Tags').fill(values.tags);
  await page.getByLabel(summaryLabel).fill(values.summary);
  await editorOf(page).click();
  await page.keyboard.type(values.body);
}

/** A signed-out visitor's page (public pages are cached for visitors, not for staff). */
async function visitorPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP });
  return context.newPage();
}

test.describe('Manage Content', () => {
  for (const t of TYPES) {
    test(`${t.view}: 'Choose a Content Type' first, then the newest ${t.type} with every detail, the title search and '${emptyListMessage(t.type)}'`, async ({
      page,
      tag,
      signIn,
    }) => {
      // Two axe scans and a picture upload take a while on a busy machine.
      test.setTimeout(60_000);
      const user = await signIn('ADMIN');
      // The page's own API client holds the same session.
      const request = page.request;
      // An older item without a summary (made directly: the form cannot make one) and a newer one with everything.
      const older = insertContent({
        type: t.type,
        title: `${tag} older item without a summary`,
        summary: null,
        createdAt: new Date(Date.now() - 60 * 60_000).toISOString(),
      });
      const upload = await request.post('/admin/uploads/content', {
        multipart: { type: t.type, file: { name: 'thumb.png', mimeType: 'image/png', buffer: await pngBytes() } },
      });
      expect(upload.status()).toBe(200);
      const { url } = (await upload.json()) as { url: string };
      const category = DASHBOARD_CATEGORIES[t.type][1]!;
      const newer = await publish(request, t.type, {
        title: `${tag} newest item with every detail`,
        category,
        tags: 'sign language, youth',
        summary: 'Employers and young deaf people met in Kampala.',
        imageUrl: url,
        imageAlt: 'Young people signing',
      });

      await page.goto('/admin/content');
      await expect(page.getByRole('heading', { level: 1, name: 'Manage Content' })).toBeVisible();
      await expect(page.getByRole('heading', { name: CONTENT_MESSAGES.chooseType })).toBeVisible();
      await expect(rows(page)).toHaveCount(0);
      if (t.type === 'news') await expectNoA11yIssues(page);

      await page.getByRole('link', { name: t.view }).click();
      await expect(page).toHaveURL(new RegExp(`/admin/content\\?type=${t.type}$`));
      await expect(page.getByRole('heading', { name: CONTENT_MESSAGES.chooseType })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Refresh' })).toBeVisible();
      // At most 20, newest first (by creation), the whole list.
      const count = await rows(page).count();
      expect(count).toBeGreaterThan(1);
      expect(count).toBeLessThanOrEqual(CONTENT_PAGE);
      const dates = await rows(page)
        .locator('time')
        .evaluateAll((els) => els.map((el) => el.getAttribute('datetime') ?? ''));
      expect(dates).toEqual([...dates].sort().reverse());
      if (t.type === 'news') await expectNoA11yIssues(page);

      // The title search finds exactly this test's two items, newer first.
      await page.getByRole('searchbox', { name: 'Search titles' }).fill(tag);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`q=${tag}`));
      await expect(rows(page).getByRole('heading', { level: 2 })).toHaveText([newer.title, older.title]);

      const row = rowOf(page, newer.title);
      await expect(row.getByRole('link', { name: newer.title, exact: true })).toHaveAttribute(
        'href',
        `${t.publicPath}/${newer.id}`,
      );
      await expect(row).toContainText(user.name);
      await expect(row).toContainText(categoryLabel(category));
      await expect(row.locator('time')).toHaveText(formatDate(newer.published_at, 'short'));
      await expect(row.getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveText(['sign language', 'youth']);
      await expect(row.locator('img')).toHaveAttribute('src', url.replace(/\.webp$/, '-480w.webp'));
      expect(await row.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      await expect(row).toContainText('Employers and young deaf people met in Kampala.');
      await expect(row).not.toContainText(CONTENT_MESSAGES.noSummary);
      await expect(row.getByRole('link', { name: `Edit ${newer.title}` })).toBeVisible();
      await expect(row.getByRole('button', { name: `Delete ${newer.title}` })).toBeVisible();

      await expect(rowOf(page, older.title)).toContainText(CONTENT_MESSAGES.noSummary);
      await expect(rowOf(page, older.title)).toContainText('No image');

      // A search that matches nothing shows the empty-type text, 'No {type} found'.
      expect(emptyListMessage(t.type)).toBe(`No ${t.type} found`);
      await page.getByRole('searchbox', { name: 'Search titles' }).fill(`${tag}-nothing`);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect(page.getByText(emptyListMessage(t.type), { exact: true })).toBeVisible();
      await expect(rows(page)).toHaveCount(0);
    });
  }

  test('Load more shows the items older than the newest 20, and the search reaches every title', async ({
    page,
    tag,
    signIn,
  }) => {
    await signIn('EDITOR');
    // 25 old items (2001), so they stay out of the way of every other list.
    const inserted = Array.from({ length: 25 }, (_, i) =>
      insertContent({
        type: 'news',
        title: `${tag} archive item ${String(i + 1).padStart(2, '0')}`,
        createdAt: new Date(Date.UTC(2001, 0, 1, 0, i)).toISOString(),
      }),
    );
    const newestFirst = inserted.map((r) => r.title).reverse();
    await searchList(page, 'news', tag);
    await expect(rows(page)).toHaveCount(CONTENT_PAGE);
    await expect(rows(page).getByRole('heading', { level: 2 })).toHaveText(newestFirst.slice(0, CONTENT_PAGE));
    await expect(page.getByRole('heading', { name: newestFirst[24]! })).toHaveCount(0);

    await page.getByRole('link', { name: 'Load more' }).click();
    await expect(rows(page)).toHaveCount(25);
    await expect(rows(page).getByRole('heading', { level: 2 })).toHaveText(newestFirst);
    await expect(page.getByRole('link', { name: 'Load more' })).toHaveCount(0);

    // One title among them, by its own words.
    await page.getByRole('searchbox', { name: 'Search titles' }).fill(`${tag} archive item 03`);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(rows(page).getByRole('heading', { level: 2 })).toHaveText([`${tag} archive item 03`]);
  });

  test('Refresh shows an item published meanwhile; an Editor may edit but not delete', async ({ page, tag, signIn }) => {
    await signIn('EDITOR');
    const first = insertContent({ type: 'blogs', title: `${tag} first blog` });
    await searchList(page, 'blogs', tag);
    await expect(rows(page).getByRole('heading', { level: 2 })).toHaveText([first.title]);
    const second = insertContent({ type: 'blogs', title: `${tag} second blog` });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(rows(page).getByRole('heading', { level: 2 })).toHaveText([second.title, first.title]);
    await expect(rowOf(page, first.title).getByRole('link', { name: `Edit ${first.title}` })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  });
});

test.describe('content form', () => {
  for (const t of TYPES) {
    test(`${t.heading}: every rule's message beside its field, the summary banner, and focus on the first invalid field`, async ({
      page,
      signIn,
    }) => {
      await signIn('AUTHOR');
      const saves: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST' && new URL(r.url()).pathname.startsWith('/admin/content/new/')) saves.push(r.url());
      });
      await openForm(page, t.type);
      await expect(page.getByRole('heading', { level: 1, name: t.heading })).toBeVisible();
      await expect(page.getByLabel('Author')).toHaveAttribute('readonly', '');

      // The category list is exactly the spec's list for this type.
      const options = page.getByLabel('Category').locator('option');
      await expect(options).toHaveText(['Choose a category', ...DASHBOARD_CATEGORIES[t.type].map(categoryLabel)]);
      expect(await options.evaluateAll((els) => els.map((el) => (el as HTMLOptionElement).value))).toEqual([
        '',
        ...DASHBOARD_CATEGORIES[t.type],
      ]);

      await page.getByRole('button', { name: 'Publish' }).click();
      await expect(page.getByRole('alert').filter({ hasText: CONTENT_MESSAGES.fixErrors })).toBeVisible();
      const summaryRequired = t.type === 'news' ? CONTENT_MESSAGES.summaryRequired : CONTENT_MESSAGES.excerptRequired;
      for (const [field, message] of [
        ['Title', CONTENT_MESSAGES.titleRequired],
        ['Category', CONTENT_MESSAGES.categoryRequired],
        [t.summaryLabel, summaryRequired],
      ] as const) {
        await expect(page.getByLabel(field)).toHaveAttribute('aria-invalid', 'true');
        await expect(page.getByLabel(field)).toHaveAccessibleDescription(new RegExp(message));
      }
      await expect(editorOf(page)).toHaveAccessibleDescription(CONTENT_MESSAGES.contentRequired);
      await expect(page.locator('#content-error')).toHaveText(CONTENT_MESSAGES.contentRequired);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('title');
      if (t.type === 'news') await expectNoA11yIssues(page);

      // The counter follows typing; 100 characters are fine, 101 are not.
      const title = page.getByLabel('Title');
      await title.fill('abc');
      await expect(page.getByText(`3/${TITLE_MAX} characters`)).toBeVisible();
      await title.fill('x'.repeat(TITLE_MAX + 1));
      await expect(page.getByText(`${TITLE_MAX + 1}/${TITLE_MAX} characters`)).toBeVisible();
      await page.getByRole('button', { name: 'Publish' }).click();
      await expect(page.locator('#title-error')).toHaveText(CONTENT_MESSAGES.titleTooLong);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('title');
      await title.fill('x'.repeat(TITLE_MAX));
      await expect(page.getByText(`${TITLE_MAX}/${TITLE_MAX} characters`)).toBeVisible();

      // With the title right, the category is the first problem.
      await page.getByRole('button', { name: 'Publish' }).click();
      await expect(page.locator('#title-error')).toHaveCount(0);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('category');
      await page.getByLabel('Category').selectOption(DASHBOARD_CATEGORIES[t.type][0]!);

      // Summary or excerpt: at most 200.
      await page.getByLabel(t.summaryLabel).fill('s'.repeat(SUMMARY_MAX + 1));
      await expect(page.getByText(`${SUMMARY_MAX + 1}/${SUMMARY_MAX} characters`)).toBeVisible();
      await editorOf(page).click();
      await page.keyboard.type('Too short.');
      await page.getByRole('button', { name: 'Publish' }).click();
      await expect(page.locator('#summary-error')).toHaveText(
        t.type === 'news' ? CONTENT_MESSAGES.summaryTooLong : CONTENT_MESSAGES.excerptTooLong,
      );
      await expect(page.locator('#content-error')).toHaveText(CONTENT_MESSAGES.contentTooShort);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('summary');

      // Only the body left: the cursor goes to the editor.
      await page.getByLabel(t.summaryLabel).fill('s'.repeat(SUMMARY_MAX));
      await page.getByRole('button', { name: 'Publish' }).click();
      await expect(page.locator('#summary-error')).toHaveCount(0);
      await expect(page.locator('#content-error')).toHaveText(CONTENT_MESSAGES.contentTooShort);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('content');
      await expect(page.getByRole('alert').filter({ hasText: CONTENT_MESSAGES.fixErrors })).toBeVisible();
      // Nothing was sent while the form was wrong.
      expect(saves).toEqual([]);
    });

    test(`${t.heading}: publish → on the public list and article page at once → edit → delete`, async ({
      page,
      browser,
      tag,
      signIn,
    }) => {
      test.setTimeout(60_000);
      const user = await signIn('ADMIN');
      const visitor = await visitorPage(browser);
      const title = `${tag} Employers meet deaf job seekers`;
      // The public list before: loaded (and so cached) while the item does not exist.
      await visitor.goto(t.publicPath);
      await expect(visitor.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(visitor.getByRole('link', { name: title })).toHaveCount(0);

      await openForm(page, t.type);
      await expect(page.getByLabel('Author')).toHaveValue(user.name);
      const category = DASHBOARD_CATEGORIES[t.type][2]!;
      await fillForm(page, t.type, {
        title,
        category,
        tags: '  sign language , , youth ,,jobs  ,',
        summary: 'Employers in Kampala met young deaf job seekers.',
        body: LONG_TEXT,
      });
      await expect(page.getByText(`${title.length}/${TITLE_MAX} characters`)).toBeVisible();
      await page.getByRole('button', { name: 'Publish' }).click();
      await expectToast(page, publishedMessage(t.type, 'create'));
      // The form starts again, empty.
      await expect(page.getByLabel('Title')).toHaveValue('');
      await expect(page.getByLabel('Category')).toHaveValue('');
      await expect(page.getByLabel('Tags')).toHaveValue('');
      await expect(page.getByLabel(t.summaryLabel)).toHaveValue('');
      await expect(editorOf(page)).toHaveText('');
      await expect(page.getByText(`0/${TITLE_MAX} characters`)).toBeVisible();

      const row = await storedItem(title);
      expect(row).toMatchObject({
        collection: t.type,
        category,
        author: user.name,
        author_email: user.email,
        author_role: 'ADMIN',
        status: 'published',
        summary: t.type === 'news' ? 'Employers in Kampala met young deaf job seekers.' : null,
        excerpt: t.type === 'blogs' ? 'Employers in Kampala met young deaf job seekers.' : null,
      });
      expect(JSON.parse(row.tags)).toEqual(['sign language', 'youth', 'jobs']);

      // At once on the public list (its cached copy was dropped) and on its article page.
      await visitor.goto(t.publicPath);
      await expect(visitor.getByRole('link', { name: title }).first()).toBeVisible();
      const articlePath = `${t.publicPath}/${row.id}`;
      expect((await visitor.goto(articlePath))?.status()).toBe(200);
      await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(title);
      await expect(visitor.getByRole('main')).toContainText('Employers in Kampala met young deaf job seekers.');
      await expect(visitor.getByRole('main').getByText(LONG_TEXT)).toBeVisible();
      await expect(visitor.locator('article li').filter({ hasText: /^#/ })).toHaveText(['#sign language', '#youth', '#jobs']);

      // Edit from the list: the form is filled in, Update keeps the values.
      await searchList(page, t.type, tag);
      await rowOf(page, title)
        .getByRole('link', { name: `Edit ${title}` })
        .click();
      await expect(page).toHaveURL(new RegExp(`/admin/content/${row.id}/edit$`));
      await expect(page.getByRole('heading', { level: 1, name: t.editHeading })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Show Preview' })).toBeVisible();
      await expect(page.getByLabel('Title')).toHaveValue(title);
      await expect(page.getByLabel('Category')).toHaveValue(category);
      await expect(page.getByLabel('Tags')).toHaveValue('sign language, youth, jobs');
      await expect(page.getByLabel(t.summaryLabel)).toHaveValue('Employers in Kampala met young deaf job seekers.');
      await expect(editorOf(page)).toHaveText(LONG_TEXT);
      if (t.type === 'news') await expectNoA11yIssues(page);

      const newTitle = `${tag} Employers hire deaf job seekers`;
      await page.getByLabel('Title').fill(newTitle);
      await page.getByLabel(t.summaryLabel).fill('Three employers hired young deaf people.');
      await page.getByRole('button', { name: 'Update' }).click();
      await expectToast(page, publishedMessage(t.type, 'edit'));
      await expect(page.getByLabel('Title')).toHaveValue(newTitle);
      await expect(page.getByLabel(t.summaryLabel)).toHaveValue('Three employers hired young deaf people.');
      await expect(page.getByLabel('Tags')).toHaveValue('sign language, youth, jobs');
      await expect(editorOf(page)).toHaveText(LONG_TEXT);
      await expect.poll(() => contentRow(row.id)?.title).toBe(newTitle);
      const edited = contentRow(row.id)!;
      expect(edited).toMatchObject({ created_at: row.created_at, published_at: row.published_at, author: user.name });
      expect(edited.updated_at > row.updated_at).toBe(true);

      await visitor.goto(articlePath);
      await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(newTitle);
      await expect(visitor.getByRole('main')).toContainText('Three employers hired young deaf people.');

      await page.getByRole('link', { name: 'Cancel Edit' }).click();
      await expect(page).toHaveURL(new RegExp(`/admin/content\\?type=${t.type}$`));

      // Delete asks first, naming the title; Cancel keeps the item.
      await searchList(page, t.type, tag);
      await rowOf(page, newTitle)
        .getByRole('button', { name: `Delete ${newTitle}` })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Confirm delete' });
      await expect(dialog).toContainText(CONTENT_MESSAGES.deleteConfirm(newTitle));
      await expect(dialog).toContainText(`"${newTitle}"`);
      await expect(dialog).toContainText('This action cannot be undone.');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toHaveCount(0);
      expect(contentRow(row.id)).toBeDefined();

      await rowOf(page, newTitle)
        .getByRole('button', { name: `Delete ${newTitle}` })
        .click();
      await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
      await expectToast(page, CONTENT_MESSAGES.deleted);
      await expect(page).toHaveURL(new RegExp(`/admin/content\\?type=${t.type}$`));
      await expect(page.getByRole('heading', { level: 2, name: newTitle })).toHaveCount(0);
      expect(contentRow(row.id)).toBeUndefined();

      expect((await visitor.goto(articlePath))?.status()).toBe(404);
      await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(ARTICLE_TEXTS.notFoundTitle);
      await visitor.goto(t.publicPath);
      await expect(visitor.getByRole('link', { name: newTitle })).toHaveCount(0);
      await visitor.context().close();
    });
  }

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('publishing works without JavaScript: a plain form post with a text body and a picture', async ({
      page,
      tag,
      signIn,
    }) => {
      const user = await signIn('ADMIN');
      await page.goto('/admin/content/new/news');
      await expect(page.getByRole('heading', { level: 1, name: 'Add Story' })).toBeVisible();
      // The tab keeps the spec's name; the page says where the public site shows what it makes.
      await expect(page.getByRole('main').getByText('Appears on the website under In Media')).toBeVisible();
      await expect(page.getByRole('link', { name: /^In Media/ })).toHaveAttribute('href', '/news');
      await expect(page.getByRole('button', { name: 'Show Preview' })).toHaveCount(0);
      // The page as asked for carries the framework's scripts and hydration data, for browsers that run them.
      expect(await page.locator('link[rel="modulepreload"]').count()).toBeGreaterThan(0);
      expect(await page.content()).toContain('__reactRouterContext');

      // A wrong post comes back with the messages and what was typed.
      await page.getByLabel('Tags').fill('kept, tags');
      await page.getByRole('button', { name: 'Publish' }).click();
      await expect(page.getByRole('alert').filter({ hasText: CONTENT_MESSAGES.fixErrors })).toBeVisible();
      await expect(page.locator('#title-error')).toHaveText(CONTENT_MESSAGES.titleRequired);
      await expect(page.locator('#content-error')).toHaveText(CONTENT_MESSAGES.contentRequired);
      await expect(page.getByLabel('Tags')).toHaveValue('kept, tags');
      // The answer to a plain post is a document only (docs/decisions/042-plain-post-answers-without-scripts.md).
      await expect(page.locator('link[rel="modulepreload"]')).toHaveCount(0);
      expect(await page.content()).not.toContain('__reactRouterContext');

      const title = `${tag} Published without JavaScript`;
      await page.getByLabel('Title').fill(title);
      await page.getByLabel('Category').selectOption('community');
      await page.getByLabel('Summary').fill('A plain form post.');
      await page.getByRole('textbox', { name: 'Content' }).fill(`<p>${LONG_TEXT}</p><script>window.__xss = 1</script>`);
      await page
        .getByLabel(/Choose an image/)
        .setInputFiles({ name: 'no-js photo.png', mimeType: 'image/png', buffer: await pngBytes() });
      await page.getByLabel('Image description (alt text)').fill('A workshop');
      await page.getByRole('button', { name: 'Publish' }).click();
      await expect(page.getByRole('status').filter({ hasText: publishedMessage('news', 'create') })).toBeVisible();
      await expect(page.getByLabel('Title')).toHaveValue('');

      const row = contentByTitle(title)!;
      expect(row).toMatchObject({ author: user.name, author_role: 'ADMIN', category: 'community', image_alt: 'A workshop' });
      expect(row.content).toBe(`<p>${LONG_TEXT}</p>`);
      expect(row.image_url).toMatch(/^\/media\/news\/[0-9a-f]{32}_no-js_photo\.webp$/);

      // Without JavaScript, Delete on the list leads to a confirmation page, which deletes.
      await page.goto(`/admin/content?type=news&q=${tag}`);
      await page.getByRole('link', { name: `Delete ${title}` }).click();
      await expect(page).toHaveURL(new RegExp(`/admin/content/${row.id}/delete$`));
      await expect(page.getByRole('heading', { level: 1, name: 'Confirm delete' })).toBeVisible();
      await expect(page.getByRole('main')).toContainText(CONTENT_MESSAGES.deleteConfirm(title));
      await page.getByRole('main').getByRole('button', { name: 'Delete' }).click();
      await expect(page).toHaveURL(/\/admin\/content\?type=news$/);
      expect(contentRow(row.id)).toBeUndefined();
    });
  });

  test('the delete confirmation page (the path without JavaScript) names the item and deletes it', async ({
    page,
    tag,
    signIn,
  }) => {
    await signIn('ADMIN');
    const item = insertContent({ type: 'news', title: `${tag} to delete on its own page` });
    await page.goto(`/admin/content/${item.id}/delete`);
    await expect(page.getByRole('heading', { level: 1, name: 'Confirm delete' })).toBeVisible();
    await expect(page.getByRole('main')).toContainText(CONTENT_MESSAGES.deleteConfirm(item.title));
    await expectNoA11yIssues(page);
    await page.getByRole('link', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/admin\/content\?type=news$/);
    expect(contentRow(item.id)).toBeDefined();
    await page.goto(`/admin/content/${item.id}/delete`);
    await page.getByRole('main').getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, CONTENT_MESSAGES.deleted);
    expect(contentRow(item.id)).toBeUndefined();
  });

  test('Add Story at 375 px: the whole form fits and passes axe', async ({ page, signIn }) => {
    await page.setViewportSize(MOBILE);
    await signIn('AUTHOR');
    await openForm(page, 'news');
    for (const label of ['Title', 'Author', 'Category', 'Tags', 'Summary', 'Image description (alt text)'])
      await expect(page.getByLabel(label)).toBeVisible();
    await expect(editorOf(page)).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await expectNoA11yIssues(page);
  });
});

test.describe('preview', () => {
  test('Show Preview renders the body through the server sanitiser as visitors will see it; Hide Preview hides it', async ({
    page,
    signIn,
  }) => {
    await signIn('EDITOR');
    await openForm(page, 'blogs');
    await page.getByLabel('Title').fill('Preview title');
    await page.getByLabel('Excerpt').fill('Preview excerpt');
    const editor = editorOf(page);
    await editor.click();
    await page.keyboard.type('Heading made with the toolbar');
    await page.getByRole('button', { name: 'Heading 1' }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    const typed = '<img src=x onerror="window.__xss=1"> and <script>window.__xss=2</script> typed as HTML';
    await page.keyboard.type(typed);

    const previewed = page.waitForResponse((r) => r.url().endsWith('/admin/content/preview') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Show Preview' }).click();
    expect((await previewed).status()).toBe(200);
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect(preview).toBeVisible();
    await expect(page.getByRole('button', { name: 'Hide Preview' })).toHaveAttribute('aria-expanded', 'true');
    await expect(preview).toContainText('Preview title');
    await expect(preview).toContainText('Preview excerpt');
    // The editor wrote an h1; the public sanitiser makes body headings start at h2 (the page title is the h1).
    await expect(editor.locator('h1')).toHaveText('Heading made with the toolbar');
    await expect(preview.getByRole('heading', { level: 2, name: 'Heading made with the toolbar' })).toBeVisible();
    // What was typed as HTML is text, not markup.
    await expect(preview.getByText(typed)).toBeVisible();
    await expect(preview.locator('img, script, [onerror]')).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    await expectNoA11yIssues(page);

    // It follows the typing.
    await editor.locator('p').last().click();
    await page.keyboard.press('End');
    await page.keyboard.type(' and more words');
    await expect(preview).toContainText(`${typed} and more words`);

    await page.getByRole('button', { name: 'Hide Preview' }).click();
    await expect(preview).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Show Preview' })).toHaveAttribute('aria-expanded', 'false');
  });
});

test.describe('featured image', () => {
  test('a real PNG or JPEG uploads when chosen, shows a thumbnail, can be removed, and the article gets its srcset and alt text', async ({
    page,
    tag,
    signIn,
  }) => {
    await signIn('AUTHOR');
    await openForm(page, 'blogs');
    const image = page.getByRole('group', { name: 'Featured image' });
    await page
      .getByLabel(/Choose an image/)
      .setInputFiles({ name: 'first photo.png', mimeType: 'image/png', buffer: await pngBytes() });
    await expectToast(page, CONTENT_UPLOAD_MESSAGES.uploaded);
    const thumbnail = image.locator('img');
    await expect(thumbnail).toHaveAttribute('src', /^\/media\/blogs\/[0-9a-f]{32}_first_photo\.webp$/);
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    await image.getByRole('button', { name: 'Remove image' }).click();
    await expectToast(page, CONTENT_UPLOAD_MESSAGES.removed);
    await expect(thumbnail).toHaveCount(0);

    await page
      .getByLabel(/Choose an image/)
      .setInputFiles({ name: 'second photo.jpg', mimeType: 'image/jpeg', buffer: await jpegBytes(2000, 1200) });
    await expectToast(page, CONTENT_UPLOAD_MESSAGES.uploaded);
    await expect(thumbnail).toHaveAttribute('src', /^\/media\/blogs\/[0-9a-f]{32}_second_photo\.webp$/);
    await expect(page.getByLabel(/Replace the image/)).toBeVisible();
    await page.getByLabel('Image description (alt text)').fill('Two young women signing at a workshop');

    const title = `${tag} Story with a picture`;
    await fillForm(page, 'blogs', { title, category: 'education', tags: '', summary: 'With a picture.', body: LONG_TEXT });
    await page.getByRole('button', { name: 'Publish' }).click();
    await expectToast(page, publishedMessage('blogs', 'create'));
    const row = await storedItem(title);

    await page.goto(`/blog/${row.id}`);
    const hero = page.getByRole('img', { name: 'Two young women signing at a workshop' });
    await expect(hero).toHaveAttribute('src', row.image_url!);
    const srcset = (await hero.getAttribute('srcset')) ?? '';
    for (const width of [480, 960, 1600]) {
      const variant = row.image_url!.replace(/\.webp$/, `-${width}w.webp`);
      expect(srcset).toContain(`${variant} ${width}w`);
      const response = await page.request.get(variant);
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toBe('image/webp');
    }
    // 2000 px wide at most 1600 stored.
    const stored = await sharp(await (await page.request.get(row.image_url!)).body()).metadata();
    expect(stored).toMatchObject({ format: 'webp', width: 1600, height: 960 });
  });

  test('refused files: a text file, a fake PNG and a file over 5 MB are refused with the spec messages', async ({
    page,
    signIn,
  }) => {
    await signIn('AUTHOR');
    const uploads: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/admin/uploads/content')) uploads.push(r.url());
    });
    await openForm(page, 'news');
    const chooser = page.getByLabel(/Choose an image/);
    const problem = page.locator('#image-error');

    await chooser.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await expect(problem).toHaveText(CONTENT_UPLOAD_MESSAGES.type);
    await expect(chooser).toHaveAccessibleDescription(CONTENT_UPLOAD_MESSAGES.type);
    expect(uploads).toHaveLength(0);

    await chooser.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(CONTENT_IMAGE_MAX_BYTES + 1) });
    await expect(problem).toHaveText(CONTENT_UPLOAD_MESSAGES.size);
    expect(uploads).toHaveLength(0);

    // Named and typed as a PNG, but the bytes are text: the server decodes and refuses it.
    const answered = page.waitForResponse((r) => r.url().endsWith('/admin/uploads/content'));
    await chooser.setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('hello, I am text') });
    expect((await answered).status()).toBe(400);
    await expect(problem).toHaveText(CONTENT_UPLOAD_MESSAGES.type);
    await expect(page.getByRole('group', { name: 'Featured image' }).locator('img')).toHaveCount(0);
  });

  test('the server decodes every upload: fakes are 400, over 5 MB is 413, and 50 MB is refused by its length alone', async ({
    request,
    staffRequest,
  }) => {
    const author = await staffRequest('AUTHOR');
    const post = (name: string, buffer: Buffer, mimeType = 'image/png') =>
      author.request.post('/admin/uploads/content', { multipart: { type: 'news', file: { name, mimeType, buffer } } });
    for (const [name, buffer] of [
      ['text.png', Buffer.from('just some text, not an image')],
      ['page.png', Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>')],
      ['archive.png', ZIP_BYTES],
      ['empty.png', Buffer.alloc(0)],
      // A real PNG signature with nothing after it.
      ['header-only.png', (await pngBytes()).subarray(0, 40)],
      // Headers that read, pixels that do not (a photo cut off while copying).
      ['truncated.png', (await pngBytes()).subarray(0, -30)],
      ['truncated.jpg', (await jpegBytes()).subarray(0, 600)],
    ] as const) {
      const response = await post(name, buffer);
      expect(response.status(), name).toBe(400);
      expect(await response.json()).toEqual({ error: CONTENT_UPLOAD_MESSAGES.type });
    }
    const svg = await post(
      'drawing.svg',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>'),
      'image/svg+xml',
    );
    expect(svg.status()).toBe(400);

    const over = await post('big.png', Buffer.alloc(CONTENT_IMAGE_MAX_BYTES + 1, 1));
    expect(over.status()).toBe(413);
    expect(await over.json()).toEqual({ error: CONTENT_UPLOAD_MESSAGES.size });

    // 50 MB announced, a few bytes sent: the answer comes at once, without waiting for the rest.
    const big = await postAnnouncingSize('/admin/uploads/content', await cookieOf(author.request), 50 * 1024 * 1024);
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body)).toEqual({ error: CONTENT_UPLOAD_MESSAGES.size });
    expect(big.ms).toBeLessThan(5_000);

    // A signed-out visitor is refused before anything is read.
    const visitor = await request.post('/admin/uploads/content', {
      multipart: { type: 'news', file: { name: 'a.png', mimeType: 'image/png', buffer: await pngBytes() } },
    });
    expect(visitor.status()).toBe(403);
  });

  test('a phone photo loses its GPS position and camera data, is turned upright, and is stored under its folder with a safe name', async ({
    staffRequest,
  }) => {
    const author = await staffRequest('AUTHOR');
    const photo = await jpegWithGps();
    const before = await sharp(photo).metadata();
    expect(before.exif?.toString('latin1')).toContain('PhoneMaker');
    expect(before.orientation).toBe(6);

    const response = await author.request.post('/admin/uploads/content', {
      multipart: { type: 'blogs', file: { name: 'IMG 2024 (GPS)!.jpg', mimeType: 'image/jpeg', buffer: photo } },
    });
    expect(response.status()).toBe(200);
    const { url } = (await response.json()) as { url: string };
    // spec §3 and §5: under blogs/, timestamp first, other characters than letters, digits, dot and hyphen as _.
    expect(url).toMatch(/^\/media\/blogs\/[0-9a-f]{32}_IMG_2024__GPS__\.webp$/);
    for (const file of [url, ...[480, 960, 1600].map((w) => url.replace(/\.webp$/, `-${w}w.webp`))]) {
      const stored = await sharp(await (await author.request.get(file)).body()).metadata();
      expect(stored.format, file).toBe('webp');
      expect(stored.exif, file).toBeUndefined();
      expect(stored.orientation ?? 1, file).toBe(1);
    }
    const main = await sharp(await (await author.request.get(url)).body()).metadata();
    // 400 × 240 with "rotate 90°" is upright 240 × 400.
    expect({ width: main.width, height: main.height }).toEqual({ width: 240, height: 400 });
  });
});
