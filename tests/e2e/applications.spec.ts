import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Browser, Page } from '@playwright/test';
import {
  APPLICATION_ERRORS,
  APPLICATION_FORM_TEXT,
  APPLICATION_PATHS,
  APPLICATION_TEXT,
  CONSENT_LABEL,
  KIND_LABELS,
} from '../../app/lib/applications';
import { MESSAGE_TEXT } from '../../app/lib/messages';
import type { Database } from '../../app/server/db/schema';
import { expect as baseExpect, LAYOUT, test } from './fixtures';
import { mailsTo, type Mail } from './staff';
import { DESKTOP, expectNoA11yIssues, MOBILE } from './support';

// Issue 27 part 1: "Become a Volunteer" and "Partner with us" (and the speaker and design-help
// requests) each open a form of their own. An application sent with JavaScript off (a plain post)
// and on (the page script's post in place) reaches the inbox as its kind, New; an Admin filters the
// inbox by kind and status, accepts one and answers the other by mail, which makes it Contacted.
// The applicant is sent a confirmation and the team a notification, through a real SMTP server.
// Runs against the SQLite server and the PostgreSQL one.

test.describe.configure({ mode: 'default', timeout: 90_000 });
test.use({ viewport: DESKTOP });
const expect = baseExpect.configure({ timeout: 10_000 });

/** Every application a test of this file sends carries this word, so the tests find (and remove) only theirs. */
const RUN = `apply${randomBytes(4).toString('hex')}`;

test.afterAll(async ({ database }) => {
  const ids = database.selectFrom('contacts').select('id').where('message', 'like', `%${RUN}%`);
  await database.deleteFrom('contact_replies').where('contact_id', 'in', ids).execute();
  await database.deleteFrom('contacts').where('message', 'like', `%${RUN}%`).execute();
});

/** A visitor of an address of their own (the forms' per-address limit is not another journey's to use up). */
async function visitor(browser: Browser, baseURL: string | undefined, javaScriptEnabled: boolean) {
  return browser.newContext({
    javaScriptEnabled,
    baseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': `198.51.100.${1 + (randomBytes(1)[0]! % 250)}` },
  });
}

const textbox = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

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

const stored = (database: Kysely<Database>, email: string) =>
  database.selectFrom('contacts').selectAll().where('email', '=', email).executeTakeFirst();

/** Sends the form; with the page script, the answer is put in place without leaving the page. */
async function send(page: Page, button: string, javaScript: boolean) {
  if (javaScript) {
    await expect(page.locator('html')).toHaveAttribute('data-enhanced', 'true');
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  }
  await page.getByRole('button', { name: button }).click();
  if (javaScript) expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
}

for (const javaScript of [false, true]) {
  test(`a volunteer and a partner application sent with JavaScript ${javaScript ? 'on' : 'off'} reach the inbox, are filtered, decided and answered`, async ({
    browser,
    baseURL,
    page,
    signIn,
    database,
  }) => {
    const tag = `${RUN}-${javaScript ? 'js' : 'nojs'}`;
    const volunteerEmail = `volunteer-${randomBytes(4).toString('hex')}@example.org`;
    const partnerEmail = `partner-${randomBytes(4).toString('hex')}@example.org`;
    const context = await visitor(browser, baseURL, javaScript);
    const form = await context.newPage();

    // The footer's "Become a Volunteer" opens the volunteer form.
    await form.goto('/');
    await form.getByRole('contentinfo').getByRole('link', { name: 'Become a Volunteer' }).click();
    await expect(form).toHaveURL(/\/volunteer$/);
    await expect(form.getByRole('heading', { level: 1, name: APPLICATION_TEXT.volunteer.title })).toBeVisible();
    await expect(form.getByText('We use the details you give here only to answer your volunteer application')).toBeVisible();

    // Sent without the consent and a time to help: told beside each, nothing lost.
    await textbox(form, 'Your name').fill(`Nabirye Sarah ${tag}`);
    await textbox(form, 'Email (optional if you give a phone number)').fill(volunteerEmail);
    await form.getByRole('radio', { name: 'I can hold a conversation' }).check();
    await form.getByRole('checkbox', { name: 'Teaching or training' }).check();
    await textbox(form, 'Why would you like to volunteer?').fill(`My brother is deaf. ${tag}`);
    await send(form, APPLICATION_TEXT.volunteer.send, javaScript);
    await expect(form.getByRole('alert').filter({ hasText: APPLICATION_FORM_TEXT.invalid })).toBeVisible();
    await expect(form.getByText(APPLICATION_ERRORS.availability)).toBeVisible();
    await expect(form.getByText(APPLICATION_ERRORS.consent)).toBeVisible();
    await expect(form.getByRole('checkbox', { name: 'Weekdays' })).toBeFocused();
    await expect(form.getByRole('radio', { name: 'I can hold a conversation' })).toBeChecked();
    await expect(form.getByRole('checkbox', { name: 'Teaching or training' })).toBeChecked();
    await expect(textbox(form, 'Your name')).toHaveValue(`Nabirye Sarah ${tag}`);

    await form.getByRole('checkbox', { name: 'Weekends' }).check();
    await form.getByRole('checkbox', { name: CONSENT_LABEL }).check();
    await send(form, APPLICATION_TEXT.volunteer.send, javaScript);
    await expect(form.getByRole('heading', { name: APPLICATION_TEXT.volunteer.sent })).toBeVisible();
    // The answer has the focus, with the page script or (autofocus) without it.
    await expect(form.getByRole('heading', { name: APPLICATION_TEXT.volunteer.sent })).toBeFocused();

    // "Partner with us", from the footer too.
    await form.goto('/');
    await form.getByRole('contentinfo').getByRole('link', { name: 'Partner with us' }).click();
    await expect(form).toHaveURL(/\/partner$/);
    await textbox(form, 'Organisation').fill('Wakiso Parents Association');
    await textbox(form, 'Contact person').fill(`Okello Peter ${tag}`);
    await textbox(form, 'Email').fill(partnerEmail);
    await textbox(form, 'What would you like to do together?').fill(`Sign language classes for our members. ${tag}`);
    await form.getByRole('checkbox', { name: CONSENT_LABEL }).check();
    await send(form, APPLICATION_TEXT.partner.send, javaScript);
    await expect(form.getByRole('heading', { name: APPLICATION_TEXT.partner.sent })).toBeVisible();
    await context.close();

    const volunteer = (await stored(database, volunteerEmail))!;
    const partner = (await stored(database, partnerEmail))!;
    expect(volunteer).toMatchObject({ kind: 'volunteer', status: 'new' });
    expect(JSON.parse(volunteer.answers!)).toEqual({
      kind: 'volunteer',
      signLanguage: 'conversational',
      skills: ['teaching'],
      availability: ['weekends'],
    });
    expect(partner).toMatchObject({ kind: 'partner', status: 'new', subject: 'Partnership: Wakiso Parents Association' });

    // The applicant is sent a confirmation, the team a notification Reply-To the applicant.
    const confirmation = await mailWith(volunteerEmail, 'We received your volunteer application');
    expect(confirmation.text).not.toContain('My brother is deaf');
    const team = await mailWith(await teamAddress(page), `/admin/messages/${partner.id}`);
    expect(team.raw).toMatch(new RegExp(`^Reply-To: ${partnerEmail.replace(/\./g, '\\.')}\\r?$`, 'm'));
    expect(team.text).toContain('Organisation: Wakiso Parents Association');

    // An Admin finds both in the inbox, each of its kind, and filters by kind and status.
    const admin = await signIn('ADMIN');
    await page.goto(`/admin/messages?q=${tag}`);
    const row = (subject: string) => page.getByRole('listitem').filter({ has: page.getByRole('link', { name: subject }) });
    await expect(row(volunteer.subject)).toContainText(KIND_LABELS.volunteer.one);
    await expect(row(volunteer.subject)).toContainText('New');
    await expect(row(partner.subject)).toContainText(KIND_LABELS.partner.one);
    await page.getByLabel('Kind').selectOption('volunteer');
    await page.getByLabel('Show').selectOption('new');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/kind=volunteer/);
    await expect(page.getByRole('link', { name: volunteer.subject })).toBeVisible();
    await expect(page.getByRole('link', { name: partner.subject })).toHaveCount(0);

    // The volunteer's answers are shown; opening keeps it New; Accept decides it.
    await page.getByRole('link', { name: volunteer.subject }).click();
    await expect(page.getByRole('heading', { level: 1, name: volunteer.subject })).toBeVisible();
    await expect(page.getByText('I can hold a conversation')).toBeVisible();
    await expect(page.getByText('Teaching or training')).toBeVisible();
    await expect(page.getByText(`My brother is deaf. ${tag}`)).toBeVisible();
    expect((await stored(database, volunteerEmail))!.status).toBe('new');
    await page.getByRole('button', { name: 'Accept' }).click();
    await expect(page.getByText(MESSAGE_TEXT.statusChanged.accepted)).toBeVisible();
    await expect.poll(async () => (await stored(database, volunteerEmail))!.status).toBe('accepted');

    // The partner is answered by mail through the queue, and becomes Contacted.
    await page.goto(`/admin/messages?q=${tag}&kind=partner`);
    await page.getByRole('link', { name: partner.subject }).click();
    await expect(page.getByText('Organisation')).toBeVisible();
    const reply = `Thank you! Could we meet next week? ${tag}`;
    await page.getByRole('textbox', { name: 'Your reply' }).fill(reply);
    await page.getByRole('button', { name: 'Send reply' }).click();
    await expect(page.getByText(MESSAGE_TEXT.replySent(partnerEmail))).toBeVisible();
    await expect.poll(async () => (await stored(database, partnerEmail))!.status).toBe('contacted');
    const mailed = await mailWith(partnerEmail, reply);
    expect(mailed.raw).toMatch(/^Subject: Re: Partnership: Wakiso Parents Association\r?$/m);

    // The filter by status finds each where it now is.
    await page.goto(`/admin/messages?q=${tag}&status=contacted`);
    await expect(page.getByRole('link', { name: partner.subject })).toBeVisible();
    await expect(page.getByRole('link', { name: volunteer.subject })).toHaveCount(0);
    await page.goto(`/admin/messages?q=${tag}&status=accepted&kind=volunteer`);
    await expect(page.getByRole('link', { name: volunteer.subject })).toBeVisible();

    // Exported with their kind and answers.
    const response = await page.request.get(`/admin/messages/export?status=all&q=${tag}`);
    const csv = (await response.body()).toString('utf8');
    expect(csv).toContain(',Volunteer application,,,,I can hold a conversation,Teaching or training,Weekends');
    expect(csv).toContain(',Partnership request,Wakiso Parents Association,');

    // Every change audited, by the Admin, without the words.
    const audit = await database
      .selectFrom('audit_log')
      .select(['action', 'actor_email', 'detail'])
      .where('target', 'in', [volunteer.id, partner.id])
      .orderBy('at')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['message.status_changed', 'message.replied']);
    expect(audit.every((a) => a.actor_email === admin.email && !a.detail.includes(tag))).toBe(true);
  });
}

/** The organisation's address, as the contact page shows it. */
async function teamAddress(page: Page): Promise<string> {
  await page.goto('/contact');
  return (await page
    .getByRole('complementary', { name: 'Contact information' })
    .getByRole('link', { name: /@/ })
    .textContent())!.trim();
}

test('the home page, the service pages and the sitemap lead to the forms', async ({ page, request }) => {
  await page.goto('/');
  const cards = page.getByRole('region', { name: 'How we can help' });
  await cards.getByRole('link', { name: 'Book Speaker' }).click();
  await expect(page.getByRole('heading', { level: 1, name: APPLICATION_TEXT.speaker.title })).toBeVisible();
  for (const name of ['Organisation', 'Contact person', 'Email', 'Date of the event', 'Audience', 'What do you need?'])
    await expect(page.getByLabel(name, { exact: true })).toBeVisible();
  await page.goto('/');
  await cards.getByRole('link', { name: 'Get Design Help' }).click();
  await expect(page.getByRole('heading', { level: 1, name: APPLICATION_TEXT.design.title })).toBeVisible();
  // The talks' and the design services' pages offer their request forms.
  await page.goto('/services/inclusion-talks');
  await expect(page.getByRole('link', { name: APPLICATION_TEXT.speaker.title })).toHaveAttribute('href', '/book-speaker');
  await page.goto('/services/comm-services');
  await expect(page.getByRole('link', { name: APPLICATION_TEXT.design.title })).toHaveAttribute('href', '/design-help');
  const sitemap = await (await request.get('/sitemap.xml')).text();
  for (const path of Object.values(APPLICATION_PATHS)) expect(sitemap).toContain(`${path}</loc>`);
  // Each form in Luganda and Swahili is that form, not the volunteers' (the language's prefix once hid the kind).
  const titles = { lg: ['Kolagana naffe', 'Saba Omwogezi'], sw: ['Shirikiana nasi', 'Omba Mzungumzaji'] };
  for (const [language, [partner, speaker]] of Object.entries(titles)) {
    await page.goto(`/${language}/partner`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(partner!);
    await page.goto(`/${language}/book-speaker`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(speaker!);
    await expect(page.locator('input[name="audience"]')).toHaveCount(1);
  }
});

for (const viewport of [MOBILE, DESKTOP]) {
  test(
    `the four forms, an answer with errors and an application in the inbox at ${viewport.width} px: no axe findings`,
    { tag: LAYOUT },
    async ({ browser, baseURL, page, signIn, database }) => {
      // axe runs in the page, so this visitor has JavaScript (the page script answers in place).
      const context = await visitor(browser, baseURL, true);
      const form = await context.newPage();
      await form.setViewportSize(viewport);
      for (const path of Object.values(APPLICATION_PATHS)) {
        await form.goto(path);
        await expectNoA11yIssues(form);
        expect(await form.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      }
      await form.goto('/book-speaker');
      await expect(form.locator('html')).toHaveAttribute('data-enhanced', 'true');
      await form.getByLabel('Date of the event').fill('2001-01-01');
      await form.getByRole('button', { name: APPLICATION_TEXT.speaker.send }).click();
      await expect(form.getByText(APPLICATION_ERRORS.date.past)).toBeVisible();
      await expect(textbox(form, 'Organisation')).toBeFocused();
      await expectNoA11yIssues(form);
      expect(await form.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await context.close();

      const id = crypto.randomUUID();
      await database
        .insertInto('contacts')
        .values({
          id,
          kind: 'speaker',
          name: 'Someone with a long name',
          email: 'someone.with.a.rather.long.address@example.org',
          phone: '+256 700 000 003',
          subject: 'Speaker request: Mukono District Teachers Association, 2027-03-15',
          message: `We would like a talk for teachers about deaf pupils. ${RUN}`,
          answers: JSON.stringify({
            kind: 'speaker',
            organisation: 'Mukono District Teachers Association',
            date: '2027-03-15',
            audience: '120 teachers',
          }),
          created_at: new Date().toISOString(),
          read_at: null,
          confirmation_mail_id: null,
        })
        .execute();
      await page.setViewportSize(viewport);
      await signIn('ADMIN');
      await page.goto(`/admin/messages?q=${RUN}&kind=speaker`);
      await expect(page.locator(`a[href="/admin/messages/${id}"]`)).toBeVisible();
      await expectNoA11yIssues(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await page.goto(`/admin/messages/${id}`);
      await expect(page.getByText('120 teachers')).toBeVisible();
      await expectNoA11yIssues(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    },
  );
}
