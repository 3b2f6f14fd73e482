import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import type { Kysely } from 'kysely';
import type { Database } from '../../app/server/db/schema';
import { SERVICE_MESSAGES, serviceCreated, serviceDeleted, serviceDeleteQuestion, serviceUpdated } from '../../app/lib/services';
import { CONTENT_UPLOAD_MESSAGES } from '../../app/lib/uploads';
import { VIDEO_TEXTS } from '../../app/lib/video';
import { VIDEO_FORM_TEXTS, VIDEO_MESSAGES } from '../../app/lib/video-upload';
import { CAPTIONS_MESSAGES } from '../../app/lib/webvtt';
import { expectToast, formAnswerOf, pngBytes } from './content-fixtures';
import { expect, LAYOUT, test } from './fixtures';
import { unique } from './staff';
import { DESKTOP, expectNoA11yIssues, holdScripts, MOBILE, thenPutBack } from './support';
import { makeTestClip } from '../support/video-clips';

// Issue 11: the Services tab. An EDITOR adds a service with a picture and features, sees it on the
// public pages, moves it and edits it, and cannot delete it; an ADMIN deletes it after the spec's
// confirmation; the same without JavaScript. The four built-in services other journeys read are left
// as they were: each test removes what it adds (through the server, so its picture goes too).

test.use({ viewport: DESKTOP });
// One list, shared: this file's tests run one after another so each sees only its own moves.
test.describe.configure({ mode: 'default' });

const FEATURES = ['Weekly signing games', 'Songs in Ugandan Sign Language', 'Stories for families', 'A fourth, only on its page'];
const DESCRIPTION = 'A weekly club where deaf children and their families learn and play in Ugandan Sign Language together.';

/** The service rows of the Services tab, in their order. */
const rows = (page: Page) =>
  page.getByRole('list', { name: 'Services in the order the website shows them' }).getByRole('listitem');
const rowOf = (page: Page, title: string) =>
  rows(page).filter({ has: page.getByRole('heading', { level: 2, name: title, exact: true }) });
const titlesInOrder = async (page: Page) => rows(page).getByRole('heading', { level: 2 }).allTextContents();

/** Removes, through the server as an ADMIN, every stored service whose title holds `word`. */
async function removeServices(database: Kysely<Database>, admin: APIRequestContext, word: string) {
  const left = await database.selectFrom('services').select(['id', 'title']).execute();
  for (const service of left.filter((s) => s.title.includes(word))) {
    const response = await admin.post(`/admin/services/${service.id}/delete`, { form: {}, maxRedirects: 0 });
    expect(response.status(), `deleting ${service.title}`).toBe(303);
  }
}

test('an editor adds a service with a picture and features, sees it on the site, moves it, edits it, and cannot delete it', async ({
  page,
  signIn,
  staffRequest,
  database,
}) => {
  test.setTimeout(90_000);
  const word = `Club${unique()}`;
  const title = `Sign ${word}`;
  const { request: admin } = await staffRequest('ADMIN');
  await signIn('EDITOR');
  await thenPutBack(
    async () => {
      await page.goto('/admin/services');
      await expect(page.getByRole('heading', { level: 1, name: 'Services' })).toBeVisible();
      await expect(rowOf(page, 'Digital Skills Training')).toBeVisible();
      // An EDITOR may add, edit and reorder, never delete: no Delete button anywhere.
      await expect(page.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
      await expect(page.getByRole('link', { name: /^Delete/ })).toHaveCount(0);

      await page.getByRole('link', { name: 'Add service' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Add service' })).toBeVisible();
      // Checked in the browser first, every problem beside its field.
      await page.getByRole('button', { name: 'Add service' }).click();
      await expect(page.getByText(SERVICE_MESSAGES.fixErrors)).toBeVisible();
      await expect(page.getByText(SERVICE_MESSAGES.titleRequired)).toBeVisible();
      await expect(page.getByText(SERVICE_MESSAGES.descriptionRequired)).toBeVisible();
      await expect(page.getByRole('textbox', { name: 'Title', exact: true })).toBeFocused();

      await page.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
      await page.getByRole('textbox', { name: 'Description', exact: true }).fill(DESCRIPTION);
      await page.getByRole('textbox', { name: 'Features', exact: true }).fill(FEATURES.join('\n'));
      await page
        .getByLabel(/^Choose an image/)
        .setInputFiles({ name: 'club.png', mimeType: 'image/png', buffer: await pngBytes(800) });
      await expectToast(page, CONTENT_UPLOAD_MESSAGES.uploaded);
      // A picture needs its description.
      await page.getByRole('button', { name: 'Add service' }).click();
      await expect(page.getByText(SERVICE_MESSAGES.altRequired)).toBeVisible();
      await expect(page.getByLabel(/^Image description/)).toBeFocused();
      await page.getByLabel(/^Image description/).fill('Children and parents signing a song together');
      await page.getByRole('button', { name: 'Add service' }).click();

      await expect(page).toHaveURL(/\/admin\/services$/);
      await expectToast(page, serviceCreated(title));
      const stored = await database.selectFrom('services').selectAll().where('title', '=', title).executeTakeFirstOrThrow();
      expect(stored.id).toBe(`sign-${word.toLowerCase()}`);
      expect(JSON.parse(stored.features)).toEqual(FEATURES);
      expect(stored.image_url).toMatch(/^\/media\/services\/[0-9a-f]{32}_club\.webp$/);
      expect(stored.demo).toBe(0);
      // Added at the end of the list.
      expect((await titlesInOrder(page)).at(-1)).toBe(title);

      // On the public pages: the list shows three features, its own page all four and the picture.
      await page.goto('/services');
      const publicRow = page
        .getByRole('main')
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { level: 2, name: title }) });
      await expect(publicRow.getByRole('list').getByRole('listitem')).toHaveText(FEATURES.slice(0, 3));
      await publicRow.getByRole('link', { name: `Learn more about ${title}` }).click();
      await expect(page).toHaveURL(new RegExp(`/services/${stored.id}$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
      await expect(page.getByRole('region', { name: 'What’s included' }).getByRole('listitem')).toHaveText(FEATURES);
      await expect(page.getByRole('img', { name: 'Children and parents signing a song together' })).toBeVisible();

      // Move up: it trades places with the one above, the cursor stays on its button, the move is announced.
      await page.goto('/admin/services');
      const before = await titlesInOrder(page);
      const at = before.indexOf(title);
      await page.getByRole('button', { name: `Move up ${title}` }).click();
      await expect(page.getByRole('status').filter({ hasText: `"${title}" moved to position ${at}` })).toHaveCount(1);
      await expect(page.getByRole('button', { name: `Move up ${title}` })).toBeFocused();
      // The status comes with the action's answer; the list with the page's data just after it.
      const swapped = [...before];
      [swapped[at - 1], swapped[at]] = [title, before[at - 1]!];
      await expect.poll(() => titlesInOrder(page)).toEqual(swapped);
      const positions = (await database.selectFrom('services').select('position').execute()).map((r) => r.position);
      expect(new Set(positions).size).toBe(positions.length);

      // Edit: the address stays, the words change on the site.
      await rowOf(page, title)
        .getByRole('link', { name: `Edit ${title}` })
        .click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Edit service: ${title}`);
      await expect(page.getByRole('textbox', { name: 'Features', exact: true })).toHaveValue(FEATURES.join('\n'));
      await page.getByRole('textbox', { name: 'Description', exact: true }).fill(`${DESCRIPTION} Now on Saturdays too.`);
      await page.getByRole('textbox', { name: 'Features', exact: true }).fill(FEATURES.slice(0, 2).join('\n'));
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page).toHaveURL(/\/admin\/services$/);
      await expectToast(page, serviceUpdated(title));
      await page.goto(`/services/${stored.id}`);
      await expect(page.getByText('Now on Saturdays too.')).toBeVisible();
      await expect(page.getByRole('region', { name: 'What’s included' }).getByRole('listitem')).toHaveCount(2);

      // Delete is refused by the server too, to a hand-made request.
      const refusedPage = await page.request.get(`/admin/services/${stored.id}/delete`);
      expect(refusedPage.status()).toBe(403);
      const refused = await page.request.post(`/admin/services/${stored.id}/delete`, { form: {}, maxRedirects: 0 });
      expect(refused.status()).toBe(403);
      expect(await database.selectFrom('services').select('id').where('id', '=', stored.id).execute()).toHaveLength(1);
    },
    async () => {
      await removeServices(database, admin, word);
    },
  );
});

test("what an editor types before the page's script runs stays in the form once it does", async ({ page, signIn }) => {
  await signIn('EDITOR');
  // A slow connection: the page is there, its scripts are not yet.
  const release = await holdScripts(page);
  await page.goto('/admin/services/new', { waitUntil: 'commit' });
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Sign Club for Families');
  await page.getByRole('textbox', { name: 'Description', exact: true }).fill(DESCRIPTION);
  release();
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
  await page.unrouteAll();
  // The script's first change of the form (the features' count) keeps what was typed in the others.
  await page.getByRole('textbox', { name: 'Features', exact: true }).pressSequentially('Games');
  await expect(page.getByText(/\(1 now\)/)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Title', exact: true })).toHaveValue('Sign Club for Families');
  await expect(page.getByRole('textbox', { name: 'Description', exact: true })).toHaveValue(DESCRIPTION);
  await expect(page.getByText(`${DESCRIPTION.length}/1,000 characters. Plain text.`)).toBeVisible();
});

test('an admin deletes a service after the confirmation that names it; its page and picture go', async ({
  page,
  signIn,
  staffRequest,
  database,
}) => {
  const word = `Talk${unique()}`;
  const title = `Radio ${word}`;
  const { request: admin } = await staffRequest('ADMIN');
  await thenPutBack(
    async () => {
      const created = await admin.post('/admin/services/new', {
        multipart: {
          title,
          description: 'Our speakers on community radio across Central Region.',
          features: 'Live phone-ins\nSign language on the video stream',
          imageAlt: 'A radio microphone',
          imageFile: { name: 'radio.png', mimeType: 'image/png', buffer: await pngBytes(400, '#7c2d12') },
        },
        maxRedirects: 0,
      });
      expect(created.status(), await created.text()).toBe(303);
      const stored = await database.selectFrom('services').selectAll().where('title', '=', title).executeTakeFirstOrThrow();
      const media = () =>
        database.selectFrom('media').select('id').where('key', '=', stored.image_url!.slice('/media/'.length)).execute();
      expect(await media()).toHaveLength(1);

      await signIn('ADMIN');
      await page.goto('/admin/services');
      await rowOf(page, title)
        .getByRole('button', { name: `Delete ${title}` })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Confirm delete' });
      await expect(dialog).toContainText(serviceDeleteQuestion(title, false));
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(rowOf(page, title)).toHaveCount(1);
      await rowOf(page, title)
        .getByRole('button', { name: `Delete ${title}` })
        .click();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await expectToast(page, serviceDeleted(title));
      await expect(rowOf(page, title)).toHaveCount(0);

      expect(await database.selectFrom('services').select('id').where('id', '=', stored.id).execute()).toEqual([]);
      expect(await media()).toEqual([]);
      expect((await page.request.get(`/services/${stored.id}`)).status()).toBe(404);
      const audit = await database.selectFrom('audit_log').select('action').where('target', '=', stored.id).execute();
      expect(audit.map((a) => a.action).sort()).toEqual(['service.created', 'service.deleted']);
    },
    async () => {
      await removeServices(database, admin, word);
    },
  );
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a service is added with its picture, moved, and deleted on the confirmation page', async ({
    page,
    signIn,
    staffRequest,
    database,
  }) => {
    const word = `Plain${unique()}`;
    const title = `Braille ${word}`;
    const { request: admin } = await staffRequest('ADMIN');
    await signIn('ADMIN');
    await thenPutBack(
      async () => {
        await page.goto('/admin/services/new');
        await page.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
        await page
          .getByRole('textbox', { name: 'Description', exact: true })
          .fill('Braille lessons with a blind teacher, for learners of every age.');
        await page.getByRole('textbox', { name: 'Features', exact: true }).fill('Reading\nWriting');
        await page
          .getByLabel(/^Choose an image/)
          .setInputFiles({ name: 'braille.png', mimeType: 'image/png', buffer: await pngBytes(400) });
        // Sent without its description: the picture is kept and the form says what is missing.
        await page.getByRole('button', { name: 'Add service' }).click();
        await expect(page.getByText(SERVICE_MESSAGES.altRequired)).toBeVisible();
        await expect(page.locator('form img')).toHaveAttribute('src', /^\/media\/services\/[0-9a-f]{32}_braille\.webp$/);
        await expect(page.getByRole('textbox', { name: 'Title', exact: true })).toHaveValue(title);
        await page.getByLabel(/^Image description/).fill('Fingers reading a braille page');
        await page.getByRole('button', { name: 'Add service' }).click();
        await expect(page).toHaveURL(/\/admin\/services$/);
        await expect(page.getByText(serviceCreated(title))).toBeVisible();
        const stored = await database.selectFrom('services').selectAll().where('title', '=', title).executeTakeFirstOrThrow();
        expect(stored.image_url).toMatch(/^\/media\/services\/[0-9a-f]{32}_braille\.webp$/);

        // Other journeys add and remove services on this server meanwhile: the move is checked against
        // the service that was just above this one, not against absolute positions.
        await expect.poll(async () => (await titlesInOrder(page)).includes(title)).toBe(true);
        const before = await titlesInOrder(page);
        const above = before[before.indexOf(title) - 1]!;
        await page.getByRole('button', { name: `Move up ${title}` }).click();
        await expect(page.getByText(/moved to position/)).toHaveCount(1);
        const after = await titlesInOrder(page);
        expect(after.indexOf(title)).toBeLessThan(after.indexOf(above));

        await rowOf(page, title)
          .getByRole('link', { name: `Delete ${title}` })
          .click();
        await expect(page).toHaveURL(new RegExp(`/admin/services/${stored.id}/delete$`));
        await expect(page.getByText(serviceDeleteQuestion(title, false))).toBeVisible();
        await page.getByRole('button', { name: 'Delete' }).click();
        await expect(page).toHaveURL(/\/admin\/services$/);
        await expect(page.getByText(serviceDeleted(title))).toBeVisible();
        expect(await database.selectFrom('services').select('id').where('id', '=', stored.id).execute()).toEqual([]);
      },
      async () => {
        await removeServices(database, admin, word);
      },
    );
  });
});

for (const viewport of [DESKTOP, MOBILE]) {
  test(`the Services screens pass axe and fit at ${viewport.width} px`, { tag: LAYOUT }, async ({ page, signIn }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    await signIn('ADMIN');
    for (const path of ['/admin/services', '/admin/services/new', '/admin/services/digital-skills/edit']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoA11yIssues(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    }
    // The delete dialog too.
    await page.goto('/admin/services');
    await page.getByRole('button', { name: 'Delete Digital Skills Training' }).click();
    await expect(page.getByRole('dialog', { name: 'Confirm delete' })).toBeVisible();
    await expectNoA11yIssues(page);
    await page.getByRole('button', { name: 'Cancel' }).click();
  });
}

test('the list works by keyboard alone', { tag: LAYOUT }, async ({ page, signIn, staffRequest, database }) => {
  const word = `Keys${unique()}`;
  const title = `Mentoring ${word}`;
  const { request: admin } = await staffRequest('ADMIN');
  await thenPutBack(
    async () => {
      const created = await admin.post('/admin/services/new', {
        form: { title, description: 'One mentor for each young person with a disability.', features: '' },
        maxRedirects: 0,
      });
      expect(created.status()).toBe(303);
      await signIn('EDITOR');
      await page.goto('/admin/services');
      const last = await titlesInOrder(page);
      expect(last.at(-1)).toBe(title);
      // The last service cannot go further down; its Move up is reached with Tab and pressed with Enter.
      await expect(page.getByRole('button', { name: `Move down ${title}` })).toBeDisabled();
      await page.getByRole('button', { name: `Move up ${title}` }).focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('status').filter({ hasText: `"${title}" moved to position ${last.length - 1}` })).toHaveCount(
        1,
      );
      await expect(page.getByRole('button', { name: `Move up ${title}` })).toBeFocused();
      await expect.poll(async () => (await titlesInOrder(page)).at(-2)).toBe(title);
      // Now it can go down again: Tab to Move down, Enter; at the end the cursor moves to Move up.
      await page.keyboard.press('Tab');
      await expect(page.getByRole('button', { name: `Move down ${title}` })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('status').filter({ hasText: `"${title}" moved to position ${last.length}` })).toHaveCount(1);
      await expect(page.getByRole('button', { name: `Move up ${title}` })).toBeFocused();
      await expect.poll(() => titlesInOrder(page)).toEqual(last);
      // On to Edit by keyboard (the disabled Move down is skipped).
      await page.keyboard.press('Tab');
      await expect(page.getByRole('link', { name: `Edit ${title}` })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Edit service: ${title}`);
    },
    async () => {
      await removeServices(database, admin, word);
    },
  );
});

// Issue 14 on services, the staff side (decision 020, "Services"); what it stores is tested on both
// engines in app/server/content/services-video.server.test.ts. An editor uploads a short generated video on a service's edit form,
// is refused saving it without captions (by the browser, and by the server for a post that skips the
// browser), saves it with captions, a visitor watches it on the service's page, then the editor
// removes it again, which removes its files. The service is
// the test's own, deleted at the end, so the built-in services other journeys read are untouched.

const VIDEO_SERVICE_DESCRIPTION = 'A weekly club where deaf children and their families sign songs and stories together.';
const VIDEO_SERVICE_FEATURES = 'Weekly meetings\nSongs in Ugandan Sign Language';

let dir: string;
let videoFile: string;
let captionsFile: string;

test.beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-service-video-e2e-'));
  videoFile = makeTestClip(path.join(dir, 'our-club.mp4'));
  captionsFile = path.join(dir, 'captions.vtt');
  fs.writeFileSync(captionsFile, 'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nOur club signs every Saturday.\n');
});

test.afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('an editor adds a sign-language video to a service, is asked for its captions, saves it, a visitor watches it, and it is removed again', async ({
  page,
  signIn,
  staffRequest,
  database,
  playwright,
  serverURL,
  tag,
}) => {
  // Uploading and transcoding take a while on a busy machine.
  test.setTimeout(180_000);
  const title = `Signing club ${tag}`;
  const { request: admin } = await staffRequest('ADMIN');
  const made = await admin.post('/admin/services/new', {
    multipart: { title, description: VIDEO_SERVICE_DESCRIPTION, features: VIDEO_SERVICE_FEATURES },
    maxRedirects: 0,
  });
  expect(made.status(), await made.text()).toBe(303);
  const { id } = await database.selectFrom('services').select('id').where('title', '=', title).executeTakeFirstOrThrow();
  const storedVideo = async () =>
    (await database.selectFrom('services').select('video_id').where('id', '=', id).executeTakeFirstOrThrow()).video_id;
  await thenPutBack(
    async () => {
      await signIn('EDITOR');
      await page.goto(`/admin/services/${id}/edit`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Edit service: ${title}`);
      const field = page.getByRole('group', { name: VIDEO_FORM_TEXTS.field });

      // Uploaded with a progress bar, then processed in the background.
      await field.getByLabel(/Choose a video/).setInputFiles(videoFile);
      await expect(field.getByText(VIDEO_MESSAGES.ready)).toBeVisible({ timeout: 120_000 });
      const videoId = await page.locator('input[name="videoId"]').inputValue();
      expect(videoId).toMatch(/^[0-9a-f-]{36}$/);

      // Every save of a service is public: without captions it is refused in the browser...
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(field.getByText(CAPTIONS_MESSAGES.requiredForService)).toBeVisible();
      await expect(page.getByText(SERVICE_MESSAGES.fixErrors)).toBeVisible();
      await expect(field.getByLabel(VIDEO_FORM_TEXTS.captionsField)).toBeFocused();
      await expect(page).toHaveURL(new RegExp(`/admin/services/${id}/edit$`));
      // ...and by the server, for a post that skips the browser's check.
      const refused = await page.request.post(`/admin/services/${id}/edit`, {
        multipart: { title, description: VIDEO_SERVICE_DESCRIPTION, features: VIDEO_SERVICE_FEATURES, videoId, transcript: '' },
        maxRedirects: 0,
      });
      expect(refused.status()).toBe(400);
      expect((await formAnswerOf(refused)).errors.captionsFile).toBe(CAPTIONS_MESSAGES.requiredForService);
      expect(await storedVideo()).toBeNull();

      // With captions it is saved.
      await field.getByLabel(VIDEO_FORM_TEXTS.captionsField).setInputFiles(captionsFile);
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page).toHaveURL(/\/admin\/services$/);
      await expectToast(page, serviceUpdated(title));
      expect(await storedVideo()).toBe(videoId);
      const video = await database
        .selectFrom('videos')
        .select(['status', 'captions_key', 'transcript'])
        .where('id', '=', videoId)
        .executeTakeFirstOrThrow();
      expect(video).toMatchObject({ status: 'ready', transcript: 'Our club signs every Saturday.' });
      expect(video.captions_key).toMatch(/\.vtt$/);

      // A visitor: the link beside the title, the player with captions on, nothing of the video fetched
      // until asked, the transcript, and the badge on the list.
      const visitor = await page.context().browser()!.newContext();
      try {
        const watcher = await visitor.newPage();
        const mediaRequests: string[] = [];
        watcher.on('request', (request) => {
          if (/\.mp4$/.test(request.url())) mediaRequests.push(request.url());
        });
        await watcher.goto(`/services/${id}`);
        await expect(
          watcher.getByRole('link', { name: new RegExp(`${VIDEO_TEXTS.watch} \\(\\d+ sec · \\d+ KB\\)`) }),
        ).toBeVisible();
        const player = watcher.locator('#sign-language-video video');
        await expect(player).toHaveAttribute('preload', 'none');
        await expect(player).toHaveAttribute('src', /-360p\.mp4$/);
        await expect(player.locator('track[kind="captions"]')).toHaveAttribute('default', '');
        await expect(watcher.getByRole('radio', { name: /^360p/ })).toBeChecked();
        await watcher.getByText(VIDEO_TEXTS.transcript, { exact: true }).click();
        await expect(watcher.getByText('Our club signs every Saturday.')).toBeVisible();
        await watcher.waitForLoadState('networkidle');
        expect(mediaRequests, 'no video bytes before the visitor asks').toEqual([]);
        await expectNoA11yIssues(watcher);

        await watcher.goto('/services');
        const listed = watcher.getByRole('listitem').filter({ has: watcher.getByRole('heading', { name: title }) });
        await expect(listed.getByText(VIDEO_TEXTS.badge, { exact: true })).toBeVisible();
      } finally {
        await visitor.close();
      }

      // The form shows it again with its captions; removing it and saving removes its files.
      await page.goto(`/admin/services/${id}/edit`);
      await expect(field.getByText(VIDEO_MESSAGES.ready)).toBeVisible();
      await expect(field.getByText('Captions are saved with this video.', { exact: false })).toBeVisible();
      await field.getByRole('button', { name: 'Remove video' }).click();
      await expect(field.getByText('The video will be removed when you save.')).toBeVisible();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page).toHaveURL(/\/admin\/services$/);
      await expectToast(page, serviceUpdated(title));
      expect(await storedVideo()).toBeNull();
      await expect
        .poll(async () => (await database.selectFrom('videos').select('id').where('id', '=', videoId).execute()).length)
        .toBe(0);
      // And the public page no longer shows it (the cached page was emptied).
      const anyone = await playwright.request.newContext({ baseURL: serverURL });
      try {
        const after = await anyone.get(`/services/${id}`);
        expect(after.status()).toBe(200);
        expect(await after.text()).not.toContain('sign-language-video');
      } finally {
        await anyone.dispose();
      }
    },
    async () => {
      // Through the server, so cached pages forget it and a video still on it goes too.
      const removed = await admin.post(`/admin/services/${id}/delete`, { form: {}, maxRedirects: 0 });
      expect(removed.status()).toBe(303);
    },
  );
});
