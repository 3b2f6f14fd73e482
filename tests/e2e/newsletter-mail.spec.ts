import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Page } from '@playwright/test';
import { NEWSLETTER_MESSAGES, NEWSLETTER_TEXT, SUBSCRIPTION_PAGE_TEXT, subscriberCount } from '../../app/lib/newsletter';
import { accessRestrictedText } from '../../app/lib/permissions';
import type { Database } from '../../app/server/db/schema';
import { expect as baseExpect, test } from './fixtures';
import { mailsTo, type Mail } from './staff';
import { DESKTOP, expectNoA11yIssues, MOBILE } from './support';

// Issue 12, the newsletter for real, against the real test SMTP server: a visitor subscribes, confirms
// through the mailed link, an Admin sends a published story to the confirmed subscribers, the mail
// arrives with its one-click unsubscribe headers and link, the subscriber unsubscribes, and the next
// story does not reach them. Runs against the SQLite server and the PostgreSQL one.

// The journeys count the confirmed subscribers of the server: one test at a time.
test.describe.configure({ mode: 'serial', timeout: 120_000 });
test.use({ viewport: DESKTOP });
const expect = baseExpect.configure({ timeout: 15_000 });

const RUN = `nl${randomBytes(4).toString('hex')}`;
const address = (name: string) => `${name}-${RUN}-${randomBytes(2).toString('hex')}@example.org`;

test.afterAll(async ({ database }) => {
  const items = database.selectFrom('content').select('id').where('title', 'like', `%${RUN}%`);
  await database.deleteFrom('newsletter_sends').where('content_id', 'in', items).execute();
  await database.deleteFrom('content').where('title', 'like', `%${RUN}%`).execute();
  await database.deleteFrom('newsletter_subscribers').where('email', 'like', `%-${RUN}-%`).execute();
});

/** A published news item, stored as the dashboard stores one. */
async function publishNews(database: Kysely<Database>, title: string) {
  const id = `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${randomBytes(3).toString('hex')}`;
  const at = new Date().toISOString();
  await database
    .insertInto('content')
    .values({
      id,
      collection: 'news',
      title,
      summary: 'Councils in Gulu and Lira now book sign language interpreters for every meeting.',
      excerpt: null,
      content:
        '<p>Deaf residents can now follow every council meeting in Gulu and Lira. Read about <a href="/services">our services</a>.</p>',
      search_text: 'Deaf residents can now follow every council meeting in Gulu and Lira.',
      category: 'advocacy',
      author: 'Grace Nakato',
      author_email: null,
      author_role: null,
      image_url: null,
      image_alt: null,
      created_at: at,
      published_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A header of a raw message, its folded lines joined. */
function headerOf(mail: Mail, name: string): string | undefined {
  const head = mail.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim();
}

/** The one mail to `to` whose decoded text holds `needle`, once the test SMTP server has it. */
async function mailWith(to: string, needle: string): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      () => {
        found = mailsTo(to).find((mail) => decodeQuotedPrintable(mail.raw).includes(needle));
        return Boolean(found);
      },
      { message: `a mail to ${to} holding ${needle}`, timeout: 20_000 },
    )
    .toBe(true);
  return found!;
}

/** The path of an absolute link the server mailed (it names its PUBLIC_URL; we follow it on the server under test). */
const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

const subscriberOf = (database: Kysely<Database>, email: string) =>
  database.selectFrom('newsletter_subscribers').selectAll().where('email', '=', email).executeTakeFirst();

const confirmedCount = async (database: Kysely<Database>) =>
  Number(
    (
      await database
        .selectFrom('newsletter_subscribers')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('status', '=', 'confirmed')
        .executeTakeFirstOrThrow()
    ).n,
  );

async function subscribeThroughTheBox(page: Page, email: string) {
  await page.goto('/newsletter');
  const box = page.getByRole('region', { name: 'Subscribe to our newsletter' });
  await box.getByRole('textbox', { name: 'Email address' }).fill(email);
  await box.getByRole('button', { name: 'Subscribe' }).click();
  await expect(box.getByRole('status')).toHaveText(NEWSLETTER_MESSAGES.received);
}

test('subscribe, confirm, receive a story with working one-click unsubscribe, unsubscribe, and receive nothing more', async ({
  page,
  browser,
  baseURL,
  request,
  signIn,
  database,
}) => {
  const reader = address('reader');

  // 1. A visitor subscribes; the answer is the neutral one.
  await page.setViewportSize(MOBILE);
  await subscribeThroughTheBox(page, reader);
  await expect.poll(async () => (await subscriberOf(database, reader))?.status).toBe('pending');

  // 2. The confirmation mail arrives; opening its link changes nothing until the button is pressed.
  const confirmation = await mailWith(reader, '/newsletter/confirm/');
  const confirmLink = /https?:\/\/[^\s"<>]+\/newsletter\/confirm\/[A-Za-z0-9_-]{43}/.exec(
    decodeQuotedPrintable(confirmation.raw),
  )![0];
  await page.goto(pathOf(confirmLink));
  await expect(page.getByRole('heading', { level: 1, name: SUBSCRIPTION_PAGE_TEXT.confirmTitle })).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  expect((await subscriberOf(database, reader))?.status).toBe('pending');
  await expectNoA11yIssues(page);
  await page.getByRole('button', { name: SUBSCRIPTION_PAGE_TEXT.confirmButton }).click();
  await expect(page.getByRole('heading', { level: 1, name: SUBSCRIPTION_PAGE_TEXT.confirmedTitle })).toBeVisible();
  expect((await subscriberOf(database, reader))?.status).toBe('confirmed');
  // Single use.
  await page.goto(pathOf(confirmLink));
  await expect(page.getByRole('heading', { level: 1, name: SUBSCRIPTION_PAGE_TEXT.confirmInvalidTitle })).toBeVisible();

  // 3. An Admin finds the published story in Manage Content and opens its send screen.
  const title = `Interpreters at every council meeting ${RUN}`;
  const itemId = await publishNews(database, title);
  const admin = await signIn('ADMIN');
  await page.setViewportSize(DESKTOP);
  await page.goto('/admin/content?type=news');
  await page.getByRole('link', { name: `Send to subscribers ${title}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: NEWSLETTER_TEXT.sendTitle })).toBeVisible();
  await expect(
    page.frameLocator('iframe[title="Preview of the email"]').getByRole('heading', { level: 1, name: title }),
  ).toBeVisible();
  await page.getByText('Plain text version').click();
  await expect(page.getByText(`Read it on our website: `)).toContainText(`/news/${itemId}`);
  await expectNoA11yIssues(page, { exclude: 'iframe[title="Preview of the email"]' });
  // The mail itself, checked as a page of its own (the frame runs no scripts, so axe cannot enter it).
  await page.goto(`/admin/newsletter/${itemId}/preview`);
  await expect(page.getByRole('link', { name: 'Unsubscribe' })).toHaveAttribute('href', /\/newsletter\/unsubscribe\//);
  await expectNoA11yIssues(page, { mail: true });
  await page.goto(`/admin/newsletter/${itemId}`);

  // 4. A test to the Admin, marked as one; no subscriber receives anything.
  await page.getByRole('button', { name: 'Send a test to me' }).click();
  await expect(page.getByText(NEWSLETTER_TEXT.testSent(admin.email))).toBeVisible();
  const testMail = await mailWith(admin.email, title);
  expect(headerOf(testMail, 'Subject')).toBe(`[Test] ${title}`);
  expect(headerOf(testMail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  expect(mailsTo(reader).filter((m) => decodeQuotedPrintable(m.raw).includes(title))).toEqual([]);

  // 5. The confirmation names how many will receive it; then it is sent in the background, with progress.
  const recipients = await confirmedCount(database);
  expect(recipients).toBeGreaterThanOrEqual(1);
  await page.getByRole('link', { name: `Send to ${subscriberCount(recipients)}…` }).click();
  await expect(page.getByText(`Send “${title}” to ${subscriberCount(recipients)}?`)).toBeVisible();
  await page.getByRole('button', { name: `Yes, send to ${subscriberCount(recipients)}` }).click();
  await expect(page.getByText(NEWSLETTER_TEXT.started(recipients))).toBeVisible();
  const progress = page.getByRole('region', { name: /Sending now|Last send/ });
  await expect(progress.getByRole('status')).toContainText(new RegExp(`\\d+ of ${recipients} sent`));
  await expect(progress.getByRole('heading', { name: 'Last send: finished' })).toBeVisible({ timeout: 30_000 });
  // Other journeys on this server erase their own subscribers meanwhile (and their deliveries with
  // them), so the screen is compared with what is stored rather than with the count at the start.
  await page.reload();
  const sent = await database
    .selectFrom('newsletter_deliveries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('content_id', '=', itemId)
    .where('status', '=', 'sent')
    .executeTakeFirstOrThrow();
  await expect(progress.getByRole('status')).toContainText(`${Number(sent.n)} of ${recipients} sent`);
  const storyToReader = await database
    .selectFrom('newsletter_deliveries')
    .select('status')
    .where('content_id', '=', itemId)
    .where('subscriber_id', '=', (await subscriberOf(database, reader))!.id)
    .executeTakeFirst();
  expect(storyToReader?.status).toBe('sent');

  // 6. The mail arrives: the story, its link, the personal unsubscribe link and the RFC 8058 headers.
  const story = await mailWith(reader, title);
  const decoded = decodeQuotedPrintable(story.raw);
  expect(headerOf(story, 'Subject')).toBe(title);
  expect(headerOf(story, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  const listUnsubscribe = /^<(https?:\/\/\S+\/newsletter\/unsubscribe\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43})>$/.exec(
    headerOf(story, 'List-Unsubscribe') ?? '',
  );
  expect(listUnsubscribe, headerOf(story, 'List-Unsubscribe')).not.toBeNull();
  const unsubscribeLink = listUnsubscribe![1]!;
  expect(decoded).toContain(`href="${unsubscribeLink}"`);
  expect(decoded).toContain(`Unsubscribe: ${unsubscribeLink}`);
  const articleLink = new RegExp(`https?://\\S+/news/${itemId}`).exec(decoded)![0];
  await page.goto(pathOf(articleLink));
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();

  // 7. The footer link's page, without JavaScript: opening it changes nothing.
  const plain = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const linkPage = await plain.newPage();
  const opened = await linkPage.goto(pathOf(unsubscribeLink));
  expect(opened?.headers()['cache-control']).toBe('no-store');
  await expect(linkPage.getByRole('heading', { level: 1, name: SUBSCRIPTION_PAGE_TEXT.unsubscribeTitle })).toBeVisible();
  expect((await subscriberOf(database, reader))?.status).toBe('confirmed');

  // 8. The mail provider's one-click POST (RFC 8058: from its server, no cookies, no Origin) unsubscribes at once.
  // A page of another site posting the same is refused, as every write from another site is.
  const forged = await request.post(pathOf(unsubscribeLink), {
    form: { 'List-Unsubscribe': 'One-Click' },
    headers: { origin: 'https://evil.example' },
  });
  expect(forged.status()).toBeGreaterThanOrEqual(400);
  expect((await subscriberOf(database, reader))?.status).toBe('confirmed');
  const oneClick = await request.post(pathOf(unsubscribeLink), { form: { 'List-Unsubscribe': 'One-Click' } });
  expect(oneClick.status()).toBe(200);
  const kept = await subscriberOf(database, reader);
  expect(kept).toMatchObject({ status: 'unsubscribed', source: null, confirmed_at: null });
  // The link's button works too, without JavaScript, and answers the same.
  await linkPage.getByRole('button', { name: SUBSCRIPTION_PAGE_TEXT.unsubscribeButton }).click();
  await expect(linkPage.getByRole('heading', { level: 1, name: SUBSCRIPTION_PAGE_TEXT.unsubscribedTitle })).toBeVisible();
  await plain.close();

  // 9. The next story does not reach them. Other journeys on this server add and erase subscribers
  // meanwhile, so the send is followed to its end rather than counted.
  const next = `Sign language at the health centre ${RUN}`;
  const nextId = await publishNews(database, next);
  await page.goto(`/admin/newsletter/${nextId}`);
  const sendLink = page.getByRole('link', { name: /^Send to [\d,]+ subscribers?…$/ });
  // Those others may be erased between any two of these steps, so each step may also find nobody left.
  const nobody = page.getByText(NEWSLETTER_TEXT.nobodyToSend).first();
  if (await sendLink.isVisible()) {
    await sendLink.click();
    const yes = page.getByRole('button', { name: /^Yes, send to / });
    await expect(yes.or(nobody).first()).toBeVisible();
    if (await yes.isVisible()) {
      await yes.click();
      await expect(page.getByRole('heading', { name: 'Last send: finished' }).or(nobody).first()).toBeVisible({
        timeout: 15_000,
      });
    }
  } else {
    await expect(nobody).toBeVisible();
  }
  const readerRow = await subscriberOf(database, reader);
  const toReader = await database
    .selectFrom('newsletter_deliveries')
    .select('status')
    .where('content_id', '=', nextId)
    .where('subscriber_id', '=', readerRow!.id)
    .execute();
  expect(toReader).toEqual([]);
  expect(mailsTo(reader).filter((m) => decodeQuotedPrintable(m.raw).includes(next))).toEqual([]);
});

test('the box answers the same words for a subscribed and an unknown address, with and without JavaScript', async ({
  browser,
  baseURL,
  database,
}) => {
  const known = address('known');
  const at = new Date().toISOString();
  await database
    .insertInto('newsletter_subscribers')
    .values({ id: `sub-${RUN}-known`, email: known, created_at: at, status: 'confirmed', confirmed_at: at })
    .execute();
  const plain = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await plain.newPage();
  const answers: string[] = [];
  for (const email of [known, address('unknown')]) {
    await page.goto('/newsletter');
    await page.getByRole('textbox', { name: 'Email address' }).fill(email);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByText(NEWSLETTER_MESSAGES.received)).toBeVisible();
    answers.push((await page.locator('main').innerText()).replace(email, ''));
  }
  expect(answers[0]).toBe(answers[1]);
  await plain.close();
});

test('the Subscribers screen counts, finds, exports and erases; an Editor may neither see it nor send', async ({
  page,
  signIn,
  staffRequest,
  database,
}) => {
  const email = address('erase');
  const at = new Date().toISOString();
  await database
    .insertInto('newsletter_subscribers')
    .values({ id: `sub-${RUN}-erase`, email, created_at: at, status: 'confirmed', confirmed_at: at, source: '/news' })
    .execute();
  await signIn('ADMIN');
  await page.setViewportSize(MOBILE);
  await page.goto('/admin/subscribers');
  await expect(page.getByRole('heading', { level: 1, name: 'Subscribers' })).toBeVisible();
  await page.getByLabel('Search email addresses').fill(email);
  await page.getByLabel('Show').selectOption('confirmed');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('1 subscriber matches')).toBeVisible();
  const row = page.getByRole('listitem').filter({ hasText: email });
  await expect(row.getByText('Confirmed', { exact: true })).toBeVisible();
  await expectNoA11yIssues(page);

  const csv = await page.request.get(`/admin/subscribers/export?status=confirmed&q=${encodeURIComponent(email)}`);
  expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
  const lines = (await csv.text()).split('\r\n').filter(Boolean);
  expect(lines).toHaveLength(2);
  expect(lines[1]).toMatch(new RegExp(`^${email.replace(/[.]/g, '\\.')},Confirmed,`));

  await row.getByRole('button', { name: `Delete ${email}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm delete' });
  await expect(dialog).toContainText(NEWSLETTER_TEXT.deleteConfirm(email));
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(NEWSLETTER_TEXT.deleted)).toBeVisible();
  expect(await subscriberOf(database, email)).toBeUndefined();

  const { request } = await staffRequest('EDITOR');
  const screen = await request.get('/admin/subscribers');
  expect(screen.status()).toBe(403);
  expect(await screen.text()).toContain(accessRestrictedText('EDITOR'));
  const itemId = await publishNews(database, `Editors cannot send this ${RUN}`);
  expect((await request.get(`/admin/newsletter/${itemId}`)).status()).toBe(403);
  expect((await request.post(`/admin/newsletter/${itemId}`, { form: { intent: 'send' } })).status()).toBe(403);
  expect((await request.get('/admin/content?type=news')).ok()).toBe(true);
  expect(await (await request.get('/admin/content?type=news')).text()).not.toContain('Send to subscribers');
});
