import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import type { Kysely } from 'kysely';
import type { Database } from '../../app/server/db/schema';
import { CONTENT_MESSAGES } from '../../app/lib/content-form';
import { REVISION_MESSAGES } from '../../app/lib/revisions';
import { VIDEO_TEXTS } from '../../app/lib/video';
import { VIDEO_FORM_TEXTS, VIDEO_MESSAGES } from '../../app/lib/video-upload';
import { CAPTIONS_MESSAGES } from '../../app/lib/webvtt';
import { BODY, editorOf, expectToast, formAnswerOf, openForm, postSave } from './content-fixtures';
import { expect, test } from './fixtures';
import { expectNoA11yIssues } from './support';
import { makeTestClip } from '../support/video-clips';

// Issue 14: a sign-language video with captions on a story (what it stores is tested on both engines
// in app/server/media/video.server.test.ts). An editor uploads a short generated video,
// sees it processed, is refused publishing without captions (and refused a file that is not a video),
// publishes with captions; a visitor plays it in Chromium with the captions showing, the files are
// range-requested, and the page passes axe.

let dir: string;
let videoFile: string;
let notVideoFile: string;
let captionsFile: string;
let badCaptionsFile: string;

test.beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-video-e2e-'));
  videoFile = makeTestClip(path.join(dir, 'our-story.mp4'), { seconds: 3 });
  // A picture named like a video: the server probes the bytes, not the name.
  notVideoFile = path.join(dir, 'holiday.mp4');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=blue:s=64x64',
    '-frames:v',
    '1',
    '-f',
    'image2',
    notVideoFile,
  ]);
  captionsFile = path.join(dir, 'captions.vtt');
  fs.writeFileSync(
    captionsFile,
    'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nWelcome to our story.\n\n00:00:01.500 --> 00:00:03.000\nWe sign every Saturday.\n',
  );
  badCaptionsFile = path.join(dir, 'bad.vtt');
  fs.writeFileSync(badCaptionsFile, 'WEBVTT\n\n00:00:02.000 --> 00:00:01.000\nBackwards\n');
});

test.afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Deletes, through the server (so cached pages forget them, and their videos go), every item tagged `tag`. */
async function removeTaggedOn(db: Kysely<Database>, admin: APIRequestContext, tag: string) {
  const rows = await db.selectFrom('content').select('id').where('title', 'like', `%${tag}%`).execute();
  for (const { id } of rows) {
    await admin.post(`/admin/content/${encodeURIComponent(id)}/delete`, { maxRedirects: 0 });
    await db.deleteFrom('content').where('id', '=', id).execute();
  }
}

test.describe('sign-language video', () => {
  // Uploading, transcoding and playing a video take a while on a busy machine.
  test.describe.configure({ timeout: 180_000 });
  test.afterEach(async ({ database, adminApi, tag }) => removeTaggedOn(database, adminApi, tag));

  test('an editor uploads a video, is asked for captions, publishes it, and a visitor watches it with captions', async ({
    page,
    signIn,
    database,
    tag,
  }) => {
    await signIn('EDITOR');
    await openForm(page, 'news');
    const title = `Signed story ${tag}`;
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Category').selectOption('education');
    await page.getByLabel('Summary').fill('Our story, in Ugandan Sign Language.');
    await editorOf(page).fill(BODY.replace(/<\/?p>/g, ''));

    // A file that is not a video is refused, whatever its name, in plain words.
    await page.getByLabel(/Choose a video/).setInputFiles(notVideoFile);
    await expect(page.getByText(VIDEO_MESSAGES.notVideo)).toBeVisible({ timeout: 60_000 });

    // The real one: uploaded with a progress bar, then processed in the background.
    await page.getByLabel(/Choose a video/).setInputFiles(videoFile);
    await expect(page.getByText(VIDEO_MESSAGES.ready)).toBeVisible({ timeout: 120_000 });
    await expect(page.getByRole('button', { name: 'Remove video' })).toBeVisible();

    // Publishing without captions is refused, in the browser...
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(page.getByText(CAPTIONS_MESSAGES.required)).toBeVisible();
    // ...and by the server, for a post that skips the browser's check.
    const videoId = await page.locator('input[name="videoId"]').inputValue();
    const refused = await postSave(page.request, 'news', { title: `${title} direct`, category: 'education', videoId });
    expect(refused.status()).toBe(400);
    expect((await formAnswerOf(refused)).errors.captionsFile ?? (await refused.text())).toContain(CAPTIONS_MESSAGES.required);

    // Bad captions are named by line and reason at once; good ones let it be published.
    await page.getByLabel(VIDEO_FORM_TEXTS.captionsField).setInputFiles(badCaptionsFile);
    await expect(page.getByText('Line 3: The caption ends before it starts.')).toBeVisible();
    await page.getByLabel(VIDEO_FORM_TEXTS.captionsField).setInputFiles(captionsFile);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expectToast(page, 'Story published successfully! It may take a moment to appear on the website.');
    const row = await database
      .selectFrom('content')
      .select(['id', 'video_id'])
      .where('title', '=', title)
      .executeTakeFirstOrThrow();
    expect(row.video_id).toBe(videoId);

    // The visitor: the link beside the title, nothing of the video fetched until asked.
    const visitor = await page.context().browser()!.newContext();
    const watcher = await visitor.newPage();
    const mediaRequests: { url: string; range: string | undefined }[] = [];
    watcher.on('request', (request) => {
      if (/\.mp4$/.test(request.url())) mediaRequests.push({ url: request.url(), range: request.headers().range });
    });
    try {
      await watcher.goto(`/news/${row.id}`);
      await expect(watcher.getByRole('link', { name: new RegExp(`${VIDEO_TEXTS.watch} \\(3 sec · \\d+ KB\\)`) })).toBeVisible();
      const player = watcher.locator('#sign-language-video video');
      await expect(player).toHaveAttribute('preload', 'none');
      await expect(player.locator('track[kind="captions"]')).toHaveAttribute('default', '');
      await expect(watcher.getByRole('radio', { name: /^360p/ })).toBeChecked();
      await watcher.waitForLoadState('networkidle');
      expect(mediaRequests, 'no video bytes before the visitor asks').toEqual([]);
      await expectNoA11yIssues(watcher);

      // The transcript, made from the captions, opens under the video.
      await watcher.getByText(VIDEO_TEXTS.transcript, { exact: true }).click();
      await expect(watcher.getByText('Welcome to our story. We sign every Saturday.')).toBeVisible();

      // Played in Chromium, with the captions showing.
      await player.evaluate((video: HTMLVideoElement) => {
        video.muted = true;
        return video.play();
      });
      await expect
        .poll(() => player.evaluate((video: HTMLVideoElement) => video.currentTime), { timeout: 20_000 })
        .toBeGreaterThan(0.3);
      const captions = await player.evaluate((video: HTMLVideoElement) => {
        const track = video.textTracks[0]!;
        return {
          mode: track.mode,
          cue: (track.activeCues?.[0] as VTTCue | undefined)?.text ?? (track.cues?.[0] as VTTCue | undefined)?.text,
        };
      });
      expect(captions).toEqual({ mode: 'showing', cue: 'Welcome to our story.' });
      expect(mediaRequests.some((r) => r.url.endsWith('-360p.mp4') && r.range?.startsWith('bytes='))).toBe(true);

      // The visitor switches to the smaller file.
      await watcher.getByRole('radio', { name: /240p/ }).check();
      await expect(player).toHaveAttribute('src', /-240p\.mp4$/);

      // Served with ranges, its type and immutable caching.
      const src = (await player.getAttribute('src'))!;
      const part = await watcher.request.get(src, { headers: { Range: 'bytes=0-99' } });
      expect(part.status()).toBe(206);
      expect(part.headers()['content-type']).toBe('video/mp4');
      expect(part.headers()['content-range']).toMatch(/^bytes 0-99\/\d+$/);
      expect(part.headers()['cache-control']).toContain('immutable');
      expect((await part.body()).length).toBe(100);
      const size = Number(part.headers()['content-range']!.split('/')[1]);
      expect((await watcher.request.get(src, { headers: { Range: `bytes=${size + 10}-` } })).status()).toBe(416);

      // Lists show the badge and filter by it; the feed carries the video.
      await watcher.goto('/news?sign=1');
      const card = watcher.getByRole('article').filter({ hasText: title });
      await expect(card.getByText(VIDEO_TEXTS.badge, { exact: true })).toBeVisible();
      const feed = await (await watcher.request.get('/news/rss.xml')).text();
      expect(feed).toMatch(new RegExp(`<enclosure url="[^"]+-360p\\.mp4" length="\\d+" type="video/mp4"/>`));

      // Reached from the list without a page load, the player gets its script as well.
      await card.getByRole('link').first().click();
      await expect(watcher).toHaveURL(new RegExp(`/news/${row.id}$`));
      await expect(watcher.getByRole('radio', { name: /^360p/ })).toBeChecked();
      const pageScripts = () =>
        watcher.evaluate(() => [...document.scripts].filter((s) => s.src.includes('/page-sign-language-video-')).length);
      expect(await pageScripts()).toBe(1);

      // A story without a video loads none of the video's script.
      const scripts: string[] = [];
      watcher.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(request.url());
      });
      await watcher.goto('/news?sign=');
      await watcher.getByRole('article').filter({ hasNotText: VIDEO_TEXTS.badge }).first().getByRole('link').first().click();
      await expect(watcher.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(watcher.locator('#sign-language-video')).toHaveCount(0);
      await watcher.waitForLoadState('networkidle');
      expect(scripts.filter((url) => url.includes('/page-sign-language-video-'))).toEqual([]);
    } finally {
      await visitor.close();
    }

    // A visitor saving data gets the smaller file before anything is fetched.
    const saver = await page.context().browser()!.newContext();
    await saver.addInitScript(() =>
      Object.defineProperty(Navigator.prototype, 'connection', { get: () => ({ saveData: true, effectiveType: '4g' }) }),
    );
    try {
      const saving = await saver.newPage();
      await saving.goto(`/news/${row.id}`);
      await expect(saving.getByRole('radio', { name: /240p/ })).toBeChecked();
      await expect(saving.locator('#sign-language-video video')).toHaveAttribute('src', /-240p\.mp4$/);
      await expect(saving.locator('#sign-language-video p[data-facts]')).toHaveText(
        await saving
          .getByRole('radio', { name: /240p/ })
          .getAttribute('data-facts')
          .then((facts) => facts!),
      );
    } finally {
      await saver.close();
    }

    // Before any script (or without one), the video plays with its captions and the transcript opens;
    // the choice of file, which needs the script, is not offered.
    const plain = await page.context().browser()!.newContext({ javaScriptEnabled: false });
    try {
      const reader = await plain.newPage();
      await reader.goto(`/news/${row.id}`);
      await expect(reader.getByRole('link', { name: new RegExp(VIDEO_TEXTS.watch) })).toBeVisible();
      const video = reader.locator('#sign-language-video video');
      await expect(video).toHaveAttribute('src', /-360p\.mp4$/);
      await expect(video).toHaveAttribute('controls', '');
      await expect(video.locator('track[kind="captions"]')).toHaveAttribute('default', '');
      await expect(reader.getByRole('radio')).toHaveCount(0);
      await reader.getByText(VIDEO_TEXTS.transcript, { exact: true }).click();
      await expect(reader.getByText('Welcome to our story. We sign every Saturday.')).toBeVisible();
    } finally {
      await plain.close();
    }
  });

  test('the upload endpoint refuses a role that may not write, a file over 500 MB, and someone else’s upload', async ({
    staffRequest,
  }) => {
    const { request: viewer } = await staffRequest('VIEWER');
    expect((await viewer.post('/admin/uploads/video', { multipart: { name: 'a.mp4', size: '1000' } })).status()).toBe(403);
    const { request: editor } = await staffRequest('EDITOR');
    const tooLarge = await editor.post('/admin/uploads/video', { multipart: { name: 'a.mp4', size: '500000001' } });
    expect(tooLarge.status()).toBe(413);
    expect(await tooLarge.json()).toEqual({ error: VIDEO_MESSAGES.tooLarge });
    const started = await editor.post('/admin/uploads/video', { multipart: { name: 'a.mp4', size: '1000' } });
    expect(started.status()).toBe(201);
    const { id } = (await started.json()) as { id: string };
    const { request: other } = await staffRequest('EDITOR');
    expect((await other.get(`/admin/uploads/video/${id}`)).status()).toBe(404);
    // A chunk is the slice of the file itself, its offset in the address.
    const outOfOrder = await editor.post(`/admin/uploads/video/${id}?offset=500`, {
      headers: { 'Content-Type': 'application/octet-stream' },
      data: Buffer.alloc(500),
    });
    expect(outOfOrder.status()).toBe(409);
    expect(await outOfOrder.json()).toEqual({ error: VIDEO_MESSAGES.outOfOrder });
    expect((await editor.post(`/admin/uploads/video/${id}`, { multipart: { intent: 'cancel' } })).status()).toBe(200);
    expect((await editor.get(`/admin/uploads/video/${id}`)).status()).toBe(404);
  });

  test('an upload goes on after a dropped connection: it asks the server where it stands and continues from there', async ({
    page,
    signIn,
  }) => {
    await signIn('EDITOR');
    await openForm(page, 'news');
    const chunkPosts: string[] = [];
    await page.route(/\/admin\/uploads\/video\/[^/?]+\?offset=/, async (route) => {
      chunkPosts.push(route.request().url());
      // The first try is cut off before it reaches the server; the second arrives, but its answer is lost.
      if (chunkPosts.length === 1) return route.abort('connectionreset');
      if (chunkPosts.length === 2) {
        const stored = await route.fetch();
        expect(stored.status()).toBe(200);
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    await page.getByLabel(/Choose a video/).setInputFiles(videoFile);
    await expect(page.getByText(VIDEO_MESSAGES.ready)).toBeVisible({ timeout: 120_000 });
    // The server had the whole file after the second try: nothing was sent a third time.
    expect(chunkPosts).toHaveLength(2);
    expect(chunkPosts.every((url) => url.endsWith('?offset=0'))).toBe(true);
  });

  test('a draft keeps a video without captions; removing the video removes its files', async ({
    page,
    signIn,
    database,
    tag,
  }) => {
    await signIn('EDITOR');
    await openForm(page, 'news');
    await page.getByLabel('Title').fill(`Draft with video ${tag}`);
    await page.getByLabel(/Choose a video/).setInputFiles(videoFile);
    await expect(page.getByText(VIDEO_MESSAGES.ready)).toBeVisible({ timeout: 120_000 });
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page).toHaveURL(/\/admin\/content\/[^/]+\/edit$/);
    await expect(page.getByText(CONTENT_MESSAGES.fixErrors)).toHaveCount(0);
    const id = decodeURIComponent(/\/admin\/content\/([^/]+)\/edit$/.exec(page.url())![1]!);
    const videoId = (await database.selectFrom('content').select('video_id').where('id', '=', id).executeTakeFirstOrThrow())
      .video_id!;
    expect(videoId).toBeTruthy();
    await expect(page.getByText(VIDEO_MESSAGES.ready)).toBeVisible();

    await page.getByRole('button', { name: 'Remove video' }).click();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect
      .poll(async () => (await database.selectFrom('videos').select('id').where('id', '=', videoId).execute()).length)
      .toBe(0);

    // The history describes the video the first draft had, and says a restore cannot bring it back.
    await page.goto(`/admin/content/${id}/history`);
    await page.getByRole('link', { name: /^View version 1/ }).click();
    const comparison = page.getByRole('region', { name: 'Compared with the current text' });
    await expect(comparison.getByText(REVISION_MESSAGES.videoRemoved)).toBeVisible();
    await expect(page.getByText(/^Sign-language video: “our-story\.mp4” \(\d+ sec\), without captions$/)).toBeVisible();
    await expectNoA11yIssues(page);
  });
});
