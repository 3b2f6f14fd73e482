import os from 'node:os';
import { workerData } from 'node:worker_threads';

// Issue 15: how many workers serve the site (docs/decisions/017-every-core-and-invalidation.md);
// issue 29: they are threads of one process (docs/decisions/040-workers-are-threads.md). Read by
// server.ts before anything else starts, and checked with the other settings in
// app/server/platform/config.server.ts. No imports beyond Node's: the main thread loads nothing else.

export const WEB_CONCURRENCY_MAX = 64;
export const WEB_CONCURRENCY_PROBLEM = `WEB_CONCURRENCY must be a whole number of workers from 1 to ${WEB_CONCURRENCY_MAX} (1: a single thread), or empty for one per CPU core`;

/** What server/primary.ts gives each worker thread it starts. */
export interface SiteWorkerData {
  siteWorker: number;
}

/**
 * The number of this worker thread of the site (1 for the first started, then 2, 3 … including
 * those started again after a crash), or undefined in the main thread and in threads the site did not
 * start (a test runner's).
 */
export function siteWorkerNumber(): number | undefined {
  const data = workerData as Partial<SiteWorkerData> | null | undefined;
  return typeof data?.siteWorker === 'number' ? data.siteWorker : undefined;
}

/** The number of workers WEB_CONCURRENCY asks for (empty: one per core); throws on a bad value. */
export function parseWebConcurrency(raw: string | undefined, cores = os.availableParallelism()): number {
  const value = (raw ?? '').trim();
  if (value === '') return Math.min(Math.max(1, cores), WEB_CONCURRENCY_MAX);
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > WEB_CONCURRENCY_MAX) throw new Error(WEB_CONCURRENCY_PROBLEM);
  return Number(value);
}

/**
 * The C allocator's settings for every process the site starts (the workers: server/primary.ts; the
 * nightly backup's: app/server/platform/backup.server.ts): two arenas instead of one per thread, and
 * freed memory handed back to the system (decision 017). A value the operator set wins.
 */
export const ALLOCATOR_SETTINGS: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_TRIM_THRESHOLD_: '131072',
  MALLOC_MMAP_THRESHOLD_: '131072',
};

/** How many workers crashed within this long count towards the pause before the next restart. */
export const CRASH_WINDOW_MS = 60_000;

/**
 * The pause before a crashed worker is started again: none after a lone crash, then 1 s, 2 s, 4 s …
 * up to 30 s while crashes keep coming within a minute, so a worker that dies at once (a broken
 * database, a full disk) does not spin the CPU starting over and over.
 */
export function restartDelay(crashTimes: readonly number[], now: number): number {
  const recent = crashTimes.filter((at) => now - at < CRASH_WINDOW_MS).length;
  if (recent <= 1) return 0;
  return Math.min(30_000, 1000 * 2 ** (recent - 2));
}

/**
 * The channel the site's worker threads tell each other on (node:worker_threads' BroadcastChannel, which
 * reaches every other thread of the process): the cache bus says public pages changed.
 */
export const SITE_CHANNEL = 'tdg:site';
