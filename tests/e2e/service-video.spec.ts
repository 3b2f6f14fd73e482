import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVICE_MESSAGES, serviceUpdated } from '../../app/lib/services';
import { VIDEO_TEXTS } from '../../app/lib/video';
import { VIDEO_FORM_TEXTS, VIDEO_MESSAGES } from '../../app/lib/video-upload';
import { CAPTIONS_MESSAGES } from '../../app/lib/webvtt';
import { expectToast, formAnswerOf } from './content-fixtures';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yIssues } from './support';
import { makeTestClip } from '../support/video-clips';

// Issue 14 on services, the staff side (decision 020, "Services"), on both engines (the `postgres`
// project runs this file again). An editor uploads a short generated video on a service's edit form,
// is refused saving it without captions (by the browser, and by the server for a post that skips the
// browser), saves it with captions, a visitor watches it on the service's page, then the editor
// removes it again, which removes its files. The service is
// the test's own, deleted at the end, so the built-in services other journeys read are untouched.

const DESCRIPTION = 'A weekly club where deaf children and their families sign songs and stories together.';
const FEATURES = 'Weekly meetings\nSongs in Ugandan Sign Language';

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
    multipart: { title, description: DESCRIPTION, features: FEATURES },
    maxRedirects: 0,
  });
  expect(made.status(), await made.text()).toBe(303);
  const { id } = await database.selectFrom('services').select('id').where('title', '=', title).executeTakeFirstOrThrow();
  const storedVideo = async () =>
    (await database.selectFrom('services').select('video_id').where('id', '=', id).executeTakeFirstOrThrow()).video_id;
  try {
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
      multipart: { title, description: DESCRIPTION, features: FEATURES, videoId, transcript: '' },
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
      await expectNoSeriousA11yIssues(watcher);

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
  } finally {
    // Through the server, so cached pages forget it and a video still on it goes too.
    const removed = await admin.post(`/admin/services/${id}/delete`, { form: {}, maxRedirects: 0 });
    expect(removed.status()).toBe(303);
  }
});
