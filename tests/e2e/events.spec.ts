import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import type { Kysely } from 'kysely';
import type { Database } from '../../app/server/db/schema';
import { expect as baseExpect, test } from './fixtures';
import { mailsTo, type Mail } from './staff';
import { DESKTOP, expectNoA11yIssues, MOBILE } from './support';

// Issue 27, parts 2-5: an event made by staff, a registration without JavaScript, a full event's
// waiting list, a cancellation through the mailed link moving the first waiting person up, the .ics
// download; on the SQLite server and the PostgreSQL one.

test.describe.configure({ mode: 'default', timeout: 90_000 });
const expect = baseExpect.configure({ timeout: 10_000 });

const RUN = `ev${randomBytes(4).toString('hex')}`;

test.afterAll(async ({ database }) => {
  const ids = database.selectFrom('events').select('id').where('title', 'like', `%${RUN}%`);
  await database.deleteFrom('event_registrations').where('event_id', 'in', ids).execute();
  await database.deleteFrom('event_translations').where('event_id', 'in', ids).execute();
  await database.deleteFrom('events').where('title', 'like', `%${RUN}%`).execute();
});

function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
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

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** An event through the staff form; its address. */
async function eventThroughTheForm(page: Page, title: string, places: string): Promise<string> {
  await page.goto('/admin/events/new');
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
  await page.getByRole('textbox', { name: 'Summary' }).fill('Learn your first hundred signs with a Deaf teacher.');
  await page.getByRole('textbox', { name: 'Description', exact: true }).fill('<p>A morning of greetings and family signs.</p>');
  await page.getByLabel('Start date').fill(inDays(20));
  await page.getByLabel('Start time').fill('09:00');
  await page.getByLabel('End date').fill(inDays(20));
  await page.getByLabel('End time').fill('12:00');
  await page.getByRole('textbox', { name: 'Place', exact: true }).fill('Mukono training room');
  await page.getByRole('spinbutton', { name: 'Places' }).fill(places);
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(/\/admin\/events$/);
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
  await expect(card).toContainText('Published');
  return (await card.getByRole('link', { name: `View ${title}` }).getAttribute('href'))!;
}

async function register(page: Page, path: string, name: string, email: string) {
  await page.goto(path);
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await page.getByRole('textbox', { name: /^Email/ }).fill(email);
  await page.getByRole('button', { name: /Register|Join the waiting list/ }).click();
}

const registrationsOf = (database: Kysely<Database>, title: string) =>
  database
    .selectFrom('event_registrations')
    .innerJoin('events', 'events.id', 'event_registrations.event_id')
    .select(['event_registrations.email', 'event_registrations.status'])
    .where('events.title', '=', title)
    .orderBy('event_registrations.seq')
    .execute();

test.describe('events without JavaScript', () => {
  test.use({ javaScriptEnabled: false, viewport: DESKTOP });

  test('staff publish an event with one place; the first registers, the second waits, the first cancels through the mailed link and the second gets the place', async ({
    page,
    signIn,
    database,
  }) => {
    const title = `Signs for parents ${RUN}`;
    await signIn('EDITOR');
    const path = await eventThroughTheForm(page, title, '1');
    await page.context().clearCookies();

    // The public list and page.
    await page.goto('/events');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trainings and events');
    await page.getByRole('link', { name: title, exact: true }).click();
    await expect(page).toHaveURL(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByText('1 place left (of 1)')).toBeVisible();
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!) as Record<
      string,
      unknown
    >;
    expect(jsonLd).toMatchObject({ '@type': 'Event', name: title, maximumAttendeeCapacity: 1 });
    expect(
      await page.evaluate(() => document.querySelectorAll('script:not([type="application/ld+json"])').length),
    ).toBeLessThanOrEqual(1);

    // The .ics download.
    const ics = await page.request.get(`${path}/calendar.ics`);
    expect(ics.headers()['content-type']).toContain('text/calendar');
    const calendar = await ics.text();
    expect(calendar).toContain('BEGIN:VEVENT');
    expect(calendar).toContain(`SUMMARY:${title}`);
    expect(calendar).toMatch(/DTSTART:\d{8}T060000Z/);

    // First: a place, with a confirmation mail carrying the .ics and a private cancellation link.
    const first = `first-${RUN}@example.org`;
    await register(page, path, 'Nakato Aisha', first);
    // Without the page script, the answer has the focus, so the reader lands on it.
    await expect(page.getByRole('heading', { name: 'You have a place!' })).toBeFocused();
    const confirmation = await mailWith(first, 'Your place');
    expect(confirmation.raw).toMatch(/text\/calendar/);
    const cancelLink = /https?:\/\/[^\s]+\/events\/cancel\/[A-Za-z0-9_-]{43}/.exec(decodeQuotedPrintable(confirmation.raw))![0];

    // Second: the event is full, so the waiting list.
    const second = `second-${RUN}@example.org`;
    await register(page, path, 'Okello James', second);
    await expect(page.getByRole('heading', { name: 'You are on the waiting list' })).toBeVisible();
    await mailWith(second, 'waiting list');
    expect((await registrationsOf(database, title)).map((r) => r.status)).toEqual(['confirmed', 'waiting']);

    // The first cancels through the mailed link: the GET changes nothing, the button does, once.
    const cancelPath = new URL(cancelLink).pathname;
    await page.goto(cancelPath);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cancel your registration');
    expect((await registrationsOf(database, title))[0]!.status).toBe('confirmed');
    await page.getByRole('button', { name: 'Cancel my registration' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your registration is cancelled');
    expect((await registrationsOf(database, title)).map((r) => r.status)).toEqual(['cancelled', 'confirmed']);
    await mailWith(second, 'the place is now yours');
    await page.goto(cancelPath);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link does not work');
  });

  test('a draft, then publishing it from its edit screen, then a change to it: each is told as it is', async ({
    page,
    signIn,
  }) => {
    const title = `Signs at work ${RUN}`;
    await signIn('EDITOR');
    await page.goto('/admin/events/new');
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
    await page.getByRole('textbox', { name: 'Summary' }).fill('Greetings and workplace signs with a Deaf teacher.');
    await page
      .getByRole('textbox', { name: 'Description', exact: true })
      .fill('<p>Greetings, numbers and the signs of a working day.</p>');
    for (const end of ['Start', 'End']) await page.getByLabel(`${end} date`).fill(inDays(30));
    await page.getByLabel('Start time').fill('14:00');
    await page.getByLabel('End time').fill('16:00');
    await page.getByRole('textbox', { name: 'Place', exact: true }).fill('Kampala office');
    await page.getByRole('spinbutton', { name: 'Places' }).fill('12');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByText(`Draft "${title}" saved.`)).toBeVisible();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
    await card.getByRole('link', { name: /^Edit/ }).click();
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText(`Event "${title}" published.`)).toBeVisible();
    await expect(card).toContainText('Published');
    await card.getByRole('link', { name: /^Edit/ }).click();
    await page.getByRole('spinbutton', { name: 'Places' }).fill('15');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText(`Event "${title}" saved.`)).toBeVisible();
  });

  test('an editor adds a Luganda version of an event; /lg shows it, its calendar file and a registrant’s mail are in it; /sw keeps English, marked', async ({
    page,
    signIn,
    database,
  }) => {
    const title = `Signs for librarians ${RUN}`;
    const luganda = `Obubonero bw’abasomesa ${RUN}`;
    await signIn('EDITOR');
    const path = await eventThroughTheForm(page, title, '10');
    const slug = path.split('/').at(-1)!;
    const { id } = await database.selectFrom('events').select('id').where('slug', '=', slug).executeTakeFirstOrThrow();
    await page.goto(`/admin/events/${id}/edit`);
    const panel = page.getByRole('region', { name: 'Languages' });
    await expect(panel).toContainText(/Luganda:\s*No version yet/);
    await panel.getByRole('link', { name: 'Add Luganda version' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Luganda version: ${title}`);
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText('Please fix the errors below before saving.')).toBeVisible();
    await expect(page.getByText('Title is required')).toBeVisible();

    await page.getByRole('textbox', { name: 'Title' }).fill(luganda);
    await page.getByRole('textbox', { name: 'Summary' }).fill('Yiga obubonero obusooka n’omusomesa Omukiggala.');
    await page.getByRole('textbox', { name: 'Description' }).fill('<p>Okulamusa n’obubonero bw’amaka.</p>');
    await page.getByRole('textbox', { name: 'Place' }).fill('Ekisenge ky’okusomeramu e Mukono');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByText('Luganda version saved as a draft. It is not on the website.')).toBeVisible();
    // A draft is not on the website.
    await page.goto(`/lg${path}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await page.goto(`/admin/events/${id}/versions/lg`);
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText('Luganda version published.')).toBeVisible();
    expect(
      (await database.selectFrom('audit_log').select('action').where('target', '=', id).orderBy('at').execute()).map(
        (a) => a.action,
      ),
    ).toEqual(['event.published', 'event.version_saved', 'event.version_published']);

    // The longest description there may be, in letters that take six bytes each once percent-encoded, is
    // saved (a Swahili draft, so the /sw page below stays English).
    const longest = `<p>${'ŋ'.repeat(49_993)}</p>`;
    const long = await page.request.post(`/admin/events/${id}/versions/sw`, {
      form: { title: 'Alama', summary: 'Muhtasari.', description: longest, intent: 'draft' },
      maxRedirects: 0,
    });
    expect(long.status()).toBe(303);
    const stored = await database
      .selectFrom('event_translations')
      .select('description')
      .where('event_id', '=', id)
      .where('language', '=', 'sw')
      .executeTakeFirstOrThrow();
    expect(stored.description).toBe(longest);

    // An author may not change versions, whatever the address.
    await signIn('AUTHOR');
    expect((await page.goto(`/admin/events/${id}/versions/lg`))!.status()).toBe(403);
    const refused = await page.request.post(`/admin/events/${id}/versions/lg`, {
      form: { title: 'x', summary: 'x', description: '<p>x</p>', intent: 'publish', version: '2' },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(403);
    await page.context().clearCookies();

    // The visitor under /lg: the list, the page, its calendar file, all in Luganda.
    await page.goto('/lg/events');
    await expect(page.getByRole('heading', { level: 3, name: luganda })).toBeVisible();
    await expect(page.getByRole('heading', { level: 3, name: luganda })).not.toHaveAttribute('lang', 'en');
    await page.goto(`/lg${path}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(luganda);
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveAttribute('lang', 'en');
    await expect(page.getByText('Ekisenge ky’okusomeramu e Mukono')).toBeVisible();
    await expect(page.locator('[data-not-translated]')).toHaveCount(0);
    const calendarLink = page.locator('a[href$="calendar.ics?language=lg"]');
    const calendar = await (await page.request.get((await calendarLink.getAttribute('href'))!)).text();
    expect(calendar).toContain(`SUMMARY:${luganda}`.slice(0, 60));
    expect(calendar).toContain(`/lg/events/${slug}`);
    // The Luganda page changed when its version was published: its calendar file says so to a calendar
    // that has the event, and the sitemap to search engines; the Swahili page is the event's, unchanged.
    const [version, event] = await Promise.all([
      database
        .selectFrom('event_translations')
        .select('updated_at')
        .where('event_id', '=', id)
        .where('language', '=', 'lg')
        .executeTakeFirstOrThrow(),
      database.selectFrom('events').select('updated_at').where('id', '=', id).executeTakeFirstOrThrow(),
    ]);
    expect(version.updated_at > event.updated_at).toBe(true);
    expect(calendar).toContain(`SEQUENCE:${Math.floor((Date.parse(version.updated_at) - Date.UTC(2026, 0, 1)) / 1000)}`);
    const sitemap = await (await page.request.get('/sitemap.xml')).text();
    const lastmod = (path: string) =>
      sitemap
        .split(`<loc>`)
        .find((entry) => entry.includes(`${path}</loc>`))
        ?.match(/<lastmod>([^<]{1,40})<\/lastmod>/)?.[1];
    expect(lastmod(`/lg/events/${slug}`)).toBe(version.updated_at);
    expect(lastmod(`/sw/events/${slug}`)).toBe(event.updated_at);

    // Registered from the Luganda page: the mail is in Luganda, with the Luganda title.
    const email = `lg-${RUN}@example.org`;
    await page.getByRole('textbox', { name: /^Erinnya/ }).fill('Nakato Aisha');
    await page.getByRole('textbox', { name: /^Imeeyiro/ }).fill(email);
    await page.locator('form button[type="submit"]').click();
    // (The mail's text is UTF-8 in quoted-printable: its ’ is three bytes, so the checks take the words after it.)
    const mail = await mailWith(email, `abasomesa ${RUN}`);
    expect(decodeQuotedPrintable(mail.raw)).toContain('okusomeramu e Mukono');
    expect(decodeQuotedPrintable(mail.raw)).not.toContain('Mukono training room');

    // Under /sw, with no Swahili version: the English words, marked English, and the note saying so.
    await page.goto(`/sw${path}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByRole('heading', { level: 1 })).toHaveAttribute('lang', 'en');
    await expect(page.locator('[data-not-translated]')).toBeVisible();
  });

  test('a registration with wrong details is told what to fix and keeps what was typed', async ({ page, signIn }) => {
    const title = `Signs for teachers ${RUN}`;
    await signIn('ADMIN');
    const path = await eventThroughTheForm(page, title, '5');
    await page.context().clearCookies();
    await page.goto(path);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Apio Grace');
    await page.getByRole('textbox', { name: /^Email/ }).fill('not an address');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('main').getByRole('alert')).toContainText('Please correct the fields marked below');
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Apio Grace');
  });
});

test('50 registrations posted at once for 3 places confirm exactly 3; the other 47 wait, each told so', async ({
  page,
  signIn,
  database,
}) => {
  const title = `Fifty at once ${RUN}`;
  await signIn('EDITOR');
  const path = await eventThroughTheForm(page, title, '3');
  const origin = new URL(page.url()).origin;
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, n) =>
      page.request
        .post(path, {
          form: { name: `Person ${n}`, email: `fifty-${n}-${RUN}@example.org`, phone: '', accessNeeds: '', website: '' },
          // Each from an address of its own, as 50 people would be (TRUST_PROXY=loopback).
          headers: { origin, 'x-forwarded-for': `198.51.100.${n + 1}` },
        })
        .then(async (response) => ({ status: response.status(), html: await response.text() })),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
  expect(answers.filter((a) => a.html.includes('You have a place!'))).toHaveLength(3);
  expect(answers.filter((a) => a.html.includes('You are on the waiting list'))).toHaveLength(47);
  const rows = await registrationsOf(database, title);
  expect(rows.filter((r) => r.status === 'confirmed')).toHaveLength(3);
  expect(rows.filter((r) => r.status === 'waiting')).toHaveLength(47);
  const event = await database
    .selectFrom('events')
    .select(['taken', 'capacity'])
    .where('title', '=', title)
    .executeTakeFirstOrThrow();
  expect(Number(event.taken)).toBe(3);
});

test.describe('events with JavaScript', () => {
  test.use({ viewport: MOBILE });

  test('with the page script at 375 px, the Luganda version screen and its editor are filled in and published; it and the Luganda event page: nothing axe finds serious', async ({
    page,
    signIn,
  }) => {
    const title = `Signs for nurses ${RUN}`;
    await signIn('EDITOR');
    await page.setViewportSize(DESKTOP);
    const path = await eventThroughTheForm(page, title, '8');
    await page.setViewportSize(MOBILE);
    await page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: title }) })
      .getByRole('link', { name: /^Edit/ })
      .click();
    await page.getByRole('region', { name: 'Languages' }).getByRole('link', { name: 'Add Luganda version' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Luganda version: ${title}`);
    await expect(page.getByRole('group', { name: 'Formatting' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Title' }).fill(`Obubonero bw’abasawo ${RUN}`);
    await page.getByRole('textbox', { name: 'Summary' }).fill('Yiga obubonero obusooka.');
    await page.getByRole('textbox', { name: 'Description' }).fill('Okulamusa n’obubonero bw’eddwaliro.');
    await page.getByRole('textbox', { name: 'Place' }).fill('Eddwaliro e Mulago');
    await expectNoA11yIssues(page);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/events\/[^/]+\/edit$/);
    await expect(page.getByText('Luganda version published.')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Languages' })).toContainText(/Luganda:\s*Published/);
    await page.context().clearCookies();
    await page.goto(`/lg${path}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Obubonero bw’abasawo ${RUN}`);
    await expect(page.getByText('Okulamusa n’obubonero bw’eddwaliro.')).toBeVisible();
    await expectNoA11yIssues(page);
  });

  test('staff see the attendees and waiting list, mark attendance, export and cancel the event; at 375 px', async ({
    page,
    signIn,
    database,
  }) => {
    const title = `Employers course ${RUN}`;
    await signIn('ADMIN');
    await page.setViewportSize(DESKTOP);
    const path = await eventThroughTheForm(page, title, '1');
    await page.setViewportSize(MOBILE);
    const request = page.context().request;
    const people: [string, string][] = [
      ['Mugisha Paul', `p1-${RUN}@example.org`],
      ['Atim Rose', `p2-${RUN}@example.org`],
    ];
    for (const [name, email] of people)
      await request.post(path, {
        form: { name, email, phone: '', accessNeeds: 'An interpreter, please', website: '' },
        headers: { origin: new URL(page.url()).origin },
      });
    expect((await registrationsOf(database, title)).map((r) => r.status)).toEqual(['confirmed', 'waiting']);

    // The public page and the list, by keyboard and axe, at 375 px.
    await page.goto(path);
    await expect(page.getByText('Full: join the waiting list (of 1)')).toBeVisible();
    await expectNoA11yIssues(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.goto('/events');
    await expectNoA11yIssues(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // The staff form passes axe and fits at 375 px too; its fields are reached by keyboard in order.
    await page.goto('/admin/events/new');
    await expect(page.getByRole('textbox', { name: 'Description', exact: true })).toBeVisible();
    await expectNoA11yIssues(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByRole('textbox', { name: 'Title', exact: true }).focus();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('textbox', { name: 'Summary' })).toBeFocused();

    // The page the server sends is the one the browser builds (no markup it must mend, such as a form in a paragraph).
    const pageErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await page.goto('/admin/events');
    await page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: title }) })
      .getByRole('link', { name: `Registrations for ${title}` })
      .click();
    await expect(page.getByRole('heading', { name: 'Attendees (1)' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Waiting list (1)' })).toBeVisible();
    await expectNoA11yIssues(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByRole('button', { name: 'Mark attended for Mugisha Paul' }).click();
    await expect(page.getByRole('button', { name: 'Attended ✓ for Mugisha Paul' })).toBeVisible();

    const download = await request.get(`${page.url().replace(/\/registrations$/, '')}/export`);
    const csv = await download.text();
    expect(csv).toContain('Mugisha Paul');
    expect(csv).toContain('Atim Rose');

    // A message is answered beside its form, on a phone's screen where the button was, and the form empties.
    const messageSection = page.getByRole('region', { name: 'Message everyone registered' });
    await messageSection.getByRole('textbox', { name: 'Subject' }).fill('Bring a notebook');
    await messageSection.getByRole('textbox', { name: 'Message' }).fill('Please bring a notebook and a pen.');
    await messageSection.getByRole('button', { name: 'Send message' }).click();
    await expect(messageSection.getByRole('status')).toHaveText('Message queued for 2 people.');
    await expect(messageSection.getByRole('status')).toBeInViewport();
    await expect(messageSection.getByRole('textbox', { name: 'Subject' })).toHaveValue('');
    await expect(messageSection.getByRole('textbox', { name: 'Message' })).toHaveValue('');

    const cancelSection = page.getByRole('region', { name: 'Cancel this event' });
    await cancelSection.getByRole('button', { name: 'Cancel event' }).click();
    await expect(cancelSection.getByRole('alert')).toContainText('Please tick the box');
    await expect(cancelSection.getByRole('checkbox')).toHaveAttribute('aria-invalid', 'true');
    await page.getByRole('checkbox', { name: 'Yes, cancel the event and tell everyone' }).check();
    await page.getByRole('button', { name: 'Cancel event' }).click();
    await expect(page.getByText(/The event is cancelled; 2 people are being told by email/)).toBeVisible();
    expect(pageErrors.filter((text) => /Minified React error|Hydration|did not match/i.test(text))).toEqual([]);
    await mailWith(`p2-${RUN}@example.org`, 'this event is cancelled');

    // A registrant's link then says the event is cancelled (not that the link does not work), and its button changes nothing.
    const placeMail = await mailWith(`p1-${RUN}@example.org`, 'Your place');
    const cancelLink = /https?:\/\/[^\s]+\/events\/cancel\/[A-Za-z0-9_-]{43}/.exec(decodeQuotedPrintable(placeMail.raw))![0];
    await page.goto(new URL(cancelLink).pathname);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This event is cancelled.');
    await expect(page.getByText('You do not need to do anything')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel my registration' })).toHaveCount(0);
    expect((await registrationsOf(database, title)).map((r) => r.status)).toEqual(['confirmed', 'waiting']);
  });
});
