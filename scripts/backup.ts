// `npm run backup [-- --out DIR]`: writes a consistent copy of the site (database and uploaded
// images) to a dated .tar.gz in BACKUP_DIR (DATA_DIR/backups unless set) or DIR, while the site runs.
// Reads the same settings as the site (.env or the environment). docs/operations.md#backups
import { parseArgs } from 'node:util';
import { BackupError, createBackup, describeBackup, formatBytes, uploadsPlaceOf } from '../app/server/platform/backup.server.ts';
import { ConfigError, loadConfig } from '../app/server/platform/config.server.ts';

function fail(message: string): never {
  process.stderr.write(`Backup failed: ${message}\n`);
  process.exit(1);
}

let out: string | undefined;
try {
  ({
    values: { out },
  } = parseArgs({ options: { out: { type: 'string' } }, allowPositionals: false }));
} catch (error) {
  fail(`${(error as Error).message}. Usage: npm run backup [-- --out DIR]`);
}

try {
  const config = loadConfig();
  const backup = await createBackup({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    outDir: out ?? config.backups.dir,
    uploads: uploadsPlaceOf(config),
  });
  process.stdout.write(
    [
      `Backup written: ${backup.file} (${formatBytes(backup.bytes)})`,
      ...describeBackup(backup.manifest).map((l) => `  ${l}`),
    ].join('\n') + '\n',
  );
} catch (error) {
  if (error instanceof BackupError || error instanceof ConfigError) fail(error.message);
  throw error;
}
