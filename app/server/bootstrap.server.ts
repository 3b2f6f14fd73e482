import type { Config } from './config.server.ts';
import type { Logger } from './logger.server.ts';
import { openDatabase, setDatabase, type DatabaseHandle } from './db/db.server.ts';
import { migrateToLatest } from './db/migrations.server.ts';
import { ensureSuperAdmin, seedDemoContent } from './db/seed.server.ts';
import { setUploadsRoot } from './storage.server.ts';

/**
 * Everything the site needs before it can answer a request: the database (migrated), the super admin
 * account and, on an empty database, the demo content.
 */
export async function startServices(config: Config, logger: Logger): Promise<DatabaseHandle> {
  const handle = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  setDatabase(handle);
  setUploadsRoot(config.dataDir);
  try {
    const applied = await migrateToLatest(handle.db, handle.engine);
    if (applied.length) logger.info({ migrations: applied }, 'database migrated');

    const admin = await ensureSuperAdmin(handle.db, { email: config.superAdminEmail, password: config.superAdminPassword });
    if (admin.created) logger.info({ email: admin.email }, 'super admin account created');
    if (admin.generatedPassword) announceGeneratedPassword(admin.email, admin.generatedPassword);

    const seed = await seedDemoContent(handle.db);
    if (seed.seeded) logger.info({ articles: seed.articles }, 'demo content added to the empty database');
  } catch (error) {
    await handle.close().catch(() => undefined);
    setDatabase(undefined);
    throw error;
  }
  return handle;
}

/** Shown once on the terminal, outside the structured log, so the password never lands in log storage. */
function announceGeneratedPassword(email: string, password: string): void {
  const lines = [
    'A super admin account was created with a generated password. It is shown only this once:',
    `  email:    ${email}`,
    `  password: ${password}`,
    'Sign in at /admin and change it, or set SUPER_ADMIN_PASSWORD before the first start.',
  ];
  const width = Math.max(...lines.map((l) => l.length));
  const rule = '='.repeat(width);
  process.stdout.write(`\n${rule}\n${lines.join('\n')}\n${rule}\n\n`);
}
