import type { Kysely } from 'kysely';
import { can, type Role } from '../../lib/permissions.ts';
import type { Collection } from '../../lib/collections.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import { getDb } from '../db/db.server.ts';
import type { Database } from '../db/schema.ts';
import { findFounderStoryPath, getFounderProfile } from '../site/founder.server.ts';
import { nowIso } from '../platform/ids.server.ts';
import { removeImageIfUnused } from '../media/media.server.ts';
import { RuleError } from '../platform/rule-error.server.ts';
import { readSetting, SETTING_KEYS, writeSetting } from '../platform/settings.server.ts';

// Issue 11: the demo the first start adds (stories, news, resources and the staff who "wrote" them,
// each row marked demo = 1) goes in one action of the super admin, leaving everything the team made.
// docs/decisions/504-demo-content-and-overview.md

export const DEMO_MESSAGES = {
  forbidden: 'You do not have permission to perform this action.',
  confirmRequired: 'Please tick the box to confirm that you want to remove the demo content.',
  nothing: 'There is no demo content to remove.',
  failed: 'The demo content could not be removed. Nothing was changed. Please try again.',
} as const;

export interface DemoCounts {
  stories: number;
  news: number;
  resources: number;
  services: number;
  staff: number;
}

export interface DemoStaff {
  name: string;
  email: string;
  role: Role;
  lastLogin: string | null;
}

/** What "Remove demo content" would take away, for the confirmation to name. */
export interface DemoSummary {
  counts: DemoCounts;
  total: number;
  staff: DemoStaff[];
  services: string[];
  /** The founder the home and About pages show, when what they show of them is demo content. */
  founder: { name: string; accountIsDemo: boolean; storyIsDemo: boolean } | null;
}

const COLLECTION_COUNT: Record<Collection, keyof DemoCounts> = { blogs: 'stories', news: 'news', resources: 'resources' };

/** The super admin's email (the settings' record, else the account with the role): never removed. */
async function superAdminEmail(db: Kysely<Database>): Promise<string | undefined> {
  return (await readSetting<string>(db, SETTING_KEYS.superAdminEmail))?.toLowerCase();
}

/** The demo staff accounts: never the super admin, whatever their flag says. */
function demoStaffQuery(db: Kysely<Database>, protectedEmail: string | undefined) {
  let query = db.selectFrom('system_users').where('demo', '=', 1).where('role', '!=', 'SUPER_ADMIN');
  if (protectedEmail) query = query.where('email', '!=', protectedEmail);
  return query;
}

/**
 * Set once no demo row is left. Demo rows are only ever added by the first start's seed (once per
 * database) and by migration 0006 (once), so after that none can come back.
 */
export const DEMO_GONE = 'demo_gone_at';

/**
 * Whether any demo row is left (the overview's notice). A database never seeded, or one whose demo is
 * gone, answers from settings alone; otherwise three look-ups that stop at the first demo row. With
 * no index on `demo` a look-up that finds nothing reads its whole table, so finding nothing is
 * remembered (DEMO_GONE) and never paid for again.
 */
export async function hasDemoContent(db: Kysely<Database> = getDb()): Promise<boolean> {
  const flags = await db
    .selectFrom('settings')
    .select('key')
    .where('key', 'in', [SETTING_KEYS.demoSeededAt, DEMO_GONE])
    .execute();
  const keys = new Set(flags.map((row) => row.key));
  if (!keys.has(SETTING_KEYS.demoSeededAt) || keys.has(DEMO_GONE)) return false;
  const [content, service, event, user] = await Promise.all([
    db.selectFrom('content').select('id').where('demo', '=', 1).limit(1).executeTakeFirst(),
    db.selectFrom('services').select('id').where('demo', '=', 1).limit(1).executeTakeFirst(),
    // Issue 27: the demo's trainings and events.
    db.selectFrom('events').select('id').where('demo', '=', 1).limit(1).executeTakeFirst(),
    demoStaffQuery(db, await superAdminEmail(db))
      .select('id')
      .limit(1)
      .executeTakeFirst(),
  ]);
  const left = Boolean(content || service || event || user);
  if (!left) await writeSetting(db, DEMO_GONE, nowIso());
  return left;
}

export async function summariseDemoContent(db: Kysely<Database> = getDb()): Promise<DemoSummary> {
  const protectedEmail = await superAdminEmail(db);
  const [byCollection, services, staff, founder] = await Promise.all([
    db
      .selectFrom('content')
      .select(['collection', (eb) => eb.fn.countAll<number>().as('n')])
      .where('demo', '=', 1)
      // Issue 26: an item is counted once, not once per language.
      .where('language', '=', 'en')
      .groupBy('collection')
      .execute(),
    db.selectFrom('services').select('title').where('demo', '=', 1).orderBy('position').execute(),
    demoStaffQuery(db, protectedEmail).select(['name', 'email', 'role', 'last_login']).orderBy('name').execute(),
    getFounderProfile(db),
  ]);
  const counts: DemoCounts = { stories: 0, news: 0, resources: 0, services: services.length, staff: staff.length };
  for (const row of byCollection) counts[COLLECTION_COUNT[row.collection]] = Number(row.n);
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);

  const accountIsDemo = staff.some((member) => member.email === founder.email.toLowerCase());
  const storyPath = await findFounderStoryPath(founder, db);
  const storyId = storyPath ? decodeURIComponent(storyPath.slice(storyPath.lastIndexOf('/') + 1)) : undefined;
  const story = storyId ? await db.selectFrom('content').select('demo').where('id', '=', storyId).executeTakeFirst() : undefined;
  const storyIsDemo = story?.demo === 1;
  return {
    counts,
    total,
    staff: staff.map((member) => ({ name: member.name, email: member.email, role: member.role, lastLogin: member.last_login })),
    services: services.map((service) => service.title),
    founder: accountIsDemo || storyIsDemo ? { name: founder.name, accountIsDemo, storyIsDemo } : null,
  };
}

/**
 * Removes, in one transaction, every row marked demo = 1: stories, news and resources, services, and
 * staff accounts (their sessions end, as when an account is deleted, and their reset links go). Rows
 * with demo = 0 stay, even an article a demo author wrote later; the super admin is never removed.
 * Then each picture that only demo rows showed is removed. Audited as `demo.removed` with the counts.
 * Answers the counts; all zero (and nothing audited) when there was nothing left to remove.
 */
export async function removeDemoContent(actor: StaffUser, ip: string): Promise<DemoCounts> {
  if (!can(actor.role, 'demo:remove')) throw new RuleError(DEMO_MESSAGES.forbidden, 403);
  const db = getDb();
  const protectedEmail = await superAdminEmail(db);
  const { counts, pictures } = await db.transaction().execute(async (trx) => {
    // Issue 26: with a demo item go its versions in other languages, a staff member's too (counted with their item).
    const content = await trx
      .selectFrom('content')
      .select(['id', 'collection', 'image_url', 'language'])
      .where((eb) =>
        eb.or([
          eb('demo', '=', 1),
          eb('translation_of', 'in', eb.selectFrom('content as english').select('english.id').where('english.demo', '=', 1)),
        ]),
      )
      .execute();
    const services = await trx.selectFrom('services').select(['id', 'image_url']).where('demo', '=', 1).execute();
    const staff = await demoStaffQuery(trx, protectedEmail)
      .where('id', '!=', actor.id)
      .select(['id', 'email', 'profile_picture'])
      .execute();
    const counts: DemoCounts = { stories: 0, news: 0, resources: 0, services: services.length, staff: staff.length };
    for (const row of content) if (row.language === 'en') counts[COLLECTION_COUNT[row.collection]] += 1;
    const pictures = [
      ...content.map((r) => r.image_url),
      ...services.map((r) => r.image_url),
      ...staff.map((r) => r.profile_picture),
    ];
    // Issue 27: the demo's events go too, with their registrations.
    const events = await trx.selectFrom('events').select('id').where('demo', '=', 1).execute();
    if (content.length + services.length + staff.length + events.length === 0) return { counts, pictures: [] };

    for (const ids of chunks(content.map((row) => row.id))) await trx.deleteFrom('content').where('id', 'in', ids).execute();
    for (const ids of chunks(services.map((row) => row.id))) {
      await trx.deleteFrom('service_translations').where('service_id', 'in', ids).execute();
      await trx.deleteFrom('services').where('id', 'in', ids).execute();
    }
    for (const ids of chunks(events.map((row) => row.id))) {
      await trx.deleteFrom('event_registrations').where('event_id', 'in', ids).execute();
      await trx.deleteFrom('event_translations').where('event_id', 'in', ids).execute();
      await trx.deleteFrom('events').where('id', 'in', ids).execute();
    }
    for (const ids of chunks(staff.map((row) => row.id))) {
      // As deleting an account does: its sessions end, and their next request is told why.
      await trx
        .updateTable('sessions')
        .set({ ended_reason: 'account-removed', last_seen_at: nowIso() })
        .where('user_id', 'in', ids)
        .execute();
      await trx.deleteFrom('password_reset_tokens').where('user_id', 'in', ids).execute();
      await trx.deleteFrom('system_users').where('id', 'in', ids).execute();
    }
    // A founder setting naming a removed account would make whoever later gets that address the founder.
    const founderEmail = (await readSetting<string>(trx, SETTING_KEYS.founderEmail))?.toLowerCase();
    if (founderEmail && staff.some((member) => member.email === founderEmail))
      await trx.deleteFrom('settings').where('key', '=', SETTING_KEYS.founderEmail).execute();
    await recordAudit({ actor: actor.email, action: 'demo.removed', target: null, ip, detail: { ...counts } }, trx);
    await writeSetting(trx, DEMO_GONE, nowIso());
    return { counts, pictures };
  });
  for (const url of new Set(pictures)) await removeImageIfUnused(url);
  return counts;
}

/** How each kind is named in the messages: [count key, one, many]. */
export const DEMO_KINDS = [
  ['stories', 'story', 'stories'],
  ['news', 'news article', 'news articles'],
  ['resources', 'resource', 'resources'],
  ['services', 'service', 'services'],
  ['staff', 'staff account', 'staff accounts'],
] as const satisfies readonly (readonly [keyof DemoCounts, string, string])[];

/** The answer to a removal: 'Demo content removed successfully! Removed 12 stories, 10 news articles and 3 staff accounts.' */
export function demoRemovedMessage(counts: DemoCounts): string {
  const parts = DEMO_KINDS.filter(([key]) => counts[key] > 0).map(
    ([key, one, many]) => `${counts[key]} ${counts[key] === 1 ? one : many}`,
  );
  if (parts.length === 0) return DEMO_MESSAGES.nothing;
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return `Demo content removed successfully! Removed ${list}.`;
}

export function demoTotal(counts: DemoCounts): number {
  return counts.stories + counts.news + counts.resources + counts.services + counts.staff;
}

function chunks<T>(items: T[], size = 200): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
