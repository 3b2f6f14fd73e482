import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { openDatabase, setDatabase } from '../app/server/db/db.server.ts';
import { migrateToLatest } from '../app/server/db/migrations.server.ts';
import type { S3StorageSettings } from '../app/server/platform/config.server.ts';
import { createDiskStore, createS3Store } from '../app/server/media/object-store.server.ts';
import { setUploadsRoot } from '../app/server/media/storage.server.ts';
import { checkVideoTools } from '../app/server/media/video-tools.server.ts';
import { appendVideoChunk, processVideo, startVideoUpload, VIDEO_JOB } from '../app/server/media/video.server.ts';
import type { StaffUser } from '../app/server/staff/auth.server.ts';
import { VIDEO_CHUNK_BYTES } from '../app/lib/video-upload.ts';

// Issue 14's budgets: how long transcoding takes per minute of video on this machine, how much the
// sign-language player adds to a page with a video (at most 5 KB gzipped), and how much a process's
// memory grows while it stores a large file (a rendition) in the media store, on disk and in S3
// (s3rver): read into memory first, as the video job did, and streamed from its file, as it does now.
// Part of `npm run bench`; also runs alone: `node scripts/bench-video.ts` (BENCH_VIDEO_SECONDS,
// BENCH_VIDEO_SIZE to change the clip, BENCH_STORE_MB the stored file).

const ROOT = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_VIDEO_SECONDS ?? 60);
/** A phone's usual recording size. */
const SIZE = process.env.BENCH_VIDEO_SIZE ?? '1920x1080';
export const PLAYER_BUDGET_BYTES = 5 * 1024;
/** The script pages with a video add (app/client/sign-language-video.ts). */
const PLAYER_CHUNK = /^page-sign-language-video-[\w-]+\.js$/;
const STORE_MB = Number(process.env.BENCH_STORE_MB ?? 200);
/**
 * Storing a file from its path may grow the process by this much at most, whatever the file's size:
 * streamed to a bucket, the pieces already sent wait for V8's next collection, which it makes once
 * about 64 MB of such memory has been given out since the last one.
 */
const STORE_GROWTH_BUDGET_MB = 64;

const BENCHER: StaffUser = {
  id: 'bench',
  name: 'Bench',
  email: 'bench@bench.example',
  role: 'EDITOR',
  bio: '',
  profilePicture: null,
  sessionId: 'bench',
};

/** The gzipped size of the player's own chunk in the browser build, or undefined without a build. */
export function playerChunkBytes(buildDir = path.join(ROOT, process.env.BUILD_DIR ?? 'build')): number | undefined {
  const assets = path.join(buildDir, 'client', 'assets');
  if (!fs.existsSync(assets)) return undefined;
  const file = fs.readdirSync(assets).find((name) => PLAYER_CHUNK.test(name));
  return file ? gzipSync(fs.readFileSync(path.join(assets, file)), { level: 9 }).length : undefined;
}

/** How one measured child process stores the file: read into a buffer first, or from its path. */
interface StoreMemoryRun {
  store: { kind: 'disk'; root: string } | { kind: 's3'; settings: S3StorageSettings };
  way: 'buffer' | 'file';
  file: string;
}

/**
 * In a child process (so nothing else this script holds counts): stores `run.file` and answers how
 * far its resident memory rose above where it stood just before, sampled every 5 ms.
 */
async function storeAndMeasure(run: StoreMemoryRun): Promise<number> {
  const store = run.store.kind === 's3' ? await createS3Store(run.store.settings) : createDiskStore(run.store.root);
  // Loads what a put needs first (the SDK, its first connection), as a worker that has stored anything has.
  await store.put('bench/warm-up.bin', randomBytes(64 * 1024), 'application/octet-stream');
  const before = process.memoryUsage.rss();
  let peak = before;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  try {
    if (run.way === 'buffer') await store.put('bench/large.mp4', await fs.promises.readFile(run.file), 'video/mp4');
    else await store.putFile('bench/large.mp4', run.file, 'video/mp4');
  } finally {
    clearInterval(sample);
  }
  return Math.max(peak, process.memoryUsage.rss()) - before;
}

function measureInChild(run: StoreMemoryRun): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      // The settings a site's worker runs with (server.ts, decision 017).
      ['--max-semi-space-size=4', '--max-old-space-size=192', import.meta.filename, '--store-memory'],
      {
        env: {
          ...process.env,
          MALLOC_ARENA_MAX: '2',
          MALLOC_TRIM_THRESHOLD_: '131072',
          MALLOC_MMAP_THRESHOLD_: '131072',
          BENCH_STORE_RUN: JSON.stringify(run),
        },
      },
      (error, stdout) => (error ? reject(error) : resolve(Number(stdout.trim()))),
    );
  });
}

/** Lines for the bench's report: peak memory growth while storing a STORE_MB file, before and now. */
export async function measureStoreMemory(): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-bench-store-'));
  // Only the bench needs a bucket: s3rver is a development dependency.
  const { startS3 } = await import('../tests/support/s3.ts');
  const s3 = await startS3();
  try {
    const file = path.join(dir, 'large.mp4');
    const out = fs.openSync(file, 'w');
    for (let n = 0; n < STORE_MB; n++) fs.writeSync(out, randomBytes(1_000_000));
    fs.closeSync(out);
    const mb = (bytes: number) => `${bytes >= 0 ? '+' : ''}${(bytes / 1e6).toFixed(1)} MB`;
    const stores = [
      { label: 'on disk', name: 'disk', store: { kind: 'disk' as const, root: path.join(dir, 'uploads') } },
      { label: 'in S3 (s3rver)', name: 'S3', store: { kind: 's3' as const, settings: s3.settings('bench/') } },
    ];
    const lines: string[] = [];
    const streamed: string[] = [];
    let worst = 0;
    for (const { label, name, store } of stores) {
      const buffered = await measureInChild({ store, way: 'buffer', file });
      const fromFile = await measureInChild({ store, way: 'file', file });
      worst = Math.max(worst, fromFile);
      lines.push(
        `INFO  storing a ${STORE_MB} MB rendition ${label}, the process's peak memory (RSS): ${mb(buffered)} read into memory first (before), ${mb(fromFile)} from its file (now)`,
      );
      streamed.push(`${name} ${mb(fromFile)}`);
    }
    lines.push(
      `${worst <= STORE_GROWTH_BUDGET_MB * 1e6 ? 'PASS' : 'FAIL'}  storing a large file from its path keeps memory flat (at most ${STORE_GROWTH_BUDGET_MB} MB more, whatever its size): ${streamed.join(', ')}`,
    );
    return lines;
  } finally {
    await s3.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const SCRUB_PARTS = 200;
const SCRUB_PART_BYTES = 256 * 1024;

/**
 * A line for the bench's report: a visitor scrubbing a video kept in S3 (s3rver) asks /media for many
 * parts of one file. Timed side by side, in turns: the bucket asked about the file once (kept, as
 * now) and for every part (before).
 */
export async function measureScrubbing(): Promise<string[]> {
  const [{ startS3 }, { default: express }, { mediaHandler }, { createLogger }] = await Promise.all([
    import('../tests/support/s3.ts'),
    import('express'),
    import('../server/media.ts'),
    import('../app/server/platform/logger.server.ts'),
  ]);
  const s3 = await startS3();
  const servers: Server[] = [];
  try {
    const store = await createS3Store(s3.settings('scrub/'));
    const size = 8 * 1024 * 1024;
    await store.put('videos/1_scrub-360p.mp4', randomBytes(size), 'video/mp4');
    let bucketAsks = 0;
    const counted = {
      ...store,
      head: (key: string) => (bucketAsks++, store.head(key)),
      get: (...args: Parameters<typeof store.get>) => (bucketAsks++, store.get(...args)),
    };
    const serve = async (infoKeptMs?: number) => {
      const app = express();
      app.use(
        '/media',
        mediaHandler(() => counted, createLogger('silent'), infoKeptMs === undefined ? {} : { infoKeptMs }),
      );
      const server = app.listen(0, '127.0.0.1');
      servers.push(server);
      await new Promise((resolve) => server.once('listening', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/media/videos/1_scrub-360p.mp4`;
    };
    const runs = { kept: await serve(), asked: await serve(0) };
    const scrub = async (url: string) => {
      bucketAsks = 0;
      const t0 = performance.now();
      for (let n = 0; n < SCRUB_PARTS; n++) {
        const start = Math.floor(Math.random() * (size - SCRUB_PART_BYTES));
        const response = await fetch(url, { headers: { Range: `bytes=${start}-${start + SCRUB_PART_BYTES - 1}` } });
        if (response.status !== 206) throw new Error(`scrubbing got ${response.status}`);
        await response.arrayBuffer();
      }
      return { ms: (performance.now() - t0) / SCRUB_PARTS, asks: bucketAsks / SCRUB_PARTS };
    };
    const kept: { ms: number; asks: number }[] = [];
    const asked: { ms: number; asks: number }[] = [];
    for (let round = 0; round < 3; round++) {
      kept.push(await scrub(runs.kept));
      asked.push(await scrub(runs.asked));
    }
    const middle = (list: { ms: number; asks: number }[]) => list.toSorted((a, b) => a.ms - b.ms)[1]!;
    const now = middle(kept);
    const before = middle(asked);
    return [
      `INFO  scrubbing a video kept in S3 (s3rver, on this machine), ${SCRUB_PARTS} parts of 256 KB, the middle of three runs taken in turns: ${now.ms.toFixed(1)} ms and ${now.asks.toFixed(2)} bucket requests per part now, ${before.ms.toFixed(1)} ms and ${before.asks.toFixed(2)} asking the bucket about the file each time (before), ${(before.ms / now.ms).toFixed(2)}× (each request saved is a round trip to the bucket)`,
    ];
  } finally {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await s3.close();
  }
}

/**
 * Lines for the bench's report: the player's weight and, given the public pages `npm run bench`
 * weighed (none has a video), that they load none of it; memory while storing a rendition;
 * transcode seconds per minute and file sizes.
 */
export async function measureVideo(pages: { path: string; scripts: string[] }[] = []): Promise<string[]> {
  const lines: string[] = [];
  const player = playerChunkBytes();
  lines.push(
    player === undefined
      ? 'NOTE  sign-language player chunk not found (build first)'
      : `${player <= PLAYER_BUDGET_BYTES ? 'PASS' : 'FAIL'}  sign-language player at most 5 KB gzipped, only on pages with a video: ${(player / 1024).toFixed(1)} KB`,
  );
  if (pages.length) {
    const loading = pages.filter((page) => page.scripts.some((url) => PLAYER_CHUNK.test(path.basename(new URL(url).pathname))));
    lines.push(
      `${loading.length === 0 ? 'PASS' : 'FAIL'}  pages without a video load none of its script: ${loading.length ? loading.map((page) => page.path).join(', ') : `0 of ${pages.length} pages`}`,
    );
  }
  lines.push(...(await measureStoreMemory()));
  lines.push(...(await measureScrubbing()));
  const tools = await checkVideoTools();
  if (!tools.available) return [...lines, `NOTE  transcoding not measured: ${tools.reason}`];

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-bench-video-'));
  try {
    const source = path.join(dir, 'clip.mp4');
    // Moving, slightly noisy picture and sound at a phone's bitrate (12 Mbps), so the encoder works as on a real clip.
    execFileSync('ffmpeg', [
      '-v', 'error', '-y',
      '-f', 'lavfi', '-i', `testsrc2=size=${SIZE}:rate=30,noise=alls=8:allf=t`,
      '-f', 'lavfi', '-i', 'sine=frequency=300',
      '-t', String(SECONDS), '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '12M', '-maxrate', '12M', '-bufsize', '24M',
      '-pix_fmt', 'yuv420p', '-c:a', 'aac',
      source,
    ]); // prettier-ignore
    const handle = await openDatabase({ dataDir: dir });
    setDatabase(handle);
    setUploadsRoot(dir);
    try {
      await migrateToLatest(handle.db, handle.engine);
      const bytes = fs.readFileSync(source);
      const started = await startVideoUpload(BENCHER, { name: 'clip.mp4', size: bytes.length });
      for (let offset = 0; offset < bytes.length; offset += VIDEO_CHUNK_BYTES)
        await appendVideoChunk(BENCHER, started.id, offset, bytes.subarray(offset, offset + VIDEO_CHUNK_BYTES));
      const t0 = performance.now();
      await processVideo({ videoId: started.id }, { id: 'bench', kind: VIDEO_JOB, attempts: 1, maxAttempts: 1 });
      const took = (performance.now() - t0) / 1000;
      const row = await handle.db.selectFrom('videos').selectAll().where('id', '=', started.id).executeTakeFirstOrThrow();
      if (row.status !== 'ready') return [...lines, `FAIL  the benchmark clip was not processed: ${row.error ?? row.status}`];
      const kbps = (b: number | null) => ((Number(b) * 8) / SECONDS / 1000).toFixed(0);
      lines.push(
        `INFO  transcoding a ${SECONDS} s ${SIZE} clip (${(bytes.length / 1e6).toFixed(1)} MB) to 360p and 240p with a poster: ${took.toFixed(1)} s, ${((took / SECONDS) * 60).toFixed(1)} s per minute of video (${os.cpus().length} CPUs)`,
        `INFO  360p ${(Number(row.rendition_360_bytes) / 1e6).toFixed(1)} MB (${kbps(row.rendition_360_bytes)} kbps), 240p ${(Number(row.rendition_240_bytes) / 1e6).toFixed(1)} MB (${kbps(row.rendition_240_bytes)} kbps)`,
      );
    } finally {
      setDatabase(undefined);
      await handle.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.argv[2] === '--store-memory') {
  storeAndMeasure(JSON.parse(process.env.BENCH_STORE_RUN ?? '') as StoreMemoryRun)
    .then((growth) => process.stdout.write(`${growth}\n`))
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    });
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  measureVideo()
    .then((lines) => process.stdout.write(`${lines.join('\n')}\n`))
    .catch((error: unknown) => {
      process.stderr.write(
        `Video benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 1;
    });
}
