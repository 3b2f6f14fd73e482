// `npm run restore -- FILE [--data-dir DIR] [--database-url URL] [--allow-root]`: brings a backup made
// by `npm run backup` back into an EMPTY data folder (DATA_DIR unless --data-dir) and, for a PostgreSQL
// backup, an empty database (DATABASE_URL unless --database-url). Refuses anything else, so it can
// never overwrite a site. Run as the site's system user: as root only with --allow-root.
// docs/operations.md#restore
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError, describeBackup, restoreBackup } from '../app/server/platform/backup.server.ts';
import { ConfigError, loadConfig } from '../app/server/platform/config.server.ts';

const USAGE = 'Usage: npm run restore -- FILE [--data-dir DIR] [--database-url URL] [--allow-root]';

/** Said, with exit code 1, to a restore run as root without --allow-root. */
const ROOT_REFUSAL =
  'run it as the system user the site runs as (sudo -u tdg npm run restore -- …), not as root: restored as root, the files would belong to root and the site could not write them. To restore as root all the same (a container that runs the site as root), add --allow-root';

// What is restored is the site user's only (0600 files, 0700 folders), as the site makes its own.
process.umask(0o077);

function fail(message: string): never {
  process.stderr.write(`Restore failed: ${message}\n`);
  process.exit(1);
}

let args: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: { 'data-dir': { type: 'string' }, 'database-url': { type: 'string' }, 'allow-root': { type: 'boolean' } },
    allowPositionals: true,
  });
}
try {
  args = parse();
} catch (error) {
  fail(`${(error as Error).message}. ${USAGE}`);
}
const [file, ...extra] = args.positionals;
if (!file || extra.length) fail(`name one backup file. ${USAGE}`);
if (process.getuid?.() === 0 && !args.values['allow-root']) fail(ROOT_REFUSAL);

try {
  const env = { ...process.env };
  if (args.values['data-dir'] !== undefined) env.DATA_DIR = args.values['data-dir'];
  if (args.values['database-url'] !== undefined) env.DATABASE_URL = args.values['database-url'];
  const config = loadConfig(env);
  const result = await restoreBackup({ file: path.resolve(file), dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const lines = [
    `Restored ${path.resolve(file)}`,
    ...describeBackup(result.manifest).map((l) => `  ${l}`),
    `  database restored into ${result.database}`,
    result.uploadsDir
      ? `  uploads restored into ${result.uploadsDir}`
      : '  uploads: not in the backup (object storage): nothing restored',
    '',
    // The backup had its images on disk but this site keeps them in a bucket: same keys, one copy away.
    ...(result.uploadsDir && config.storage.kind === 's3'
      ? [
          `This site keeps uploads in s3://${config.storage.bucket}/${config.storage.prefix} (STORAGE_URL): copy them there first,`,
          `for example: aws s3 sync ${result.uploadsDir} s3://${config.storage.bucket}/${config.storage.prefix}`,
          '',
        ]
      : []),
    'Start the site with the same settings (npm start): migrations a newer version needs run on start.',
    'Settings and the super admin password file are not in backups: staff sign in with the passwords they had.',
  ];
  process.stdout.write(lines.join('\n') + '\n');
} catch (error) {
  if (error instanceof BackupError || error instanceof ConfigError) fail(error.message);
  throw error;
}
