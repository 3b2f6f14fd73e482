import { expect, test, type APIRequestContext } from '@playwright/test';
import { COURSE_BANNER_TEXT } from '../../app/lib/site';
import { E2E } from './env';
import { DESKTOP, expectNoA11yIssues, expectReflowAt320, MOBILE, NARROWEST, themeColor } from './support';

test.describe('shared layout at 1280 px', () => {
  test.use({ viewport: DESKTOP });

  test('server-renders the header, five nav links, Donate and the footer', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.locator('h1')).toHaveCount(1);

    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link')).toHaveText(['Home', 'About Us', 'Stories', 'In Media', 'Contact Us']);
    await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();

    const donate = page.getByRole('banner').getByRole('link', { name: /^Donate/ });
    await expect(donate).toHaveAttribute('href', E2E.donationUrl);
    await expect(donate).toHaveAttribute('target', '_blank');
    await expect(donate).toHaveAttribute('rel', 'noopener noreferrer');

    const banner = page.getByRole('link', { name: new RegExp(COURSE_BANNER_TEXT) });
    await expect(banner).toBeVisible();
    await expect(banner).toHaveAttribute('href', E2E.courseUrl);
    await expect(banner).toHaveAttribute('target', '_blank');

    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('heading', { name: 'Join our cause' })).toBeVisible();
    await expect(footer.getByRole('link', { name: /^Donate now/ })).toHaveAttribute('href', E2E.donationUrl);
    await expect(footer.getByRole('link', { name: 'Partner with us' })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Become a Volunteer' })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'info@tdg-uganda.example' })).toHaveAttribute(
      'href',
      'mailto:info@tdg-uganda.example',
    );
    await expect(footer.getByRole('link', { name: '+256 700 123 456' })).toHaveAttribute('href', 'tel:+256700123456');
    await expect(footer).toContainText('Mukono, Central Region, Uganda');
    for (const network of ['X', 'Instagram', 'LinkedIn', 'YouTube']) {
      await expect(footer.getByRole('link', { name: `TDG Uganda on ${network} (opens in a new tab)` })).toHaveAttribute(
        'target',
        '_blank',
      );
    }
    await expect(footer).toContainText(`© ${new Date().getFullYear()} TDG Uganda`);
    for (const name of ['Privacy Policy', 'Terms of Service', 'Accessibility']) {
      await expect(footer.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expectNoA11yIssues(page);
  });

  test('the HTML already holds the layout before any script runs', async ({ request }) => {
    const response = await request.get('/');
    expect(response.status()).toBe(200);
    const html = await response.text();
    for (const label of ['Home', 'About Us', 'Stories', 'In Media', 'Contact Us', 'Join our cause', 'Privacy Policy']) {
      expect(html).toContain(`>${label}<`);
    }
    // Stories written by the seed come from the database.
    expect(html).toContain('href="/blog/');
  });

  test('marks the active section in dark indigo with aria-current', async ({ page }) => {
    await page.goto('/blog');
    const stories = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Stories' });
    await expect(stories).toHaveAttribute('aria-current', 'page');
    await expect(stories).toHaveCSS('color', await themeColor(page, 'indigo-900'));
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' })).not.toHaveAttribute(
      'aria-current',
    );
  });

  test('the course banner hides and the header changes once scrolled past 10 px', async ({ page }) => {
    await page.goto('/');
    const header = page.getByRole('banner');
    const banner = page.getByText(COURSE_BANNER_TEXT);
    await expect(header).toHaveAttribute('data-scrolled', 'false');
    await page.evaluate(() => window.scrollTo(0, 10));
    await expect(banner).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 300));
    await expect(header).toHaveAttribute('data-scrolled', 'true');
    await expect(banner).toBeHidden();
    await expect(header).toHaveCSS('box-shadow', /rgba/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(banner).toBeVisible();
  });

  test('shows the text TDG when the logo image fails', async ({ page }) => {
    await page.route('**/logo.svg', (route) => route.abort());
    await page.goto('/');
    const home = page.getByRole('link', { name: 'TDG Uganda home' });
    await expect(home).toContainText('TDG');
    await expect(home.locator('img')).toHaveCount(0);
  });

  test('the skip link is the first stop and moves focus to the content, on a list too (no reload)', async ({ page }) => {
    for (const path of ['/', '/blog', '/sw/news']) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('data-enhanced', 'true');
      // Gone if the page loads again.
      await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: path === '/sw/news' ? /./ : 'Skip to main content' }).first();
      await expect(skip, path).toBeFocused();
      await expect(skip, path).toBeVisible();
      await page.keyboard.press('Enter');
      await expect(page.locator('main'), path).toBeFocused();
      expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed), path).toBe(true);
    }
  });

  test('loads nothing from any other host', async ({ page }) => {
    const foreign: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(E2E.baseURL) && !r.url().startsWith('data:')) foreign.push(r.url());
    });
    await page.goto('/', { waitUntil: 'networkidle' });
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForLoadState('networkidle');
    expect(foreign).toEqual([]);
  });
});

/** Every page of the sitemap, with one story of each kind in each language standing for the rest (they share one layout). */
async function samplePages(request: APIRequestContext): Promise<string[]> {
  const sitemap = await (await request.get('/sitemap.xml')).text();
  const kinds = new Set<string>();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)]
    .map((m) => new URL(m[1]!).pathname)
    .filter((path) => {
      const story = /^(\/lg|\/sw)?\/(blog|news|resources)\/./.exec(path);
      if (!story) return true;
      const kind = `${story[1] ?? ''}/${story[2]}`;
      if (kinds.has(kind)) return false;
      kinds.add(kind);
      return true;
    });
  expect(paths.length).toBeGreaterThan(20);
  return [...paths, '/blog?q=deaf', '/no-such-page', '/lg/no-such-page', '/sw/no-such-page'];
}

test.describe('public pages at 320 px (WCAG 1.4.10, 400% zoom, and 1.4.12)', () => {
  test.use({ viewport: NARROWEST });

  test('no page scrolls sideways, in any language and with wider text spacing, and the menu button stays on screen', async ({
    page,
    request,
  }) => {
    for (const path of await samplePages(request)) {
      await page.goto(path);
      await expectReflowAt320(page, path);
      // With the text spacing still applied: the menu button is on screen.
      const menu = await page.locator('button[aria-controls="mobile-menu"]').boundingBox();
      expect(menu && menu.x + menu.width, path).toBeLessThanOrEqual(NARROWEST.width);
    }
  });
});

test.describe('public pages on a phone with the browser’s text at 200% (WCAG 1.4.4)', () => {
  test.use({ viewport: MOBILE });

  test('no page scrolls sideways, in any language, the menu button stays on screen, and Donate moves into the menu', async ({
    page,
    request,
  }) => {
    // The browser's own text size setting (Chrome's "Font size"), not a zoom: rem-based breakpoints move with it.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: 32, fixed: 26 } });
    for (const path of await samplePages(request)) {
      await page.goto(path);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `${path} is ${width} px wide`).toBeLessThanOrEqual(MOBILE.width);
      const menu = await page.locator('button[aria-controls="mobile-menu"]').boundingBox();
      expect(menu && menu.x + menu.width, path).toBeLessThanOrEqual(MOBILE.width);
    }
    await page.goto('/');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Donate' })).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('dialog').getByRole('link', { name: 'Donate' })).toBeVisible();
    // The header, nearly half the screen at this size, scrolls away with the page instead of staying on top.
    const position = () => page.evaluate(() => getComputedStyle(document.querySelector('header')!).position);
    expect(await position()).toBe('relative');
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: 16, fixed: 13 } });
    await page.reload();
    expect(await position()).toBe('fixed');
  });
});

test.describe('shared layout at 375 px', () => {
  test.use({ viewport: MOBILE });

  test('shows the hamburger instead of the nav and passes axe', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
    await expectNoA11yIssues(page);
  });

  test('the menu lists the mobile labels, the email and social icons, and passes axe', async ({ page }) => {
    await page.goto('/news');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu).toBeVisible();
    // Issue 26: the demo offers Luganda and Swahili, so the menu also has the language chooser.
    await expect(menu.getByRole('navigation', { name: 'Mobile' }).getByRole('link')).toHaveText([
      'Home',
      'About Us',
      'Projects',
      'In Media',
      'Contact Us',
    ]);
    const active = menu.getByRole('link', { name: 'In Media' });
    await expect(active).toHaveAttribute('aria-current', 'page');
    await expect(active).toHaveCSS('color', await themeColor(page, 'indigo-900'));
    await expect(active).toHaveCSS('background-color', await themeColor(page, 'indigo-50'));
    await expect(menu.getByRole('link', { name: 'info@tdg-uganda.example' })).toHaveAttribute(
      'href',
      'mailto:info@tdg-uganda.example',
    );
    await expect(menu.getByRole('link', { name: /TDG Uganda on (X|Instagram|LinkedIn|YouTube)/ })).toHaveCount(4);
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'true');
    await expectNoA11yIssues(page);
  });

  test('closes with the X and returns focus to the menu button', async ({ page }) => {
    await page.goto('/');
    const open = page.getByRole('button', { name: 'Open menu' });
    await open.click();
    await page.getByRole('button', { name: 'Close menu' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(open).toBeFocused();
    await expect(open).toHaveAttribute('aria-expanded', 'false');
  });

  test('closes with Escape', async ({ page }) => {
    await page.goto('/');
    const open = page.getByRole('button', { name: 'Open menu' });
    await open.click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(open).toBeFocused();
  });

  test('closes by tapping the backdrop', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    // The backdrop is the dimmed area left of the panel.
    await page.mouse.click(20, 400);
    await expect(page.getByRole('dialog')).toBeHidden();
  });

  test('closes when a link is chosen, and goes there', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Projects' }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole('dialog')).toBeHidden();
  });

  test('keeps keyboard focus inside while open', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog');
    await expect(page.getByRole('button', { name: 'Close menu' })).toBeFocused();
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press('Tab');
      expect(await menu.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await menu.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  });
});
