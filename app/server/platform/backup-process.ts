// Issue 29: the nightly backup in a process of its own (backup.server.ts, backupInOwnProcess). Run
// by Node from this source file; it reads one message of BackupOptions, writes the backup at a low
// CPU priority, answers with where it went, and ends. The site's processes keep their cores and their
// event loops while the database is copied and counted and the archive compressed.
import os from 'node:os';
import { createBackup, type BackupOptions } from './backup.server.ts';

/** What this process answers: the archive written, or why there is none. */
export type BackupProcessAnswer =
  | { ok: true; file: string; bytes: number; pid: number; priority: number; peakResidentBytes: number }
  | { ok: false; message: string };

/** Niceness 10: the site's requests are served first when a core is wanted by both. */
const LOW_PRIORITY = 10;

if (process.send) {
  try {
    os.setPriority(LOW_PRIORITY);
  } catch {
    // Not allowed here: the backup still runs, at the site's priority.
  }
  process.once('message', (options: BackupOptions) => {
    void createBackup(options)
      .then(
        (backup): BackupProcessAnswer => ({
          ok: true,
          file: backup.file,
          bytes: backup.bytes,
          pid: process.pid,
          priority: os.getPriority(),
          peakResidentBytes: process.resourceUsage().maxRSS * 1024,
        }),
        (error: unknown): BackupProcessAnswer => ({ ok: false, message: error instanceof Error ? error.message : String(error) }),
      )
      .then((answer) => process.send!(answer, () => process.disconnect()));
  });
}
