import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { staffAs as staff } from '../../../tests/support/staff';
import { startS3, type S3Sink } from '../../../tests/support/s3';
import { startBackgroundJobs } from '../start-up.server';
import { INTERRUPTED } from '../platform/jobs.server';
import { VIDEO_DEMUXERS } from './video-tools.server';
import { makeTestClip } from '../../../tests/support/video-clips';
import { createS3Store } from './object-store.server';
import { RouterContextProvider } from 'react-router';
import { ContentRuleError, createContent, deleteContent, getContentForAdmin, saveContent } from '../content/content-admin.server';
import { saveContentForm } from '../http/content-form.server';
import { searchContent } from '../content/search.server';
import { getMediaStore, setMediaStore, setUploadsRoot } from './storage.server';
import { setVideoTools } from './video-tools.server';
import {
  appendVideoChunk,
  cancelVideoUpload,
  listFeedVideos,
  prepareVideoForSave,
  processVideo,
  pruneUnusedVideos,
  readPublicVideo,
  renditionSize,
  stageVideoWrite,
  startVideoUpload,
  VIDEO_ABANDONED_AFTER_MS,
  VIDEO_JOB,
  videoUploadStatus,
  VideoRuleError,
  VideoUnavailableError,
} from './video.server';
import { contentSchema, type ContentInput } from '../../lib/content-form';
import { VIDEO_CHUNK_BYTES, VIDEO_MAX_SIDE, VIDEO_MESSAGES, VIDEO_UPLOADS_PER_DAY } from '../../lib/video-upload';
import { attemptsInWindow } from '../platform/limits.server';
import { CAPTIONS_MESSAGES } from '../../lib/webvtt';
import { REVISION_MESSAGES, revisionVideoNote } from '../../lib/revisions';
import { getRevision, listRevisions } from '../content/revisions.server';

// Issue 14: the upload, the processing with the real ffmpeg, and the rules of a story with a video,
// on each database engine. Small videos are made with ffmpeg for the test.

const IP = '198.51.100.30';
const editor = staff('EDITOR');
const author = staff('AUTHOR');

const input = (title: string): ContentInput =>
  contentSchema('news').parse({
    title,
    category: 'education',
    tags: 'sign language',
    summary: 'A story told in Ugandan Sign Language.',
    content: '<p>Deaf students in Kampala now follow every recorded lesson with captions and sign language.</p>',
  });

const CAPTIONS =
  'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nWelcome to our story.\n\n00:00:01.000 --> 00:00:02.000\nWe sign every Saturday.\n';
const vtt = (text = CAPTIONS) => new File([text], 'captions.vtt', { type: 'text/vtt' });

/** The content form as the browser posts it (multipart, with its length), a captions file attached. */
async function contentPost(fields: Record<string, string>, captions: string): Promise<Request> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('captionsFile', vtt(captions));
  const posted = new Request('http://localhost/admin/content/x/edit', { method: 'POST', body: form });
  const bytes = new Uint8Array(await posted.arrayBuffer());
  return new Request(posted.url, {
    method: 'POST',
    headers: { 'content-type': posted.headers.get('content-type')!, 'content-length': String(bytes.byteLength) },
    body: bytes,
  });
}

let dir: string;
/** Over one chunk: a noisy 2-second 640×360 MP4 with sound (about 6 MB). */
let bigVideo: Buffer;
/** A small portrait MOV without sound, as a phone held upright makes (rotated 90°). */
let portraitVideo: Buffer;
let png: Buffer;

function ffmpeg(args: string[], out: string): Buffer {
  const file = path.join(dir, out);
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, file]);
  return fs.readFileSync(file);
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-video-test-'));
  bigVideo = ffmpeg(
    [
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=640x360:rate=25,noise=alls=40:allf=t',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440',
      '-t',
      '2',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-crf',
      '22',
      '-c:a',
      'aac',
      '-pix_fmt',
      'yuv420p',
    ],
    'big.mp4',
  );
  ffmpeg(
    ['-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=25', '-t', '1', '-c:v', 'libx264', '-pix_fmt', 'yuv420p'],
    'landscape.mp4',
  );
  // The rotation a phone records is a display matrix, written when the stream is copied into a MOV.
  portraitVideo = ffmpeg(['-i', path.join(dir, 'landscape.mp4'), '-c', 'copy', '-metadata:s:v:0', 'rotate=90'], 'portrait.mov');
  png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123456' } })
    .png()
    .toBuffer();
}, 60_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * Points the site at ffmpeg and ffprobe through wrappers that note each run's arguments (one line a
 * run, in `runs()`) and whether a transcode started while another was still running (`overlaps()`).
 */
function recordTools(name: string, transcodePauseSeconds = 0) {
  const log = path.join(dir, `${name}.runs`);
  const overlapLog = path.join(dir, `${name}.overlaps`);
  const held = path.join(dir, `${name}.transcoding`);
  fs.writeFileSync(log, '');
  fs.writeFileSync(overlapLog, '');
  const wrapper = (tool: string) => {
    const file = path.join(dir, `${name}-${tool}.sh`);
    fs.writeFileSync(
      file,
      [
        '#!/bin/sh',
        `case "$*" in *-version*) exec ${tool} "$@";; esac`,
        `printf '%s %s\n' ${tool} "$*" >> '${log}'`,
        // mkdir either makes the folder or fails because it is there: another transcode is running.
        `case "$*" in *'-filter_complex ['*) mkdir '${held}' 2>/dev/null || echo overlap >> '${overlapLog}'; sleep ${transcodePauseSeconds}; ${tool} "$@"; code=$?; rmdir '${held}' 2>/dev/null; exit $code;; esac`,
        `exec ${tool} "$@"`,
      ].join('\n'),
      { mode: 0o755 },
    );
    return file;
  };
  setVideoTools({ ffmpeg: wrapper('ffmpeg'), ffprobe: wrapper('ffprobe') });
  const lines = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
  return { runs: () => lines(log), overlaps: () => lines(overlapLog).length };
}

describe('rendition sizes', () => {
  it('keeps the shorter side at most 360 or 240 pixels, even, never enlarged', () => {
    expect(renditionSize(1920, 1080, 360)).toEqual({ width: 640, height: 360 });
    expect(renditionSize(1080, 1920, 240)).toEqual({ width: 240, height: 426 });
    expect(renditionSize(320, 180, 360)).toEqual({ width: 320, height: 180 });
  });
});

describe.each(ENGINES)('sign-language video on %s', (engine) => {
  const database = useTestDatabase(engine, { uploads: true });
  afterEach(() => setVideoTools({ ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' }));

  /** Uploads `bytes` in chunks as the browser does, and runs the processing job. */
  async function upload(bytes: Buffer, name: string, by = editor) {
    const started = await startVideoUpload(by, { name, size: bytes.length });
    for (let offset = 0; offset < bytes.length; offset += VIDEO_CHUNK_BYTES)
      await appendVideoChunk(by, started.id, offset, bytes.subarray(offset, offset + VIDEO_CHUNK_BYTES));
    await processVideo({ videoId: started.id }, { id: 'j', kind: VIDEO_JOB, attempts: 1, maxAttempts: 3 });
    return videoUploadStatus(by, started.id);
  }
  const storedKeys = async () => {
    const keys: string[] = [];
    for await (const item of getMediaStore().list('video')) keys.push(item.key);
    return keys.sort();
  };
  /** A stored file's text, as /media serves it. */
  const storedText = async (key: string) => {
    const stored = await getMediaStore().get(key);
    if (!stored) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of stored.body) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  };

  it('takes chunks in order, resumes after a dropped one, and refuses what does not fit', async () => {
    const started = await startVideoUpload(editor, { name: 'My story.mp4', size: bigVideo.length });
    expect(started).toMatchObject({ status: 'uploading', received: 0, chunkBytes: VIDEO_CHUNK_BYTES });
    const first = bigVideo.subarray(0, VIDEO_CHUNK_BYTES);
    expect((await appendVideoChunk(editor, started.id, 0, first)).received).toBe(VIDEO_CHUNK_BYTES);
    // The same chunk again (its answer was lost): accepted, nothing changes.
    expect((await appendVideoChunk(editor, started.id, 0, first)).received).toBe(VIDEO_CHUNK_BYTES);
    // After a dropped connection the browser asks where to go on from.
    expect((await videoUploadStatus(editor, started.id)).received).toBe(VIDEO_CHUNK_BYTES);
    await expect(appendVideoChunk(editor, started.id, 2 * VIDEO_CHUNK_BYTES, first)).rejects.toMatchObject({
      message: VIDEO_MESSAGES.outOfOrder,
      status: 409,
    });
    await expect(
      appendVideoChunk(editor, started.id, VIDEO_CHUNK_BYTES, bigVideo.subarray(VIDEO_CHUNK_BYTES, VIDEO_CHUNK_BYTES + 10)),
    ).rejects.toBeInstanceOf(VideoRuleError);
    // Someone else's upload is not found.
    await expect(videoUploadStatus(author, started.id)).rejects.toMatchObject({ status: 404 });
    const done = await appendVideoChunk(editor, started.id, VIDEO_CHUNK_BYTES, bigVideo.subarray(VIDEO_CHUNK_BYTES));
    expect(done).toMatchObject({ status: 'processing', received: bigVideo.length });
    const job = await database().db.selectFrom('jobs').select(['kind', 'payload']).where('kind', '=', VIDEO_JOB).execute();
    expect(job.map((j) => JSON.parse(j.payload))).toContainEqual({ videoId: started.id });
    await expect(appendVideoChunk(editor, started.id, 0, first)).rejects.toMatchObject({ status: 409 });
    await cancelVideoUpload(editor, started.id);
  });

  it(`lets one person start at most ${VIDEO_UPLOADS_PER_DAY} uploads a day, however many arrive at once`, async () => {
    const busy = staff('AUTHOR', 'Busy');
    const tries = await Promise.allSettled(
      Array.from({ length: VIDEO_UPLOADS_PER_DAY + 10 }, (_, n) => startVideoUpload(busy, { name: `${n}.mp4`, size: 1_000 })),
    );
    expect(tries.filter((t) => t.status === 'fulfilled')).toHaveLength(VIDEO_UPLOADS_PER_DAY);
    const refused = tries.flatMap((t) => (t.status === 'rejected' ? [t.reason as unknown] : []));
    expect(refused).toHaveLength(10);
    for (const reason of refused) expect(reason).toMatchObject({ message: VIDEO_MESSAGES.tooManyUploads, status: 429 });
    const rows = await database().db.selectFrom('videos').select('id').where('uploaded_by', '=', busy.email).execute();
    expect(rows).toHaveLength(VIDEO_UPLOADS_PER_DAY);
    // Someone else may still upload; a refused request for a bad file counts nothing.
    const other = staff('AUTHOR', 'Other');
    await expect(startVideoUpload(other, { name: 'a.mp4', size: 0 })).rejects.toMatchObject({ status: 400 });
    expect(await startVideoUpload(other, { name: 'a.mp4', size: 1_000 })).toMatchObject({ status: 'uploading' });
    expect(await attemptsInWindow('video-upload:other@example.org', 24 * 60 * 60 * 1000)).toBe(1);
  });

  it('refuses an empty file and one over 500 MB before anything is sent', async () => {
    await expect(startVideoUpload(editor, { name: 'a.mp4', size: 0 })).rejects.toMatchObject({ message: VIDEO_MESSAGES.empty });
    await expect(startVideoUpload(editor, { name: 'a.mp4', size: 500_000_001 })).rejects.toMatchObject({
      message: VIDEO_MESSAGES.tooLarge,
      status: 413,
    });
  });

  it('transcodes to 360p and 240p H.264/AAC MP4 with faststart and a poster, and removes the chunks', async () => {
    const status = await upload(bigVideo, 'Our story.mp4');
    expect(status).toMatchObject({ status: 'ready', progress: 100, error: null });
    const row = await database().db.selectFrom('videos').selectAll().where('id', '=', status.id).executeTakeFirstOrThrow();
    expect(Number(row.duration_ms)).toBeGreaterThan(1900);
    expect(Number(row.duration_ms)).toBeLessThan(2200);
    const keys = await storedKeys();
    expect(keys.some((k) => k.startsWith('video-uploads/'))).toBe(false);
    expect(keys).toEqual(expect.arrayContaining([row.rendition_360_key, row.rendition_240_key, row.poster_key]));
    for (const [key, height] of [
      [row.rendition_360_key!, 360],
      [row.rendition_240_key!, 240],
    ] as const) {
      const file = path.join(database().dataDir, 'uploads', key);
      const probe = JSON.parse(
        execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', file], {
          encoding: 'utf8',
        }),
      ) as { streams: { codec_name: string; height?: number }[]; format: { format_name: string } };
      expect(probe.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
      expect(probe.streams.find((s) => s.codec_name === 'h264')!.height).toBe(height);
      // faststart: the index (moov) comes before the media (mdat), so playback starts at once.
      const bytes = fs.readFileSync(file);
      expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
    }
    expect(Number(row.rendition_240_bytes)).toBeLessThan(Number(row.rendition_360_bytes));
  }, 120_000);

  it('names a video, its files and its captions with 128 random bits each, never by the time', async () => {
    const status = await upload(portraitVideo, 'Secret story.mov');
    const prepared = await prepareVideoForSave({
      actor: editor,
      videoId: status.id,
      contentId: undefined,
      captions: vtt(),
      transcript: undefined,
    });
    const staged = await stageVideoWrite(prepared);
    await database()
      .db.transaction()
      .execute((trx) => staged.write(trx));
    await staged.finish();
    const stored = await database().db.selectFrom('videos').selectAll().where('id', '=', status.id).executeTakeFirstOrThrow();
    const random = '[0-9a-f]{32}';
    expect(stored.rendition_360_key).toMatch(new RegExp(`^videos/${random}_Secret_story-360p\\.mp4$`));
    expect(stored.rendition_240_key).toMatch(new RegExp(`^videos/${random}_Secret_story-240p\\.mp4$`));
    expect(stored.poster_key).toMatch(new RegExp(`^videos/${random}_Secret_story-poster\\.jpg$`));
    expect(stored.captions_key).toMatch(new RegExp(`^videos/${random}_${status.id.slice(0, 8)}-captions\\.vtt$`));
    // The chunks are kept under the video's id: all 128 bits random, where a UUID's version and
    // variant fix 6 of them (the chance that 8 random ids all look like version 4 is 16^-8).
    const ids = await Promise.all(
      Array.from(
        { length: 8 },
        async (_, n) => (await startVideoUpload(staff('EDITOR', 'Ids'), { name: `${n}.mp4`, size: 10 })).id,
      ),
    );
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(ids.every((id) => id[14] === '4')).toBe(false);
  }, 60_000);

  it('turns a phone video held upright and without sound into portrait renditions', async () => {
    const status = await upload(portraitVideo, 'upright.mov');
    expect(status.status).toBe('ready');
    const row = await database().db.selectFrom('videos').selectAll().where('id', '=', status.id).executeTakeFirstOrThrow();
    expect([row.width, row.height]).toEqual([180, 320]);
  }, 60_000);

  it('refuses anything that is not a decodable video, whatever its name, and a video over 15 minutes', async () => {
    expect(await upload(png, 'picture.mp4')).toMatchObject({ status: 'failed', error: VIDEO_MESSAGES.notVideo });
    expect(await upload(Buffer.from('not a video at all'), 'notes.mov')).toMatchObject({
      status: 'failed',
      error: VIDEO_MESSAGES.notVideo,
    });
    // A real MP4 cut short: its header reads but the frames are gone.
    expect(await upload(bigVideo.subarray(0, 40_000), 'cut.mp4')).toMatchObject({ status: 'failed' });
    const long = ffmpeg(
      ['-f', 'lavfi', '-i', 'testsrc=size=32x32:rate=1', '-t', '960', '-c:v', 'libx264', '-pix_fmt', 'yuv420p'],
      'long.mp4',
    );
    expect(await upload(long, 'long.mp4')).toMatchObject({ status: 'failed', error: VIDEO_MESSAGES.tooLong });
    // Nothing of them stays stored.
    expect((await storedKeys()).some((k) => k.startsWith('video-uploads/'))).toBe(false);
  }, 60_000);

  it(`refuses a video over ${VIDEO_MAX_SIDE} pixels wide or high in plain words, and never decodes it`, async () => {
    const tools = recordTools(`wide-${engine}`);
    const wide = fs.readFileSync(makeTestClip(path.join(dir, 'wide.mp4'), { size: '4200x64', seconds: 1, silent: true }));
    expect(await upload(wide, 'wide.mp4')).toMatchObject({ status: 'failed', error: VIDEO_MESSAGES.tooManyPixels });
    // One frame over the limit both ways (an 8192 × 8192 one of 198 KB took ffmpeg over 700 MB).
    const square = ffmpeg(
      [
        '-f',
        'lavfi',
        '-i',
        'color=size=4098x4098:rate=1',
        '-t',
        '1',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
      ],
      'square.mp4',
    );
    expect(await upload(square, 'square.mp4')).toMatchObject({ status: 'failed', error: VIDEO_MESSAGES.tooManyPixels });
    // Refused at the probe, which reads only the headers: ffmpeg never ran.
    expect(tools.runs().filter((run) => run.startsWith('ffmpeg'))).toEqual([]);
    expect(tools.runs().every((run) => run.includes(' -skip_frame all '))).toBe(true);
    // At the limit it is processed (never enlarged: the renditions keep its 64 pixels).
    const edge = fs.readFileSync(makeTestClip(path.join(dir, 'edge.mp4'), { size: `${VIDEO_MAX_SIDE}x64`, seconds: 1 }));
    expect(await upload(edge, 'edge.mp4')).toMatchObject({ status: 'ready', error: null });
  }, 60_000);

  it('reads only files in the accepted containers: a playlist named .mp4 is refused and what it lists is never opened', async () => {
    // A named pipe outside the site's folders, as a playlist line may name: opening it lets the writer
    // below go on and leave its mark.
    const pipe = path.join(dir, `outside-${engine}.ts`);
    const mark = path.join(dir, `outside-${engine}.opened`);
    execFileSync('mkfifo', [pipe]);
    const writer = spawn('sh', ['-c', `printf x > '${pipe}' && touch '${mark}'`], { stdio: 'ignore' });
    try {
      const playlist = `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n${pipe}\n#EXT-X-ENDLIST\n`;
      expect(await upload(Buffer.from(playlist), 'playlist.mp4')).toMatchObject({
        status: 'failed',
        error: VIDEO_MESSAGES.notVideo,
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(fs.existsSync(mark)).toBe(false);
    } finally {
      writer.kill();
    }
  }, 30_000);

  it('gives ffprobe and both ffmpeg runs local files in the accepted containers only, and two threads', async () => {
    const tools = recordTools(`arguments-${engine}`);
    expect(await upload(portraitVideo, 'upright.mov')).toMatchObject({ status: 'ready' });
    const runs = tools.runs();
    const limits = `-protocol_whitelist file -format_whitelist ${VIDEO_DEMUXERS}`;
    const threads = `-max_pixels ${VIDEO_MAX_SIDE * VIDEO_MAX_SIDE} -threads 2 -filter_threads 1 -filter_complex_threads 1`;
    const probe = runs.filter((run) => run.startsWith('ffprobe'));
    const transcode = runs.filter((run) => run.includes('-filter_complex '));
    const poster = runs.filter((run) => run.includes('-frames:v 1'));
    expect([probe.length, transcode.length, poster.length]).toEqual([1, 1, 1]);
    for (const run of [...probe, ...transcode, ...poster]) {
      // Options that apply to the input come before it: `-i file` for ffmpeg, the last word for ffprobe.
      const input = run.startsWith('ffprobe') ? run.lastIndexOf(' ') : run.indexOf(' -i ');
      expect(run.indexOf(limits)).toBeGreaterThan(0);
      expect(run.indexOf(limits)).toBeLessThan(input);
    }
    for (const run of [...transcode, ...poster]) {
      // The decoder (no picture over the limit) and the filters before the input; each encoder with its output.
      expect(run.indexOf(threads)).toBeLessThan(run.indexOf(' -i '));
      const encoders = run.match(/ -c:v libx264 /g)?.length ?? 1;
      expect(run.slice(run.indexOf(' -i ')).match(/ -threads 2 /g)).toHaveLength(encoders);
    }
  }, 60_000);

  it('transcodes one video at a time on the whole site, with two workers on one database', async () => {
    const tools = recordTools(`one-at-a-time-${engine}`, 1);
    const uploads = await Promise.all(
      ['first.mov', 'second.mov'].map(async (name) => {
        const started = await startVideoUpload(editor, { name, size: portraitVideo.length });
        return started.id;
      }),
    );
    // Two workers, as two processes or instances start them; each would take a transcode at once.
    const stops = [startBackgroundJobs({ pollMs: 20 }), startBackgroundJobs({ pollMs: 20 })];
    try {
      for (const id of uploads) await appendVideoChunk(editor, id, 0, portraitVideo);
      for (const id of uploads)
        await vi.waitFor(async () => expect((await videoUploadStatus(editor, id)).status).toBe('ready'), {
          timeout: 60_000,
          interval: 100,
        });
    } finally {
      for (const stop of stops) await stop();
    }
    expect(tools.runs().filter((run) => run.includes('-filter_complex '))).toHaveLength(2);
    expect(tools.overlaps()).toBe(0);
  }, 90_000);

  it('says video processing is unavailable, and why, when ffmpeg is missing', async () => {
    setVideoTools({ ffmpeg: '/nonexistent/ffmpeg', ffprobe: '/nonexistent/ffprobe' });
    const refusal = await startVideoUpload(editor, { name: 'a.mp4', size: 10 }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(VideoUnavailableError);
    expect((refusal as Error).message).toBe(
      'Video processing is unavailable: ffmpeg is not installed on the server (on Debian or Ubuntu: apt-get install ffmpeg).',
    );
  });

  it('publishes a story with a video only with captions, shows it, lists it and feeds it', async () => {
    const video = await upload(portraitVideo, 'story.mov');
    // Without captions: a draft may wait for them; publishing and scheduling are refused.
    const draft = await createContent(editor, 'news', input('Signed story'), IP, { intent: 'draft' }, { videoId: video.id });
    const refused = await saveContent(editor, draft.id, input('Signed story'), IP, { intent: 'publish' }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ContentRuleError);
    expect(refused).toMatchObject({ message: CAPTIONS_MESSAGES.required, field: 'captions', status: 400 });
    await expect(
      createContent(editor, 'news', input('Other'), IP, { intent: 'publish' }, { videoId: video.id }),
    ).rejects.toMatchObject({ message: CAPTIONS_MESSAGES.required });
    expect(await readPublicVideo(video.id)).toBeNull();

    // Bad captions are refused with the line and the reason; good ones make the transcript.
    await expect(
      prepareVideoForSave({
        actor: editor,
        videoId: video.id,
        contentId: draft.id,
        captions: vtt('WEBVTT\n\n00:00:02.000 --> 00:00:01.000\nHi\n'),
        transcript: '',
      }),
    ).rejects.toMatchObject({ message: 'Line 3: The caption ends before it starts.', field: 'captions' });
    const prepared = await prepareVideoForSave({
      actor: editor,
      videoId: video.id,
      contentId: draft.id,
      captions: vtt(),
      transcript: '',
    });
    const published = await saveContent(
      editor,
      draft.id,
      input('Signed story'),
      IP,
      { intent: 'publish' },
      undefined,
      undefined,
      {
        videoId: video.id,
        prepared,
      },
    );
    expect(published.videoId).toBe(video.id);

    const shown = await readPublicVideo(video.id);
    expect(shown).toMatchObject({ transcript: 'Welcome to our story. We sign every Saturday.', width: 180, height: 320 });
    expect(shown!.files.map((f) => f.quality)).toEqual(['360p', '240p']);
    const vttFile = await getMediaStore().get(shown!.captionsUrl.slice('/media/'.length));
    expect(vttFile).toBeDefined();

    const listed = await searchContent({ collection: 'news', signLanguage: true, limit: 10 });
    expect(listed.rows.map((r) => r.id)).toEqual([draft.id]);
    expect(Boolean(Number(listed.rows[0]!.sign_language) || listed.rows[0]!.sign_language === true)).toBe(true);
    const feed = await listFeedVideos([draft.id]);
    expect(feed.get(draft.id)).toEqual({ url: shown!.files[0]!.url, bytes: shown!.files[0]!.bytes });

    // Another item cannot take the same video.
    await expect(
      prepareVideoForSave({ actor: editor, videoId: video.id, contentId: 'other', captions: undefined, transcript: undefined }),
    ).rejects.toMatchObject({
      message: VIDEO_MESSAGES.inUse,
    });

    // Removing it from the story removes its files at once.
    const keysBefore = await storedKeys();
    await saveContent(editor, draft.id, input('Signed story'), IP, { intent: 'publish' }, undefined, undefined, {
      videoId: null,
    });
    expect(await database().db.selectFrom('videos').select('id').where('id', '=', video.id).executeTakeFirst()).toBeUndefined();
    const keysAfter = await storedKeys();
    expect(keysBefore.filter((k) => !keysAfter.includes(k)).length).toBe(4);

    // Each revision describes the video it had: the draft's without captions, the published one's
    // with them, none after its removal; the history says a restore cannot bring it back.
    const history = await listRevisions(draft.id);
    const recorded = await Promise.all(history.map(async (r) => (await getRevision(draft.id, r.id))!.snapshot.video));
    expect(recorded).toEqual([
      null,
      { id: video.id, name: 'story.mov', durationSeconds: expect.closeTo(1, 0) as number, captions: true },
      { id: video.id, name: 'story.mov', durationSeconds: expect.closeTo(1, 0) as number, captions: false },
    ]);
    expect(revisionVideoNote(recorded[1], null)).toBe(REVISION_MESSAGES.videoRemoved);
  }, 60_000);

  it('leaves a published story’s captions as they were when a save with new captions is refused (409, 400)', async () => {
    const video = await upload(portraitVideo, 'story.mov');
    const prepared = await prepareVideoForSave({
      actor: editor,
      videoId: video.id,
      contentId: undefined,
      captions: vtt(),
      transcript: '',
    });
    const story = await createContent(
      editor,
      'news',
      input('Signed story'),
      IP,
      { intent: 'publish' },
      { videoId: video.id, prepared },
    );
    const shownBefore = await readPublicVideo(video.id);
    const keysBefore = await storedKeys();
    const captionsNow = async () => {
      const shown = await readPublicVideo(video.id);
      return { shown, file: await storedText(shown!.captionsUrl.slice('/media/'.length)) };
    };
    expect(await captionsNow()).toEqual({ shown: shownBefore, file: CAPTIONS });

    const changed = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nChanged words.\n';
    const post = async (fields: Record<string, string>) =>
      saveContentForm(
        await contentPost(
          {
            title: 'Signed story',
            category: 'education',
            tags: 'sign language',
            summary: 'A story told in Ugandan Sign Language.',
            content: '<p>Deaf students in Kampala now follow every recorded lesson with captions and sign language.</p>',
            intent: 'publish',
            version: String(story.version),
            videoId: video.id,
            transcript: '',
            ...fields,
          },
          changed,
        ),
        new RouterContextProvider(),
        editor,
        { mode: 'edit', type: 'news', id: story.id },
      );

    // Opened before someone else saved: a 409, and the public captions, transcript and files unchanged.
    await saveContent(editor, story.id, input('Signed story, edited'), IP, { intent: 'publish' });
    expect(await post({})).toMatchObject({ ok: false, status: 409 });
    expect(await captionsNow()).toEqual({ shown: shownBefore, file: CAPTIONS });
    expect(await storedKeys()).toEqual(keysBefore);

    // A title left empty: the form's own 400, and nothing changed either.
    const current = String((await getContentForAdmin(story.id))!.version);
    expect(await post({ title: '', version: current })).toMatchObject({
      ok: false,
      status: 400,
      errors: { title: expect.any(String) as string },
    });
    expect(await captionsNow()).toEqual({ shown: shownBefore, file: CAPTIONS });
    expect(await storedKeys()).toEqual(keysBefore);

    // Saved: the new captions and their transcript are public, and the replaced file is gone.
    expect(await post({ version: current })).toMatchObject({ ok: true, status: 200 });
    const after = await captionsNow();
    expect(after.file).toBe(changed);
    expect(after.shown!.transcript).toBe('Changed words.');
    const keysAfter = await storedKeys();
    expect(keysAfter).not.toContain(shownBefore!.captionsUrl.slice('/media/'.length));
    expect(keysAfter.filter((key) => !keysBefore.includes(key))).toEqual([after.shown!.captionsUrl.slice('/media/'.length)]);
  }, 60_000);

  it('stops ffmpeg when the process stops mid-transcode, keeps the upload, and processes it at the next start', async () => {
    const long = fs.readFileSync(makeTestClip(path.join(dir, `long-${engine}.mp4`), { seconds: 30 }));
    // ffmpeg through a wrapper that notes the transcode's process id (not the -version check's).
    const pidFile = path.join(dir, `transcode-${engine}.pid`);
    const wrapper = path.join(dir, `ffmpeg-${engine}.sh`);
    fs.writeFileSync(
      wrapper,
      `#!/bin/sh\ncase "$*" in *'-filter_complex ['*) echo $$ > '${pidFile}';; esac\nexec ffmpeg "$@"\n`,
      {
        mode: 0o755,
      },
    );
    setVideoTools({ ffmpeg: wrapper, ffprobe: 'ffprobe' });
    const started = await startVideoUpload(editor, { name: 'long.mp4', size: long.length });
    const stop = startBackgroundJobs({ pollMs: 20 });
    try {
      for (let offset = 0; offset < long.length; offset += VIDEO_CHUNK_BYTES)
        await appendVideoChunk(editor, started.id, offset, long.subarray(offset, offset + VIDEO_CHUNK_BYTES));
      await vi.waitFor(() => expect(fs.existsSync(pidFile)).toBe(true), { timeout: 30_000, interval: 20 });
    } finally {
      await stop();
    }
    const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
    const running = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    // Stopping waited for ffmpeg to end, not for the transcode to finish.
    expect(running()).toBe(false);
    expect(await videoUploadStatus(editor, started.id)).toMatchObject({ status: 'processing', progress: 0 });
    const job = () =>
      database()
        .db.selectFrom('jobs')
        .select(['status', 'attempts', 'last_error'])
        .where('kind', '=', VIDEO_JOB)
        .where('payload', 'like', `%${started.id}%`)
        .executeTakeFirstOrThrow();
    expect(await job()).toMatchObject({ status: 'queued', attempts: 0, last_error: INTERRUPTED });
    expect((await storedKeys()).filter((k) => k.startsWith(`video-uploads/${started.id}/`)).length).toBe(
      Math.ceil(long.length / VIDEO_CHUNK_BYTES),
    );

    // The next start processes it from its chunks.
    setVideoTools({ ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' });
    const next = startBackgroundJobs({ pollMs: 20 });
    try {
      await vi.waitFor(async () => expect((await videoUploadStatus(editor, started.id)).status).toBe('ready'), {
        timeout: 90_000,
        interval: 100,
      });
    } finally {
      await next();
    }
    expect(await job()).toMatchObject({ status: 'done', attempts: 1 });
  }, 150_000);

  it('removes a story’s video with the story, and videos nobody saved a day later', async () => {
    const kept = await upload(portraitVideo, 'kept.mov');
    // A video on no item yet is its uploader's: nobody else can attach it (or change its captions).
    await expect(
      prepareVideoForSave({ actor: author, videoId: kept.id, contentId: undefined, captions: vtt(), transcript: undefined }),
    ).rejects.toMatchObject({ message: VIDEO_MESSAGES.notFound });
    const prepared = await prepareVideoForSave({
      actor: editor,
      videoId: kept.id,
      contentId: undefined,
      captions: vtt(),
      transcript: undefined,
    });
    const item = await createContent(editor, 'news', input('Kept'), IP, { intent: 'publish' }, { videoId: kept.id, prepared });
    const abandoned = await upload(portraitVideo, 'abandoned.mov');
    const halfway = await startVideoUpload(editor, { name: 'half.mp4', size: bigVideo.length });
    await appendVideoChunk(editor, halfway.id, 0, bigVideo.subarray(0, VIDEO_CHUNK_BYTES));

    expect(await pruneUnusedVideos()).toBe(0);
    expect(await pruneUnusedVideos(Date.now() + VIDEO_ABANDONED_AFTER_MS + 60_000)).toBeGreaterThanOrEqual(2);
    const left = (await database().db.selectFrom('videos').select('id').execute()).map((r) => r.id);
    expect(left).toContain(kept.id);
    expect(left).not.toContain(abandoned.id);
    expect(left).not.toContain(halfway.id);
    expect((await storedKeys()).some((k) => k.startsWith(`video-uploads/${halfway.id}`))).toBe(false);

    await deleteContent(staff('ADMIN'), item.id, IP);
    expect(await database().db.selectFrom('videos').select('id').where('id', '=', kept.id).executeTakeFirst()).toBeUndefined();
  }, 60_000);
});

describe.each(ENGINES)('sign-language video in an S3-compatible bucket, through the job worker, on %s', (engine) => {
  const database = useTestDatabase(engine, { uploads: true });
  let s3: S3Sink;

  beforeAll(async () => {
    s3 = await startS3();
    setMediaStore(await createS3Store(s3.settings('tdg/')));
  });
  afterAll(async () => {
    setUploadsRoot(database().dataDir);
    await s3.close();
  });

  it('keeps the chunks and the finished files in the bucket (any instance can resume or process), never on disk', async () => {
    const started = await startVideoUpload(editor, { name: 'bucket.mp4', size: bigVideo.length });
    await appendVideoChunk(editor, started.id, 0, bigVideo.subarray(0, VIDEO_CHUNK_BYTES));
    const keys = async () => {
      const found: string[] = [];
      for await (const item of getMediaStore().list('video')) found.push(item.key);
      return found.sort();
    };
    expect(await keys()).toEqual([`video-uploads/${started.id}/000000.part`]);
    // The last chunk queues the job; the worker started at start-up runs it.
    const stop = startBackgroundJobs({ pollMs: 20 });
    try {
      await appendVideoChunk(editor, started.id, VIDEO_CHUNK_BYTES, bigVideo.subarray(VIDEO_CHUNK_BYTES));
      await vi.waitFor(async () => expect((await videoUploadStatus(editor, started.id)).status).toBe('ready'), {
        timeout: 60_000,
        interval: 100,
      });
    } finally {
      await stop();
    }
    const stored = await keys();
    expect(stored.some((k) => k.startsWith('video-uploads/'))).toBe(false);
    expect(stored.filter((k) => /-(360p|240p)\.mp4$|-poster\.jpg$/.test(k))).toHaveLength(3);
    expect(fs.existsSync(path.join(database().dataDir, 'uploads'))).toBe(false);
  }, 90_000);
});
