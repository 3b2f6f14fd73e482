import { expect, test, type Browser, type Page } from '@playwright/test';
import { E2E } from './env';
import { expectNoA11yIssues, MOBILE } from './support';

// Issue 26 item 2: every public text in Luganda and Swahili. With both languages on (the seeded demo
// content turns them on), each public page under /lg and /sw is compared with the same page in English:
// a visible text outside any lang="en" element (content kept in English is marked so) that reads the
// same as on the English page, has four letters or more and is not a name, fails. The pages are read
// without JavaScript, as public pages work without it.

/** Texts that are the same in every language, each with its reason. */
const SAME_IN_EVERY_LANGUAGE: ReadonlyArray<{ text: RegExp; why: string }> = [
  { text: /^TDG Uganda$/, why: "the organisation's name" },
  { text: /^(TDG|Uganda|Kampala|Kampala, Uganda)$/, why: 'a place or the organisation' },
  { text: /^(English|Oluganda|Kiswahili)$/, why: "each language's own name in the chooser" },
  { text: /^(Facebook|Instagram|LinkedIn|Twitter|YouTube|TikTok|WhatsApp|X \(Twitter\))$/, why: 'names of social networks' },
  { text: /^[^\s@]+@[\w.-]+$/, why: 'an email address' },
  { text: /^[+\d\s().-]+$/, why: 'a phone number or a figure' },
];

/** Where the seeded site keeps one story, one service and one event (read from the English lists). */
async function firstLink(page: Page, list: string, prefix: string, within = 'main'): Promise<string> {
  await page.goto(list);
  const href = await page.locator(`${within} a[href^="${prefix}"]`).first().getAttribute('href');
  expect(href, `a link under ${prefix} on ${list}`).toBeTruthy();
  return href!.split(/[?#]/)[0]!;
}

/** The page's visible texts outside lang="en" elements (all of them on an English page), and its title. */
async function texts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const english = document.documentElement.lang === 'en';
    // A story's, event's or service's page is titled by its content: left out when its h1 is marked English.
    const h1 = document.querySelector('h1');
    const titledByContent = !english && h1?.closest('[lang="en"]') && document.title.startsWith((h1.textContent ?? '').trim());
    const out = titledByContent ? [] : [document.title.trim()];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (!parent || !text) continue;
      if (parent.closest('script, style, template, noscript')) continue;
      // Text marked as another language than the page's: content kept in English, a link to another language.
      if (!english && parent.closest('[lang]')?.getAttribute('lang') !== document.documentElement.lang) continue;
      if (!parent.checkVisibility() && !parent.closest('.sr-only')) continue;
      out.push(text);
    }
    return out;
  });
}

async function visitor(browser: Browser) {
  const context = await browser.newContext({ baseURL: E2E.baseURL, javaScriptEnabled: false });
  return { context, page: await context.newPage() };
}

const letters = (text: string) => (text.match(/\p{L}/gu) ?? []).length;

test.describe('the interface in Luganda and Swahili', () => {
  test.describe.configure({ timeout: 240_000 });

  test('every public page under /lg and /sw shows no English interface text and its own <html lang>', async ({ browser }) => {
    const { context, page } = await visitor(browser);
    const story = await firstLink(page, '/blog', '/blog/');
    // A service of the list (the course's banner above it links to its own page, checked too).
    const service = await firstLink(page, '/services', '/services/', 'main ul');
    const event = await firstLink(page, '/events', '/events/');
    const pages = [
      '/',
      '/about',
      '/contact',
      '/blog',
      story,
      '/news',
      '/resources',
      '/services',
      service,
      '/services/awareness-course',
      '/events',
      event,
      '/volunteer',
      '/partner',
      '/book-speaker',
      '/design-help',
      '/newsletter',
      '/privacy',
      '/terms',
      '/accessibility',
      '/no-such-page-here',
    ];
    const problems: string[] = [];
    for (const path of pages) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      const english = new Set((await texts(page)).filter((text) => letters(text) >= 4));
      // The founder's name (About Us): a person's name reads the same in every language.
      const founder = path === '/about' ? ((await page.locator('#founder-title').textContent()) ?? '').trim() : '';
      for (const language of ['lg', 'sw'] as const) {
        await page.goto(`/${language}${path === '/' ? '' : path}`);
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        for (const text of new Set(await texts(page))) {
          if (!english.has(text)) continue;
          if (text === founder || SAME_IN_EVERY_LANGUAGE.some((allowed) => allowed.text.test(text))) continue;
          problems.push(`/${language}${path}: ${JSON.stringify(text)}`);
        }
      }
    }
    expect(problems, `English interface texts under /lg and /sw:\n${problems.join('\n')}`).toEqual([]);
    await context.close();
  });

  test('Luganda and Swahili pages pass axe and fit a 375 px screen', async ({ browser }, testInfo) => {
    const context = await browser.newContext({ baseURL: E2E.baseURL, viewport: MOBILE });
    const page = await context.newPage();
    for (const path of ['/lg', '/sw', '/lg/contact', '/sw/events', '/lg/volunteer', '/sw/blog']) {
      await page.goto(path);
      await expectNoA11yIssues(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${path} is wider than the screen`).toBeLessThanOrEqual(0);
      // Kept with the results, to look at how the longer Luganda words wrap.
      if (path === '/lg' || path === '/sw')
        await page.screenshot({ path: testInfo.outputPath(`home-${path.slice(1)}-375.png`), fullPage: true });
    }
    await context.close();
  });
});
