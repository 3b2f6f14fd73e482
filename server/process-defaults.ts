// What every process of the site needs set before any other module loads. server.ts imports this
// module first: ES modules run their imports in order, so React, Express and everything the site
// bundle brings in (loaded after it) see these settings, and so do the worker threads and the
// tools the site runs (ffmpeg), which inherit the environment and the file mode mask.
// Only Node's own modules: nothing of the site may load before this runs.
import fs from 'node:fs';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

/** `npm run dev` (`server.ts --dev`): the sources through Vite, one process. */
export const dev = process.argv.includes('--dev');

/**
 * Issue 22 point 10: React, React Router and Express choose their development builds (prop checks on
 * every render, slower pages) unless NODE_ENV is `production`, and `npm start` sets nothing. So the
 * site runs in production unless started with --dev; a NODE_ENV the operator set is kept (server.ts
 * warns when it is not `production`).
 */
if (!process.env.NODE_ENV) process.env.NODE_ENV = dev ? 'development' : 'production';

/**
 * Issue 22 point 8: what the site creates in DATA_DIR (the database and its WAL, uploads, video files,
 * backups) holds staff accounts and visitors' messages: readable by the site's own system user only,
 * whatever the shell's umask (usually 022, which left them 0644 and folders 0755). Files 0600,
 * folders 0700 (docs/operations.md#data-folder).
 */
export const FILE_MODE_MASK = 0o077;
// The mask is the process's: set by the main thread, it holds for the worker threads (which may not set it).
if (isMainThread) process.umask(FILE_MODE_MASK);

/**
 * Warnings about how the site was started, for server.ts to log once it has a logger: a NODE_ENV other
 * than production outside `npm run dev`, and a DATA_DIR the operator made that other users of the
 * machine may read or write (the site leaves its mode alone: docs/operations.md#data-folder).
 */
export function startWarnings(dataDir: string): { fields: Record<string, unknown>; message: string }[] {
  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  if (!dev && process.env.NODE_ENV !== 'production')
    warnings.push({
      fields: { nodeEnv: process.env.NODE_ENV },
      message: 'NODE_ENV is not production: React renders every page with its slower development build; unset NODE_ENV',
    });
  let mode: number | undefined;
  try {
    mode = fs.statSync(dataDir).mode & 0o777;
  } catch {
    // No DATA_DIR (a site on PostgreSQL with uploads in a bucket): nothing to say.
  }
  if (mode !== undefined && mode & 0o007)
    warnings.push({
      fields: { dataDir, mode: mode.toString(8) },
      message: `DATA_DIR can be read by other users of this machine: chmod 700 ${dataDir}`,
    });
  // The generated first password (app/server/start-up.server.ts, SUPER_ADMIN_PASSWORD_FILE).
  const passwordFile = path.join(dataDir, 'super-admin-password.txt');
  if (fs.existsSync(passwordFile))
    warnings.push({
      fields: { file: passwordFile },
      message: 'the generated super admin password is still on disk: delete the file once you have signed in',
    });
  return warnings;
}
