import { expect, test, type Locator, type Page } from '@playwright/test';
import { E2E } from './env';
import { DESKTOP, expectNoA11yIssues, expectSteady, MOBILE } from './support';

const SECTION_HEADINGS = [
  'Awareness that opens doors',
  'Our impact in numbers',
  'Meet Grace Nakato',
  'Deaf / Hard of Hearing Awareness Training',
  'How we can help',
  // Issue 27: the next trainings and events (the demo's three).
  'Next trainings and events',
  'Latest stories',
  'Ready to make a difference?',
];
const STATS = [
  ['500+', 'Lives Impacted'],
  ['50+', 'Workshops Conducted'],
  ['25+', 'Partner Organizations'],
  ['100%', 'Commitment to Change'],
] as const;

type CounterChange = { counter: number; text: string; at: number };

/** Records every number a counter shows, from the first byte of the page on. */
async function recordCounters(page: Page) {
  await page.addInitScript(() => {
    const log: CounterChange[] = [];
    (window as unknown as { counterLog: CounterChange[] }).counterLog = log;
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'attributes') {
          const counters = [...document.querySelectorAll('[data-counter]')];
          const el = record.target as Element;
          log.push({ counter: counters.indexOf(el), text: `state:${el.getAttribute('data-counter')}`, at: performance.now() });
          continue;
        }
        // Skip the HTML parser adding the server-rendered numbers; keep every later change.
        if (record.type === 'childList' && record.removedNodes.length === 0) continue;
        const node = record.target.nodeType === Node.TEXT_NODE ? record.target.parentElement : (record.target as Element);
        const counter = node?.closest('[data-counter]');
        // The second aria-hidden span is the one that ticks; the first only reserves the width.
        const ticking = counter?.querySelectorAll('[aria-hidden="true"]')[1];
        if (!counter || !ticking || !ticking.contains(node)) continue;
        const counters = [...document.querySelectorAll('[data-counter]')];
        log.push({ counter: counters.indexOf(counter), text: ticking.textContent ?? '', at: performance.now() });
      }
    }).observe(document, { subtree: true, childList: true, characterData: true, attributeFilter: ['data-counter'] });
  });
}

const counterLog = (page: Page, counter: number) =>
  page.evaluate(
    (index) => (window as unknown as { counterLog: CounterChange[] }).counterLog.filter((c) => c.counter === index),
    counter,
  );

/** The number a sighted visitor sees. */
const shown = (counter: Locator) => counter.locator('[aria-hidden="true"]').nth(1);

/** Proves the page is interactive: the header only reacts to scrolling once the page script runs (issue 24). */
async function waitForHydration(page: Page) {
  await page.evaluate(() => window.scrollTo(0, 40));
  await expect(page.getByRole('banner')).toHaveAttribute('data-scrolled', 'true');
  await page.evaluate(() => window.scrollTo(0, 0));
}

test('the server HTML holds the final numbers, the sections and the Organization JSON-LD', async ({ request }) => {
  const response = await request.get('/');
  expect(response.status()).toBe(200);
  const html = await response.text();
  for (const [value, label] of STATS) {
    expect(html).toContain(`>${value}<`);
    expect(html).toContain(`>${label}<`);
  }
  expect(html).not.toMatch(/>0[+%]</);
  for (const heading of SECTION_HEADINGS) expect(html).toContain(`>${heading}</h2>`);
  expect(html).toContain('>Read Grace Nakato&#x27;s story</a>');

  const jsonLd = html.match(/<script type="application\/ld\+json">(.*?)<\/script>/s);
  expect(jsonLd, 'JSON-LD script').not.toBeNull();
  const organisation = JSON.parse(jsonLd![1]!) as Record<string, unknown>;
  expect(organisation).toMatchObject({
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: 'TDG Uganda',
    url: `${E2E.baseURL}/`,
    logo: `${E2E.baseURL}/logo.svg`,
    email: 'info@tdg-uganda.example',
    telephone: '+256 700 123 456',
    address: { '@type': 'PostalAddress', addressLocality: 'Kampala', addressCountry: 'UG' },
  });
  expect(organisation.sameAs).toEqual([
    'https://x.com/tdguganda',
    'https://www.instagram.com/tdguganda',
    'https://www.linkedin.com/company/tdguganda',
    'https://www.youtube.com/@tdguganda',
  ]);
});

for (const viewport of [DESKTOP, MOBILE]) {
  test(`the seven sections come in order with their buttons, and pass axe at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/');
    await expect(page).toHaveTitle('Raising disability awareness in Uganda | TDG Uganda');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(
      'Raising disability awareness through education and storytelling',
    );
    await expect(main.getByRole('heading', { level: 2 })).toHaveText(SECTION_HEADINGS);

    await expect(main.getByRole('link', { name: 'Partner with us' })).toHaveAttribute('href', '/partner');
    const mission = page.getByRole('region', { name: 'Awareness that opens doors' });
    await expect(mission.getByRole('link', { name: 'Join now' })).toHaveAttribute('href', '/volunteer');
    await expect(mission.getByRole('link', { name: 'Discover' })).toHaveAttribute('href', '/about');
    await expect(mission.getByRole('img', { name: /three people/ })).toBeVisible();

    const awareness = page.getByRole('region', { name: 'Deaf / Hard of Hearing Awareness Training' });
    // The link says where it goes (Lighthouse SEO 'link-text'), and its name starts with the words seen (WCAG 2.5.3).
    const learnMore = awareness.getByRole('link', { name: 'Learn more about the Awareness Project', exact: true });
    await expect(learnMore).toHaveAttribute('href', '/services/awareness-course');
    await expect(learnMore).toHaveText('Learn more about the Awareness Project');
    // Lighthouse reads the link's rendered text, which includes the visually hidden words.
    expect(await learnMore.evaluate((link) => (link as HTMLElement).innerText.replace(/\s+/g, ' ').trim())).toBe(
      'Learn more about the Awareness Project',
    );
    await expect(learnMore.getByText('about the Awareness Project')).toHaveClass(/sr-only/);
    // Three decorative slider dots, the first one active, hidden from screen readers.
    const dots = awareness.locator('[aria-hidden="true"] > span');
    await expect(dots).toHaveCount(3);
    await expect(dots.first()).toHaveAttribute('data-active', 'true');
    expect((await dots.nth(0).boundingBox())!.width).toBeGreaterThan((await dots.nth(1).boundingBox())!.width);

    const stories = page.getByRole('region', { name: 'Latest stories' });
    await expect(stories.getByRole('listitem')).toHaveCount(3);
    for (const link of await stories.getByRole('listitem').getByRole('link').all()) {
      await expect(link).toHaveAttribute('href', /^\/blog\/[a-z0-9-]+$/);
    }
    const closing = page.getByRole('region', { name: 'Ready to make a difference?' });
    await expect(closing.getByRole('link', { name: 'Get in touch' })).toHaveAttribute('href', '/contact');
    await expect(closing.getByRole('link', { name: 'Explore our services' })).toHaveAttribute('href', '/services');
    await expectNoA11yIssues(page);
  });
}

test('the three action cards lead to training, speakers and design help', async ({ page }) => {
  await page.goto('/');
  const cards = page.getByRole('region', { name: 'How we can help' });
  await expect(cards.getByRole('heading', { level: 3 })).toHaveText(['Start Training', 'Book Speaker', 'Get Design Help']);
  await expect(cards).toContainText('Sign-language classes, awareness courses and digital skills training');
  await expect(cards).toContainText('Speakers for disability awareness conversations');
  await expect(cards).toContainText('Inclusive design and social media services');
  await expect(cards.getByRole('link', { name: 'Book Speaker' })).toHaveAttribute('href', '/book-speaker');
  await expect(cards.getByRole('link', { name: 'Get Design Help' })).toHaveAttribute('href', '/design-help');

  // The whole card is the target: a click on its text follows the link.
  const description = cards.getByText('Sign-language classes, awareness courses and digital skills training');
  await description.scrollIntoViewIfNeeded();
  const text = (await description.boundingBox())!;
  await page.mouse.click(text.x + 10, text.y + 5);
  // Issue 27: Start Training leads to the trainings and events.
  await expect(page).toHaveURL(/\/events$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trainings and events');
});

test("the founder section links to the founder's own story", async ({ page }) => {
  await page.goto('/');
  const founder = page.getByRole('region', { name: 'Meet Grace Nakato' });
  await expect(founder).toContainText('Founder & Executive Director');
  await expect(founder.getByRole('img', { name: 'Grace Nakato (no photo)' })).toBeVisible();
  const link = founder.getByRole('link', { name: "Read Grace Nakato's story" });
  await expect(link).toHaveAttribute('href', /^\/blog\/the-day-my-teacher-turned-around/);
  await link.click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('The Day My Teacher Turned Around');
});

test.describe('counters', () => {
  test.use({ viewport: DESKTOP });

  test('count up once from 0 when scrolled into view, over about two seconds, while screen readers get the final value', async ({
    page,
  }) => {
    await recordCounters(page);
    await page.goto('/');
    const mission = page.getByRole('region', { name: 'Awareness that opens doors' });
    const counter = mission.locator('[data-counter]');

    // Below the fold once the page is interactive: reset to 0, waiting to be seen.
    await expect(counter).toHaveAttribute('data-counter', 'waiting');
    await expect(shown(counter)).toHaveText('0+');
    await expect(counter).toMatchAriaSnapshot('- text: 500+');

    await counter.scrollIntoViewIfNeeded();
    await expect(counter).toHaveAttribute('data-counter', 'running');
    await expect(counter).toMatchAriaSnapshot('- text: 500+');
    await expect(counter).toHaveAttribute('data-counter', 'done', { timeout: 5000 });
    await expect(shown(counter)).toHaveText('500+');

    const changes = await counterLog(page, 0);
    const started = changes.find((c) => c.text === 'state:running')!;
    const log = changes.filter((c) => !c.text.startsWith('state:'));
    const values = log.map((c) => Number.parseInt(c.text, 10));
    expect(values[0]).toBe(0);
    expect(values.at(-1)).toBe(500);
    // Up to 125 steps; a busy machine skips some, but the count is visibly climbing.
    expect(values.filter((v) => v > 0 && v < 500).length).toBeGreaterThan(5);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThanOrEqual(values[i - 1]!);
    // 2000 ms from the start of the count to the final value (the clock drives the steps). The
    // counter reads its clock before React paints 'running', and a busy machine paints late, so the
    // span seen from here can be a few hundred ms short; it is never a quick jump to the end.
    expect(log.at(-1)!.at - started.at).toBeGreaterThan(1500);
    expect(log.at(-1)!.at - started.at).toBeLessThan(4000);

    // Never again: scrolling away and back leaves it alone (a second run would change its state or
    // number within a few 16 ms steps, so half a second of nothing is enough to tell).
    await page.evaluate(() => window.scrollTo(0, 0));
    await counter.scrollIntoViewIfNeeded();
    await expectSteady(() => counterLog(page, 0), 500, 'the counter after scrolling back');
    expect(await counterLog(page, 0)).toHaveLength(changes.length);
    await expect(counter).toHaveAttribute('data-counter', 'done');
    await expect(shown(counter)).toHaveText('500+');
  });

  test('the stats strip counts each figure up to its final value', async ({ page }) => {
    await page.goto('/');
    const strip = page.getByRole('region', { name: 'Our impact in numbers' });
    const counters = strip.locator('[data-counter]');
    await expect(counters).toHaveCount(4);
    for (let i = 0; i < 4; i++) await expect(counters.nth(i)).toHaveAttribute('data-counter', 'waiting');
    for (const [i, zero] of ['0+', '0+', '0+', '0%'].entries()) await expect(shown(counters.nth(i))).toHaveText(zero);

    await strip.scrollIntoViewIfNeeded();
    for (let i = 0; i < 4; i++) await expect(counters.nth(i)).toHaveAttribute('data-counter', 'done', { timeout: 5000 });
    for (const [i, [value, label]] of STATS.entries()) {
      await expect(shown(counters.nth(i))).toHaveText(value);
      await expect(strip.getByRole('term').nth(i)).toHaveText(label);
    }
  });

  test.describe('with reduced motion', () => {
    test.use({ reducedMotion: 'reduce' });

    test('show the final values at once and never tick', async ({ page }) => {
      await recordCounters(page);
      await page.goto('/');
      await waitForHydration(page);
      const counters = page.locator('main [data-counter]');
      await expect(counters).toHaveCount(5);
      for (let i = 0; i < 5; i++) await expect(counters.nth(i)).toHaveAttribute('data-counter', 'final');
      await page.getByRole('region', { name: 'Our impact in numbers' }).scrollIntoViewIfNeeded();
      // Nothing may tick: watched for half a second, where a count-up would show within 16 ms.
      await expectSteady(
        () => page.evaluate(() => (window as unknown as { counterLog: unknown[] }).counterLog.length),
        500,
        'the counters in view',
      );
      for (const [i, value] of ['500+', ...STATS.map(([v]) => v)].entries()) {
        await expect(shown(counters.nth(i))).toHaveText(value);
      }
      const changes = await page.evaluate(() => (window as unknown as { counterLog: unknown[] }).counterLog);
      expect(changes).toEqual([]);
    });
  });
});
