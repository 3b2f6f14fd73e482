import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import type { JobInfo } from '../platform/jobs.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { addDays } from '../../lib/analytics.ts';
import { dayOf, forgetOldSalts } from './counting.server.ts';
import { getAnalyticsRetention } from './report.server.ts';

// Issue 28: once an hour, in one process of the whole site: each finished day's unique visitors
// (the site's and each item's) go into its daily rows; then the visitor hashes older than yesterday
// (so at most 48 hours old), the salts of past days and the daily rows past the retention period
// are deleted. Each finished month's sums are kept beside the days (analytics_monthly), so a year's
// figures read about twelve rows per value.

export const ANALYTICS_ROLL_UP_JOB = 'analytics.roll-up';
export const ANALYTICS_ROLL_UP_EVERY_MS = 60 * 60_000;

export async function rollUpAnalytics(
  now = Date.now(),
  db: Kysely<Database> = getDb(),
): Promise<{ rolledUp: string[]; monthsSummed: string[]; hashesDeleted: number; rowsDeleted: number }> {
  const today = dayOf(now);
  const yesterday = addDays(today, -1);
  const months = await getAnalyticsRetention(db);
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  const keepFrom = dayOf(cutoff.getTime());

  const result = await db.transaction().execute(async (trx) => {
    const days = (await trx.selectFrom('analytics_recent').select('day').distinct().where('day', '<', today).execute()).map(
      (row) => row.day,
    );
    for (const day of days) {
      const counts = await trx
        .selectFrom('analytics_recent')
        .where('day', '=', day)
        .select(['scope', sql<string>`count(*)`.as('visitors')])
        .groupBy('scope')
        .execute();
      for (const { scope, visitors } of counts) {
        const update = trx
          .updateTable('analytics_daily')
          .set({ visitors: Number(visitors) })
          .where('day', '=', day);
        if (scope === '') await update.where('dimension', '=', 'total').execute();
        else await update.where('dimension', '=', 'path').where('item_id', '=', scope).execute();
      }
      // A day rolled up with no visitor of an item keeps zero, not "not counted yet".
      await trx
        .updateTable('analytics_daily')
        .set({ visitors: 0 })
        .where('day', '=', day)
        .where('visitors', 'is', null)
        .execute();
    }
    // Each finished month's sums: months without them yet, and last month again during the first two
    // days of this one (its last day's visitors and late writes arrive then).
    const thisMonth = today.slice(0, 7);
    const lastMonth = addDays(`${thisMonth}-01`, -1).slice(0, 7);
    const summed = new Set(
      (await trx.selectFrom('analytics_monthly').select('month').distinct().where('dimension', '=', 'total').execute()).map(
        (r) => r.month,
      ),
    );
    const months = (
      await trx
        .selectFrom('analytics_daily')
        .select(sql<string>`substr(day, 1, 7)`.as('month'))
        .distinct()
        .where('day', '<', `${thisMonth}-01`)
        .where('dimension', '=', 'total')
        .execute()
    )
      .map((row) => row.month)
      .filter((month) => !summed.has(month) || (month === lastMonth && Number(today.slice(8)) <= 2));
    for (const month of months) {
      await trx.deleteFrom('analytics_monthly').where('month', '=', month).execute();
      await trx
        .insertInto('analytics_monthly')
        .columns(['month', 'dimension', 'value', 'item_id', 'views', 'visits', 'visitors'])
        .expression(
          trx
            .selectFrom('analytics_daily')
            .select([
              sql<string>`${month}`.as('month'),
              'dimension',
              'value',
              sql<string | null>`max(item_id)`.as('item_id'),
              sql<string>`sum(views)`.as('views'),
              sql<string>`sum(visits)`.as('visits'),
              sql<string | null>`sum(visitors)`.as('visitors'),
            ])
            .where('day', '>=', `${month}-01`)
            .where('day', '<=', `${month}-31`)
            .groupBy(['dimension', 'value']),
        )
        .execute();
    }
    const hashes = await trx.deleteFrom('analytics_recent').where('day', '<', yesterday).executeTakeFirst();
    await trx.deleteFrom('analytics_salts').where('day', '<', today).execute();
    const old = await trx.deleteFrom('analytics_daily').where('day', '<', keepFrom).executeTakeFirst();
    await trx.deleteFrom('analytics_monthly').where('month', '<', keepFrom.slice(0, 7)).execute();
    return {
      rolledUp: days,
      monthsSummed: months,
      hashesDeleted: Number(hashes.numDeletedRows),
      rowsDeleted: Number(old.numDeletedRows),
    };
  });
  forgetOldSalts(today);
  if (result.rowsDeleted > 0)
    getLogger().info({ rows: result.rowsDeleted, keepFrom }, 'visit counts past their retention period deleted');
  return result;
}

export async function runAnalyticsRollUp(_payload: unknown, _job: JobInfo): Promise<void> {
  await rollUpAnalytics();
}
