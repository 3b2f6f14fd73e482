import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Page } from '@playwright/test';
import { CONTACT_TEXT, contactPrivacyNotice } from '../../app/lib/contact';
import { MESSAGE_TEXT, RETENTION, type MessageView } from '../../app/lib/messages';
import { accessRestrictedText } from '../../app/lib/permissions';
import type { ContactStatus, Database } from '../../app/server/db/schema';
import { expect as baseExpect, LAYOUT, test } from './fixtures';
import { mailsTo, type Mail } from './staff';
import { DESKTOP, expectNoA11yIssues, MOBILE, thenPutBack } from './support';

// Issue 11, the inbox: a visitor's message (sent without JavaScript) arrives in the inbox, is read,
// answered through the mail queue and a real SMTP server, found, exported, and deleted; roles
// without messages:manage are refused. Runs against the SQLite server and the PostgreSQL one.

// The tests change the retention setting and read the contact page's sentence: one after another.
test.describe.configure({ mode: 'default', timeout: 90_000 });
test.use({ viewport: DESKTOP });
const expect = baseExpect.configure({ timeout: 10_000 });

/** Every message a test of this file stores carries this word, so the tests find (and remove) only theirs. */
const RUN = `inbox${randomBytes(4).toString('hex')}`;
const tagged = (label: string) => `${label} ${RUN}-${randomBytes(3).toString('hex')}`;

test.afterAll(async ({ database }) => {
  const ids = database.selectFrom('contacts').select('id').where('subject', 'like', `%${RUN}%`);
  await database.deleteFrom('contact_replies').where('contact_id', 'in', ids).execute();
  await database.deleteFrom('contacts').where('subject', 'like', `%${RUN}%`).execute();
});

/** Stores a message as the contact form would (for what a visitor cannot make quickly: many, or old). */
async function seedMessage(
  database: Kysely<Database>,
  fields: { subject: string; status?: ContactStatus; createdAt?: string; message?: string; name?: string; email?: string },
) {
  const row = {
    id: randomUUID(),
    name: fields.name ?? 'Achieng Ruth',
    email: fields.email ?? `ruth-${randomBytes(3).toString('hex')}@example.org`,
    phone: null,
    subject: fields.subject,
    message: fields.message ?? 'Could you send someone to our parents meeting?',
    created_at: fields.createdAt ?? new Date().toISOString(),
    read_at: null,
    status: fields.status ?? 'new',
  };
  await database.insertInto('contacts').values(row).execute();
  return row;
}

const statusOf = async (database: Kysely<Database>, id: string) =>
  (await database.selectFrom('contacts').select('status').where('id', '=', id).executeTakeFirst())?.status;

/** The dashboard's Messages tab. */
const messagesTab = (page: Page) =>
  page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: /^Messages/ });

/** Searches the list; `show` is a choice of the status filter ('replied', 'spam', 'all' …). */
async function searchInbox(page: Page, q: string, show?: MessageView) {
  await page.getByLabel('Search name, email, subject or text').fill(q);
  if (show) await page.getByLabel('Show').selectOption(show);
  await page.getByRole('button', { name: 'Search' }).click();
}

/** The one mail to `to` whose text or headers hold `needle`, once the test SMTP server has it. */
async function mailWith(to: string, needle: string): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      () => {
        found = mailsTo(to).find((mail) => mail.raw.includes(needle) || mail.text.includes(needle));
        return !!found;
      },
      { message: `a mail to ${to} about ${needle}`, timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

test('a message sent without JavaScript is read, answered by mail, found, exported and deleted', async ({
  browser,
  baseURL,
  page,
  signIn,
  database,
}) => {
  const subject = tagged('Sign language for parents');
  const sender = `visitor-${randomBytes(4).toString('hex')}@example.org`;
  const words = 'Our parents group would like a sign language session.\nWe meet on Saturdays in Wakiso.';

  // A visitor's browser without JavaScript posts the contact form.
  // From an address of its own: the contact form's per-address limit is another journey's to use up.
  const visitor = await browser.newContext({
    javaScriptEnabled: false,
    baseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': `198.51.100.${1 + (randomBytes(1)[0]! % 250)}` },
  });
  const form = await visitor.newPage();
  await form.goto('/contact');
  const months =
    (await database.selectFrom('settings').select('value').where('key', '=', 'messages_retention_months').executeTakeFirst())
      ?.value ?? String(RETENTION.defaultMonths);
  await expect(form.getByText(contactPrivacyNotice(Number(months)))).toBeVisible();
  const team = (await form
    .getByRole('complementary', { name: 'Contact information' })
    .getByRole('link', { name: /@/ })
    .textContent())!.trim();
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Nabirye Sarah');
  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(sender);
  await form.getByRole('textbox', { name: 'Subject', exact: true }).fill(subject);
  await form.getByRole('textbox', { name: 'Message', exact: true }).fill(words);
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expect(form.getByRole('heading', { name: CONTACT_TEXT.sent })).toBeVisible();
  await visitor.close();

  const stored = await database.selectFrom('contacts').selectAll().where('subject', '=', subject).executeTakeFirstOrThrow();
  expect(stored).toMatchObject({ email: sender, status: 'new' });

  // The organisation's address is told, Reply-To the sender, with a link to the message.
  const notice = await mailWith(team, subject);
  expect(notice.raw).toMatch(new RegExp(`^Reply-To: ${sender.replace(/\./g, '\\.')}\\r?$`, 'm'));
  expect(notice.text).toContain('Our parents group would like a sign language session.');
  expect(notice.text).toContain(`/admin/messages/${stored.id}`);

  // An Admin sees it in the inbox, with the unread count on the tab.
  const admin = await signIn('ADMIN');
  await page.goto('/admin/messages');
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  await expect(messagesTab(page)).toHaveAccessibleName(/^Messages \d+ unread$/);
  const row = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: subject }) });
  await expect(row).toContainText('Nabirye Sarah');
  await expect(row).toContainText(sender);
  await expect(row).toContainText('Our parents group would like a sign language session.');
  await expect(row).toContainText('New');
  await expect(row.locator('time')).toHaveAttribute('datetime', stored.created_at);

  // Search finds it by the sender's address, in another case.
  await searchInbox(page, sender.toUpperCase());
  await expect(page).toHaveURL(/[?&]q=/);
  await expect(page.getByRole('status').filter({ hasText: 'message' })).toHaveText('1 message matches');
  await expect(page.getByRole('link', { name: subject })).toBeVisible();

  // Opening it marks it Read.
  await page.getByRole('link', { name: subject }).click();
  await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
  await expect(page.getByText('We meet on Saturdays in Wakiso.')).toBeVisible();
  await expect.poll(() => statusOf(database, stored.id)).toBe('read');
  await expect(page.getByText(`Opened by ${admin.name}`)).toBeVisible();

  // A reply, typed and sent by keyboard.
  const reply = `Thank you! We can come on the first Saturday of next month. ${RUN}`;
  await page.getByRole('textbox', { name: 'Your reply' }).focus();
  await page.keyboard.type(reply);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Send reply' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText(MESSAGE_TEXT.replySent(sender))).toBeVisible();
  const thread = page.getByRole('region', { name: 'Replies (1)' });
  await expect(thread).toContainText(`Sent by ${admin.name} (${admin.email})`);
  await expect(thread).toContainText(reply);
  await expect(page.getByText(new RegExp(`^Replied by ${admin.name} on .+\\.$`))).toBeVisible();
  await expect.poll(() => statusOf(database, stored.id)).toBe('replied');
  await expect(page.getByRole('textbox', { name: 'Your reply' })).toHaveValue('');

  // The reply reaches the sender through the SMTP server, Reply-To the team, the message quoted.
  const mailed = await mailWith(sender, reply);
  expect(mailed.raw).toMatch(new RegExp(`^Reply-To: ${team.replace(/\./g, '\\.')}\\r?$`, 'm'));
  expect(mailed.raw).toMatch(new RegExp(`^Subject: Re: ${subject}\\r?$`, 'm'));
  expect(mailed.text).toContain('> Our parents group would like a sign language session.');

  // The filter finds it under Replied and not under Spam.
  await page.goto('/admin/messages');
  await searchInbox(page, RUN, 'replied');
  await expect(page.getByRole('link', { name: subject })).toBeVisible();
  await searchInbox(page, subject, 'spam');
  await expect(page.getByText(MESSAGE_TEXT.noMatches)).toBeVisible();

  // The CSV export of a filtered list, with a subject a spreadsheet would run as a formula.
  const formula = `=HYPERLINK("http://evil.example/${RUN}","Open me")`;
  await seedMessage(database, { subject: formula, message: `-2+3 ${RUN}` });
  await searchInbox(page, RUN, 'all');
  const exportLink = page.getByRole('link', { name: 'Export CSV of the messages listed' });
  await expect(exportLink).toHaveAttribute('href', new RegExp(`^/admin/messages/export\\?status=all&q=${RUN}$`));
  const response = await page.request.get((await exportLink.getAttribute('href'))!);
  expect(response.status()).toBe(200);
  const today = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Africa/Kampala',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
  expect(response.headers()).toMatchObject({
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="messages-${today}.csv"`,
    'cache-control': 'no-store',
  });
  const bytes = await response.body();
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const csv = bytes.toString('utf8');
  expect(csv).toContain(`"'=HYPERLINK(""http://evil.example/${RUN}"",""Open me"")"`);
  expect(csv).toContain(`'-2+3 ${RUN}`);
  expect(csv).toContain(`,Replied,Nabirye Sarah,${sender},,${subject},`);
  // Two rows (a message's own line breaks stay inside its quoted cell).
  expect(csv.match(/^\d{4}-\d\d-\d\dT[\d:.]+Z,/gm)).toHaveLength(2);

  // Delete, after the confirmation that names it.
  await page.getByRole('link', { name: subject }).click();
  await page.getByRole('button', { name: `Delete message "${subject}"` }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm delete' });
  await expect(dialog).toContainText(MESSAGE_TEXT.deleteConfirm(subject, 'Nabirye Sarah', sender));
  await expect(dialog).toContainText('This action cannot be undone.');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/admin\/messages$/);
  await expect(page.getByText(MESSAGE_TEXT.deleted)).toBeVisible();
  // The button went with the page: the new page's heading has the focus, as a page just opened would.
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await expect.poll(() => statusOf(database, stored.id)).toBeUndefined();
});

test('without JavaScript: status changes and the delete confirmation page work as plain forms', async ({
  browser,
  baseURL,
  staff,
  database,
}) => {
  const admin = await staff('ADMIN');
  const message = await seedMessage(database, { subject: tagged('Speaker for our school') });
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  try {
    await page.goto('/admin');
    await page.getByLabel('Email address').fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/overview$/);

    await page.goto(`/admin/messages/${message.id}`);
    await page.getByRole('button', { name: 'Mark as spam' }).click();
    await expect(page).toHaveURL(/\/admin\/messages$/);
    await expect(page.getByText(MESSAGE_TEXT.statusChanged.spam)).toBeVisible();
    await expect(page.getByRole('link', { name: message.subject })).toHaveCount(0);
    expect(await statusOf(database, message.id)).toBe('spam');

    await page.goto(`/admin/messages/${message.id}`);
    await page.getByRole('button', { name: 'Move back to the inbox' }).click();
    await expect(page.getByText(MESSAGE_TEXT.statusChanged.read)).toBeVisible();
    expect(await statusOf(database, message.id)).toBe('read');

    await page.goto(`/admin/messages/${message.id}`);
    await page.getByRole('button', { name: 'Mark handled (archive)' }).click();
    await expect(page.getByText(MESSAGE_TEXT.statusChanged.archived)).toBeVisible();
    expect(await statusOf(database, message.id)).toBe('archived');

    // Delete is a link to a confirmation page, which posts.
    await page.goto(`/admin/messages/${message.id}`);
    await page.getByRole('link', { name: `Delete message "${message.subject}"` }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/messages/${message.id}/delete$`));
    await expect(page.getByText(MESSAGE_TEXT.deleteConfirm(message.subject, message.name, message.email))).toBeVisible();
    await page.getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/admin\/messages$/);
    await expect(page.getByText(MESSAGE_TEXT.deleted)).toBeVisible();
    expect(await statusOf(database, message.id)).toBeUndefined();

    // Every change audited, by whom, without the message's words.
    const audit = await database
      .selectFrom('audit_log')
      .select(['action', 'actor_email', 'detail'])
      .where('target', '=', message.id)
      .orderBy('at')
      .execute();
    expect(audit.map((a) => [a.action, JSON.parse(a.detail) as unknown])).toEqual([
      ['message.status_changed', { from: 'new', to: 'read', opened: true }],
      ['message.status_changed', { from: 'read', to: 'spam' }],
      ['message.status_changed', { from: 'spam', to: 'read' }],
      ['message.status_changed', { from: 'read', to: 'archived' }],
      ['message.deleted', { status: 'archived', replies: 0 }],
    ]);
    expect(audit.every((a) => a.actor_email === admin.email)).toBe(true);
  } finally {
    await context.close();
  }
});

test('pages of 25 follow each other, older and newer, over many messages', async ({ page, signIn, database }) => {
  const word = tagged('Paging');
  const base = Date.now() - 60 * 60_000;
  for (let i = 0; i < 30; i++)
    await seedMessage(database, {
      subject: `${word} number ${String(i).padStart(2, '0')}`,
      status: 'read',
      createdAt: new Date(base + i * 1000).toISOString(),
    });
  await signIn('ADMIN');
  await page.goto(`/admin/messages?q=${encodeURIComponent(word)}`);
  await expect(page.getByRole('status').filter({ hasText: 'messages' })).toHaveText('30 messages match');
  const subjects = page.getByRole('heading', { level: 2 }).filter({ hasText: word });
  await expect(subjects).toHaveCount(25);
  await expect(subjects.first()).toHaveText(`${word} number 29`);
  const pages = page.getByRole('navigation', { name: 'More messages' });
  await expect(pages.getByRole('link', { name: 'Newer messages' })).toHaveCount(0);
  await pages.getByRole('link', { name: 'Older messages' }).click();
  await expect(subjects).toHaveCount(5);
  await expect(subjects.first()).toHaveText(`${word} number 04`);
  await expect(subjects.last()).toHaveText(`${word} number 00`);
  await expect(pages.getByRole('link', { name: 'Older messages' })).toHaveCount(0);
  await pages.getByRole('link', { name: 'Newer messages' }).click();
  await expect(subjects).toHaveCount(25);
  await expect(subjects.last()).toHaveText(`${word} number 05`);
});

test('the retention setting is kept, audited, refused when out of range, and told on the contact page', async ({
  page,
  signIn,
  database,
}) => {
  const admin = await signIn('ADMIN');
  await page.goto('/admin/messages');
  const field = page.getByRole('spinbutton', { name: 'Months' });
  await thenPutBack(
    async () => {
      await field.fill('36');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText(MESSAGE_TEXT.retentionSaved(36))).toBeVisible();
      await page.goto('/contact');
      await expect(page.getByText(contactPrivacyNotice(36))).toBeVisible();
      const audit = await database
        .selectFrom('audit_log')
        .select(['detail'])
        .where('action', '=', 'messages.retention_changed')
        .where('actor_email', '=', admin.email)
        .execute();
      expect(audit.map((a) => JSON.parse(a.detail) as unknown)).toContainEqual(expect.objectContaining({ to: 36 }));

      // Out of range: refused with the reason, beside the field (the browser's own check is off).
      await page.goto('/admin/messages');
      await field.evaluate((input: HTMLInputElement) => input.removeAttribute('max'));
      await field.fill('121');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(field).toHaveAccessibleDescription(new RegExp(MESSAGE_TEXT.retentionInvalid.replace(/\./g, '\\.')));
      await expect(field).toHaveAttribute('aria-invalid', 'true');
    },
    async () => {
      await page.goto('/admin/messages');
      await field.fill(String(RETENTION.defaultMonths));
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText(MESSAGE_TEXT.retentionSaved(RETENTION.defaultMonths))).toBeVisible();
    },
  );
});

test('roles without messages:manage see Access Restricted and are refused every write', async ({
  page,
  signIn,
  staffRequest,
  database,
}) => {
  const message = await seedMessage(database, { subject: tagged('Private matter') });
  const editor = await signIn('EDITOR');
  expect((await page.goto('/admin/messages'))?.status()).toBe(403);
  await expect(page.getByRole('heading', { name: 'Access Restricted' })).toBeVisible();
  await expect(page.getByText(accessRestrictedText('EDITOR'))).toBeVisible();
  await expect(messagesTab(page)).toHaveCount(0);
  expect((await page.goto(`/admin/messages/${message.id}`))?.status()).toBe(403);
  await expect(page.getByRole('heading', { name: 'Access Restricted' })).toBeVisible();
  await expect(page.getByText(message.subject)).toHaveCount(0);

  const { request } = await staffRequest(editor);
  const refused = [
    await request.post(`/admin/messages/${message.id}`, { form: { intent: 'status', status: 'spam' }, maxRedirects: 0 }),
    await request.post(`/admin/messages/${message.id}`, { form: { intent: 'reply', body: 'Hello' }, maxRedirects: 0 }),
    await request.post(`/admin/messages/${message.id}/delete`, { form: {}, maxRedirects: 0 }),
    await request.post('/admin/messages', { form: { intent: 'retention', months: '1' }, maxRedirects: 0 }),
    await request.get(`/admin/messages/${message.id}/delete`, { maxRedirects: 0 }),
    await request.get('/admin/messages/export?status=all', { maxRedirects: 0 }),
  ];
  for (const response of refused) expect(response.status(), response.url()).toBe(403);
  for (const response of refused) expect(await response.text()).not.toContain(message.subject);
  expect(await statusOf(database, message.id)).toBe('new');
  expect(
    await database.selectFrom('audit_log').select('id').where('target', '=', message.id).execute(),
    'nothing was done to the message',
  ).toEqual([]);
});

for (const viewport of [MOBILE, DESKTOP]) {
  test(
    `the inbox, a message and the delete confirmation at ${viewport.width} px: no axe findings`,
    { tag: LAYOUT },
    async ({ page, signIn, database }) => {
      await page.setViewportSize(viewport);
      const message = await seedMessage(database, {
        subject: tagged('A rather long subject about accessible transport to the district workshop'),
        message:
          'Line one of a message.\n\nLine three, after a blank line, with a long address: someone.with.a.long.name@example.org',
      });
      await seedMessage(database, { subject: tagged('Handled earlier'), status: 'replied' });
      await signIn('ADMIN');
      await page.goto(`/admin/messages?q=${RUN}`);
      await expect(page.getByRole('link', { name: message.subject })).toBeVisible();
      await expectNoA11yIssues(page);
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      await page.getByRole('link', { name: message.subject }).click();
      await expect(page.getByRole('heading', { level: 1, name: message.subject })).toBeVisible();
      await expectNoA11yIssues(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      await page.goto(`/admin/messages/${message.id}/delete`);
      await expect(page.getByRole('heading', { name: 'Confirm delete' })).toBeVisible();
      await expectNoA11yIssues(page);
    },
  );
}
