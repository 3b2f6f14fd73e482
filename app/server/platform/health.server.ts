import fs from 'node:fs/promises';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { jobBacklog, type LaneBacklog } from './jobs.server.ts';

// Issue 29: /healthz?detail, for the operator (with METRICS_TOKEN): each part the site needs, ok,
// warn or fail with its reason, as Directus reports its health. /healthz itself stays one cheap query.

export type HealthStatus = 'ok' | 'warn' | 'fail';

export interface HealthCheck {
  status: HealthStatus;
  /** What was found, in words an operator acts on. */
  reason: string;
}

export interface HealthDetail {
  status: HealthStatus;
  checks: {
    database: HealthCheck;
    mediaStore: HealthCheck;
    mail: HealthCheck;
    videoTools: HealthCheck;
    jobs: HealthCheck & { lanes: LaneBacklog[] };
    disk: HealthCheck & { freeBytes?: number; totalBytes?: number };
  };
}

/** What the checks are given: the site's parts, each asked only through its own small call. */
export interface HealthParts {
  db: Kysely<Database>;
  /** Proves the media store can be used (a folder's access, a bucket's answer); throws with the reason. */
  checkMediaStore(): Promise<void>;
  /** SMTP_URL set: proves the server answers; unset: mail stays in the outbox. */
  checkMail: (() => Promise<void>) | undefined;
  checkVideoTools(): Promise<{ available: boolean; reason?: string }>;
  dataDir: string;
  now?: number;
}

/** A waiting job older than this is a warning, and older than the next a failure: the worker is stuck or gone. */
export const JOB_WAIT_WARN_SECONDS = 5 * 60;
export const JOB_WAIT_FAIL_SECONDS = 60 * 60;
/** Free space in DATA_DIR below these is a warning or a failure (uploads, the database, backups). */
export const DISK_WARN = { bytes: 1024 ** 3, share: 0.1 };
export const DISK_FAIL = { bytes: 200 * 1024 ** 2, share: 0.02 };

/** How long one check may take before it counts as failed. */
const CHECK_TIMEOUT_MS = 5_000;

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS / 1000} s`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

async function check(what: string, run: () => Promise<HealthCheck>): Promise<HealthCheck> {
  try {
    return await within(run(), what);
  } catch (error) {
    return { status: 'fail', reason: reasonOf(error) };
  }
}

/** Free and total bytes of the file system holding `dir`, judged against DISK_WARN and DISK_FAIL. */
export function judgeDisk(freeBytes: number, totalBytes: number): HealthCheck {
  const share = totalBytes > 0 ? freeBytes / totalBytes : 0;
  const words = `${(freeBytes / 1024 ** 2).toFixed(0)} MB free of ${(totalBytes / 1024 ** 2).toFixed(0)} MB (${(share * 100).toFixed(1)} %)`;
  if (freeBytes < DISK_FAIL.bytes || share < DISK_FAIL.share)
    return { status: 'fail', reason: `${words}: the disk is full or nearly` };
  if (freeBytes < DISK_WARN.bytes || share < DISK_WARN.share) return { status: 'warn', reason: `${words}: running low` };
  return { status: 'ok', reason: words };
}

/** Every check at once; the whole is as bad as its worst part. */
export async function healthDetail(parts: HealthParts): Promise<HealthDetail> {
  const now = parts.now ?? Date.now();
  let lanes: LaneBacklog[] = [];
  let disk: { freeBytes?: number; totalBytes?: number } = {};
  const [database, mediaStore, mail, videoTools, jobs, space] = await Promise.all([
    check('The database', async () => {
      await sql`SELECT 1`.execute(parts.db);
      return { status: 'ok', reason: 'answers' };
    }),
    check('The media store', async () => {
      await parts.checkMediaStore();
      return { status: 'ok', reason: 'can be read and written' };
    }),
    check('The mail server', async () => {
      if (!parts.checkMail)
        return { status: 'warn', reason: 'SMTP_URL is not set: mail is kept in the outbox and logged, not sent' };
      await parts.checkMail();
      return { status: 'ok', reason: 'the SMTP server answers' };
    }),
    check('ffmpeg', async () => {
      const tools = await parts.checkVideoTools();
      return tools.available
        ? { status: 'ok', reason: 'ffmpeg and ffprobe run' }
        : { status: 'warn', reason: `sign-language videos cannot be processed: ${tools.reason ?? 'ffmpeg is missing'}` };
    }),
    check('The job backlog', async () => {
      lanes = await jobBacklog(now, parts.db);
      const oldest = Math.max(0, ...lanes.map((lane) => lane.oldestWaitingSeconds));
      const failed = lanes.reduce((sum, lane) => sum + lane.failed, 0);
      const waiting = lanes.reduce((sum, lane) => sum + lane.waiting, 0);
      const words = `${waiting} waiting (the oldest ${oldest} s), ${failed} failed in the last day`;
      if (oldest >= JOB_WAIT_FAIL_SECONDS) return { status: 'fail', reason: `${words}: no worker is taking jobs` };
      if (oldest >= JOB_WAIT_WARN_SECONDS || failed > 0) return { status: 'warn', reason: words };
      return { status: 'ok', reason: words };
    }),
    check(`Free space in ${parts.dataDir}`, async () => {
      const stats = await fs.statfs(parts.dataDir);
      disk = { freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize };
      return judgeDisk(disk.freeBytes!, disk.totalBytes!);
    }),
  ]);
  const checks = { database, mediaStore, mail, videoTools, jobs: { ...jobs, lanes }, disk: { ...space, ...disk } };
  const all = Object.values(checks).map((c) => c.status);
  const status: HealthStatus = all.includes('fail') ? 'fail' : all.includes('warn') ? 'warn' : 'ok';
  return { status, checks };
}
