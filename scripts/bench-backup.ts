// Issue 29 in `npm run bench`: what the nightly backup does to a site process's event loop. The
// bench's own process stands in for a worker: it writes a backup of the bench's database (10,000
// stories) once in its own event loop, as the nightly job used to, and once in a process of its own
// at a low priority (app/server/platform/backup-process.ts), as it does now, and reads how long its
// event loop was busy and the longest it was held at once. The target: held at most 50 ms at a time,
// so no request waits on a backup.
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { backupInOwnProcess, createBackup } from '../app/server/platform/backup.server.ts';

const HELD_AT_MOST_MS = 50;

interface BackupRun {
  label: string;
  wallMs: number;
  busyMs: number;
  longestMs: number;
  bytes: number;
  /** The backup process's own peak resident memory. */
  peakResidentBytes?: number;
}

async function timed(label: string, write: () => Promise<{ bytes: number; peakResidentBytes?: number }>): Promise<BackupRun> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const before = performance.eventLoopUtilization();
  const started = performance.now();
  const { bytes, peakResidentBytes } = await write();
  const wallMs = performance.now() - started;
  const busyMs = performance.eventLoopUtilization(before).active;
  delay.disable();
  return { label, wallMs, busyMs, longestMs: delay.max / 1e6, bytes, peakResidentBytes };
}

/** Prints the table and returns the verdict line. */
export async function measureBackup(dataDir: string, table: (head: string[], rows: string[][]) => string): Promise<string[]> {
  const outDir = path.join(dataDir, 'bench-backups');
  try {
    const inProcess = await timed('in the site process (before)', () => createBackup({ dataDir, outDir }));
    const own = await timed('in a process of its own, niceness 10 (now)', () => backupInOwnProcess({ dataDir, outDir }));
    process.stdout.write(
      `Issue 29: the nightly backup of the bench's database, and what it does to the event loop of the process that starts it:\n${table(
        ['Backup', 'took s', 'event loop busy ms', 'longest hold ms', 'archive', 'its process peak'],
        [inProcess, own].map((r) => [
          r.label,
          (r.wallMs / 1000).toFixed(1),
          r.busyMs.toFixed(0),
          r.longestMs.toFixed(0),
          `${(r.bytes / 1024 / 1024).toFixed(1)} MB`,
          r.peakResidentBytes === undefined ? '-' : `${(r.peakResidentBytes / 1024 / 1024).toFixed(0)} MB`,
        ]),
      )}\n\n`,
    );
    const verdict = own.longestMs <= HELD_AT_MOST_MS ? 'PASS' : 'FAIL';
    return [
      `${verdict}  the nightly backup holds a site process's event loop at most ${HELD_AT_MOST_MS} ms at a time: ${own.longestMs.toFixed(0)} ms (${inProcess.longestMs.toFixed(0)} ms when written in the process itself)`,
    ];
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}
