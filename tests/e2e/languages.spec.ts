import type { Browser, Page } from '@playwright/test';
import type { Kysely } from 'kysely';
import type { Database } from '../../app/server/db/schema';
import { savedMessage } from '../../app/lib/site-settings';
import { E2E_ENGINES, serverDatabase, type ServerDatabase } from './engines';
import { expect, OWN_SERVERS, test } from './fixtures';
import { signInWithForm } from './staff';
import { DESKTOP, expectNoA11yIssues, MOBILE, startServer, type OtherServer } from './support';

// Issue 26 (the foundation): the public site in English, Luganda and Swahili. Each engine's journey
// runs on a server of its own, since turning a language on changes every page's header for everyone:
// the Super Admin turns both languages on in Site settings; a visitor without JavaScript chooses
// Luganda and Swahili from the header and gets the interface and <html lang> of each, with hreflang
// alternates on the page and in the sitemap; turned off, /lg/ answers 404 and no chooser shows.

const OWNER = { email: 'owner@languages.e2e.example', password: 'Owner-languages-passphrase-42', role: 'SUPER_ADMIN' } as const;

const html = (page: Page) => page.locator('html');
const chooser = (page: Page) => page.getByRole('navigation', { name: /^(Language|Olulimi|Lugha)$/ });

async function setLanguages(page: Page, lg: 'On' | 'Off', sw: 'On' | 'Off') {
  await page.goto('/admin/settings');
  const section = page.getByRole('region', { name: 'Languages', exact: true });
  await section.getByLabel('Luganda (Oluganda)').selectOption({ label: lg });
  await section.getByLabel('Swahili (Kiswahili)').selectOption({ label: sw });
  await section.getByRole('button', { name: 'Save Languages', exact: true }).click();
  await expect(section.getByText(savedMessage('languages'), { exact: true })).toBeVisible();
}

async function visitorPage(browser: Browser, baseURL: string, viewport = DESKTOP, javaScriptEnabled = false) {
  const context = await browser.newContext({ baseURL, viewport, javaScriptEnabled });
  return { context, page: await context.newPage() };
}

for (const engine of E2E_ENGINES) {
  test.describe(`languages on ${engine}`, { tag: OWN_SERVERS }, () => {
    test.describe.configure({ timeout: 240_000 });
    let data: ServerDatabase | undefined;
    let server: OtherServer | undefined;
    let db: Kysely<Database> | undefined;
    test.afterAll(async () => {
      await server?.dispose();
      await data?.dispose();
    });

    test('the Super Admin turns Luganda and Swahili on; a visitor without JavaScript reads the site in each; off, /lg/ is 404', async ({
      browser,
    }) => {
      data = await serverDatabase(engine);
      server = await startServer(
        { ...data.env, SUPER_ADMIN_EMAIL: OWNER.email, SUPER_ADMIN_PASSWORD: OWNER.password, DEMO_CONTENT: 'false' },
        `tdg-languages-${engine}-`,
      );
      db = await data.database();
      const base = `http://127.0.0.1:${server.port}`;

      // Off by default: no Luganda or Swahili pages, no chooser, no alternates.
      const visitor = await visitorPage(browser, base);
      const { page } = visitor;
      expect((await page.request.get('/lg')).status()).toBe(404);
      expect((await page.request.get('/sw/blog')).status()).toBe(404);
      await page.goto('/blog');
      await expect(html(page)).toHaveAttribute('lang', 'en');
      await expect(chooser(page)).toHaveCount(0);
      await expect(page.locator('link[rel="alternate"][hreflang]')).toHaveCount(0);
      expect(await (await page.request.get('/sitemap.xml')).text()).not.toContain('hreflang');
      // The site's public address (PUBLIC_URL) as its pages name it.
      const site = ((await page.locator('link[rel="canonical"]').getAttribute('href')) ?? '').replace(/\/blog$/, '');

      // The Super Admin turns both on (with JavaScript, as staff use the dashboard); the change is audited.
      const staff = await browser.newContext({ baseURL: base, viewport: DESKTOP });
      const admin = await staff.newPage();
      await signInWithForm(admin, OWNER);
      await setLanguages(admin, 'On', 'On');
      const audit = await db
        .selectFrom('audit_log')
        .select(['detail'])
        .where('action', '=', 'settings.updated')
        .where('target', '=', 'Languages')
        .executeTakeFirst();
      expect(audit?.detail).toContain('Luganda (Oluganda)');

      // The visitor (no JavaScript) chooses Luganda from the header, on the same page.
      await page.goto('/blog');
      await expect(chooser(page).getByRole('link')).toHaveText(['English', 'Oluganda', 'Kiswahili']);
      await expect(chooser(page).getByRole('link', { name: 'English' })).toHaveAttribute('aria-current', 'true');
      await chooser(page).getByRole('link', { name: 'Oluganda' }).click();
      await expect(page).toHaveURL(`${base}/lg/blog`);
      await expect(html(page)).toHaveAttribute('lang', 'lg');
      const main = page.getByRole('navigation', { name: 'Ebikulu' });
      await expect(main.getByRole('link')).toHaveText(['Awaka', 'Ebitukwatako', 'Emboozi', 'Mu Mawulire', 'Tukwatagane']);
      await expect(main.getByRole('link', { name: 'Emboozi' })).toHaveAttribute('aria-current', 'page');
      await expect(page.getByRole('link', { name: 'Genda butereevu ku bikulu' })).toHaveAttribute('href', '#main');
      await expect(page.getByRole('heading', { name: 'Weegatte ku nsonga yaffe' })).toBeVisible();
      // The page script's own words come with the page, in its language.
      await expect(page.locator('main')).toHaveAttribute('data-text-image-unavailable', 'Ekifaananyi tekirabika');
      // Links inside the language stay in it: the layout's, and the page's own.
      await expect(page.getByRole('link', { name: 'Enkola y’Ebyama' })).toHaveAttribute('href', '/lg/privacy');
      await expect(page.getByRole('link', { name: 'Beera Munnakyewa' })).toHaveAttribute('href', '/lg/volunteer');
      const pageLinks = await page.locator('main a[href^="/"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      expect(pageLinks.filter((href) => !/^\/(lg|media)(\/|$)/.test(href ?? '') && !/\.xml$/.test(href ?? ''))).toEqual([]);
      // The page names itself and its other languages for search engines.
      const alternates = await page
        .locator('link[rel="alternate"][hreflang]')
        .evaluateAll((links) => links.map((l) => `${l.getAttribute('hreflang')} ${l.getAttribute('href')}`));
      expect(alternates).toEqual([`en ${site}/blog`, `lg ${site}/lg/blog`, `sw ${site}/sw/blog`, `x-default ${site}/blog`]);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${site}/lg/blog`);

      // Then Swahili, then back to English.
      await chooser(page).getByRole('link', { name: 'Kiswahili' }).click();
      await expect(page).toHaveURL(`${base}/sw/blog`);
      await expect(html(page)).toHaveAttribute('lang', 'sw');
      await expect(page.getByRole('navigation', { name: 'Menyu kuu' }).getByRole('link')).toHaveText([
        'Mwanzo',
        'Kuhusu Sisi',
        'Hadithi',
        'Vyombo vya Habari',
        'Wasiliana Nasi',
      ]);
      await expect(page.getByText('Haki zote zimehifadhiwa.')).toBeVisible();
      await chooser(page).getByRole('link', { name: 'English' }).click();
      await expect(page).toHaveURL(`${base}/blog`);
      await expect(html(page)).toHaveAttribute('lang', 'en');

      // The page that is not there, in the reader's language.
      const missing = await page.goto('/sw/no-such-page');
      expect(missing?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ukurasa Haupatikani');
      await expect(page.locator('link[rel="alternate"][hreflang]')).toHaveCount(0);

      // The sitemap lists each page in every language with its alternates.
      const sitemap = await (await page.request.get('/sitemap.xml')).text();
      expect(sitemap).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
      expect(sitemap).toContain(`<loc>${site}/lg/about</loc>`);
      expect(sitemap).toContain(`<xhtml:link rel="alternate" hreflang="sw" href="${site}/sw/about"/>`);
      expect(sitemap).toContain(`<xhtml:link rel="alternate" hreflang="x-default" href="${site}/about"/>`);
      await visitor.context.close();

      // At 375 px, the phone menu offers the languages too, and the page passes axe.
      const phone = await visitorPage(browser, base, MOBILE, true);
      await phone.page.goto('/lg');
      await expect(html(phone.page)).toHaveAttribute('lang', 'lg');
      await expectNoA11yIssues(phone.page);
      await phone.page.getByRole('button', { name: 'Ggulawo menyu' }).click();
      const menu = phone.page.getByRole('dialog', { name: 'Menyu' });
      await expect(menu.getByRole('navigation', { name: 'Olulimi' }).getByRole('link')).toHaveText([
        'English',
        'Oluganda',
        'Kiswahili',
      ]);
      await expectNoA11yIssues(phone.page);
      await menu.getByRole('link', { name: 'Kiswahili' }).click();
      await expect(phone.page).toHaveURL(`${base}/sw`);
      await phone.context.close();

      // Luganda turned off: its pages answer 404 and the chooser offers only the rest.
      await setLanguages(admin, 'Off', 'On');
      await staff.close();
      const after = await visitorPage(browser, base);
      expect((await after.page.request.get('/lg/blog')).status()).toBe(404);
      // A private link mailed in Luganda still works: it goes to its English page.
      const token = 'A'.repeat(43);
      for (const path of [`/events/cancel/${token}`, `/newsletter/confirm/${token}`, `/newsletter/unsubscribe/${token}`]) {
        const mailed = await after.page.request.get(`/lg${path}`, { maxRedirects: 0 });
        expect(mailed.status(), path).toBe(302);
        expect(mailed.headers()['location']).toBe(path);
        expect(mailed.headers()['cache-control']).toBe('no-store');
      }
      await after.page.goto('/sw/about');
      await expect(chooser(after.page).getByRole('link')).toHaveText(['English', 'Kiswahili']);
      await setLanguagesOffCheck(after.page);
      await after.context.close();
    });
  });
}

/** With a language still on, the page's alternates leave out the one turned off. */
async function setLanguagesOffCheck(page: Page) {
  const hreflangs = await page
    .locator('link[rel="alternate"][hreflang]')
    .evaluateAll((links) => links.map((l) => l.getAttribute('hreflang')));
  expect(hreflangs).toEqual(['en', 'sw', 'x-default']);
}
