import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { getContentForAdmin, snapshotOf } from './content-admin.server.ts';
import { pruneStaleAutosaves, recordRevision } from './revisions.server.ts';
import { publicContentChanged } from '../platform/public-changes.server.ts';
import { pruneExpiredPreviewLinks } from './preview-links.server.ts';
import { readSiteSettings } from '../site/site-settings.server.ts';
import { timeZoneOr } from '../../lib/schedule.ts';

// Issue 13, scheduled publishing (docs/decisions/015-editorial-states.md): a recurring job
// (jobs.server.ts: one row, claimed by one process at a time) publishes every scheduled item whose
// time has come. Run every 30 seconds, it publishes within a minute of the time; after a restart or
// downtime its first run publishes everything that fell due meanwhile.

export const SCHEDULED_PUBLISH_JOB = 'content.publish_scheduled';
export const SCHEDULED_PUBLISH_EVERY_MS = 30_000;

/**
 * Publishes the scheduled items due at `now`, exactly once: one conditional UPDATE (status still
 * 'scheduled', time passed) decides, so two processes running it at once can never both publish an
 * item, and a save that raced it gets a 409 (the version moves on). An item published this way takes
 * its scheduled time as createdAt and publishedAt. Returns the ids published; the public page cache
 * is told when there are any.
 */
export async function publishDueContent(now = Date.now(), db: Kysely<Database> = getDb()): Promise<string[]> {
  const at = new Date(now).toISOString();
  const ids = await db.transaction().execute(async (trx) => {
    const rows = await trx
      .updateTable('content')
      .set({
        status: 'published',
        // Set from the row's old values: every expression of an UPDATE reads the row as it was.
        created_at: sql<string>`scheduled_at`,
        published_at: sql<string>`scheduled_at`,
        scheduled_at: null,
        version: sql<number>`version + 1`,
        updated_by: null,
        updated_at: at,
      })
      .where('status', '=', 'scheduled')
      .where('scheduled_at', '<=', at)
      .returning(['id'])
      .execute();
    for (const { id } of rows) {
      const item = await getContentForAdmin(id, trx);
      if (!item) continue; // a resource (never scheduled from the dashboard): nothing more to keep
      await recordRevision(trx, { contentId: id, kind: 'published', actor: null, snapshot: await snapshotOf(trx, item) });
      await recordAudit(
        {
          actor: null,
          action: 'content.published_by_schedule',
          target: id,
          ip: null,
          detail: { type: item.type, title: item.title, scheduledAt: item.publishedAt },
        },
        trx,
      );
    }
    return rows.map((row) => row.id);
  });
  if (ids.length) {
    getLogger().info({ ids }, 'scheduled content published');
    publicContentChanged();
  }
  return ids;
}

/** The job's handler (bootstrap.server.ts registers it as a recurring job). */
export async function runScheduledPublishing(): Promise<void> {
  await publishDueContent();
  await pruneExpiredPreviewLinks();
  await pruneStaleAutosaves();
}

/** The organisation's time zone (Site settings), in which schedules are entered and shown. */
export async function readEditorialTimeZone(db: Kysely<Database> = getDb()): Promise<string> {
  const { values } = await readSiteSettings(['timeZone'], db);
  return timeZoneOr(values.timeZone);
}
