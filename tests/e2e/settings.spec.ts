import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { linkMessage, requiredMessage, savedMessage, SETTINGS_MESSAGES, type SettingGroup } from '../../app/lib/site-settings';
import { expectToast, pngBytes } from './content-fixtures';
import { E2E } from './env';
import { expect, LAYOUT, test } from './fixtures';
import { unique } from './staff';
import { DESKTOP, expectNoA11yIssues, MOBILE, thenPutBack } from './support';

// Issue 11, Site settings: an Admin changes texts and figures, a Super Admin contact details and
// links, and visitors (served from the page cache) see each change at once. Every test puts back what
// it changed through the settings form's own action, so the pages other journeys read keep today's
// words (a value saved back to its default stops being stored).

test.use({ viewport: DESKTOP });
// The settings are one set for the whole site: this file's tests run one after another.
test.describe.configure({ mode: 'default' });

const section = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
const saveButton = (scope: Locator, title: string) => scope.getByRole('button', { name: `Save ${title}`, exact: true });

/** The settings page, once its scripts run (the policy editors show their toolbars). */
async function openSettings(page: Page) {
  await page.goto('/admin/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Site settings' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Formatting' }).first()).toBeVisible({ timeout: 15_000 });
}

/** Saves one group as its form would, through the action (JSON-free: a plain form post), and expects it to succeed. */
async function saveGroup(request: APIRequestContext, group: SettingGroup, fields: Record<string, string>) {
  const response = await request.post(`/admin/settings?group=${group}`, { form: fields, maxRedirects: 0 });
  expect(response.status(), `saving ${group}: ${(await response.text()).slice(0, 200)}`).toBe(200);
}

/** What a visitor gets: the page as the cache serves it to someone signed out. */
async function publicHtml(request: APIRequestContext, path: string): Promise<string> {
  const response = await request.get(path);
  expect(response.status()).toBe(200);
  return response.text();
}

test('an Admin changes the headline, a figure and the privacy text; visitors see them at once; contact details and links stay read-only', async ({
  page,
  request,
  signIn,
  database,
}) => {
  test.setTimeout(90_000);
  const word = unique();
  const headline = `Every voice counts in Uganda ${word}`;
  const sentence = `We answer every letter within a week ${word}.`;
  // Visitors' copies of the pages, cached before the change.
  expect(await publicHtml(request, '/')).toContain('Raising disability awareness through education and storytelling');
  expect(await publicHtml(request, '/privacy')).not.toContain(sentence);

  await signIn('ADMIN');
  await openSettings(page);
  const home = section(page, 'Home page');
  const stats = section(page, 'Impact numbers');
  const privacy = section(page, 'Privacy Policy');
  const original = {
    heroHeadline: await home.getByRole('textbox', { name: 'Headline', exact: true }).inputValue(),
    stat2Number: await stats.getByRole('group', { name: 'Stat 2' }).getByLabel('Number').inputValue(),
    privacyText: await privacy.locator('input[name="privacyText"]').inputValue(),
  };
  expect(original.stat2Number).toBe('50');
  await thenPutBack(
    async () => {
      // Contact details and every outgoing link are the Super Admin's: shown, not editable, and why.
      for (const title of ['Organisation and contact', 'Donation, course and social links']) {
        const readOnly = section(page, title);
        await expect(readOnly.getByText(SETTINGS_MESSAGES.readOnlyNote)).toBeVisible();
        await expect(readOnly.getByRole('button', { name: /^Save/ })).toHaveCount(0);
      }
      // The languages are the Super Admin's too, for a reason of their own.
      const languages = section(page, 'Languages');
      await expect(languages.getByText(SETTINGS_MESSAGES.readOnlyLanguages)).toBeVisible();
      await expect(languages.getByText(SETTINGS_MESSAGES.readOnlyNote)).toHaveCount(0);
      await expect(section(page, 'Organisation and contact').getByLabel('Phone')).not.toBeEditable();
      await expect(section(page, 'Organisation and contact').getByLabel('Phone')).toHaveValue('+256 700 123 456');
      await expect(section(page, 'Donation, course and social links').getByLabel('Donation link')).not.toBeEditable();

      // The headline, saved from the keyboard (Enter in the field submits its own group only).
      const field = home.getByRole('textbox', { name: 'Headline', exact: true });
      await field.fill(headline);
      await field.press('Enter');
      await expectToast(page, savedMessage('home'));

      await stats.getByRole('group', { name: 'Stat 2' }).getByLabel('Number').fill('64');
      await saveButton(stats, 'Impact numbers').click();
      await expectToast(page, savedMessage('stats'));

      const editor = privacy.getByRole('textbox', { name: 'Privacy Policy text' });
      await editor.click();
      await page.keyboard.press('Control+End');
      await page.keyboard.press('Enter');
      await page.keyboard.type(sentence);
      await saveButton(privacy, 'Privacy Policy').click();
      await expectToast(page, savedMessage('privacy'));

      // Visitors: the cached pages were forgotten, the new words are there.
      const homeHtml = await publicHtml(request, '/');
      expect(homeHtml).toContain(headline);
      expect(homeHtml).toContain('>64+<');
      expect(homeHtml).toContain('>Workshops Conducted<');
      const privacyHtml = await publicHtml(request, '/privacy');
      expect(privacyHtml).toContain(sentence);
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(headline);
      await page.goto('/privacy');
      await expect(page.getByRole('main')).toContainText(sentence);

      // A hand-made post of the donation link (or the phone) by an Admin: refused, nothing changed.
      for (const [group, form] of [
        ['links', { donationUrl: 'https://evil.example/give' }],
        ['organisation', { orgPhone: '+256 799 000 000' }],
      ] as const) {
        const refused = await page.request.post(`/admin/settings?group=${group}`, { form, maxRedirects: 0 });
        expect(refused.status()).toBe(403);
      }
      const donate = await request.get('/donate', { maxRedirects: 0 });
      expect(donate.headers()['location']).toBe(E2E.donationUrl);
      const stored = await database
        .selectFrom('settings')
        .select('key')
        .where('key', 'in', ['site.donationUrl', 'site.orgPhone'])
        .execute();
      expect(stored).toEqual([]);
    },
    async () => {
      await saveGroup(page.request, 'home', { heroHeadline: original.heroHeadline });
      await saveGroup(page.request, 'stats', { stat2Number: original.stat2Number });
      await saveGroup(page.request, 'privacy', { privacyText: original.privacyText });
    },
  );
  expect(await publicHtml(request, '/')).toContain('>50+<');
  // Issue 26: the demo's languages (turned on when it was seeded) are the only stored site settings.
  const left = await database
    .selectFrom('settings')
    .select('key')
    .where('key', 'like', 'site.%')
    .where('key', 'not in', ['site.languageLg', 'site.languageSw'])
    .execute();
  expect(left).toEqual([]);
});

test('the Super Admin changes the phone and the donation link: the footer and /donate follow; bad links are refused in plain words; the audit log shows old and new', async ({
  page,
  request,
  signIn,
  staff,
}) => {
  test.setTimeout(90_000);
  const phone = `+256 772 ${String(Math.floor(100 + Math.random() * 899))} 010`;
  const link = `https://give.e2e.example/tdg-${unique()}`;
  await signIn(await staff('SUPER_ADMIN'));
  await openSettings(page);
  const organisation = section(page, 'Organisation and contact');
  const links = section(page, 'Donation, course and social links');
  const original = {
    orgPhone: await organisation.getByLabel('Phone').inputValue(),
    donationUrl: await links.getByLabel('Donation link').inputValue(),
  };
  expect(original.donationUrl).toBe(E2E.donationUrl);
  await thenPutBack(
    async () => {
      await organisation.getByLabel('Phone').fill(phone);
      await saveButton(organisation, 'Organisation and contact').click();
      await expectToast(page, savedMessage('organisation'));

      // Not https: refused in the browser, every problem listed and beside its field.
      const donation = links.getByLabel('Donation link');
      for (const bad of ['http://give.e2e.example/tdg', 'javascript:alert(document.cookie)']) {
        await donation.fill(bad);
        await saveButton(links, 'Donation, course and social links').click();
        const summary = links.getByRole('alert');
        await expect(summary).toContainText(SETTINGS_MESSAGES.fixErrors);
        await expect(summary.getByRole('link', { name: linkMessage('Donation link') })).toBeVisible();
        await expect(summary).toBeFocused();
        await expect(donation).toHaveAccessibleDescription(
          new RegExp(`^${linkMessage('Donation link').replace(/[.,:/]/g, '\\$&')}`),
        );
      }
      // ...and by the server, whatever the browser does.
      const refused = await page.request.post('/admin/settings?group=links', {
        form: { donationUrl: 'javascript:alert(1)' },
        maxRedirects: 0,
      });
      expect(refused.status()).toBe(400);
      expect(await refused.text()).toContain(linkMessage('Donation link'));

      await donation.fill(link);
      await saveButton(links, 'Donation, course and social links').click();
      await expectToast(page, savedMessage('links'));
      await expect(links.getByRole('alert')).toHaveCount(0);

      const donate = await request.get('/donate', { maxRedirects: 0 });
      expect(donate.status()).toBe(302);
      expect(donate.headers()['location']).toBe(link);
      const html = await publicHtml(request, '/');
      expect(html).toContain(`href="tel:${phone.replace(/ /g, '')}"`);
      expect(html).toContain(`href="${link}"`);
      await page.goto('/about');
      const footer = page.getByRole('contentinfo');
      await expect(footer.getByRole('link', { name: phone })).toHaveAttribute('href', `tel:${phone.replace(/ /g, '')}`);
      await expect(footer.getByRole('link', { name: /^Donate now/ })).toHaveAttribute('href', link);

      await page.goto('/admin/audit');
      const rows = page.getByRole('row').filter({ hasText: 'Site settings changed' });
      await expect(rows.filter({ hasText: `Phone: ${original.orgPhone} → ${phone}` })).toHaveCount(1);
      await expect(rows.filter({ hasText: `Donation link: ${original.donationUrl} → ${link}` })).toHaveCount(1);
    },
    async () => {
      await saveGroup(page.request, 'organisation', { orgPhone: original.orgPhone });
      await saveGroup(page.request, 'links', { donationUrl: original.donationUrl });
    },
  );
  expect((await request.get('/donate', { maxRedirects: 0 })).headers()['location']).toBe(E2E.donationUrl);
});

test('a story link to no story is refused beside its field; the founder photo is uploaded, shown on the home and About pages, and removed again', async ({
  page,
  request,
  signIn,
}) => {
  test.setTimeout(90_000);
  await signIn('ADMIN');
  await openSettings(page);
  const founder = section(page, 'Founder');
  await thenPutBack(
    async () => {
      // A refusal only the server can make (no such story) comes back into the group, beside its field.
      const storyLink = founder.getByLabel('“Read the story” link');
      await storyLink.fill('/blog/no-such-story-here');
      await saveButton(founder, 'Founder').click();
      await expect(founder.getByRole('alert')).toContainText(SETTINGS_MESSAGES.storyMissing);
      await expect(storyLink).toHaveAccessibleDescription(
        new RegExp(`^${SETTINGS_MESSAGES.storyMissing.replace(/[.,]/g, '\\$&')}`),
      );
      await storyLink.fill('');

      await founder
        .getByLabel(/^Choose a photo/)
        .setInputFiles({ name: 'founder.png', mimeType: 'image/png', buffer: await pngBytes(600) });
      await expectToast(page, 'Image uploaded successfully!');
      await saveButton(founder, 'Founder').click();
      await expectToast(page, savedMessage('founder'));
      const about = await publicHtml(request, '/about');
      expect(about).toMatch(/<img[^>]+alt="Portrait of Grace Nakato"/);
      await page.goto('/');
      await expect(page.getByRole('img', { name: 'Portrait of Grace Nakato' })).toBeVisible();

      await openSettings(page);
      await founder.getByRole('button', { name: 'Remove photo' }).click();
      await saveButton(founder, 'Founder').click();
      await expectToast(page, savedMessage('founder'));
    },
    async () => {
      await saveGroup(page.request, 'founder', { founderPhoto: '' });
    },
  );
  await page.goto('/about');
  await expect(page.locator('#founder').getByRole('img', { name: 'Grace Nakato (no photo)' })).toHaveText('G');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('an Admin changes the course banner with a plain form: a problem comes back in plain words, the change shows at once', async ({
    page,
    request,
    signIn,
  }) => {
    const banner = `Free Deaf Awareness course starts in March ${unique()}`;
    await signIn('ADMIN');
    await page.goto('/admin/settings');
    const header = section(page, 'Course banner and footer');
    const field = header.getByLabel('Course banner text');
    const original = await field.inputValue();
    await thenPutBack(
      async () => {
        await field.fill('');
        await saveButton(header, 'Course banner and footer').click();
        await expect(page).toHaveURL(/\/admin\/settings\?group=header$/);
        const again = section(page, 'Course banner and footer');
        await expect(again.getByRole('alert')).toContainText(SETTINGS_MESSAGES.fixErrors);
        await expect(again.getByRole('alert').getByRole('link', { name: requiredMessage('Course banner text') })).toBeVisible();
        await expect(again.getByLabel('Course banner text')).toHaveAccessibleDescription(
          new RegExp(`^${requiredMessage('Course banner text')}`),
        );

        await again.getByLabel('Course banner text').fill(banner);
        await saveButton(again, 'Course banner and footer').click();
        await expect(section(page, 'Course banner and footer').getByText(savedMessage('header'))).toBeVisible();
        await expect(section(page, 'Course banner and footer').getByLabel('Course banner text')).toHaveValue(banner);

        const html = await publicHtml(request, '/news');
        expect(html).toContain(`>${banner}<`);
        await page.goto('/');
        await expect(page.getByRole('link', { name: new RegExp(banner) })).toHaveAttribute('href', E2E.courseUrl);
      },
      async () => {
        await saveGroup(page.request, 'header', { courseBanner: original });
      },
    );
    expect(await publicHtml(request, '/news')).toContain(`>${original}<`);
  });
});

for (const viewport of [DESKTOP, MOBILE]) {
  test(
    `the settings page fits ${viewport.width} px, works by keyboard and passes axe`,
    { tag: LAYOUT },
    async ({ page, signIn }) => {
      test.setTimeout(90_000);
      await page.setViewportSize(viewport);
      await signIn('ADMIN');
      await openSettings(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      // The list of sections leads to each by keyboard.
      const toc = page.getByRole('navigation', { name: 'Sections' });
      await toc.getByRole('link', { name: 'Impact numbers' }).focus();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/#group-stats$/);
      await expect(section(page, 'Impact numbers')).toBeInViewport();
      await expectNoA11yIssues(page);
      // With a problem showing, too.
      const home = section(page, 'Home page');
      await home.getByRole('textbox', { name: 'Headline', exact: true }).fill('');
      await saveButton(home, 'Home page').click();
      await expect(home.getByRole('alert')).toBeFocused();
      await expectNoA11yIssues(page);
    },
  );
}
