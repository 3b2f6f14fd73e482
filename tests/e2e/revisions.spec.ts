import type { Page } from '@playwright/test';
import { publishedMessage } from '../../app/lib/content-form';
import { REVISION_MESSAGES } from '../../app/lib/revisions';
import { DEFAULT_TIME_ZONE } from '../../app/lib/schedule';
import { settingKey } from '../../app/lib/site-settings';
import type { Database } from '../../app/server/db/schema';
import type { Kysely } from 'kysely';
import { expect, test } from './fixtures';
import { unique } from './staff';
import { DESKTOP, expectNoA11yIssues, holdScripts, MOBILE } from './support';

// Issue 13, revisions and autosave (docs/decisions/016-revisions-and-autosave.md): every save is kept
// in the item's History, a version opens rendered with a word comparison against the current text,
// Restore fills the form and saving it adds a version; the form keeps unsaved changes, offers them
// back after a reload, forgets them on Discard, and asks before leaving. Both engines.

test.use({ viewport: DESKTOP });

const BODY_WORDS = 'Deaf and hard-of-hearing young people in Kampala met employers to talk about inclusive hiring.';

/** The organisation's time zone (a site setting), in which staff see times; escaped for a RegExp. */
async function zoneOf(database: Kysely<Database>): Promise<string> {
  const row = await database.selectFrom('settings').select('value').where('key', '=', settingKey('timeZone')).executeTakeFirst();
  const zone = row ? (JSON.parse(row.value) as string) : DEFAULT_TIME_ZONE;
  return zone.replace(/[/+]/g, (c) => `\\${c}`);
}

const editor = (page: Page) => page.getByRole('textbox', { name: 'Content' });
const titleField = (page: Page) => page.getByRole('textbox', { name: /^Title/ });

async function openNewStory(page: Page) {
  await page.goto('/admin/content/new/news');
  await expect(page.getByRole('group', { name: 'Formatting' })).toBeVisible();
}

async function save(page: Page, button: 'Publish' | 'Update', message: string) {
  await page.getByRole('button', { name: button, exact: true }).click();
  const toast = page.getByRole('button', { name: message });
  await expect(toast).toBeVisible();
  await toast.click();
}

test.describe('revision history', () => {
  test('publish and two updates are three versions; one opens with a comparison; restoring it adds a fourth', async ({
    page,
    signIn,
    database,
  }) => {
    test.setTimeout(120_000);
    const editorUser = await signIn('EDITOR');
    const tag = `r${unique()}`;
    const first = `Captioned lessons ${tag}`;
    let id: string | undefined;
    try {
      await openNewStory(page);
      await titleField(page).fill(first);
      await page.getByLabel('Category').selectOption({ index: 1 });
      await page.getByRole('textbox', { name: /^Summary/ }).fill('Lessons with captions.');
      await editor(page).click();
      await page.keyboard.type(BODY_WORDS);
      await save(page, 'Publish', publishedMessage('news', 'create'));
      await expect
        .poll(async () => (await database.selectFrom('content').select('id').where('title', '=', first).executeTakeFirst())?.id)
        .toBeTruthy();
      id = (await database.selectFrom('content').select('id').where('title', '=', first).executeTakeFirstOrThrow()).id;

      await page.goto(`/admin/content/${id}/edit`);
      await titleField(page).fill(`Captioned classes ${tag}`);
      await save(page, 'Update', publishedMessage('news', 'edit'));
      await titleField(page).fill(`Captioned classes for everyone ${tag}`);
      await save(page, 'Update', publishedMessage('news', 'edit'));

      await page.getByRole('link', { name: 'History' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();
      const versions = page.getByRole('list', { name: 'Saved versions, newest first' }).getByRole('listitem');
      await expect(versions).toHaveCount(3);
      await expect(versions.nth(0)).toContainText(`Updated by ${editorUser.name}`);
      await expect(versions.nth(1)).toContainText(`Updated by ${editorUser.name}`);
      await expect(versions.nth(2)).toContainText(`Published by ${editorUser.name}`);
      await expect(versions.nth(2).locator('time')).toHaveText(
        new RegExp(`\\d{4} at \\d{1,2}:\\d{2} [AP]M \\(${await zoneOf(database)}\\)$`),
      );
      await expectNoA11yIssues(page);
      await page.setViewportSize(MOBILE);
      await expectNoA11yIssues(page);
      await page.setViewportSize(DESKTOP);

      // The first version, as the page showed it, compared word by word with the current text.
      await versions
        .nth(2)
        .getByRole('link', { name: /^View version 1/ })
        .click();
      await expect(page.getByRole('heading', { level: 1, name: `Version 1: Published by ${editorUser.name}` })).toBeVisible();
      const comparison = page.getByRole('region', { name: 'Compared with the current text' });
      await expect(comparison.locator('del').filter({ hasText: 'lessons' })).toBeVisible();
      await expect(comparison.locator('ins').filter({ hasText: 'classes for everyone' })).toBeVisible();
      // Not by colour alone: the change is named for screen readers and struck through or underlined.
      await expect(comparison.locator('del').filter({ hasText: 'lessons' })).toContainText('[deleted:');
      await expect(comparison.locator('del').first()).toHaveCSS('text-decoration-line', 'line-through');
      await expect(comparison.locator('ins').first()).toHaveCSS('text-decoration-line', 'underline');
      const rendered = page.getByRole('region', { name: 'This version as the page shows it' });
      await expect(rendered).toContainText(first);
      await expect(rendered).toContainText(BODY_WORDS);
      await expectNoA11yIssues(page);
      await page.setViewportSize(MOBILE);
      await expectNoA11yIssues(page);
      await page.setViewportSize(DESKTOP);

      // Restore fills the form; nothing changes until Update.
      await page.getByRole('link', { name: 'Restore this version' }).click();
      await expect(page).toHaveURL(new RegExp(`/admin/content/${id}/edit\\?restore=`));
      await expect(
        page.getByRole('status').filter({ hasText: /^Restored from .+ — not published until you press Update$/ }),
      ).toBeVisible();
      await expect(titleField(page)).toHaveValue(first);
      expect((await database.selectFrom('content').select('title').where('id', '=', id).executeTakeFirstOrThrow()).title).toBe(
        `Captioned classes for everyone ${tag}`,
      );
      await save(page, 'Update', publishedMessage('news', 'edit'));
      await expect(page).toHaveURL(new RegExp(`/admin/content/${id}/edit$`));
      await expect(page.getByText(/^Restored from/)).toHaveCount(0);
      expect((await database.selectFrom('content').select('title').where('id', '=', id).executeTakeFirstOrThrow()).title).toBe(
        first,
      );

      // A fourth version; the first three are as they were.
      const stored = await database
        .selectFrom('content_revisions')
        .select(['number', 'snapshot'])
        .where('content_id', '=', id)
        .orderBy('number')
        .execute();
      expect(stored.map((r) => [Number(r.number), (JSON.parse(r.snapshot) as { title: string }).title])).toEqual([
        [1, first],
        [2, `Captioned classes ${tag}`],
        [3, `Captioned classes for everyone ${tag}`],
        [4, first],
      ]);
      await page.getByRole('link', { name: 'History' }).click();
      await expect(versions).toHaveCount(4);
    } finally {
      if (id) await database.deleteFrom('content').where('id', '=', id).execute();
    }
  });

  test('history is for those who may edit the item', async ({ staffRequest, database, signIn, page }) => {
    const tag = `r${unique()}`;
    await signIn('EDITOR');
    const title = `Sign language week ${tag}`;
    let id: string | undefined;
    try {
      await openNewStory(page);
      await titleField(page).fill(title);
      await page.getByLabel('Category').selectOption({ index: 1 });
      await page.getByRole('textbox', { name: /^Summary/ }).fill('A week of signing.');
      await editor(page).click();
      await page.keyboard.type(BODY_WORDS);
      await save(page, 'Publish', publishedMessage('news', 'create'));
      await expect
        .poll(async () => (await database.selectFrom('content').select('id').where('title', '=', title).executeTakeFirst())?.id)
        .toBeTruthy();
      id = (await database.selectFrom('content').select('id').where('title', '=', title).executeTakeFirstOrThrow()).id;
      const revision = await database
        .selectFrom('content_revisions')
        .select('id')
        .where('content_id', '=', id)
        .executeTakeFirstOrThrow();

      for (const role of ['VIEWER', 'AUTHOR'] as const) {
        const { request } = await staffRequest(role);
        for (const path of [`/admin/content/${id}/history`, `/admin/content/${id}/history/${revision.id}`])
          expect((await request.get(path)).status(), `${role} ${path}`).toBe(403);
        const autosave = await request.post('/admin/content/autosave', { multipart: { intent: 'save', slot: id, title: 'x' } });
        expect(autosave.status(), `${role} autosave`).toBe(403);
      }
      const { request } = await staffRequest('EDITOR');
      expect((await request.get(`/admin/content/${id}/history`)).status()).toBe(200);
      expect((await request.get(`/admin/content/${id}/history/${revision.id}`)).status()).toBe(200);
      // The autosave endpoint checks what it is sent: an intent, a slot it knows.
      expect((await request.post('/admin/content/autosave', { multipart: { slot: id, title: 'x' } })).status()).toBe(400);
      expect((await request.get('/admin/content/autosave?slot=new-resources')).status()).toBe(404);
      const unknown = await request.post('/admin/content/autosave', {
        multipart: { intent: 'save', slot: `gone-${tag}`, title: 'x' },
      });
      expect(unknown.status()).toBe(404);
      const kept = await request.post('/admin/content/autosave', { multipart: { intent: 'save', slot: id, title: 'Kept' } });
      expect(kept.status()).toBe(200);
      const slot = await request.get(`/admin/content/autosave?slot=${id}`);
      expect(await slot.json()).toMatchObject({ timeZone: expect.any(String), saved: { values: { title: 'Kept' } } });
      // A revision of another item, or none, is not found.
      expect((await request.get(`/admin/content/${id}/history/00000000-0000-4000-8000-000000000000`)).status()).toBe(404);
    } finally {
      if (id) await database.deleteFrom('content').where('id', '=', id).execute();
    }
  });
});

test.describe('autosave', () => {
  test('unsaved changes come back after a reload, Discard forgets them, and leaving asks first', async ({
    page,
    signIn,
    database,
  }) => {
    test.setTimeout(120_000);
    const user = await signIn('EDITOR');
    const tag = `a${unique()}`;
    const typed = `Unsaved headline ${tag}`;
    // Whatever the browser asks (leaving, reloading), this journey answers on purpose below.
    let answer: 'accept' | 'dismiss' = 'accept';
    const asked: string[] = [];
    page.on('dialog', (dialog) => {
      asked.push(dialog.type());
      void (answer === 'accept' ? dialog.accept() : dialog.dismiss());
    });
    try {
      await openNewStory(page);
      await titleField(page).fill(typed);
      await editor(page).click();
      await page.keyboard.type('Words typed before the tab closed.');
      // Kept in this browser and in the server's slot within a few seconds.
      await expect
        .poll(() => page.evaluate(() => window.localStorage.getItem('tdg:autosave:new-news')), { timeout: 15_000 })
        .toContain(typed);
      await expect
        .poll(
          async () =>
            (
              await database
                .selectFrom('content_autosaves')
                .select('form_values')
                .where('staff_email', '=', user.email)
                .where('slot', '=', 'new-news')
                .executeTakeFirst()
            )?.form_values ?? '',
          { timeout: 15_000 },
        )
        .toContain(typed);

      // Leaving through the dashboard asks; staying keeps the form as it is.
      answer = 'dismiss';
      await page.getByRole('link', { name: 'Overview' }).first().click();
      await expect.poll(() => asked.includes('confirm')).toBe(true);
      await expect(titleField(page)).toHaveValue(typed);

      // A reload (the browser asks too) comes back to an empty form that offers the changes.
      answer = 'accept';
      await page.reload();
      await expect(titleField(page)).toHaveValue('');
      const restore = page.getByRole('button', {
        name: new RegExp(`^Restore unsaved changes from .+ \\(${await zoneOf(database)}\\)$`),
      });
      await expect(restore).toBeVisible();
      expect(asked).toContain('beforeunload');
      await expectNoA11yIssues(page);
      await restore.click();
      await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes restored.' })).toBeFocused();
      await expect(titleField(page)).toHaveValue(typed);
      await expect(editor(page)).toContainText('Words typed before the tab closed.');

      // Discard forgets them here and on the server.
      await page.reload();
      await page.getByRole('button', { name: 'Discard' }).click();
      await expect(page.getByRole('button', { name: /^Restore unsaved changes/ })).toHaveCount(0);
      expect(await page.evaluate(() => window.localStorage.getItem('tdg:autosave:new-news'))).toBeNull();
      await expect
        .poll(
          async () =>
            (await database.selectFrom('content_autosaves').select('slot').where('staff_email', '=', user.email).execute())
              .length,
        )
        .toBe(0);
      await page.reload();
      await expect(page.getByRole('group', { name: 'Formatting' })).toBeVisible();
      await expect(page.getByRole('button', { name: /^Restore unsaved changes/ })).toHaveCount(0);
    } finally {
      await database.deleteFrom('content_autosaves').where('staff_email', '=', user.email).execute();
    }
  });

  test("a successful save forgets the kept changes of an item's form", async ({ page, signIn, database }) => {
    test.setTimeout(120_000);
    const user = await signIn('EDITOR');
    const tag = `a${unique()}`;
    const title = `Interpreters at the clinic ${tag}`;
    let id: string | undefined;
    page.on('dialog', (dialog) => void dialog.accept());
    try {
      await openNewStory(page);
      await titleField(page).fill(title);
      await page.getByLabel('Category').selectOption({ index: 1 });
      await page.getByRole('textbox', { name: /^Summary/ }).fill('Interpreters at the clinic.');
      await editor(page).click();
      await page.keyboard.type(BODY_WORDS);
      await save(page, 'Publish', publishedMessage('news', 'create'));
      await expect
        .poll(async () => (await database.selectFrom('content').select('id').where('title', '=', title).executeTakeFirst())?.id)
        .toBeTruthy();
      id = (await database.selectFrom('content').select('id').where('title', '=', title).executeTakeFirstOrThrow()).id;
      expect(await page.evaluate(() => window.localStorage.getItem('tdg:autosave:new-news'))).toBeNull();

      // On a slow connection staff type before the page's script has run: that counts as a change too.
      const release = await holdScripts(page);
      await page.goto(`/admin/content/${id}/edit`, { waitUntil: 'commit' });
      await titleField(page).fill(`${title} and the hospital`);
      release();
      await expect(page.getByRole('group', { name: 'Formatting' })).toBeVisible();
      await page.unrouteAll();
      await expect
        .poll(() => page.evaluate((key) => window.localStorage.getItem(key), `tdg:autosave:${id}`), { timeout: 15_000 })
        .toContain('and the hospital');
      await save(page, 'Update', publishedMessage('news', 'edit'));
      expect(await page.evaluate((key) => window.localStorage.getItem(key), `tdg:autosave:${id}`)).toBeNull();
      await expect
        .poll(
          async () =>
            (await database.selectFrom('content_autosaves').select('slot').where('staff_email', '=', user.email).execute())
              .length,
        )
        .toBe(0);
      // Saved: nothing to offer, nothing to ask about.
      await page.reload();
      await expect(page.getByRole('group', { name: 'Formatting' })).toBeVisible();
      await expect(page.getByRole('button', { name: /^Restore unsaved changes/ })).toHaveCount(0);
      await expect(page.getByText(REVISION_MESSAGES.restoreUnsaved(''))).toHaveCount(0);
    } finally {
      if (id) await database.deleteFrom('content').where('id', '=', id).execute();
      await database.deleteFrom('content_autosaves').where('staff_email', '=', user.email).execute();
    }
  });
});
