import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { formatDate } from '../../app/lib/format';
import { accessRestrictedText, type Role } from '../../app/lib/permissions';
import { PROFILE_UPLOAD_MESSAGES } from '../../app/lib/uploads';
import { BIO_MAX, deleteConfirmText, resetSent, USER_MESSAGES, userCreated, userUpdated } from '../../app/lib/users';
import { pngBytes } from './content-fixtures';
import { E2E } from './env';
import { expect as baseExpect, test } from './fixtures';
import {
  resetLinkMailedTo,
  signInWithForm,
  STAFF_PASSWORD,
  superAdmin,
  unique,
  uniqueEmail,
  userByEmail,
  userRow,
} from './staff';
import { DESKTOP, expectNoA11yIssues, expectReflowAt320, holdScripts, MOBILE } from './support';

// Issue 4, items 4–7 and 9: the dashboard shell, User Management, profiles, Role Information and the
// audit log, as staff members meet them.

test.use({ viewport: DESKTOP });
// Journeys with several sign-ins and axe scans take a while when the machine is busy.
test.describe.configure({ timeout: 60_000 });
const expect = baseExpect.configure({ timeout: 10_000 });

/**
 * spec §6: each role's dashboard tabs, in order, and where they lead. Issue 23 groups them under
 * Content, People, Site and Team, so the super admin's User Management stands with the team's sections.
 * Issue 28 adds Analytics to Site; issue 26 adds Translations to Site for the Super Admin and Admins.
 */
const TABS: Record<Role, [string, string][]> = {
  SUPER_ADMIN: [
    ['Overview', '/admin/overview'],
    ['Manage Content', '/admin/content'],
    ['Add Story', '/admin/content/new/news'],
    ['Add Blog', '/admin/content/new/blogs'],
    ['Events', '/admin/events'],
    ['Messages', '/admin/messages'],
    ['Subscribers', '/admin/subscribers'],
    ['Services', '/admin/services'],
    ['Site settings', '/admin/settings'],
    ['Translations', '/admin/translations'],
    ['Analytics', '/admin/analytics'],
    ['User Management', '/admin/users'],
    ['Role Information', '/admin/roles'],
    ['Audit Log', '/admin/audit'],
  ],
  ADMIN: [
    ['Overview', '/admin/overview'],
    ['Manage Content', '/admin/content'],
    ['Add Story', '/admin/content/new/news'],
    ['Add Blog', '/admin/content/new/blogs'],
    ['Events', '/admin/events'],
    ['Messages', '/admin/messages'],
    ['Subscribers', '/admin/subscribers'],
    ['Services', '/admin/services'],
    ['Site settings', '/admin/settings'],
    ['Translations', '/admin/translations'],
    ['Analytics', '/admin/analytics'],
  ],
  EDITOR: [
    ['Overview', '/admin/overview'],
    ['Manage Content', '/admin/content'],
    ['Add Story', '/admin/content/new/news'],
    ['Add Blog', '/admin/content/new/blogs'],
    ['Events', '/admin/events'],
    ['Services', '/admin/services'],
    ['Analytics', '/admin/analytics'],
  ],
  AUTHOR: [
    ['Overview', '/admin/overview'],
    ['Add Story', '/admin/content/new/news'],
    ['Add Blog', '/admin/content/new/blogs'],
    ['Events', '/admin/events'],
  ],
  VIEWER: [['Overview', '/admin/overview']],
};

const tabs = (page: Page) => page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link');
/** The user cards of the Manage Users view. */
const cards = (page: Page) =>
  page
    .getByRole('main')
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 2 }) });
const cardOf = (page: Page, email: string) => cards(page).filter({ hasText: email });

/**
 * Waits for the user form's scripts: from then on a chosen picture uploads at once and the form
 * checks its fields itself (before, the file input is an ordinary field of the form).
 */
async function formReady(page: Page) {
  await expect(page.locator('#profilePictureFile')).not.toHaveAttribute('name');
}

async function expectBanner(page: Page, message: string) {
  await expect(page.getByRole('main').getByText(message, { exact: true })).toBeVisible();
}

test.describe('dashboard shell', () => {
  for (const role of Object.keys(TABS) as Role[]) {
    test(`${role}: lands on the overview and sees its tabs, welcome and Logout`, async ({ page, signIn }) => {
      // Through the sign-in screen: where it lands is part of the journey. (A role's new account,
      // or the real super admin, whose account a second one could not be.)
      const user = await signIn(role === 'SUPER_ADMIN' ? superAdmin() : role, { via: 'form' });
      await expect(page).toHaveURL(`${E2E.baseURL}${TABS[role][0]![1]}`);
      await expect(page.getByText(`Welcome, ${user.name}`)).toBeVisible();
      await expect(page.getByRole('banner').getByText(user.email)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
      // The Messages tab also says how many messages are unread.
      await expect(tabs(page)).toHaveText(TABS[role].map(([label]) => new RegExp(`^${label}`)));
      for (const [index, [, href]] of TABS[role].entries()) await expect(tabs(page).nth(index)).toHaveAttribute('href', href);
      await expect(tabs(page).first()).toHaveAttribute('aria-current', 'page');
      if (role === 'VIEWER') await expectNoA11yIssues(page);
    });
  }

  test('every section names itself first in the page title, and so do a refusal and a missing page', async ({ page, signIn }) => {
    await signIn(superAdmin());
    const titles: string[] = [];
    for (const [label, href] of TABS.SUPER_ADMIN) {
      await page.goto(href);
      // User Management opens on its list of users, whose heading is System Users.
      await expect(page, href).toHaveTitle(`${label === 'User Management' ? 'System Users' : label} | TDG Uganda`);
      titles.push(await page.title());
    }
    expect(new Set(titles).size).toBe(titles.length);

    // A screen about one item says which: the first story's editor.
    await page.goto('/admin/content?type=news');
    const edit = page.getByRole('main').getByRole('link', { name: /^Edit/ }).first();
    await edit.click();
    await expect(page.getByRole('heading', { level: 1, name: /^Edit Story/ })).toBeVisible();
    const storyTitle = await page.locator('input[name=title]').inputValue();
    expect(storyTitle).not.toBe('');
    await expect(page).toHaveTitle(`Edit Story: ${storyTitle} | TDG Uganda`);

    expect((await page.goto('/admin/no-such-screen'))?.status()).toBe(404);
    await expect(page).toHaveTitle('Page Not Found | TDG Uganda');
    // A second super admin may not edit the first: the screen says so, in its heading and its title.
    await page.context().clearCookies();
    await signIn('SUPER_ADMIN');
    expect((await page.goto(`/admin/users/${superAdmin().id}/edit`))?.status()).toBe(403);
    await expect(page.getByRole('heading', { level: 1, name: 'Access Restricted' })).toBeVisible();
    await expect(page).toHaveTitle('Access Restricted | TDG Uganda');
    await page.context().clearCookies();
    await signIn('VIEWER');
    expect((await page.goto('/admin/audit'))?.status()).toBe(403);
    await expect(page.getByRole('heading', { level: 1, name: 'Access Restricted' })).toBeVisible();
    await expect(page).toHaveTitle('Access Restricted | TDG Uganda');
  });

  // Two journeys, so that the two halves of the sweep run side by side.
  test('every section of the super admin passes axe at phone width and fits 320 px', async ({ page, signIn }) => {
    await signIn(superAdmin());
    await page.setViewportSize(MOBILE);
    for (const [, path] of TABS.SUPER_ADMIN) {
      expect((await page.goto(path))?.status(), path).toBe(200);
      await expectNoA11yIssues(page);
      await expectReflowAt320(page, path);
    }
  });

  test("the screens of one story, event, service and user, and one's own, pass axe at phone width and fit 320 px", async ({
    page,
    signIn,
    staff,
    database,
  }) => {
    await signIn(superAdmin());
    await page.setViewportSize(MOBILE);
    const story = await database.selectFrom('content').select('id').where('collection', '=', 'news').executeTakeFirstOrThrow();
    const event = await database.selectFrom('events').select('id').executeTakeFirstOrThrow();
    const service = await database.selectFrom('services').select('id').executeTakeFirstOrThrow();
    const user = await staff('EDITOR');
    for (const path of [
      `/admin/content/${story.id}/edit`,
      `/admin/content/${story.id}/history`,
      `/admin/content/${story.id}/versions`,
      `/admin/events/${event.id}/edit`,
      `/admin/events/${event.id}/registrations`,
      `/admin/services/${service.id}/edit`,
      `/admin/services/${service.id}/versions/lg`,
      `/admin/users/${user.id}/edit`,
      '/admin/users/new',
      '/admin/profile',
      '/admin/security',
    ]) {
      expect((await page.goto(path))?.status(), path).toBe(200);
      await expectNoA11yIssues(page);
      await expectReflowAt320(page, path);
    }
  });

  test('tabs are addresses: reload and Back keep the tab', async ({ page, signIn }) => {
    await signIn(superAdmin());
    await page.goto('/admin/users');
    await expect(tabs(page).filter({ hasText: 'User Management' })).toHaveAttribute('aria-current', 'page');
    await tabs(page).filter({ hasText: 'Role Information' }).click();
    await expect(page).toHaveURL(`${E2E.baseURL}/admin/roles`);
    await expect(page.getByRole('heading', { level: 1, name: 'Role Information' })).toBeVisible();
    // Each role says in plain words what it may do, beyond the spec's permission names: an Admin reads
    // the inbox and exports subscribers, an Editor exports attendee lists; a Viewer does neither.
    const card = (label: string) =>
      page
        .getByRole('main')
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { level: 2, name: new RegExp(`^${label}\\b`) }) });
    await expect(card('Admin')).toContainText('Read, answer, export and delete contact messages and applications');
    await expect(card('Admin')).toContainText('Search, export and erase newsletter subscribers');
    await expect(card('Editor')).toContainText('See and export attendee lists');
    await expect(card('Editor')).not.toContainText('contact messages');
    await expect(card('Viewer')).not.toContainText('export');
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Role Information' })).toBeVisible();
    await expect(tabs(page).filter({ hasText: 'Role Information' })).toHaveAttribute('aria-current', 'page');
    await tabs(page).filter({ hasText: 'Audit Log' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(`${E2E.baseURL}/admin/roles`);
    await expect(tabs(page).filter({ hasText: 'Role Information' })).toHaveAttribute('aria-current', 'page');
    await page.goBack();
    await expect(page).toHaveURL(`${E2E.baseURL}/admin/users`);
    await expect(page.getByRole('heading', { level: 1, name: /^System Users/ })).toBeVisible();
  });

  test('the sections stand under headings; on a phone they fold into a menu that works by keyboard', async ({ page, signIn }) => {
    await signIn(superAdmin());
    await page.goto('/admin/messages');
    const sidebar = page.getByRole('navigation', { name: 'Dashboard sections' });
    for (const [group, first] of [
      ['Content', 'Manage Content'],
      ['People', 'Messages'],
      ['Site', 'Services'],
      ['Team', 'User Management'],
    ] as const)
      await expect(sidebar.getByRole('list', { name: group }).getByRole('link').first()).toHaveText(new RegExp(`^${first}`));

    await page.setViewportSize(MOBILE);
    const menu = page.getByRole('navigation', { name: 'Dashboard sections' });
    await expect(menu.getByRole('link', { name: 'Audit Log' })).toBeHidden();
    const summary = menu.locator('summary');
    await expect(summary).toHaveText(/Dashboard menu: Messages/);
    // Keyboard: Tab to the menu, open it with Enter, reach a section and follow it.
    await summary.focus();
    await page.keyboard.press('Enter');
    const audit = menu.getByRole('link', { name: 'Audit Log' });
    await expect(audit).toBeVisible();
    await audit.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
    await expect(summary).toHaveText(/Dashboard menu: Audit Log/);
    // Chosen, the menu folds again, so the page is in view.
    await expect(menu.getByRole('link', { name: 'Audit Log' })).toBeHidden();
    // Nothing scrolls sideways at 375 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await expectNoA11yIssues(page);
  });

  test('a section the role cannot use says Access Restricted, with 403 and no data', async ({ page, signIn }) => {
    await signIn('VIEWER');
    for (const path of ['/admin/users', '/admin/users/roles', '/admin/roles', '/admin/audit']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(403);
      await expect(page.getByRole('heading', { name: 'Access Restricted' })).toBeVisible();
      await expect(page.getByText(accessRestrictedText('VIEWER'), { exact: true })).toBeVisible();
      expect(await page.content()).not.toContain(E2E.adminEmail);
    }
    await expectNoA11yIssues(page);
    await page.getByRole('link', { name: 'Return to Dashboard' }).click();
    await expect(page).toHaveURL(`${E2E.baseURL}/admin/overview`);

    await page.context().clearCookies();
    await signIn('EDITOR');
    const response = await page.goto('/admin/users');
    expect(response?.status()).toBe(403);
    await expect(page.getByText(accessRestrictedText('EDITOR'), { exact: true })).toBeVisible();
  });

  test('Role Information lists every role with its permissions and sections', async ({ page, signIn }) => {
    await signIn(superAdmin());
    await page.goto('/admin/roles');
    const roles = page.getByRole('main').getByRole('heading', { level: 2 });
    await expect(roles).toHaveText(['Super Admin SUPER_ADMIN', 'Admin ADMIN', 'Editor EDITOR', 'Author AUTHOR', 'Viewer VIEWER']);
    const author = page
      .getByRole('main')
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Author AUTHOR' }) });
    await expect(author).toContainText('content_create');
    await expect(author).toContainText('content_view');
    await expect(author).not.toContainText('content_delete');
    await expect(author).toContainText('Add Story, Add Blog');
    await expectNoA11yIssues(page);
  });
});

test.describe('user management (super admin)', () => {
  test('lists every user newest first, with the You badge, role badges and dates', async ({ page, staff, signIn }) => {
    const editor = await staff('EDITOR', { bio: 'Writes our stories from Mukono.' });
    await signIn(superAdmin());
    await page.goto('/admin/users');
    const heading = page.getByRole('heading', { level: 1, name: /^System Users \(\d+\)$/ });
    await expect(heading).toBeVisible();
    const count = Number((await heading.textContent())!.match(/\((\d+)\)/)![1]);
    await expect(cards(page)).toHaveCount(count);

    const mine = cardOf(page, E2E.adminEmail);
    await expect(mine.getByText('You', { exact: true })).toBeVisible();
    await expect(mine.getByText('SUPER_ADMIN', { exact: true })).toBeVisible();
    await expect(mine.getByRole('button', { name: /Delete/ })).toHaveCount(0);
    await expect(mine.getByRole('button', { name: /Send password reset/ })).toHaveCount(0);
    await expect(mine.getByRole('link', { name: /^Edit/ })).toHaveAttribute('href', '/admin/profile');
    await expect(mine).toContainText(`Last login${formatDate(new Date().toISOString(), 'short')}`);

    const theirs = cardOf(page, editor.email);
    await expect(theirs.getByRole('heading', { level: 2 })).toHaveText(editor.name);
    await expect(theirs.getByText('You', { exact: true })).toHaveCount(0);
    await expect(theirs.getByText('EDITOR', { exact: true })).toBeVisible();
    await expect(theirs).toContainText('Writes our stories from Mukono.');
    await expect(theirs).toContainText(`Created${formatDate(new Date().toISOString(), 'short')}`);
    await expect(theirs).toContainText('Last loginNever');
    await expect(theirs.getByRole('button', { name: `Delete ${editor.name}` })).toBeVisible();

    const order = await cards(page).allTextContents();
    const position = (email: string) => order.findIndex((text) => text.includes(email));
    expect(position(editor.email)).toBeGreaterThanOrEqual(0);
    expect(position(editor.email)).toBeLessThan(position(E2E.adminEmail));
    await expectNoA11yIssues(page);
  });

  test('creates a user with a profile picture', async ({ page, staff, signIn }) => {
    const name = `Nakato ${unique()}`;
    const email = staff.track(uniqueEmail('nakato'));
    await signIn(superAdmin());
    await page.goto('/admin/users');
    await page.getByRole('link', { name: 'Add New User' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Add New User' })).toBeVisible();
    await formReady(page);
    await expectNoA11yIssues(page);

    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Email').fill(email.toUpperCase());
    await expect(page.getByLabel('Role')).toHaveValue('VIEWER');
    await page.getByLabel('Role').selectOption('AUTHOR');
    await page.getByLabel('Bio').fill('Sign language interpreter.');
    await expect(page.getByText('26/500')).toBeVisible();
    // A connection lost on the way says so in the spec's words (§8), not the browser's ("Failed to fetch").
    await page.route('**/admin/uploads/profile', (route) => route.abort('internetdisconnected'), { times: 1 });
    await page
      .getByLabel('Choose a picture')
      .setInputFiles({ name: 'nakato.png', mimeType: 'image/png', buffer: await pngBytes(800) });
    await expect(page.getByText(PROFILE_UPLOAD_MESSAGES.failed)).toBeVisible();
    await page
      .getByLabel('Choose a picture')
      .setInputFiles({ name: 'nakato.png', mimeType: 'image/png', buffer: await pngBytes(800) });
    await expect(page.getByRole('button', { name: 'Remove picture' })).toBeVisible();
    await expect(page.getByText(PROFILE_UPLOAD_MESSAGES.failed)).toHaveCount(0);
    await expect(page.getByText('Change picture')).toBeVisible();
    await page.getByLabel(/^Password/).fill(STAFF_PASSWORD);
    await page.getByRole('button', { name: 'Create User' }).click();

    await expect(page).toHaveURL(`${E2E.baseURL}/admin/users`);
    await expectBanner(page, userCreated(name));
    const card = cardOf(page, email);
    await expect(card.getByText('AUTHOR', { exact: true })).toBeVisible();
    await expect(card).toContainText('Sign language interpreter.');
    const src = await card.locator('img').getAttribute('src');
    expect(src).toMatch(/^\/media\/profiles\/[0-9a-f]{32}_nakato[\w.-]*\.webp$/);
    const picture = await page.request.get(src!);
    expect(picture.headers()['content-type']).toBe('image/webp');
    const meta = await sharp(await picture.body()).metadata();
    expect(meta.width).toBeLessThanOrEqual(400);

    expect(userByEmail(email)).toMatchObject({ name, role: 'AUTHOR', profile_picture: src });
    // The new account signs in with the password it was given.
    const context = await page.context().browser()!.newContext({ viewport: DESKTOP });
    try {
      await signInWithForm(await context.newPage(), { email, password: STAFF_PASSWORD, role: 'AUTHOR' });
    } finally {
      await context.close();
    }
  });

  test("what is typed before the page's script runs stays in the form once it does", async ({ page, signIn }) => {
    await signIn(superAdmin());
    // A slow connection: the page is there, its scripts are not yet.
    const release = await holdScripts(page);
    await page.goto('/admin/users/new', { waitUntil: 'commit' });
    await page.getByLabel('Name').fill('Grace Achieng');
    await page.getByLabel('Bio').fill('Interpreter in Lira');
    release();
    await formReady(page);
    await page.unrouteAll();
    // The script's first change of the form (the bio's count) keeps what was typed in every field.
    await page.getByLabel('Bio').press('End');
    await page.getByLabel('Bio').pressSequentially('.');
    await expect(page.getByLabel('Bio')).toHaveValue('Interpreter in Lira.');
    await expect(page.getByText(`${'Interpreter in Lira.'.length}/${BIO_MAX}`)).toBeVisible();
    await expect(page.getByLabel('Name')).toHaveValue('Grace Achieng');
  });

  test('the picture uploader refuses files that are not pictures or are too big', async ({ page, signIn }) => {
    await signIn(superAdmin());
    await page.goto('/admin/users/new');
    await formReady(page);
    const chooser = page.getByLabel('Choose a picture');

    // A text file renamed .png passes the browser's type check; the server decodes it and refuses.
    await chooser.setInputFiles({
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('These are meeting notes, not a picture.'),
    });
    await expect(page.getByRole('alert').filter({ hasText: PROFILE_UPLOAD_MESSAGES.type })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Remove picture' })).toHaveCount(0);

    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.accept();
    });
    await chooser.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('plain text') });
    await expect.poll(() => alerts).toEqual([PROFILE_UPLOAD_MESSAGES.type]);
    await chooser.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(2_200_000, 1) });
    await expect.poll(() => alerts).toEqual([PROFILE_UPLOAD_MESSAGES.type, PROFILE_UPLOAD_MESSAGES.size]);

    // The server checks again, whatever the browser let through.
    const fake = await page.request.post('/admin/uploads/profile', {
      multipart: { file: { name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('GIF89a but not really') } },
    });
    expect(fake.status()).toBe(400);
    expect(await fake.json()).toEqual({ error: PROFILE_UPLOAD_MESSAGES.type });
    const huge = await page.request.post('/admin/uploads/profile', {
      multipart: { file: { name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(3 * 1024 * 1024, 1) } },
    });
    expect(huge.status()).toBe(413);
    expect(await huge.json()).toEqual({ error: PROFILE_UPLOAD_MESSAGES.size });
  });

  test('the user form refuses missing fields, short, taken and common passwords', async ({ page, staff, signIn }) => {
    const existing = await staff('VIEWER');
    const email = staff.track(uniqueEmail('refused'));
    await signIn(superAdmin());
    await page.goto('/admin/users/new');
    const create = page.getByRole('button', { name: 'Create User' });
    const alert = (message: string) => page.getByRole('alert').filter({ hasText: message });
    await formReady(page);

    await create.click();
    await expect(alert(USER_MESSAGES.required)).toBeVisible();
    // The field it is about has the focus and says so (on a phone the banner is above the screen).
    await expect(page.getByLabel('Name')).toBeFocused();
    await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel('Name').fill('Okello Refused');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel(/^Password/).fill('abc');
    await create.click();
    await expect(alert(USER_MESSAGES.passwordShort)).toBeVisible();
    await expect(page.getByLabel(/^Password/)).toBeFocused();

    await page.getByLabel(/^Password/).fill('password123');
    await create.click();
    await expect(alert(USER_MESSAGES.commonPassword)).toBeVisible();
    await expect(page).toHaveURL(`${E2E.baseURL}/admin/users/new`);

    await page.getByLabel('Email').fill(existing.email);
    await page.getByLabel(/^Password/).fill(STAFF_PASSWORD);
    await create.click();
    await expect(alert(USER_MESSAGES.alreadyExists)).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Email')).toBeFocused();
    await expectNoA11yIssues(page);

    expect(userByEmail(email)).toBeUndefined();
    expect(userRow(existing.id)).toMatchObject({ name: existing.name, role: 'VIEWER' });
  });

  test('edits another user: email locked, role changed, and the change is in the audit log', async ({ page, staff, signIn }) => {
    const target = await staff('VIEWER');
    await signIn(superAdmin());
    await page.goto('/admin/users');
    await page.getByRole('link', { name: `Edit ${target.name}` }).click();
    await expect(page).toHaveURL(`${E2E.baseURL}/admin/users/${target.id}/edit`);
    await expect(page.getByRole('heading', { level: 1, name: 'Edit User' })).toBeVisible();
    const email = page.getByLabel('Email');
    await expect(email).toHaveValue(target.email);
    await expect(email).toHaveAttribute('readonly', '');
    await expect(page.getByText(USER_MESSAGES.emailImmutable)).toBeVisible();
    await expect(page.getByLabel(/^Password/)).toHaveCount(0);
    await expect(page.getByLabel('Role').locator('option')).toHaveText([
      'Admin (ADMIN)',
      'Editor (EDITOR)',
      'Author (AUTHOR)',
      'Viewer (VIEWER)',
    ]);
    await expectNoA11yIssues(page);

    await page.getByLabel('Role').selectOption('EDITOR');
    await page.getByLabel('Bio').fill('Now edits the stories.');
    await page.getByRole('button', { name: 'Update User' }).click();
    await expect(page).toHaveURL(`${E2E.baseURL}/admin/users`);
    await expectBanner(page, userUpdated(target.name));
    await expect(cardOf(page, target.email).getByText('EDITOR', { exact: true })).toBeVisible();
    expect(userRow(target.id)).toMatchObject({ role: 'EDITOR', email: target.email, bio: 'Now edits the stories.' });

    await page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: 'Audit Log' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: target.email }).filter({ hasText: 'User updated' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('role: VIEWER → EDITOR');
    await expect(row).toContainText(E2E.adminEmail);
    await expect(row).toContainText('127.0.0.1');
    await expectNoA11yIssues(page);
  });

  test('sends a password reset to another user', async ({ page, staff, signIn }) => {
    const target = await staff('AUTHOR');
    await signIn(superAdmin());
    await page.goto('/admin/users');
    await page.getByRole('button', { name: `Send password reset to ${target.name}` }).click();
    await expectBanner(page, resetSent(target.email));
    await resetLinkMailedTo(target.email);
  });

  test('says so, in the spec’s words, when a reset or delete finds the user already gone (§8)', async ({
    page,
    staff,
    signIn,
  }) => {
    const target = await staff('AUTHOR');
    await signIn(superAdmin());
    await page.goto('/admin/users');
    const reset = page.getByRole('button', { name: `Send password reset to ${target.name}` });
    await expect(reset).toBeVisible();
    // Deleted in another tab meanwhile; this page still shows them.
    expect((await page.request.post(`/admin/users/${target.id}/delete`, { maxRedirects: 0 })).status()).toBe(302);
    expect(userRow(target.id)).toBeUndefined();
    await reset.click();
    await expectBanner(page, USER_MESSAGES.resetFailed);

    await page.goto('/admin/users');
    await expect(page.getByRole('button', { name: `Delete ${target.name}` })).toHaveCount(0);
    // The delete confirmation asked for on a page opened before.
    const answer = await page.request.post(`/admin/users/${target.id}/delete`, { maxRedirects: 0 });
    expect(answer.status()).toBe(302);
    expect(answer.headers()['location']).toBe('/admin/users');
    await page.goto('/admin/users');
    await expectBanner(page, USER_MESSAGES.deleteFailed);
  });

  test('deletes a user after a confirmation naming them', async ({ page, staff, signIn }) => {
    const target = await staff('EDITOR');
    await signIn(superAdmin());
    const question = deleteConfirmText(target.name, target.email);
    expect(question).toContain('This action cannot be undone.');
    // The confirmation page used without JavaScript.
    await page.goto(`/admin/users/${target.id}/delete`);
    await expect(page.getByRole('heading', { level: 1, name: 'Confirm delete' })).toBeVisible();
    await expectNoA11yIssues(page);
    await page.goto('/admin/users');

    await page.getByRole('button', { name: `Delete ${target.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm delete' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(question, { exact: true })).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect(userRow(target.id)).toBeDefined();

    await expectNoA11yIssues(page);
    await page.getByRole('button', { name: `Delete ${target.name}` }).click();
    await expect(dialog).toBeVisible();
    await expectNoA11yIssues(page);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expectBanner(page, USER_MESSAGES.deleted);
    await expect(cardOf(page, target.email)).toHaveCount(0);
    expect(userRow(target.id)).toBeUndefined();
  });

  test('every user edits their own profile, but never their role', async ({ page, signIn }) => {
    const me = await signIn('VIEWER');
    const newName = `Akello ${unique()}`;
    await page.goto('/admin/overview');
    await page.getByRole('link', { name: 'My profile' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'My profile' })).toBeVisible();
    await expect(page.getByLabel('Role')).toBeDisabled();
    await expect(page.getByText('You cannot change your own role.')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveAttribute('readonly', '');
    await expectNoA11yIssues(page);

    await page.getByLabel('Name').fill(newName);
    await page.getByLabel('Bio').fill('Deaf rights advocate in Gulu.');
    await page.getByRole('button', { name: 'Update User' }).click();
    await expect(page).toHaveURL(`${E2E.baseURL}/admin/overview`);
    await expectBanner(page, userUpdated(newName));
    await expect(page.getByText(`Welcome, ${newName}`)).toBeVisible();
    expect(userRow(me.id)).toMatchObject({ name: newName, bio: 'Deaf rights advocate in Gulu.', role: 'VIEWER' });
  });

  test('only the super admin may open Add New User', async ({ page, signIn }) => {
    await signIn('ADMIN');
    const response = await page.goto('/admin/users/new');
    expect(response?.status()).toBe(403);
    await expect(page.getByText(USER_MESSAGES.onlySuperAdminCreates, { exact: true })).toBeVisible();
    await expect(page.getByLabel(/^Password/)).toHaveCount(0);
    await expect(page).toHaveTitle('Access Restricted | TDG Uganda');
    await expectNoA11yIssues(page);
  });

  test.describe('at 375 px', () => {
    test.use({ viewport: MOBILE });

    test('the users list fits the screen and has no accessibility issues', async ({ page, signIn }) => {
      await signIn(superAdmin());
      await page.goto('/admin/users');
      await expect(cardOf(page, E2E.adminEmail)).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectNoA11yIssues(page);
    });
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('deleting goes through a confirmation page', async ({ page, staff, signIn }) => {
      const target = await staff('AUTHOR');
      await signIn(superAdmin());
      await page.goto('/admin/users');
      await expect(cardOf(page, E2E.adminEmail).getByRole('link', { name: /Delete/ })).toHaveCount(0);
      await page.getByRole('link', { name: `Delete ${target.name}` }).click();
      await expect(page).toHaveURL(`${E2E.baseURL}/admin/users/${target.id}/delete`);
      await expect(page.getByRole('heading', { level: 1, name: 'Confirm delete' })).toBeVisible();
      await expect(page.getByText(deleteConfirmText(target.name, target.email), { exact: true })).toBeVisible();
      await page.getByRole('button', { name: 'Delete' }).click();
      await expect(page).toHaveURL(`${E2E.baseURL}/admin/users`);
      await expectBanner(page, USER_MESSAGES.deleted);
      expect(userRow(target.id)).toBeUndefined();
    });
  });
});
