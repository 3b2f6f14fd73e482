import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { staffAs as staff } from '../../../tests/support/staff';
import { makeTestClip } from '../../../tests/support/video-clips';
import { ADMIN_ACCESS } from '../../routes/admin/access';
import type { StaffUser } from '../staff/auth.server';
import { createContent } from './content-admin.server';
import { onPublicContentChanged } from '../platform/public-changes.server';
import { createService, deleteService, getService, listServices, ServiceRuleError } from './services.server';
import { saveServiceForm } from '../http/service-form.server';
import { getMediaStore } from '../media/storage.server';
import {
  appendVideoChunk,
  cancelVideoUpload,
  prepareVideoForSave,
  processVideo,
  pruneUnusedVideos,
  startVideoUpload,
  VIDEO_ABANDONED_AFTER_MS,
  VIDEO_JOB,
  videoUploadStatus,
} from '../media/video.server';
import { contentSchema } from '../../lib/content-form';
import { can, ROLES } from '../../lib/permissions';
import { serviceSchema } from '../../lib/service-schema';
import { SERVICE_MESSAGES } from '../../lib/services';
import { VIDEO_CHUNK_BYTES, VIDEO_MESSAGES } from '../../lib/video-upload';
import { CAPTIONS_MESSAGES } from '../../lib/webvtt';

// Issue 14 on services (decision 020, "Services"): the service form takes a sign-language video as
// the content form does, but every save of a service is public, so a video always needs its captions.
// A video belongs to one story, news item or service; the clean-up counts services as users of theirs.

const IP = '198.51.100.31';
const editor = staff('EDITOR');

/** A news story's fields, checked as the content form checks them. */
const storyInput = () =>
  contentSchema('news').parse({
    title: 'Signed story',
    category: 'education',
    tags: '',
    summary: 'A story told in Ugandan Sign Language.',
    content: '<p>Deaf students in Kampala now follow every lesson with captions and sign language.</p>',
  });

const CAPTIONS = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nOur club signs every Saturday.\n';
const FIELDS = {
  title: 'Sign Language Club',
  description: 'Weekly sign language practice for families and friends of deaf children.',
  features: 'Weekly meetings\nGames and songs',
};

let dir: string;
/** A one-second 320×180 MP4, as small as a real upload gets. */
let clip: Buffer;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-service-video-test-'));
  const file = makeTestClip(path.join(dir, 'clip.mp4'), { size: '320x180', seconds: 1, silent: true });
  clip = fs.readFileSync(file);
}, 60_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The service form as the browser posts it (multipart, with its length), video fields included. */
async function servicePost(fields: Record<string, string>, captions?: string): Promise<Request> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (captions !== undefined) form.append('captionsFile', new File([captions], 'captions.vtt', { type: 'text/vtt' }));
  // parseForm wants a Content-Length, as browsers send: the body is read into a buffer first.
  const request = new Request('http://localhost/admin/services/new', { method: 'POST', body: form });
  const bytes = new Uint8Array(await request.arrayBuffer());
  return new Request(request.url, {
    method: 'POST',
    headers: { 'content-type': request.headers.get('content-type')!, 'content-length': String(bytes.byteLength) },
    body: bytes,
  });
}

describe('who may attach a video to a service', () => {
  it('every role that may edit services may also upload a video (the upload endpoint asks content:create)', () => {
    const upload = ADMIN_ACCESS['/admin/uploads/video']!.action;
    expect(upload).toBe('content:create');
    const editors = ROLES.filter((role) => can(role, 'services:edit'));
    expect(editors.length).toBeGreaterThan(0);
    for (const role of editors) expect(can(role, upload as 'content:create'), role).toBe(true);
  });
});

describe.each(ENGINES)('sign-language video on services, on %s', (engine) => {
  const database = useTestDatabase(engine, { uploads: true });
  const context = new RouterContextProvider();

  beforeEach(async () => {
    await database().db.deleteFrom('services').execute();
  });

  /** Uploads the clip in chunks as the browser does and runs the processing job: a ready video. */
  async function upload(by = editor) {
    const started = await startVideoUpload(by, { name: 'club.mp4', size: clip.length });
    for (let offset = 0; offset < clip.length; offset += VIDEO_CHUNK_BYTES)
      await appendVideoChunk(by, started.id, offset, clip.subarray(offset, offset + VIDEO_CHUNK_BYTES));
    await processVideo({ videoId: started.id }, { id: 'j', kind: VIDEO_JOB, attempts: 1, maxAttempts: 3 });
    const status = await videoUploadStatus(by, started.id);
    expect(status.status).toBe('ready');
    return status.id;
  }
  const save = async (
    fields: Record<string, string>,
    options: { captions?: string; target?: { mode: 'create' } | { mode: 'edit'; id: string }; actor?: StaffUser } = {},
  ) =>
    saveServiceForm(
      await servicePost(fields, options.captions),
      context,
      options.actor ?? editor,
      options.target ?? { mode: 'create' },
    );
  const videoRow = (id: string) => database().db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirst();
  const storedVideoKeys = async () => {
    const keys: string[] = [];
    for await (const item of getMediaStore().list('videos/')) keys.push(item.key);
    return keys;
  };
  const serviceVideo = async (id: string) =>
    (await database().db.selectFrom('services').select('video_id').where('id', '=', id).executeTakeFirstOrThrow()).video_id;

  it('saves a service with a ready, captioned video and shows it on the service’s public data', async () => {
    const videoId = await upload();
    let changes = 0;
    const stop = onPublicContentChanged(() => (changes += 1));
    try {
      // The job that finishes a video empties every cached page, the services' own among them.
      const another = await startVideoUpload(editor, { name: 'second.mp4', size: clip.length });
      await appendVideoChunk(editor, another.id, 0, clip);
      await processVideo({ videoId: another.id }, { id: 'j', kind: VIDEO_JOB, attempts: 1, maxAttempts: 3 });
      expect(changes).toBe(1);
      await cancelVideoUpload(editor, another.id);
    } finally {
      stop();
    }

    const saved = await save({ ...FIELDS, videoId, transcript: '' }, { captions: CAPTIONS });
    if (!saved.ok) throw new Error(`expected the save to pass: ${JSON.stringify(saved.failure)}`);
    expect(saved.service).toMatchObject({ id: 'sign-language-club', videoId });
    const shown = await getService('sign-language-club');
    // As the service page shows it: the player's markup (sign-language-markup.server.ts).
    // The list marks it for its badge.
    expect((await listServices()).find((s) => s.id === 'sign-language-club')?.signLanguage).toBe(true);
    const player = shown!.video!.player;
    expect(player).toContain('<p>Our club signs every Saturday.</p>');
    expect(player).toContain('width="320" height="180"');
    expect(player).toMatch(/<track kind="captions" src="\/media\/videos\/[^"]+-captions\.vtt"/);
    expect(player).toMatch(/src="\/media\/videos\/[^"]+-360p\.mp4"/);
    expect(player).toMatch(/data-src="\/media\/videos\/[^"]+-240p\.mp4"/);
    // Saved again without a new captions file (the form's hidden field names the video): it stays.
    const again = await save(
      { ...FIELDS, description: 'Changed.', videoId, transcript: 'Our club signs.' },
      { target: { mode: 'edit', id: 'sign-language-club' } },
    );
    expect(again).toMatchObject({ ok: true, service: { videoId, description: 'Changed.' } });
    expect((await getService('sign-language-club'))?.video?.player).toContain('<p>Our club signs.</p>');
    // A post from a page without the video field leaves the video as it is.
    expect(await save(FIELDS, { target: { mode: 'edit', id: 'sign-language-club' } })).toMatchObject({
      ok: true,
      service: { videoId },
    });
    // A service without one, and the built-in services, have none.
    const plain = await createService(editor, serviceSchema.parse({ ...FIELDS, title: 'Plain' }), IP);
    expect((await getService(plain.id))?.video).toBeNull();
    await database().db.deleteFrom('services').execute();
    expect((await getService('digital-skills'))?.video).toBeNull();
    expect((await listServices()).map((s) => s.id)).toContain('digital-skills');
  }, 60_000);

  it('refuses a video without captions (services have no drafts), and one still uploading', async () => {
    const videoId = await upload();
    const refused = await save({ ...FIELDS, videoId, transcript: '' });
    expect(refused).toMatchObject({
      ok: false,
      status: 400,
      failure: { message: SERVICE_MESSAGES.fixErrors, errors: { captions: CAPTIONS_MESSAGES.requiredForService } },
    });
    // The form shows the video again, with what was typed.
    if (refused.ok) throw new Error('expected a refusal');
    expect(refused.failure.video).toMatchObject({ state: { id: videoId, status: 'ready', hasCaptions: false }, transcript: '' });
    expect(await database().db.selectFrom('services').select('id').execute()).toEqual([]);
    await expect(
      createService(editor, serviceSchema.parse(FIELDS), IP, { videoId }).catch((error: unknown) => error),
    ).resolves.toMatchObject({ message: CAPTIONS_MESSAGES.requiredForService, status: 400, field: 'captions' });
    await expect(createService(editor, serviceSchema.parse(FIELDS), IP, { videoId })).rejects.toBeInstanceOf(ServiceRuleError);

    // An edit that adds a video without captions leaves the service as it was.
    const plain = await createService(editor, serviceSchema.parse(FIELDS), IP);
    expect(await save({ ...FIELDS, videoId }, { target: { mode: 'edit', id: plain.id } })).toMatchObject({
      ok: false,
      status: 400,
      failure: { errors: { captions: CAPTIONS_MESSAGES.requiredForService } },
    });
    expect(await serviceVideo(plain.id)).toBeNull();

    // Bad captions are named by line; an upload not yet finished cannot be saved at all.
    const badCaptions = await save({ ...FIELDS, videoId }, { captions: 'WEBVTT\n\n00:00:02.000 --> 00:00:01.000\nHi\n' });
    expect(badCaptions).toMatchObject({
      ok: false,
      status: 400,
      failure: { errors: { captions: 'Line 3: The caption ends before it starts.' } },
    });
    const half = await startVideoUpload(editor, { name: 'half.mp4', size: VIDEO_CHUNK_BYTES * 2 });
    expect(await save({ ...FIELDS, videoId: half.id }, { captions: CAPTIONS })).toMatchObject({
      ok: false,
      status: 400,
      failure: { errors: { video: VIDEO_MESSAGES.stillUploading } },
    });
  }, 60_000);

  it('a refused save of a service leaves its public captions and files as they were', async () => {
    const videoId = await upload();
    const saved = await save({ ...FIELDS, videoId, transcript: '' }, { captions: CAPTIONS });
    if (!saved.ok) throw new Error(`expected the save to pass: ${JSON.stringify(saved.failure)}`);
    const id = saved.service.id;
    const captionsKey = async () => (await videoRow(videoId))!.captions_key!;
    const keyBefore = await captionsKey();
    const playerBefore = (await getService(id))!.video!.player;
    const keysBefore = (await storedVideoKeys()).sort();
    const changed = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nChanged words.\n';
    const edit = { target: { mode: 'edit', id }, captions: changed } as const;

    // The form's own 400s: a title left empty, a picture that is not on file.
    expect(await save({ ...FIELDS, title: '', videoId, transcript: '' }, edit)).toMatchObject({ ok: false, status: 400 });
    expect(
      await save({ ...FIELDS, imageUrl: '/media/services/gone.webp', imageAlt: 'Gone', videoId, transcript: '' }, edit),
    ).toMatchObject({ ok: false, status: 400, failure: { errors: { imageUrl: SERVICE_MESSAGES.imageInvalid } } });
    expect(await captionsKey()).toBe(keyBefore);
    expect((await getService(id))!.video!.player).toBe(playerBefore);
    expect((await storedVideoKeys()).sort()).toEqual(keysBefore);

    // Saved: the new captions are shown, and the replaced file is gone.
    expect(await save({ ...FIELDS, videoId, transcript: '' }, edit)).toMatchObject({ ok: true });
    expect((await getService(id))!.video!.player).toContain('<p>Changed words.</p>');
    const keysAfter = await storedVideoKeys();
    expect(keysAfter).not.toContain(keyBefore);
    expect(keysAfter.filter((key) => !keysBefore.includes(key))).toEqual([await captionsKey()]);
  }, 60_000);

  it('one video sent with 25 saves at once goes on one item only, whichever kinds they are', async () => {
    const videoId = await upload();
    const prepared = await prepareVideoForSave({
      actor: editor,
      videoId,
      contentId: undefined,
      captions: new File([CAPTIONS], 'c.vtt'),
      transcript: '',
    });
    const content = storyInput();
    const input = serviceSchema.parse(FIELDS);
    const keysBefore = await storedVideoKeys();
    // The form's own check (prepareVideoForSave) has passed for all of them: they race to the save,
    // each with its captions.
    const saves = Array.from({ length: 25 }, (_, n) =>
      n % 2 === 0
        ? createContent(
            editor,
            'news',
            { ...content, title: `Signed story ${n}` },
            IP,
            { intent: 'publish' },
            { videoId, prepared },
          )
        : createService(editor, { ...input, title: `Signing club ${n}` }, IP, { videoId, prepared }),
    );
    const results = await Promise.allSettled(saves);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results)
      if (result.status === 'rejected') expect(result.reason).toMatchObject({ message: VIDEO_MESSAGES.inUse, status: 400 });
    const owners = [
      ...(await database().db.selectFrom('content').select('id').where('video_id', '=', videoId).execute()),
      ...(await database().db.selectFrom('services').select('id').where('video_id', '=', videoId).execute()),
    ];
    expect(owners).toHaveLength(1);
    // One captions file is left, the one the video names: the refused saves' went with them.
    const captionsFiles = (await storedVideoKeys()).filter((key) => !keysBefore.includes(key));
    expect(captionsFiles).toEqual([(await videoRow(videoId))!.captions_key]);
  });

  it('a video belongs to one item: a story’s cannot go on a service, nor a service’s on a story or another service', async () => {
    const storyVideo = await upload();
    const prepared = await prepareVideoForSave({
      actor: editor,
      videoId: storyVideo,
      contentId: undefined,
      captions: new File([CAPTIONS], 'c.vtt'),
      transcript: '',
    });
    const content = storyInput();
    const story = await createContent(editor, 'news', content, IP, { intent: 'publish' }, { videoId: storyVideo, prepared });

    const taken = await save({ ...FIELDS, videoId: storyVideo }, { captions: CAPTIONS });
    expect(taken).toMatchObject({ ok: false, status: 400, failure: { errors: { video: VIDEO_MESSAGES.inUse } } });
    // Nor is the story's video shown to the service form, or its captions changed.
    if (taken.ok) throw new Error('expected a refusal');
    expect(taken.failure.video?.state).toBeNull();
    expect((await videoRow(storyVideo))?.captions_vtt).toBe(CAPTIONS);
    expect(await database().db.selectFrom('services').select('id').execute()).toEqual([]);

    const serviceVideo = await upload();
    const saved = await save({ ...FIELDS, videoId: serviceVideo }, { captions: CAPTIONS });
    expect(saved).toMatchObject({ ok: true });
    await expect(
      prepareVideoForSave({
        actor: editor,
        videoId: serviceVideo,
        contentId: story.id,
        captions: undefined,
        transcript: undefined,
      }),
    ).rejects.toMatchObject({ message: VIDEO_MESSAGES.inUse });
    expect(await save({ ...FIELDS, title: 'Other club', videoId: serviceVideo })).toMatchObject({
      ok: false,
      failure: { errors: { video: VIDEO_MESSAGES.inUse } },
    });
    // Cancelling an upload never removes a video a service shows.
    await cancelVideoUpload(editor, serviceVideo);
    expect(await videoRow(serviceVideo)).toBeDefined();
  }, 60_000);

  it('only a role that may edit services writes a service’s video, its captions or transcript', async () => {
    for (const role of ['AUTHOR', 'VIEWER'] as const) {
      const actor = staff(role);
      const own = role === 'AUTHOR' ? await upload(actor) : await upload();
      const refused = await save({ ...FIELDS, videoId: own, transcript: 'Changed' }, { captions: CAPTIONS, actor });
      expect(refused).toMatchObject({ ok: false, status: 403, failure: { message: SERVICE_MESSAGES.forbidden } });
      const row = await videoRow(own);
      expect([row?.captions_key, row?.transcript]).toEqual([null, '']);
    }
    const made = await createService(staff('ADMIN'), serviceSchema.parse(FIELDS), IP);
    const video = await upload();
    expect(
      await save(
        { ...FIELDS, videoId: video },
        { captions: CAPTIONS, actor: staff('AUTHOR'), target: { mode: 'edit', id: made.id } },
      ),
    ).toMatchObject({ ok: false, status: 403 });
    expect(await serviceVideo(made.id)).toBeNull();
    expect((await videoRow(video))?.captions_key).toBeNull();
  }, 60_000);

  it('removing or replacing a service’s video, or deleting the service, removes the old video and its files at once', async () => {
    const first = await upload();
    const saved = await save({ ...FIELDS, videoId: first }, { captions: CAPTIONS });
    if (!saved.ok) throw new Error('expected the save to pass');
    const id = saved.service.id;
    const firstKeys = Object.values((await videoRow(first))!).filter(
      (value): value is string => typeof value === 'string' && value.startsWith('videos/'),
    );
    expect(firstKeys).toHaveLength(4);

    // Replaced: the first goes with its four files, the second stays.
    const second = await upload();
    expect(await save({ ...FIELDS, videoId: second }, { captions: CAPTIONS, target: { mode: 'edit', id } })).toMatchObject({
      ok: true,
      service: { videoId: second },
    });
    expect(await videoRow(first)).toBeUndefined();
    const keys = await storedVideoKeys();
    for (const key of firstKeys) expect(keys).not.toContain(key);
    expect(await videoRow(second)).toBeDefined();

    // Removed ('' from the form's hidden field): it goes too.
    expect(await save({ ...FIELDS, videoId: '' }, { target: { mode: 'edit', id } })).toMatchObject({
      ok: true,
      service: { videoId: null },
    });
    expect(await videoRow(second)).toBeUndefined();
    expect((await getService(id))?.video).toBeNull();

    // Deleted with its service.
    const third = await upload();
    expect(await save({ ...FIELDS, videoId: third }, { captions: CAPTIONS, target: { mode: 'edit', id } })).toMatchObject({
      ok: true,
    });
    const thirdKeys = Object.values((await videoRow(third))!).filter(
      (value): value is string => typeof value === 'string' && value.startsWith('videos/'),
    );
    await deleteService(staff('ADMIN'), id, IP);
    expect(await videoRow(third)).toBeUndefined();
    const left = await storedVideoKeys();
    for (const key of thirdKeys) expect(left).not.toContain(key);
  }, 90_000);

  it('the daily clean-up keeps a service’s video and removes one nobody saved', async () => {
    const kept = await upload();
    expect(await save({ ...FIELDS, videoId: kept }, { captions: CAPTIONS })).toMatchObject({ ok: true });
    const abandoned = await upload();
    await pruneUnusedVideos(Date.now() + VIDEO_ABANDONED_AFTER_MS + 60_000);
    expect(await videoRow(kept)).toBeDefined();
    expect(await videoRow(abandoned)).toBeUndefined();
    expect((await getService('sign-language-club'))?.video).not.toBeNull();
  }, 60_000);
});
