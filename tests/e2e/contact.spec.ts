import { expect, test, type Page } from '@playwright/test';
import { CONTACT_ERRORS, CONTACT_LOCATION, CONTACT_RATE_LIMIT, CONTACT_TEXT } from '../../app/lib/contact';
import { NEWSLETTER_MESSAGES } from '../../app/lib/newsletter';
import { NEWSLETTER_TOO_LARGE } from '../../app/server/http/newsletter-form.server';
import { E2E } from './env';
import { DESKTOP, expectNoA11yIssues, MOBILE } from './support';

const MESSAGE = {
  name: 'Nakato Grace',
  email: 'grace@example.org',
  subject: 'Volunteering',
  message: 'I would like to help at your next sign language workshop.',
};

const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

async function fillForm(page: Page, values: Partial<typeof MESSAGE> = MESSAGE) {
  if (values.name !== undefined) await field(page, 'Name').fill(values.name);
  if (values.email !== undefined) await field(page, 'Email').fill(values.email);
  if (values.subject !== undefined) await field(page, 'Subject').fill(values.subject);
  if (values.message !== undefined) await field(page, 'Message').fill(values.message);
}

for (const viewport of [DESKTOP, MOBILE]) {
  test(`the contact page at ${viewport.width} px: form, contact details, and no axe findings`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/contact');
    await expect(page.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeVisible();
    for (const name of ['Name', 'Email', 'Phone (optional)', 'Subject', 'Message']) await expect(field(page, name)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send Message' })).toBeEnabled();
    const info = page.getByRole('complementary', { name: 'Contact information' });
    await expect(info.getByRole('link', { name: 'info@tdg-uganda.example' })).toHaveAttribute(
      'href',
      'mailto:info@tdg-uganda.example',
    );
    await expect(info.getByRole('link', { name: '+256 700 123 456' })).toHaveAttribute('href', 'tel:+256700123456');
    await expect(info).toContainText(CONTACT_LOCATION);
    // The honeypot is out of sight and out of the tab order.
    await expect(page.locator('input[name="website"]')).toHaveAttribute('tabindex', '-1');
    await expect(page.locator('input[name="website"]')).not.toBeInViewport();
    await expectNoA11yIssues(page);
  });
}

test('a subject in the address fills the Subject field, and topic links change it', async ({ page }) => {
  await page.goto('/contact?subject=Partnership');
  await expect(field(page, 'Subject')).toHaveValue('Partnership');
  await page.getByRole('link', { name: 'Share my story' }).click();
  await expect(page).toHaveURL(/subject=Share(\+|%20)my(\+|%20)story/);
  await expect(field(page, 'Subject')).toHaveValue('Share my story');
});

test('the four requests with a form of their own are offered beside the topics (issue 27)', async ({ page }) => {
  await page.goto('/contact');
  const topics = page.locator('section[aria-labelledby="contact-topics"]');
  for (const [name, path] of [
    ['Become a Volunteer', '/volunteer'],
    ['Partner with us', '/partner'],
    ['Book a Speaker', '/book-speaker'],
    ['Get Design Help', '/design-help'],
  ] as const)
    await expect(topics.getByRole('link', { name, exact: true })).toHaveAttribute('href', path);
  await topics.getByRole('link', { name: 'Partner with us', exact: true }).click();
  await expect(page).toHaveURL(/\/partner$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Partner with us');
});

test('every missing or malformed field gets its own message and the first one the focus', async ({ page }) => {
  await page.setViewportSize(MOBILE);
  await page.goto('/contact');
  await field(page, 'Subject').fill('Hello');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('alert').filter({ hasText: CONTACT_TEXT.invalid })).toBeVisible();
  for (const [name, message] of [
    ['Name', CONTACT_ERRORS.name.required],
    ['Email', CONTACT_ERRORS.email.required],
    ['Message', CONTACT_ERRORS.message.required],
  ] as const) {
    await expect(field(page, name)).toHaveAttribute('aria-invalid', 'true');
    await expect(field(page, name)).toHaveAccessibleDescription(new RegExp(message.replace(/[.,]/g, '\\$&')));
  }
  await expect(field(page, 'Name')).toBeFocused();
  await expect(field(page, 'Subject')).toHaveValue('Hello');
  await expect(field(page, 'Subject')).not.toHaveAttribute('aria-invalid');
  await expectNoA11yIssues(page);

  await fillForm(page, { name: 'Okello', email: 'okello@', message: 'Hi' });
  await field(page, 'Phone (optional)').fill('call me');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText(CONTACT_ERRORS.email.invalid)).toBeVisible();
  await expect(page.getByText(CONTACT_ERRORS.phone.invalid)).toBeVisible();
  await expect(page.getByText(CONTACT_ERRORS.name.required)).toBeHidden();
  await expect(field(page, 'Email')).toBeFocused();
  // Nothing typed is lost.
  await expect(field(page, 'Name')).toHaveValue('Okello');
  await expect(field(page, 'Message')).toHaveValue('Hi');
});

test('the fields stop at their maximum lengths, and the server says so for longer posts', async ({ page, request }) => {
  await page.goto('/contact');
  await field(page, 'Name').fill('x'.repeat(150));
  await expect(field(page, 'Name')).toHaveValue('x'.repeat(100));
  const response = await request.post('/contact', { form: { ...MESSAGE, subject: 's'.repeat(151), website: '' } });
  expect(response.status()).toBe(400);
  expect(await response.text()).toContain(CONTACT_ERRORS.subject.tooLong);
});

test('a filled honeypot is turned away politely and nothing typed is lost', async ({ page }) => {
  await page.goto('/contact');
  await fillForm(page);
  await page.locator('input[name="website"]').fill('https://spam.example', { force: true });
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('alert').filter({ hasText: CONTACT_TEXT.automated })).toBeVisible();
  await expect(page.getByText(CONTACT_TEXT.sent)).toBeHidden();
  await expect(field(page, 'Message')).toHaveValue(MESSAGE.message);
});

test('a huge post is refused with 413 and a clear message, not a server error', async ({ request }) => {
  const response = await request.post('/contact', { form: { ...MESSAGE, message: 'x'.repeat(100_000), website: '' } });
  expect(response.status()).toBe(413);
  expect(await response.text()).toContain(CONTACT_TEXT.tooLarge);
});

// Node's fetch keeps the connection open and sends the next request on it, as browsers do: a 413 that
// left the rest of the body unread (or reset the connection) used to break that next request.
test('a refused large post leaves the connection usable: the next request on it succeeds', async () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded', origin: E2E.baseURL };
  const big = `name=A&message=${'x'.repeat(2 * 1024 * 1024)}`;
  /** The same 2 MB sent in pieces, without a Content-Length, as a bot might. */
  const streamed = () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < big.length; i += 64 * 1024) controller.enqueue(new TextEncoder().encode(big.slice(i, i + 64 * 1024)));
        controller.close();
      },
    });
  const posts: [string, string, () => RequestInit][] = [
    ['/contact', CONTACT_TEXT.tooLarge, () => ({ body: big })],
    ['/contact', CONTACT_TEXT.tooLarge, () => ({ body: streamed(), duplex: 'half' }) as RequestInit],
    ['/contact.data', CONTACT_TEXT.tooLarge, () => ({ body: big })],
    ['/newsletter', NEWSLETTER_TOO_LARGE, () => ({ body: streamed(), duplex: 'half' }) as RequestInit],
  ];
  for (const [path, message, init] of posts) {
    const refused = await fetch(`${E2E.baseURL}${path}`, { method: 'POST', headers: form, ...init() });
    expect(refused.status, path).toBe(413);
    expect(await refused.text(), path).toContain(message);
    const next = await fetch(`${E2E.baseURL}/healthz`, { signal: AbortSignal.timeout(5_000) });
    expect(next.status, `the request after ${path}`).toBe(200);
  }
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the server answers a plain post with the field messages, keeping the values', async ({ page }) => {
    await page.goto('/contact?subject=Accessibility');
    await field(page, 'Name').fill('Okello');
    await field(page, 'Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText(CONTACT_ERRORS.email.invalid)).toBeVisible();
    await expect(page.getByText(CONTACT_ERRORS.message.required)).toBeVisible();
    await expect(field(page, 'Email')).toBeFocused();
    await expect(field(page, 'Name')).toHaveValue('Okello');
    await expect(field(page, 'Email')).toHaveValue('not-an-email');
    await expect(field(page, 'Subject')).toHaveValue('Accessibility');
  });
});

test.describe('newsletter', () => {
  const box = (page: Page) => page.getByRole('region', { name: 'Subscribe to our newsletter' });

  // Issue 12: every valid address gets the same neutral answer (docs/decisions/505-newsletter.md);
  // tests/e2e/newsletter-mail.spec.ts follows the confirmation mail.
  test('subscribing asks to confirm; the same address again gets the same answer; a bad address is refused', async ({ page }) => {
    await page.setViewportSize(MOBILE);
    await page.goto('/newsletter');
    await expect(page.getByRole('heading', { level: 1, name: 'Newsletter' })).toBeVisible();
    const email = `reader-${Date.now()}@example.org`;
    await box(page).getByRole('textbox', { name: 'Email address' }).fill(email.toUpperCase());
    await box(page).getByRole('button', { name: 'Subscribe' }).click();
    await expect(box(page).getByRole('status')).toHaveText(NEWSLETTER_MESSAGES.received);

    await box(page).getByRole('textbox', { name: 'Email address' }).fill(email);
    await box(page).getByRole('button', { name: 'Subscribe' }).click();
    await expect(box(page).getByRole('status')).toHaveText(NEWSLETTER_MESSAGES.received);

    // The browser accepts this address; the server's stricter check does not.
    await box(page).getByRole('textbox', { name: 'Email address' }).fill('grace@localhost');
    await box(page).getByRole('button', { name: 'Subscribe' }).click();
    await expect(box(page).getByRole('status')).toHaveText(NEWSLETTER_MESSAGES.invalid);
    await expect(box(page).getByRole('textbox', { name: 'Email address' })).toHaveAttribute('aria-invalid', 'true');
    await expectNoA11yIssues(page);
  });

  test('the server refuses a malformed post with 400 and a clear message', async ({ request }) => {
    const response = await request.post('/newsletter', { form: { email: 'nope', source: '/news' } });
    expect(response.status()).toBe(400);
    const html = await response.text();
    expect(html).toContain(NEWSLETTER_MESSAGES.invalid);
    expect(html).toMatch(/href="\/news"[^>]*>Back to the page you were reading</);
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('a plain post shows the answer on its own page with a safe link back', async ({ page, request }) => {
      await page.goto('/newsletter');
      await page.getByRole('textbox', { name: 'Email address' }).fill(`nojs-${Date.now()}@example.org`);
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await expect(page).toHaveURL(/\/newsletter$/);
      await expect(page.getByText(NEWSLETTER_MESSAGES.received)).toBeVisible();
      await expect(page.getByRole('link', { name: 'Back to the page you were reading' })).toHaveAttribute('href', '/newsletter');

      const offsite = await request.post('/newsletter', { form: { email: 'x@example.org', source: '//evil.example/' } });
      expect(await offsite.text()).toMatch(/href="\/"[^>]*>Back to Home</);
    });
  });
});

// These send real messages, which count against the per-address limit (all test requests come
// from 127.0.0.1), so they run in order, one at a time, and the limit test comes last.
test.describe.serial('sending messages', () => {
  test('with JavaScript: Sending..., then the green panel replaces the form', async ({ page }) => {
    await page.setViewportSize(MOBILE);
    await page.goto('/contact?subject=Volunteering');
    await fillForm(page);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The page script posts the form itself (issue 24); its answer is held back.
    await page.route(
      (u) => u.pathname === '/contact',
      async (route) => {
        if (route.request().method() === 'POST') await held;
        await route.continue();
      },
    );
    const url = page.url();
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByRole('button', { name: CONTACT_TEXT.sending })).toBeDisabled();
    release();
    const panel = page.getByRole('region', { name: CONTACT_TEXT.sent });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('heading', { name: CONTACT_TEXT.sent })).toBeFocused();
    await expect(field(page, 'Message')).toHaveCount(0);
    expect(page.url()).toBe(url);
    await expectNoA11yIssues(page);

    await panel.getByRole('link', { name: CONTACT_TEXT.sendAnother }).click();
    await expect(field(page, 'Name')).toHaveValue('');
    await expect(field(page, 'Message')).toHaveValue('');
  });

  test('a failed send shows the error banner, keeps the text, and a retry goes through', async ({ page }) => {
    await page.goto('/contact');
    await fillForm(page);
    await expect(page.locator('html')).toHaveAttribute('data-enhanced', 'true');
    await page.route('**/contact', (route) => route.abort('internetdisconnected'), { times: 1 });
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByRole('alert').filter({ hasText: CONTACT_TEXT.failed })).toBeVisible();
    for (const [name, value] of [
      ['Name', MESSAGE.name],
      ['Email', MESSAGE.email],
      ['Subject', MESSAGE.subject],
      ['Message', MESSAGE.message],
    ] as const) {
      await expect(field(page, name)).toHaveValue(value);
    }
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByRole('heading', { name: CONTACT_TEXT.sent })).toBeVisible();
  });

  test('without JavaScript: a plain post shows the green panel', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/contact');
    await fillForm(page);
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByRole('heading', { name: CONTACT_TEXT.sent })).toBeVisible();
    // The answer has the focus without the page script too (autofocus): a screen reader starts there.
    await expect(page.getByRole('heading', { name: CONTACT_TEXT.sent })).toBeFocused();
    await expect(field(page, 'Name')).toHaveCount(0);
    await context.close();
  });

  test('after five messages from one address in ten minutes the next is refused with 429', async ({ request }) => {
    let accepted = 0;
    let refused: Awaited<ReturnType<typeof request.post>> | undefined;
    for (let i = 0; i <= CONTACT_RATE_LIMIT.limit && !refused; i++) {
      const response = await request.post('/contact', { form: { ...MESSAGE, website: '' } });
      if (response.status() === 429) refused = response;
      else {
        expect(response.status()).toBe(200);
        accepted++;
      }
    }
    expect(refused, 'a 429 after the limit').toBeDefined();
    // Three messages were sent by the tests above.
    expect(accepted).toBeLessThanOrEqual(CONTACT_RATE_LIMIT.limit - 3);
    expect(refused!.headers()['retry-after']).toMatch(/^\d+$/);
    const html = await refused!.text();
    expect(html).toContain(CONTACT_TEXT.rateLimited);
    expect(html).toContain(MESSAGE.message);
  });
});
