import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { openDatabase, setDatabase } from '../app/server/db/db.server.ts';
import { migrateToLatest } from '../app/server/db/migrations.server.ts';
import { setUploadsRoot } from '../app/server/storage.server.ts';
import { checkVideoTools } from '../app/server/video-tools.server.ts';
import { appendVideoChunk, processVideo, startVideoUpload, VIDEO_JOB } from '../app/server/video.server.ts';
import type { StaffUser } from '../app/server/auth.server.ts';
import { VIDEO_CHUNK_BYTES } from '../app/lib/video-upload.ts';

// Issue 14's budgets: how long transcoding takes per minute of video on this machine, and how much
// the sign-language player adds to a page with a video (at most 5 KB gzipped). Part of `npm run bench`;
// also runs alone: `node scripts/bench-video.ts` (BENCH_VIDEO_SECONDS, BENCH_VIDEO_SIZE to change the clip).

const ROOT = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_VIDEO_SECONDS ?? 60);
/** A phone's usual recording size. */
const SIZE = process.env.BENCH_VIDEO_SIZE ?? '1920x1080';
export const PLAYER_BUDGET_BYTES = 5 * 1024;
/** The script pages with a video add (app/client/sign-language-video.ts). */
const PLAYER_CHUNK = /^sign-language-video-[\w-]+\.js$/;

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

/**
 * Lines for the bench's report: transcode seconds per minute, file sizes, the player's weight, and
 * (given the public pages `npm run bench` weighed, none of which has a video) that they load none of it.
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  measureVideo()
    .then((lines) => process.stdout.write(`${lines.join('\n')}\n`))
    .catch((error: unknown) => {
      process.stderr.write(
        `Video benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 1;
    });
}
