import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Kysely, Selectable, Transaction } from 'kysely';
import { z } from 'zod';
import type { Database, VideoTable } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { optionalFile } from '../../lib/forms.ts';
import { nowIso } from '../platform/ids.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { enqueueJob, type JobInfo } from '../platform/jobs.server.ts';
import { publicContentChanged } from '../platform/public-changes.server.ts';
import { RuleError, type RuleStatus } from '../platform/rule-error.server.ts';
import { VIDEO_UPLOADS_PREFIX } from './object-store.server.ts';
import { reserveAttempt, takeSlot } from '../platform/limits.server.ts';
import { fileStem, getMediaStore, MEDIA_URL_PREFIX, newStoredBase, safeFileName } from './storage.server.ts';
import { checkVideoTools, DECODE_LIMITS, INPUT_LIMITS, runTool, THREAD_LIMITS, videoTools } from './video-tools.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import { captionsMessage, checkCaptionsBytes, transcriptFromCues } from '../../lib/webvtt.ts';
import {
  TRANSCRIPT_MAX,
  VIDEO_CHUNK_BYTES,
  VIDEO_CHUNKS_AT_ONCE,
  VIDEO_MAX_BYTES,
  VIDEO_MAX_SECONDS,
  VIDEO_MAX_SIDE,
  VIDEO_MESSAGES,
  VIDEO_UPLOADS_PER_DAY,
  type VideoFormState,
} from '../../lib/video-upload.ts';
import type { PublicVideo } from '../../lib/video.ts';
import type { RevisionVideo } from '../../lib/revisions.ts';

// Issue 14: sign-language videos (docs/decisions/020-sign-language-video.md).
//
// 1. The browser sends the file in chunks of VIDEO_CHUNK_BYTES, in order, each stored in the media
//    store as it arrives (so a dropped connection resumes at the last whole chunk, on any instance).
// 2. The last chunk queues a `video.process` job: the chunks are joined in a temporary folder,
//    probed (anything that is not an MP4, MOV or WebM video of at most 15 minutes and 4096 pixels a
//    side is refused, whatever its name), transcoded (one video at a time on the whole site) to
//    H.264/AAC MP4 at about 360p and 240p with faststart, and a poster is taken; the three files go
//    to the media store and the chunks are removed.
// 3. The content form attaches the video to its item (content.video_id), and the service form to its
//    service (services.video_id), with its captions and transcript; an item with a video is published
//    only with captions. A video belongs to at most one story, news item or service.

type Db = Kysely<Database> | Transaction<Database>;
type VideoRow = Selectable<VideoTable>;

export const VIDEO_JOB = 'video.process';
/** How long an upload may wait for its next chunk, or a video for its form to be saved. */
export const VIDEO_ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;
/** The day VIDEO_UPLOADS_PER_DAY counts over (pruneLimits keeps counters a day: no longer). */
const UPLOAD_COUNT_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * The longest a chunk may hold one of its sender's VIDEO_CHUNKS_AT_ONCE places: far over the
 * server's 30-second limit on receiving a request (server.ts), so only a place whose process stopped
 * mid-chunk is ever freed by it.
 */
const CHUNK_PLACE_MS = 2 * 60 * 1000;
/** A transcode that takes longer than this has hung: it is stopped and the video marked failed. */
const TRANSCODE_TIMEOUT_MS = 60 * 60 * 1000;

/** The containers issue 14 accepts, as ffprobe names them. */
const ACCEPTED_FORMATS = ['mov,mp4,m4a,3gp,3g2,mj2', 'matroska,webm'];

/** A refusal of a video rule (size, order of chunks, whose upload it is). */
export class VideoRuleError extends RuleError {
  constructor(message: string, status: RuleStatus = 400, field = 'video') {
    super(message, status, field);
  }
}

/** ffmpeg is not installed (or does not run): nothing can be uploaded, the reason says why. */
export class VideoUnavailableError extends Error {}

const chunkKey = (id: string, index: number) => `${VIDEO_UPLOADS_PREFIX}${id}/${String(index).padStart(6, '0')}.part`;
const isVideoId = (id: string) => /^[0-9a-f-]{36}$/.test(id);
/**
 * A new video's id: 128 random bits, written as a UUID is (so ids made before still read as ids).
 * Its chunks are stored under it, so their keys cannot be guessed either.
 */
const newVideoId = () => {
  const hex = randomBytes(16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

async function findVideo(id: string, db: Db = getDb()): Promise<VideoRow | undefined> {
  if (!isVideoId(id)) return undefined;
  return db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirst();
}

/** What shows a video: a story or news item (`content`), or a service. */
export type VideoOwner = { table: 'content' | 'services'; id: string };

/**
 * The item that shows video `id`, if any, other than `except`: every question of "who uses this
 * video" asks here.
 */
async function videoOwner(id: string, db: Db = getDb(), except?: VideoOwner): Promise<VideoOwner | undefined> {
  for (const table of ['content', 'services'] as const) {
    let query = db.selectFrom(table).select('id').where('video_id', '=', id);
    if (except?.table === table) query = query.where('id', '!=', except.id);
    const row = await query.executeTakeFirst();
    if (row) return { table, id: row.id };
  }
  return undefined;
}

/**
 * Inside the transaction of a save that puts video `id` on `owner`: refuses (VIDEO_MESSAGES.inUse)
 * when another item already shows it. The video's row is written first, so on PostgreSQL a second
 * save attaching the same video waits here until the first commits and then sees it (SQLite's
 * transactions here begin IMMEDIATE: one writer at a time already). The form's earlier check
 * (prepareVideoForSave) answers sooner; this one holds when two saves race.
 */
export async function claimVideo(trx: Transaction<Database>, id: string, owner: VideoOwner): Promise<void> {
  await trx
    .updateTable('videos')
    .set((eb) => ({ status: eb.ref('status') }))
    .where('id', '=', id)
    .execute();
  if (await videoOwner(id, trx, owner)) throw new VideoRuleError(VIDEO_MESSAGES.inUse, 400);
}

/**
 * The video fields a content or service form posts: the video (uploaded on its own, named here), its
 * captions and transcript. prepareVideoForSave counts the transcript again once its line ends are
 * made plain, so the limit here leaves room for them.
 */
export const VIDEO_FORM_FIELDS = {
  videoId: z.string().max(40).optional(),
  captionsFile: optionalFile,
  transcript: z
    .string()
    .max(TRANSCRIPT_MAX + 10_000)
    .optional(),
};

/** The form's view of a video (its state, progress, failure, captions). */
export function toFormState(row: VideoRow): VideoFormState {
  return {
    id: row.id,
    status: row.status,
    progress: Number(row.progress),
    error: row.error,
    originalName: row.original_name,
    durationSeconds: row.duration_ms === null ? null : Number(row.duration_ms) / 1000,
    bytes: row.rendition_360_bytes === null ? null : Number(row.rendition_360_bytes),
    posterUrl: row.poster_key ? MEDIA_URL_PREFIX + row.poster_key : null,
    hasCaptions: Boolean(row.captions_key),
    transcript: row.transcript,
  };
}

export async function getVideoFormState(id: string | null | undefined): Promise<VideoFormState | null> {
  if (!id) return null;
  const row = await findVideo(id);
  return row ? toFormState(row) : null;
}

/**
 * Starts an upload of `size` bytes named `name`. Refused when video processing is unavailable, when
 * the file is empty or larger than 500 MB, and (429) when `actor` has started VIDEO_UPLOADS_PER_DAY
 * in the last day.
 */
export async function startVideoUpload(actor: StaffUser, input: { name: string; size: number }) {
  const tools = await checkVideoTools();
  if (!tools.available) throw new VideoUnavailableError(`${VIDEO_MESSAGES.unavailable}: ${tools.reason}`);
  if (!Number.isSafeInteger(input.size) || input.size <= 0) throw new VideoRuleError(VIDEO_MESSAGES.empty, 400);
  if (input.size > VIDEO_MAX_BYTES) throw new VideoRuleError(VIDEO_MESSAGES.tooLarge, 413);
  const counted = await reserveAttempt(
    `video-upload:${actor.email.toLowerCase()}`,
    VIDEO_UPLOADS_PER_DAY,
    UPLOAD_COUNT_WINDOW_MS,
  );
  if (!counted.allowed) throw new VideoRuleError(VIDEO_MESSAGES.tooManyUploads, 429);
  const now = nowIso();
  const row = {
    id: newVideoId(),
    status: 'uploading' as const,
    original_name: input.name.slice(0, 200) || 'video',
    size_bytes: input.size,
    received_bytes: 0,
    uploaded_by: actor.email,
    created_at: now,
    updated_at: now,
  };
  await getDb().insertInto('videos').values(row).execute();
  return { id: row.id, status: row.status, received: 0, size: row.size_bytes, chunkBytes: VIDEO_CHUNK_BYTES };
}

/** An upload of `actor`'s, still open for chunks. Someone else's is "not found". */
async function ownUpload(actor: StaffUser, id: string): Promise<VideoRow> {
  const row = await findVideo(id);
  if (!row || row.uploaded_by.toLowerCase() !== actor.email.toLowerCase()) throw new VideoRuleError(VIDEO_MESSAGES.notFound, 404);
  return row;
}

/** Where an upload stands: how much arrived (to resume from), its state and progress. */
export async function videoUploadStatus(actor: StaffUser, id: string) {
  const row = await ownUpload(actor, id);
  return {
    id: row.id,
    status: row.status,
    received: Number(row.received_bytes),
    size: Number(row.size_bytes),
    chunkBytes: VIDEO_CHUNK_BYTES,
    progress: Number(row.progress),
    error: row.error,
    video: toFormState(row),
  };
}

/** A chunk as it arrives: the length its sender declared, and its bytes, read only once it is accepted. */
export interface IncomingChunk {
  length: number;
  body: ReadableStream<Uint8Array>;
}

/**
 * Stores the chunk that starts at `offset`. Chunks come in order and whole (VIDEO_CHUNK_BYTES, the
 * last one shorter); one sent again after a dropped answer is accepted and ignored. The last one
 * queues the processing job.
 *
 * Whose upload it is, where it stands and the chunk's length are checked before a byte of its body is
 * read, and the sender may have only VIDEO_CHUNKS_AT_ONCE chunks being received at once (429 past
 * that); a refused chunk's body is left unread. An accepted one is streamed to a temporary file and
 * from there to the media store: a chunk is never held whole in memory.
 */
export async function appendVideoChunk(actor: StaffUser, id: string, offset: number, chunk: IncomingChunk | Uint8Array) {
  const incoming =
    chunk instanceof Uint8Array
      ? {
          length: chunk.byteLength,
          body: new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(chunk);
              controller.close();
            },
          }),
        }
      : chunk;
  const row = await ownUpload(actor, id);
  if (row.status !== 'uploading') throw new VideoRuleError(VIDEO_MESSAGES.uploadGone, 409);
  const size = Number(row.size_bytes);
  const received = Number(row.received_bytes);
  const { length } = incoming;
  const status = () => videoUploadStatus(actor, id);
  if (length > VIDEO_CHUNK_BYTES) throw new VideoRuleError(VIDEO_MESSAGES.chunkTooLarge, 413);
  if (offset < received && offset + length <= received) return status();
  if (offset !== received || offset % VIDEO_CHUNK_BYTES !== 0) throw new VideoRuleError(VIDEO_MESSAGES.outOfOrder, 409);
  const last = offset + length === size;
  if (length === 0 || offset + length > size || (!last && length !== VIDEO_CHUNK_BYTES))
    throw new VideoRuleError(VIDEO_MESSAGES.outOfOrder, 400);
  const release = await takeSlot(`video-chunk:${actor.email.toLowerCase()}`, VIDEO_CHUNKS_AT_ONCE, CHUNK_PLACE_MS);
  if (!release) throw new VideoRuleError(VIDEO_MESSAGES.tooManyChunks, 429);
  try {
    await storeChunk(chunkKey(id, offset / VIDEO_CHUNK_BYTES), incoming);
  } finally {
    await release();
  }
  // Conditional on where it stood, so two copies of one chunk racing each other count once.
  const result = await getDb()
    .updateTable('videos')
    .set({
      received_bytes: offset + length,
      updated_at: nowIso(),
      ...(last ? { status: 'processing' as const, progress: 0 } : {}),
    })
    .where('id', '=', id)
    .where('received_bytes', '=', received)
    .where('status', '=', 'uploading')
    .executeTakeFirst();
  if (last && Number(result.numUpdatedRows) > 0) await enqueueJob(VIDEO_JOB, { videoId: id }, { maxAttempts: 3 });
  return status();
}

/**
 * Writes a chunk's body to a temporary file a piece at a time as it arrives, then stores the file
 * (streamed again: putFile). A body that is not the declared length (a connection dropped half-way)
 * stores nothing.
 */
async function storeChunk(key: string, chunk: IncomingChunk): Promise<void> {
  const file = path.join(os.tmpdir(), `tdg-chunk-${randomUUID()}.part`);
  try {
    const out = await fs.open(file, 'wx', 0o600);
    let written = 0;
    try {
      const reader = chunk.body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          written += value.byteLength;
          if (written > chunk.length) throw new VideoRuleError(VIDEO_MESSAGES.chunkTooLarge, 413);
          await out.write(value);
        }
      } finally {
        reader.releaseLock();
      }
    } finally {
      await out.close();
    }
    if (written !== chunk.length) throw new VideoRuleError(VIDEO_MESSAGES.uploadFailed, 400);
    await getMediaStore().putFile(key, file, 'application/octet-stream');
  } finally {
    await fs.rm(file, { force: true });
  }
}

/** Stops an upload (or drops a processed video the form never saved): its files and its row go. */
export async function cancelVideoUpload(actor: StaffUser, id: string): Promise<void> {
  const row = await ownUpload(actor, id);
  // A video a saved item shows goes when the item is saved without it, not from here.
  if (await videoOwner(id)) return;
  await removeVideo(row);
}

async function deleteChunks(row: Pick<VideoRow, 'id' | 'size_bytes'>): Promise<void> {
  const store = getMediaStore();
  const count = Math.ceil(Number(row.size_bytes) / VIDEO_CHUNK_BYTES);
  for (let index = 0; index < count; index++)
    await store
      .delete(chunkKey(row.id, index))
      .catch((error: unknown) => getLogger().warn({ err: error, video: row.id }, 'could not remove an upload chunk'));
}

/** Removes a video's files (chunks, renditions, poster, captions) and its row. */
async function removeVideo(row: VideoRow): Promise<void> {
  await deleteChunks(row);
  const store = getMediaStore();
  for (const key of [row.rendition_360_key, row.rendition_240_key, row.poster_key, row.captions_key]) {
    if (!key) continue;
    await store.delete(key).catch((error: unknown) => getLogger().warn({ err: error, key }, 'could not remove a video file'));
  }
  await getDb().deleteFrom('videos').where('id', '=', row.id).execute();
}

/** Removes a video once no item or service points at it (one saved without it, or deleted). */
export async function removeVideoIfUnused(id: string | null | undefined): Promise<boolean> {
  if (!id) return false;
  if (await videoOwner(id)) return false;
  const row = await findVideo(id);
  if (!row) return false;
  await removeVideo(row);
  return true;
}

/**
 * Removes videos older than a day that no item or service shows: uploads abandoned half-way, and
 * videos whose form was never saved (decision 008's rule for pictures). Returns how many went.
 */
export async function pruneUnusedVideos(now = Date.now()): Promise<number> {
  const cutoff = new Date(now - VIDEO_ABANDONED_AFTER_MS).toISOString();
  const rows = await getDb()
    .selectFrom('videos')
    .selectAll()
    .where('updated_at', '<', cutoff)
    .where('status', '!=', 'processing')
    .where((eb) =>
      eb.and([
        eb.not(eb.exists(eb.selectFrom('content').select('content.id').whereRef('content.video_id', '=', 'videos.id'))),
        eb.not(eb.exists(eb.selectFrom('services').select('services.id').whereRef('services.video_id', '=', 'videos.id'))),
      ]),
    )
    .execute();
  let removed = 0;
  for (const row of rows) if (await removeVideoIfUnused(row.id)) removed += 1;
  if (removed > 0) getLogger().info({ removed }, 'removed abandoned videos');
  return removed;
}

// --- Processing ---------------------------------------------------------------------------------

/** What ffprobe found that matters here. */
export interface ProbedVideo {
  durationSeconds: number;
  /** As shown (a phone's rotation applied). */
  width: number;
  height: number;
  hasAudio: boolean;
}

/** A refusal of the file itself: the staff member is told why; trying again would not help. */
class UnusableVideoError extends Error {}

interface FfprobeOutput {
  format?: { format_name?: string; duration?: string };
  streams?: {
    codec_type?: string;
    width?: number;
    height?: number;
    duration?: string;
    disposition?: { attached_pic?: number };
    tags?: { rotate?: string };
    side_data_list?: { rotation?: number }[];
  }[];
}

/**
 * Probes a file: an MP4, MOV or WebM video of at most 15 minutes and VIDEO_MAX_SIDE pixels a side,
 * or UnusableVideoError. Only the container's headers are read (`-skip_frame all`): no frame is
 * decoded, so a huge picture costs nothing here (ffprobe decoded one 8192 × 8192 frame in 208 MB);
 * the transcode is what finds a video that does not decode.
 */
export async function probeVideo(file: string, signal?: AbortSignal): Promise<ProbedVideo> {
  const result = await runTool(
    videoTools().ffprobe,
    ['-v', 'error', ...INPUT_LIMITS, '-skip_frame', 'all', '-print_format', 'json', '-show_format', '-show_streams', file],
    { timeoutMs: 60_000, ...(signal ? { signal } : {}) },
  );
  if (result.code !== 0) throw new UnusableVideoError(VIDEO_MESSAGES.notVideo);
  let probed: FfprobeOutput;
  try {
    probed = JSON.parse(result.stdout) as FfprobeOutput;
  } catch {
    throw new UnusableVideoError(VIDEO_MESSAGES.notVideo);
  }
  const format = probed.format?.format_name ?? '';
  const video = probed.streams?.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (!ACCEPTED_FORMATS.includes(format) || !video?.width || !video.height) throw new UnusableVideoError(VIDEO_MESSAGES.notVideo);
  // Every picture counts, a cover picture too: any of them may be what ffmpeg decodes.
  const longestSide = Math.max(
    ...probed.streams!.filter((s) => s.codec_type === 'video').map((s) => Math.max(s.width ?? 0, s.height ?? 0)),
  );
  if (longestSide > VIDEO_MAX_SIDE) throw new UnusableVideoError(VIDEO_MESSAGES.tooManyPixels);
  const duration = Number(probed.format?.duration ?? video.duration ?? NaN);
  if (!(duration > 0)) throw new UnusableVideoError(VIDEO_MESSAGES.notVideo);
  // A second of slack: phones round their limits up.
  if (duration > VIDEO_MAX_SECONDS + 1) throw new UnusableVideoError(VIDEO_MESSAGES.tooLong);
  const rotation = Math.abs(
    Number(video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? video.tags?.rotate ?? 0),
  );
  const turned = rotation % 180 === 90;
  return {
    durationSeconds: duration,
    width: turned ? video.height : video.width,
    height: turned ? video.width : video.height,
    hasAudio: Boolean(probed.streams?.some((s) => s.codec_type === 'audio')),
  };
}

/** The frame size of a rendition: the shorter side at most `short` pixels, both even, never enlarged. */
export function renditionSize(width: number, height: number, short: number): { width: number; height: number } {
  const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);
  const shortSide = Math.min(width, height);
  const target = Math.min(short, shortSide);
  const scale = target / shortSide;
  return { width: even(width * scale), height: even(height * scale) };
}

/** The two renditions of issue 14 (video bitrate + audio bitrate ≈ the total). */
const RENDITION_SETTINGS = [
  { name: '360p', short: 360, video: '720k', maxrate: '800k', buffer: '1600k', audio: '80k' },
  { name: '240p', short: 240, video: '340k', maxrate: '380k', buffer: '760k', audio: '56k' },
] as const;

/** Reports progress at most this often (a row update each time). */
const PROGRESS_EVERY_MS = 1_500;

async function setProgress(id: string, progress: number): Promise<void> {
  await getDb()
    .updateTable('videos')
    .set({ progress: Math.max(0, Math.min(99, Math.floor(progress))), updated_at: nowIso() })
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .execute();
}

/**
 * Transcodes `input` into the two renditions in one ffmpeg run (decoded once), reporting progress as
 * a share of the duration. Returns false when ffmpeg could not decode it.
 */
async function transcode(
  id: string,
  input: string,
  probed: ProbedVideo,
  dir: string,
  signal?: AbortSignal,
): Promise<{ ok: boolean; stderr: string }> {
  const sizes = RENDITION_SETTINGS.map((r) => renditionSize(probed.width, probed.height, r.short));
  const filter = `[0:v:0]split=2[a][b];[a]scale=${sizes[0]!.width}:${sizes[0]!.height},setsar=1[v0];[b]scale=${sizes[1]!.width}:${sizes[1]!.height},setsar=1[v1]`;
  const args = [
    '-hide_banner',
    '-nostdin',
    '-y',
    '-v',
    'error',
    ...INPUT_LIMITS,
    ...DECODE_LIMITS,
    ...THREAD_LIMITS.input,
    '-i',
    input,
    '-filter_complex',
    filter,
    '-progress',
    'pipe:1',
    '-nostats',
  ];
  RENDITION_SETTINGS.forEach((r, index) => {
    args.push('-map', `[v${index}]`);
    if (probed.hasAudio) args.push('-map', '0:a:0', '-c:a', 'aac', '-b:a', r.audio, '-ac', '2');
    args.push(
      '-c:v',
      'libx264',
      ...THREAD_LIMITS.output,
      '-preset',
      'veryfast',
      '-profile:v',
      'main',
      '-pix_fmt',
      'yuv420p',
      '-b:v',
      r.video,
      '-maxrate',
      r.maxrate,
      '-bufsize',
      r.buffer,
      // Never more than 30 frames a second: signing reads well at 25–30, and more only costs bytes.
      '-fpsmax',
      '30',
      '-movflags',
      '+faststart',
      '-map_metadata',
      '-1',
      path.join(dir, `${r.name}.mp4`),
    );
  });
  let lastReport = 0;
  let pending = '';
  const result = await runTool(videoTools().ffmpeg, args, {
    timeoutMs: TRANSCODE_TIMEOUT_MS,
    ...(signal ? { signal } : {}),
    onStdout(chunk) {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^out_time_us=(\d+)/.exec(line);
        if (!m) continue;
        const now = Date.now();
        if (now - lastReport < PROGRESS_EVERY_MS) continue;
        lastReport = now;
        void setProgress(id, (Number(m[1]) / 1e6 / probed.durationSeconds) * 95).catch(() => undefined);
      }
    },
  });
  return { ok: result.code === 0, stderr: result.stderr };
}

/** ffmpeg's words when a frame is larger than its headers said and DECODE_LIMITS allows. */
const TOO_MANY_PIXELS = /exceeds specified max pixel count/;

/** The `video.process` job: joins, probes and transcodes one upload (see the top of this file). */
export async function processVideo(payload: unknown, job?: JobInfo): Promise<void> {
  const id = (payload as { videoId?: unknown } | null)?.videoId;
  if (typeof id !== 'string') return;
  const row = await findVideo(id);
  // Cancelled, removed or already done meanwhile.
  if (!row || row.status !== 'processing') return;
  const fail = async (message: string) => {
    await getDb()
      .updateTable('videos')
      .set({ status: 'failed', error: message, progress: 0, updated_at: nowIso() })
      .where('id', '=', id)
      .execute();
    await deleteChunks(row);
  };
  const tools = await checkVideoTools();
  if (!tools.available) return fail(`${VIDEO_MESSAGES.unavailable}: ${tools.reason}`);

  // The process stopping: ffmpeg is stopped and the job handed back, the video still "processing".
  const signal = job?.signal;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tdg-video-'));
  const started = Date.now();
  try {
    const input = path.join(dir, 'source');
    const store = getMediaStore();
    // The chunks, in order, into one file for ffprobe and ffmpeg: streamed from the store a piece at
    // a time (64 KB from disk), so a 500 MB upload never sits in memory.
    const out = await fs.open(input, 'w');
    try {
      const count = Math.ceil(Number(row.size_bytes) / VIDEO_CHUNK_BYTES);
      for (let index = 0; index < count; index++) {
        signal?.throwIfAborted();
        const part = await store.get(chunkKey(id, index));
        if (!part) return await fail(VIDEO_MESSAGES.uploadFailed);
        for await (const piece of part.body) await out.write(piece as Buffer);
      }
    } finally {
      await out.close();
    }

    const probed = await probeVideo(input, signal);
    const transcoded = await transcode(id, input, probed, dir, signal);
    if (!transcoded.ok) {
      getLogger().warn({ video: id, stderr: transcoded.stderr.slice(-1000) }, 'a video could not be transcoded');
      return await fail(TOO_MANY_PIXELS.test(transcoded.stderr) ? VIDEO_MESSAGES.tooManyPixels : VIDEO_MESSAGES.notVideo);
    }
    await setProgress(id, 96);
    const poster = path.join(dir, 'poster.jpg');
    const at = Math.min(1, probed.durationSeconds / 2).toFixed(2);
    const still = await runTool(
      videoTools().ffmpeg,
      [
        '-hide_banner',
        '-nostdin',
        '-y',
        '-v',
        'error',
        ...INPUT_LIMITS,
        ...DECODE_LIMITS,
        ...THREAD_LIMITS.input,
        '-ss',
        at,
        '-i',
        path.join(dir, '360p.mp4'),
        '-frames:v',
        '1',
        '-q:v',
        '4',
        ...THREAD_LIMITS.output,
        poster,
      ],
      { timeoutMs: 60_000, ...(signal ? { signal } : {}) },
    );
    if (still.code !== 0) return await fail(VIDEO_MESSAGES.notVideo);

    const base = newStoredBase('videos', safeFileName(fileStem(row.original_name).slice(0, 60)) || 'video');
    const keys = { r360: `${base}-360p.mp4`, r240: `${base}-240p.mp4`, poster: `${base}-poster.jpg` };
    // Streamed from their files, never read into memory (a 15-minute video's are about 100 MB).
    const bytes240 = await store.putFile(keys.r240, path.join(dir, '240p.mp4'), 'video/mp4');
    await store.putFile(keys.poster, poster, 'image/jpeg');
    const bytes360 = await store.putFile(keys.r360, path.join(dir, '360p.mp4'), 'video/mp4');
    const size360 = renditionSize(probed.width, probed.height, 360);
    const updated = await getDb()
      .updateTable('videos')
      .set({
        status: 'ready',
        progress: 100,
        error: null,
        duration_ms: Math.round(probed.durationSeconds * 1000),
        width: size360.width,
        height: size360.height,
        rendition_360_key: keys.r360,
        rendition_360_bytes: bytes360,
        rendition_240_key: keys.r240,
        rendition_240_bytes: bytes240,
        poster_key: keys.poster,
        updated_at: nowIso(),
      })
      .where('id', '=', id)
      .where('status', '=', 'processing')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      // Cancelled while it was being transcoded: what was made goes too.
      for (const key of Object.values(keys)) await store.delete(key).catch(() => undefined);
      return;
    }
    await deleteChunks(row);
    getLogger().info(
      {
        video: id,
        seconds: probed.durationSeconds,
        took: (Date.now() - started) / 1000,
        bytes360,
        bytes240,
      },
      'video processed',
    );
    // An item already published with this video (or a service) now shows it: every cached page goes.
    publicContentChanged();
  } catch (error) {
    if (error instanceof UnusableVideoError) return await fail(error.message);
    // Handed back to the job queue: the next start processes it from its chunks again, from 0 %.
    if (signal?.aborted) {
      await setProgress(id, 0).catch(() => undefined);
      throw error;
    }
    getLogger().error({ err: error, video: id }, 'processing a video failed');
    // Another attempt may succeed (the store was down); after the last one, the form says so.
    if (!job || job.attempts >= job.maxAttempts) return await fail(VIDEO_MESSAGES.failed);
    throw error;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

// --- The content and service forms --------------------------------------------------------------

/** Whether `owner` is the item a form saves (`contentId` or `serviceId`, undefined for a new one). */
const isSavedItem = (owner: VideoOwner, item: { contentId?: string | undefined; serviceId?: string | undefined }) =>
  owner.id === (owner.table === 'content' ? item.contentId : item.serviceId);

/**
 * What a save writes to its video: checked by prepareVideoForSave before anything is written, and
 * written by the save itself in its transaction (stageVideoWrite), so a save that is refused (its form's
 * 400, a 409, a rule of the save) leaves the video, and a published item's public captions, as they were.
 */
export interface PreparedVideo {
  id: string;
  /** New captions, checked, as they are stored (plain line ends, no BOM); undefined keeps the video's. */
  captions?: string;
  /** The transcript to store; undefined keeps the video's. */
  transcript?: string;
}

/**
 * The video a save of an item (a story, a news item or a service) asks for, checked: it exists, it
 * is no other item's, it is not still uploading or failed, and `captions` (a file) and `transcript`
 * are acceptable. Writes nothing: returns what the save is to write (a transcript left empty is made
 * from new captions).
 */
export async function prepareVideoForSave(input: {
  /** Who saves: a video on no item yet is only its uploader's to attach. */
  actor: Pick<StaffUser, 'email'>;
  videoId: string;
  /** The story or news item saved (undefined when it is new, or a service is saved). */
  contentId: string | undefined;
  /** The service saved (undefined when it is new, or a story is saved). */
  serviceId?: string | undefined;
  captions: File | undefined;
  transcript: string | undefined;
}): Promise<PreparedVideo> {
  const row = await findVideo(input.videoId);
  if (!row) throw new VideoRuleError(VIDEO_MESSAGES.notFound, 400);
  const owner = await videoOwner(row.id);
  if (owner && !isSavedItem(owner, input)) throw new VideoRuleError(VIDEO_MESSAGES.inUse, 400);
  if (!owner && row.uploaded_by.toLowerCase() !== input.actor.email.toLowerCase())
    throw new VideoRuleError(VIDEO_MESSAGES.notFound, 400);
  if (row.status === 'uploading') throw new VideoRuleError(VIDEO_MESSAGES.stillUploading, 400);
  if (row.status === 'failed') throw new VideoRuleError(VIDEO_MESSAGES.failedVideo, 400);
  const transcript = input.transcript?.replace(/\r\n?/g, '\n').trim();
  if (transcript !== undefined && transcript.length > TRANSCRIPT_MAX)
    throw new VideoRuleError(VIDEO_MESSAGES.transcriptTooLong, 400, 'transcript');
  const prepared: PreparedVideo = { id: row.id };
  if (input.captions) {
    const checked = checkCaptionsBytes(new Uint8Array(await input.captions.arrayBuffer()));
    if (!checked.ok) throw new VideoRuleError(captionsMessage(checked), 400, 'captions');
    prepared.captions = checked.text;
    if (!transcript) prepared.transcript = transcriptFromCues(checked.cues).slice(0, TRANSCRIPT_MAX);
  }
  if (transcript !== undefined && (transcript || !input.captions)) prepared.transcript = transcript;
  return prepared;
}

/** A save's writing of its video (stageVideoWrite): `write` in its transaction, `finish` once it is over. */
export interface VideoWrite {
  /** Writes the captions and transcript to the video's row; called in the save's transaction, after its checks. */
  write: (trx: Transaction<Database>) => Promise<void>;
  /** Called once the save is over, saved, refused or failed: removes the captions file no video names any more. */
  finish: () => Promise<void>;
}

/**
 * Readies the writing of `video` (from prepareVideoForSave; undefined writes nothing) by a save. New
 * captions are stored at once under a key of their own, the video's row names them inside the save's
 * transaction (`write`), and only once the save is over does a file go (`finish`): the replaced
 * captions after a save, the new ones after a refusal or a failure.
 */
export async function stageVideoWrite(video: PreparedVideo | undefined): Promise<VideoWrite> {
  if (!video || (video.captions === undefined && video.transcript === undefined))
    return { write: async () => undefined, finish: async () => undefined };
  const captions = video.captions;
  // 128 random bits (newStoredBase): a new file never takes the name of another save's, and cannot be guessed.
  const key = captions === undefined ? undefined : `${newStoredBase('videos', video.id.slice(0, 8))}-captions.vtt`;
  if (key) await getMediaStore().put(key, Buffer.from(captions!, 'utf8'), 'text/vtt; charset=utf-8');
  const maybeUnused = key ? [key] : [];
  return {
    async write(trx) {
      // The row is written first, so a save of the same video at the same moment waits here
      // (PostgreSQL) and then reads the captions this one left.
      const locked = await trx
        .updateTable('videos')
        .set((eb) => ({ status: eb.ref('status') }))
        .where('id', '=', video.id)
        .executeTakeFirst();
      if (Number(locked.numUpdatedRows) === 0) throw new VideoRuleError(VIDEO_MESSAGES.notFound, 400);
      const before = await trx.selectFrom('videos').select('captions_key').where('id', '=', video.id).executeTakeFirstOrThrow();
      await trx
        .updateTable('videos')
        .set({
          ...(key ? { captions_key: key, captions_vtt: captions! } : {}),
          ...(video.transcript === undefined ? {} : { transcript: video.transcript }),
          updated_at: nowIso(),
        })
        .where('id', '=', video.id)
        .execute();
      if (key && before.captions_key && before.captions_key !== key && !maybeUnused.includes(before.captions_key))
        maybeUnused.push(before.captions_key);
    },
    async finish() {
      for (const file of maybeUnused) await removeCaptionsIfUnused(file);
    },
  };
}

/** Removes a captions file no video names (a replaced one, or one a refused save had stored). */
async function removeCaptionsIfUnused(key: string): Promise<void> {
  try {
    const used = await getDb().selectFrom('videos').select('id').where('captions_key', '=', key).executeTakeFirst();
    if (!used) await getMediaStore().delete(key);
  } catch (error) {
    // A file no page names is only a few kilobytes left over: the save is done (or refused) either way.
    getLogger().warn({ err: error, key }, 'removing a captions file failed');
  }
}

/**
 * The form's view of the video a save that failed had named, to show it again: only the saved item's
 * own video, or one on no item that `actor` uploaded; null for anything else.
 */
export async function postedVideoFormState(
  actor: Pick<StaffUser, 'email'>,
  id: string,
  item: { contentId?: string | undefined; serviceId?: string | undefined },
): Promise<VideoFormState | null> {
  const row = await findVideo(id);
  if (!row) return null;
  const owner = await videoOwner(row.id);
  const mine = owner ? isSavedItem(owner, item) : row.uploaded_by.toLowerCase() === actor.email.toLowerCase();
  return mine ? toFormState(row) : null;
}

/** Whether a video may go public with its item: it needs its captions (WCAG 1.2.2). */
export async function videoHasCaptions(id: string, db: Db = getDb()): Promise<boolean> {
  const row = await db.selectFrom('videos').select('captions_key').where('id', '=', id).executeTakeFirst();
  return Boolean(row?.captions_key);
}

// --- The public site ----------------------------------------------------------------------------

/** A ready video with its captions, as the public page shows it; null for anything else. */
export async function readPublicVideo(id: string | null | undefined, db: Db = getDb()): Promise<PublicVideo | null> {
  if (!id) return null;
  const row = await db.selectFrom('videos').selectAll().where('id', '=', id).where('status', '=', 'ready').executeTakeFirst();
  if (!row?.rendition_360_key || !row.rendition_240_key || !row.poster_key || !row.captions_key) return null;
  return {
    durationSeconds: Number(row.duration_ms) / 1000,
    posterUrl: MEDIA_URL_PREFIX + row.poster_key,
    captionsUrl: MEDIA_URL_PREFIX + row.captions_key,
    transcript: row.transcript,
    width: Number(row.width),
    height: Number(row.height),
    files: [
      { quality: '360p', url: MEDIA_URL_PREFIX + row.rendition_360_key, bytes: Number(row.rendition_360_bytes) },
      { quality: '240p', url: MEDIA_URL_PREFIX + row.rendition_240_key, bytes: Number(row.rendition_240_bytes) },
    ],
  };
}

/** Issue 13: an item's video as its revision records it (a description, not the files), or null. */
export async function revisionVideoOf(id: string | null | undefined, db: Db = getDb()): Promise<RevisionVideo | null> {
  const row = id ? await findVideo(id, db) : undefined;
  if (!row) return null;
  const { originalName: name, durationSeconds, hasCaptions: captions } = toFormState(row);
  return { id: row.id, name, durationSeconds, captions };
}

/**
 * The 360p file of each listed item that has a watchable video (the feeds' enclosures), by item id.
 */
export async function listFeedVideos(
  contentIds: string[],
  db: Db = getDb(),
): Promise<Map<string, { url: string; bytes: number }>> {
  if (contentIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('content')
    .innerJoin('videos', 'videos.id', 'content.video_id')
    .select(['content.id as contentId', 'videos.rendition_360_key as key', 'videos.rendition_360_bytes as bytes'])
    .where('content.id', 'in', contentIds)
    .where('videos.status', '=', 'ready')
    .where('videos.captions_key', 'is not', null)
    .execute();
  return new Map(
    rows.filter((row) => row.key).map((row) => [row.contentId, { url: MEDIA_URL_PREFIX + row.key!, bytes: Number(row.bytes) }]),
  );
}
