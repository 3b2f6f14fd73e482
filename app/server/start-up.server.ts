import path from 'node:path';
import { ConfigError, type Config } from './platform/config.server.ts';
import type { Logger } from './platform/logger.server.ts';
import { openDatabase, setDatabase, type DatabaseHandle } from './db/db.server.ts';
import { migrateToLatest } from './db/migrations.server.ts';
import { ensureSuperAdmin, seedDemoContent, storeBuiltInServices } from './demo/seed.server.ts';
import { registerJobHandler, registerRecurringJob, startJobWorker, type JobWorkerOptions } from './platform/jobs.server.ts';
import { deliverQueuedMail, MAIL_JOB } from './platform/mail.server.ts';
import { MESSAGE_EXPIRY_EVERY_MS, MESSAGE_EXPIRY_JOB, runMessageExpiry } from './inbox/messages.server.ts';
import { PASSWORD_RESET_JOB, runPasswordResetRequest } from './staff/password-reset.server.ts';
import { registerNewsletterJobs } from './newsletter/newsletter-jobs.server.ts';
import {
  runScheduledPublishing,
  SCHEDULED_PUBLISH_EVERY_MS,
  SCHEDULED_PUBLISH_JOB,
} from './content/scheduled-publishing.server.ts';
import { runResponsiveWidths, runUploadPruning, UPLOAD_PRUNING_EVERY_MS, UPLOAD_PRUNING_JOB } from './media/media.server.ts';
import { createS3Store, describeStoreError } from './media/object-store.server.ts';
import { withStartUpLock } from './platform/start-up-lock.server.ts';
import { RESPONSIVE_WIDTHS_EVERY_MS, RESPONSIVE_WIDTHS_JOB, setMediaStore, setUploadsRoot } from './media/storage.server.ts';
import { registerNightlyBackup } from './platform/backup.server.ts';
import { processVideo, VIDEO_JOB } from './media/video.server.ts';
import { EVENT_REMINDER_EVERY_MS, EVENT_REMINDER_JOB, runEventReminders } from './events/registrations.server.ts';
import { ANALYTICS_ROLL_UP_EVERY_MS, ANALYTICS_ROLL_UP_JOB, runAnalyticsRollUp } from './analytics/roll-up.server.ts';
import { SEARCH_TIDY_EVERY_MS, SEARCH_TIDY_JOB, tidySearchIndex } from './content/search.server.ts';

/** Where a generated super admin password is left for the operator (owner-only), inside DATA_DIR. */
export const SUPER_ADMIN_PASSWORD_FILE = 'super-admin-password.txt';

/**
 * Everything the site needs before it can answer a request: the database (migrated), the uploads'
 * store, the super admin account, the built-in services and, on an empty database with DEMO_CONTENT
 * on, the demo content. The first-start work runs under the start-up lock, so instances and workers
 * started at the same moment do it once (start-up-lock.server.ts).
 */
export async function startServices(config: Config, logger: Logger): Promise<DatabaseHandle> {
  const handle = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  setDatabase(handle);
  setUploadsRoot(config.dataDir);
  try {
    if (config.storage.kind === 's3') {
      const store = await createS3Store(config.storage);
      try {
        await store.check();
      } catch (error) {
        throw new ConfigError(`STORAGE_URL ${store.location} cannot be used (${describeStoreError(error)})`);
      }
      setMediaStore(store);
    }
    await withStartUpLock(handle, config.dataDir, () => firstStartWork(handle, config, logger));
  } catch (error) {
    await handle.close().catch(() => undefined);
    setDatabase(undefined);
    throw error;
  }
  registerNightlyBackup(config); // BACKUPS: a daily backup job, once across processes (backup.server.ts)
  return handle;
}

/** Migrations, the super admin, the built-in services and the demo content: each a no-op once done. */
async function firstStartWork(handle: DatabaseHandle, config: Config, logger: Logger): Promise<void> {
  const applied = await migrateToLatest(handle.db, handle.engine);
  if (applied.length) logger.info({ migrations: applied }, 'database migrated');

  const passwordFile = path.join(config.dataDir, SUPER_ADMIN_PASSWORD_FILE);
  const admin = await ensureSuperAdmin(handle.db, {
    email: config.superAdminEmail,
    password: config.superAdminPassword,
    passwordFile,
  });
  if (admin.created) logger.info({ email: admin.email }, 'super admin account created');
  // A file left from an earlier start is named by server.ts's start warnings, once per start.
  if (admin.generatedPassword) announcePasswordFile(admin.email, passwordFile);

  const services = await storeBuiltInServices(handle.db);
  if (services.stored) logger.info({ services: services.stored }, 'built-in services stored');
  // DEMO_CONTENT=false starts with no demo stories, news or staff.
  const seed = config.demoContent ? await seedDemoContent(handle.db) : { seeded: false, articles: 0 };
  if (seed.seeded) logger.info({ articles: seed.articles, pid: process.pid }, 'demo content added to the empty database');
}

/**
 * Runs queued work (mail, forgot-password requests) in this process (server/app.ts starts it).
 * Returns a stop function that waits for the jobs in hand.
 */
export function startBackgroundJobs(options: JobWorkerOptions = {}): () => Promise<void> {
  const unregister = [
    registerJobHandler(MAIL_JOB, deliverQueuedMail),
    registerJobHandler(PASSWORD_RESET_JOB, runPasswordResetRequest),
    // The newsletter: subscriptions, sending batches, asking earlier subscribers, expiring unconfirmed addresses.
    ...registerNewsletterJobs(),
    // Deletes contact messages past their retention period, once a day across all processes.
    registerRecurringJob(MESSAGE_EXPIRY_JOB, runMessageExpiry, MESSAGE_EXPIRY_EVERY_MS),
    // Issue 13: publishes scheduled items whose time has come (and, after downtime, all that fell due).
    registerRecurringJob(SCHEDULED_PUBLISH_JOB, runScheduledPublishing, SCHEDULED_PUBLISH_EVERY_MS),
    // Removes uploads whose form was never saved, every six hours across all processes (decision 008).
    registerRecurringJob(UPLOAD_PRUNING_JOB, runUploadPruning, UPLOAD_PRUNING_EVERY_MS),
    // Issue 24: pictures stored before a responsive width existed get it (the phones' 720 copy).
    registerRecurringJob(RESPONSIVE_WIDTHS_JOB, runResponsiveWidths, RESPONSIVE_WIDTHS_EVERY_MS),
    // Issue 14: probes and transcodes an uploaded sign-language video (decision 020). In a lane of its
    // own: a transcode takes minutes, and mail and scheduled publishing go on meanwhile. One at a
    // time on the whole site (issue 22): each takes hundreds of megabytes and both cores.
    registerJobHandler(VIDEO_JOB, processVideo, { lane: 'video', onePerSite: true }),
    // Issue 27: the reminder the day before an event, once per registrant across all processes.
    registerRecurringJob(EVENT_REMINDER_JOB, runEventReminders, EVENT_REMINDER_EVERY_MS),
    // Issue 28: each finished day's unique visitors, then the hashes, salts and old rows deleted.
    registerRecurringJob(ANALYTICS_ROLL_UP_JOB, runAnalyticsRollUp, ANALYTICS_ROLL_UP_EVERY_MS),
    // Issue 29: SQLite's search index merged into one piece, a few pages at a time, once a day.
    registerRecurringJob(SEARCH_TIDY_JOB, async () => void (await tidySearchIndex()), SEARCH_TIDY_EVERY_MS),
  ];
  const stop = startJobWorker(options);
  return async () => {
    await stop();
    for (const undo of unregister) undo();
  };
}

/**
 * Names the file, never the password: terminal output often ends up in log storage. The file is
 * readable by this system user only.
 */
function announcePasswordFile(email: string, file: string): void {
  const lines = [
    'A super admin account was created with a generated password, written to a file only this',
    'system user can read:',
    `  email: ${email}`,
    `  file:  ${file}`,
    'Sign in at /admin, change the password, then delete the file.',
    'To choose the first password yourself, set SUPER_ADMIN_PASSWORD before the first start.',
  ];
  const width = Math.max(...lines.map((l) => l.length));
  const rule = '='.repeat(width);
  process.stdout.write(`\n${rule}\n${lines.join('\n')}\n${rule}\n\n`);
}
