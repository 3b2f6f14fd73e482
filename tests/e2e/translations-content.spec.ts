import type { Kysely } from 'kysely';
import type { Database } from '../../app/server/db/schema';
import { VERSION_MESSAGES } from '../../app/lib/content-versions';
import { BODY, postSave } from './content-fixtures';
import { expect, test } from './fixtures';
import { expectNoA11yIssues, MOBILE } from './support';

// Issue 26, items 4 and 5 (docs/decisions/031-translated-content.md): an EDITOR adds a Luganda
// version of a story from its edit screen and publishes it on its own (the Swahili version stays a
// draft, the English story unchanged); the English page links to it; /lg/blog/<id> shows it in
// Luganda; an untranslated story under /lg/ is marked English with a notice in Luganda; the /lg list
// shows both. The demo content turns both languages on, so the journeys' servers offer them.

const row = (database: Kysely<Database>, id: string) =>
  database
    .selectFrom('content')
    .select(['id', 'title', 'status', 'language', 'translation_of', 'version', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const byTitle = (database: Kysely<Database>, title: string) =>
  database.selectFrom('content').select(['id', 'version']).where('title', '=', title).executeTakeFirstOrThrow();

test('a Luganda version is added, published on its own and linked; an untranslated story under /lg/ is marked English', async ({
  page,
  signIn,
  database,
  tag,
  browser,
}) => {
  test.setTimeout(300_000);
  await signIn('EDITOR');
  const title = `Captioned lessons in Kampala ${tag}`;
  const untranslatedTitle = `Ramps at the taxi park ${tag}`;
  expect(
    (await postSave(page.request, 'blogs', { title, category: 'education', content: BODY, intent: 'publish' })).status(),
  ).toBe(200);
  expect(
    (
      await postSave(page.request, 'blogs', { title: untranslatedTitle, category: 'education', content: BODY, intent: 'publish' })
    ).status(),
  ).toBe(200);
  const english = await byTitle(database, title);
  const untranslated = await byTitle(database, untranslatedTitle);

  // The edit screen's Languages panel, at 375 px: no versions yet.
  await page.setViewportSize(MOBILE);
  await page.goto(`/admin/content/${english.id}/edit`);
  const panel = page.getByRole('region', { name: 'Languages' });
  await expect(panel.getByText('No version yet')).toHaveCount(2);
  await expectNoA11yIssues(page);

  // Add Swahili (it stays a draft) and Luganda versions.
  await panel.getByRole('button', { name: 'Add Swahili version' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Kiswahili version');
  await page.goto(`/admin/content/${english.id}/edit`);
  await page.getByRole('region', { name: 'Languages' }).getByRole('button', { name: 'Add Luganda version' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Oluganda version');
  const versionPanel = page.getByRole('region', { name: 'Languages' });
  await expect(versionPanel.getByRole('link', { name: title })).toBeVisible();
  await expectNoA11yIssues(page);
  const versions = await database
    .selectFrom('content')
    .select(['id', 'language', 'status', 'version'])
    .where('translation_of', '=', english.id)
    .orderBy('language')
    .execute();
  expect(versions.map((v) => [v.language, v.status])).toEqual([
    ['lg', 'draft'],
    ['sw', 'draft'],
  ]);
  const lg = versions[0]!;

  // A second Luganda version is refused, and nothing changes.
  const again = await page.request.post(`/admin/content/${english.id}/versions`, { form: { language: 'lg' }, maxRedirects: 0 });
  expect(again.status()).toBe(409);
  expect(await again.text()).toContain(VERSION_MESSAGES.exists);
  const unknown = await page.request.post(`/admin/content/${english.id}/versions`, { form: { language: 'fr' }, maxRedirects: 0 });
  expect(unknown.status()).toBe(400);

  // Before it is published, /lg/blog/<id> shows the English story with the notice (and is cached).
  const visitor = await browser.newContext({ viewport: MOBILE });
  const reader = await visitor.newPage();
  await reader.goto(`/lg/blog/${english.id}`);
  // The story's own words are marked English; the page around them (labels, breadcrumb) is in Luganda.
  await expect(reader.locator('h1[lang="en"]')).toHaveText(title);

  // The translator's words, published: only the Luganda version goes public.
  const lugandaTitle = `Ebigambo wansi mu masomo ${tag}`;
  const saved = await postSave(
    page.request,
    'blogs',
    {
      title: lugandaTitle,
      category: 'education',
      summary: 'Abayizi bakiggala mu Kampala basoma nga vidiyo ziriko ebigambo wansi.',
      content: '<p>Abayizi bakiggala mu Kampala kati basoma buli ssomo nga vidiyo ziriko ebigambo wansi, era kibayamba nnyo.</p>',
      intent: 'publish',
      version: String(lg.version),
    },
    lg.id,
  );
  expect(saved.status(), await saved.text()).toBe(200);
  expect(await row(database, lg.id)).toMatchObject({ status: 'published', language: 'lg' });
  expect((await row(database, versions[1]!.id)).status).toBe('draft');
  expect(await row(database, english.id)).toMatchObject({ status: 'published', title, version: english.version });

  // A visitor: the English page links to the Luganda version (not to the Swahili draft).
  await reader.goto(`/blog/${english.id}`);
  await expect(reader.getByRole('heading', { level: 1 })).toHaveText(title);
  const toLuganda = reader.getByRole('link', { name: 'Soma mu Luganda' });
  await expect(toLuganda).toHaveAttribute('hreflang', 'lg');
  await expect(toLuganda).toHaveAttribute('lang', 'lg');
  await expect(reader.getByRole('link', { name: 'Soma kwa Kiswahili' })).toHaveCount(0);

  // /lg/blog/<id>: the Luganda version, <html lang="lg">, linking back to English.
  await toLuganda.click();
  await expect(reader).toHaveURL(new RegExp(`/lg/blog/${english.id}$`));
  await expect(reader.locator('html')).toHaveAttribute('lang', 'lg');
  await expect(reader.getByRole('heading', { level: 1 })).toHaveText(lugandaTitle);
  await expect(reader.locator('main h1, main h1 ~ p').and(reader.locator('[lang="en"]'))).toHaveCount(0);
  await expect(reader.getByRole('link', { name: 'Read in English' })).toHaveAttribute('href', `/blog/${english.id}`);
  await expectNoA11yIssues(reader);

  // An untranslated story under /lg/: English text marked lang="en", with the notice in Luganda.
  await reader.goto(`/lg/blog/${untranslated.id}`);
  await expect(reader.locator('html')).toHaveAttribute('lang', 'lg');
  await expect(reader.locator('h1[lang="en"]')).toHaveText(untranslatedTitle);
  await expect(reader.getByRole('note')).toHaveText('Kino tekinnavvuunulwa mu Luganda, kyova okiraba mu Lungereza.');
  await expect(reader.getByRole('note')).toHaveAttribute('lang', 'lg');
  await expectNoA11yIssues(reader);

  // The /lg list shows both: the Luganda version, and the English story marked.
  await reader.goto(`/lg/blog?q=${tag}`);
  await expect(reader.getByRole('link', { name: lugandaTitle })).toBeVisible();
  const marked = reader.locator('article').filter({ hasText: untranslatedTitle });
  await expect(marked).toBeVisible();
  await expect(marked.getByRole('heading')).toHaveAttribute('lang', 'en');
  await expect(marked.getByText('Mu Lungereza', { exact: true })).toBeVisible();
  await expectNoA11yIssues(reader);
  // Searched in Luganda, by the version's own words.
  await reader.goto('/lg/blog?q=vidiyo');
  await expect(reader.getByRole('link', { name: lugandaTitle })).toBeVisible();

  // The English list is unchanged: the English story, once, in English.
  await reader.goto(`/blog?q=${tag}`);
  await expect(reader.getByRole('link', { name: title })).toHaveCount(1);
  await expect(reader.getByRole('link', { name: lugandaTitle })).toHaveCount(0);

  // The Luganda feed lists the version at its address under /lg.
  const feed = await reader.request.get('/lg/blog/rss.xml');
  expect(feed.status()).toBe(200);
  const xml = await feed.text();
  expect(xml).toContain('<language>lg</language>');
  expect(xml).toContain(lugandaTitle);
  expect(xml).toContain(`/lg/blog/${english.id}`);

  // The sitemap dates the story's Luganda page by its version, and its Swahili page (a draft) by the story.
  const sitemap = await (await reader.request.get('/sitemap.xml')).text();
  const lastmod = (path: string) =>
    sitemap
      .split('<loc>')
      .find((entry) => entry.includes(`${path}</loc>`))
      ?.match(/<lastmod>([^<]{1,40})<\/lastmod>/)?.[1];
  const [englishNow, lugandaNow] = [await row(database, english.id), await row(database, lg.id)];
  expect(lugandaNow.updated_at > englishNow.updated_at).toBe(true);
  expect(lastmod(`/lg/blog/${english.id}`)).toBe(lugandaNow.updated_at);
  expect(lastmod(`/sw/blog/${english.id}`)).toBe(englishNow.updated_at);
  await visitor.close();
});

test('pages in Luganda and Swahili read the site’s settings too: contact details, share links, the course link and the data saver', async ({
  browser,
  database,
}) => {
  const visitor = await browser.newContext({ javaScriptEnabled: false });
  const page = await visitor.newPage();
  const english = await page.goto('/contact');
  expect(english?.status()).toBe(200);
  const contacts = (at: string) =>
    page
      .locator(`${at} main a[href^="mailto:"], ${at} main a[href^="tel:"]`)
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  const inEnglish = await contacts('');
  expect(inEnglish.some((href) => href?.startsWith('mailto:'))).toBe(true);
  expect(inEnglish.some((href) => href?.startsWith('tel:'))).toBe(true);
  for (const language of ['lg', 'sw']) {
    await page.goto(`/${language}/contact`);
    expect(await contacts(''), language).toEqual(inEnglish);
    await page.goto(`/${language}/services/awareness-course`);
    const enroll = page.locator('main a[href^="http"]').first();
    await expect(enroll, language).toBeVisible();
    expect(await enroll.getAttribute('href'), language).not.toBe('/course');
    // A story's share links name the page as read, in full.
    const story = await database
      .selectFrom('content')
      .select(['id'])
      .where('collection', '=', 'blogs')
      .where('status', '=', 'published')
      .where('language', '=', 'en')
      .orderBy('published_at', 'desc')
      .executeTakeFirstOrThrow();
    await page.goto(`/${language}/blog/${story.id}`);
    const share = await page.locator('a[href*="facebook.com/sharer"]').getAttribute('href');
    expect(new URL(share!).searchParams.get('u'), language).toMatch(new RegExp(`^https?://[^/]+/${language}/blog/${story.id}$`));
  }
  await visitor.close();

  // The phone's data saver holds the pictures back in every language.
  const saver = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: { 'Save-Data': 'on' } });
  const saving = await saver.newPage();
  for (const path of ['/blog', '/lg/blog', '/sw/blog']) {
    await saving.goto(path);
    await expect(saving.locator('main img[src*="/media/"]'), path).toHaveCount(0);
  }
  await saver.close();
});

test('a picture’s description is read in its own language on pages in Luganda and Swahili, with and without the data saver', async ({
  browser,
}) => {
  // Each picture in the page's main part: its description, and the language a screen reader takes for it.
  const described = (selector: string) =>
    `Array.from(document.querySelectorAll(${JSON.stringify(selector)})).map((node) => ({ text: node.getAttribute('alt') ?? node.textContent, lang: node.closest('[lang]')?.getAttribute('lang') }))`;
  const visitor = await browser.newContext({ javaScriptEnabled: false });
  const page = await visitor.newPage();
  for (const language of ['lg', 'sw']) {
    await page.goto(`/${language}/blog`);
    const pictures = (await page.evaluate(described('main img[src*="/media/"]'))) as { text: string; lang: string }[];
    // The demo's translated stories describe their pictures in the page's language; English stories' pictures are marked English.
    const own = pictures.filter((picture) => !picture.text.startsWith('Illustration'));
    const inEnglish = pictures.filter((picture) => picture.text.startsWith('Illustration'));
    expect(own.length, language).toBeGreaterThan(0);
    expect(inEnglish.length, language).toBeGreaterThan(0);
    for (const picture of own) expect(picture.lang, picture.text).toBe(language);
    for (const picture of inEnglish) expect(picture.lang, picture.text).toBe('en');
    // A service's picture has one description, in English.
    await page.goto(`/${language}/services`);
    const services = (await page.evaluate(described('main li img'))) as { text: string; lang: string }[];
    expect(services.length, language).toBeGreaterThan(0);
    for (const picture of services) expect(picture.lang, picture.text).toBe('en');
  }
  await visitor.close();

  // With the data saver the description is shown as text in place of the picture, in its own language too.
  const saver = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: { 'Save-Data': 'on' } });
  const saving = await saver.newPage();
  await saving.goto('/sw/blog');
  const held = (await saving.evaluate(described('main [data-state="save-data"] p span'))) as { text: string; lang: string }[];
  expect(held.length).toBeGreaterThan(0);
  for (const picture of held) expect(picture.lang, picture.text).toBe(picture.text.startsWith('Illustration') ? 'en' : 'sw');
  expect(held.some((picture) => picture.lang === 'sw')).toBe(true);
  await saver.close();
});
