import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase, type TestDatabase } from '../../../tests/support/databases';
import type { Collection } from '../../lib/collections';
import type { Role } from '../../lib/permissions';
import type { StaffUser } from '../staff/auth.server';
import { ensureSuperAdmin } from './seed.server';
import { DEMO_GONE, DEMO_MESSAGES, hasDemoContent, removeDemoContent, summariseDemoContent } from './demo.server';
import { findFounderStoryPath, getFounderProfile } from '../site/founder.server';
import { isStoredImage } from '../media/media.server';
import { readSetting, SETTING_KEYS, writeSetting } from '../platform/settings.server';
import { storeImage } from '../media/storage.server';

// Issue 11: the demo goes in one action of the super admin; what the team made stays.

const IP = '198.51.100.40';
const SUPER = 'chief@example.org';

const at = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();

async function addUser(
  db: TestDatabase['db'],
  email: string,
  options: { role?: Role; demo?: number; picture?: string | null; lastLogin?: string | null } = {},
) {
  const id = `u-${email}`;
  await db
    .insertInto('system_users')
    .values({
      id,
      name: email.split('@')[0]!.replace('.', ' '),
      email,
      role: options.role ?? 'AUTHOR',
      profile_picture: options.picture ?? null,
      password_hash: null,
      demo: options.demo ?? 0,
      created_at: at(100),
      updated_at: at(100),
      updated_by: null,
      last_login: options.lastLogin ?? null,
    })
    .execute();
  return id;
}

async function addContent(
  db: TestDatabase['db'],
  id: string,
  collection: Collection,
  options: { demo?: number; author?: string; image?: string | null; category?: string; daysAgo?: number } = {},
) {
  await db
    .insertInto('content')
    .values({
      id,
      collection,
      title: `Title of ${id}`,
      summary: 'A summary.',
      excerpt: null,
      content: '<p>Body</p>',
      category: options.category ?? 'advocacy',
      author: 'Someone',
      author_email: options.author ?? null,
      author_role: 'AUTHOR',
      image_url: options.image ?? null,
      image_alt: options.image ? 'A picture' : null,
      demo: options.demo ?? 0,
      created_at: at(options.daysAgo ?? 10),
      published_at: at(options.daysAgo ?? 10),
      updated_at: at(options.daysAgo ?? 10),
    })
    .execute();
}

async function picture(db: TestDatabase['db'], name: string, folder: 'news' | 'blogs' | 'profiles' | 'services') {
  const bytes = await sharp({ create: { width: 320, height: 180, channels: 3, background: '#134e4a' } })
    .png()
    .toBuffer();
  return (await storeImage(db, { folder, originalName: `${name}.png`, bytes })).url;
}

describe.each(ENGINES)('removing the demo content on %s', (engine) => {
  const database = useTestDatabase(engine, { uploads: true });
  let superAdmin: StaffUser;
  let pictures: Record<'demoOnly' | 'shared' | 'demoFace' | 'demoService', string>;

  beforeEach(async () => {
    const db = database().db;
    for (const table of [
      'content',
      'services',
      'sessions',
      'password_reset_tokens',
      'system_users',
      'audit_log',
      'settings',
    ] as const)
      await db.deleteFrom(table).execute();
    await ensureSuperAdmin(db, { email: SUPER, password: 'a-long-passphrase' });
    const row = await db.selectFrom('system_users').selectAll().where('email', '=', SUPER).executeTakeFirstOrThrow();
    superAdmin = { id: row.id, name: row.name, email: SUPER, role: 'SUPER_ADMIN', bio: '', profilePicture: null, sessionId: 's' };
    // Even a super admin row carrying the flag by mistake is never removed.
    await db.updateTable('system_users').set({ demo: 1 }).where('id', '=', row.id).execute();

    pictures = {
      demoOnly: await picture(db, 'demo-only', 'news'),
      shared: await picture(db, 'shared', 'blogs'),
      demoFace: await picture(db, 'demo-face', 'profiles'),
      demoService: await picture(db, 'demo-service', 'services'),
    };
    const grace = await addUser(db, 'grace.demo@example.org', { role: 'ADMIN', demo: 1, picture: pictures.demoFace });
    const daniel = await addUser(db, 'daniel.demo@example.org', { demo: 1, lastLogin: at(2) });
    await addUser(db, 'team.member@example.org', { role: 'EDITOR' });
    await writeSetting(db, SETTING_KEYS.founderEmail, 'grace.demo@example.org');
    await writeSetting(db, SETTING_KEYS.demoSeededAt, at(100));

    await addContent(db, 'demo-story', 'blogs', {
      demo: 1,
      author: 'grace.demo@example.org',
      category: 'personal-experience',
      image: pictures.shared,
    });
    await addContent(db, 'demo-news-1', 'news', { demo: 1, image: pictures.demoOnly });
    await addContent(db, 'demo-news-2', 'news', { demo: 1 });
    await addContent(db, 'demo-resource', 'resources', { demo: 1 });
    // Written later by a demo author, through the dashboard: the team's.
    await addContent(db, 'team-story', 'blogs', { author: 'daniel.demo@example.org', image: pictures.shared, daysAgo: 1 });

    const now = at(0);
    await db
      .insertInto('services')
      .values([
        {
          id: 'digital-skills',
          title: 'Digital Skills Training',
          description: 'd',
          image_url: '/images/services/digital-skills.svg',
          image_alt: 'x',
          position: 0,
          demo: 0,
          created_at: now,
          updated_at: now,
        },
        {
          id: 'demo-service',
          title: 'Demo Service',
          description: 'd',
          image_url: pictures.demoService,
          image_alt: 'x',
          position: 1,
          demo: 1,
          created_at: now,
          updated_at: now,
        },
      ])
      .execute();

    for (const [id, userId] of [
      ['session-grace', grace],
      ['session-daniel', daniel],
    ] as const)
      await db
        .insertInto('sessions')
        .values({ id, user_id: userId, created_at: now, last_seen_at: now, expires_at: at(-1), ip: null, user_agent: null })
        .execute();
    await db
      .insertInto('password_reset_tokens')
      .values({ token_hash: 'h-daniel', user_id: daniel, created_at: now, expires_at: at(-1) })
      .execute();
  });

  it('names what will go: counts per kind, the staff, the founder story it affects', async () => {
    expect(await hasDemoContent(database().db)).toBe(true);
    const summary = await summariseDemoContent(database().db);
    expect(summary.counts).toEqual({ stories: 1, news: 2, resources: 1, services: 1, staff: 2 });
    expect(summary.total).toBe(7);
    expect(summary.services).toEqual(['Demo Service']);
    expect(summary.staff).toEqual([
      { name: 'daniel demo', email: 'daniel.demo@example.org', role: 'AUTHOR', lastLogin: expect.any(String) },
      { name: 'grace demo', email: 'grace.demo@example.org', role: 'ADMIN', lastLogin: null },
    ]);
    expect(summary.founder).toEqual({ name: 'grace demo', accountIsDemo: true, storyIsDemo: true });
  });

  it('is refused to anyone but the super admin, and changes nothing', async () => {
    for (const role of ['ADMIN', 'EDITOR', 'AUTHOR', 'VIEWER'] as const) {
      const actor: StaffUser = { ...superAdmin, id: `x-${role}`, email: `${role}@example.org`, role };
      await expect(removeDemoContent(actor, IP)).rejects.toMatchObject({ status: 403, message: DEMO_MESSAGES.forbidden });
    }
    expect((await summariseDemoContent(database().db)).total).toBe(7);
  });

  it('removes every demo row in one action, then the pictures only they showed; the team’s rows stay', async () => {
    const db = database().db;
    const counts = await removeDemoContent(superAdmin, IP);
    expect(counts).toEqual({ stories: 1, news: 2, resources: 1, services: 1, staff: 2 });

    expect((await db.selectFrom('content').select('id').execute()).map((r) => r.id)).toEqual(['team-story']);
    expect((await db.selectFrom('services').select('id').execute()).map((r) => r.id)).toEqual(['digital-skills']);
    expect((await db.selectFrom('system_users').select('email').orderBy('email').execute()).map((r) => r.email)).toEqual([
      SUPER,
      'team.member@example.org',
    ]);
    // Their sessions end as when an account is deleted (the next request is told why); reset links go.
    const sessions = await db.selectFrom('sessions').select(['id', 'ended_reason']).orderBy('id').execute();
    expect(sessions).toEqual([
      { id: 'session-daniel', ended_reason: 'account-removed' },
      { id: 'session-grace', ended_reason: 'account-removed' },
    ]);
    expect(await db.selectFrom('password_reset_tokens').select('token_hash').execute()).toEqual([]);

    expect(await isStoredImage(pictures.demoOnly)).toBe(false);
    expect(await isStoredImage(pictures.demoFace)).toBe(false);
    expect(await isStoredImage(pictures.demoService)).toBe(false);
    expect(await isStoredImage(pictures.shared)).toBe(true);

    // The founder setting no longer names a removed account; the pages fall back to the built-in founder.
    expect(await readSetting(db, SETTING_KEYS.founderEmail)).toBeUndefined();
    const founder = await getFounderProfile(db);
    expect(founder.email).not.toBe('grace.demo@example.org');
    expect(await findFounderStoryPath({ email: 'grace.demo@example.org' }, db)).toBeNull();

    const audit = await db.selectFrom('audit_log').selectAll().where('action', '=', 'demo.removed').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_email: SUPER, ip: IP });
    expect(JSON.parse(audit[0]!.detail)).toEqual(counts);

    // A second time finds nothing, says so (all zero) and audits nothing.
    expect(await readSetting(db, DEMO_GONE)).toEqual(expect.any(String));
    expect(await hasDemoContent(db)).toBe(false);
    expect(await removeDemoContent(superAdmin, IP)).toEqual({ stories: 0, news: 0, resources: 0, services: 0, staff: 0 });
    expect(await db.selectFrom('audit_log').select('id').where('action', '=', 'demo.removed').execute()).toHaveLength(1);
    expect((await summariseDemoContent(db)).total).toBe(0);
  });

  it('leaves a founder setting that names the team’s own account', async () => {
    const db = database().db;
    await writeSetting(db, SETTING_KEYS.founderEmail, 'team.member@example.org');
    expect((await summariseDemoContent(db)).founder).toBeNull();
    await removeDemoContent(superAdmin, IP);
    expect(await readSetting(db, SETTING_KEYS.founderEmail)).toBe('team.member@example.org');
  });
});

describe.each(ENGINES)('whether demo content is left, on %s', (engine) => {
  const database = useTestDatabase(engine);

  it('answers from settings when the demo was never seeded or is gone, and remembers finding none', async () => {
    const db = database().db;
    await addContent(db, 'flagged', 'news', { demo: 1 });
    // DEMO_CONTENT=false (or a site that had content first): never seeded, so nothing is looked up.
    expect(await hasDemoContent(db)).toBe(false);

    await writeSetting(db, SETTING_KEYS.demoSeededAt, at(10));
    expect(await hasDemoContent(db)).toBe(true);
    expect(await readSetting(db, DEMO_GONE)).toBeUndefined();

    // Staff deleted the demo by hand: the first look finds none and says so for good.
    await db.deleteFrom('content').where('id', '=', 'flagged').execute();
    expect(await hasDemoContent(db)).toBe(false);
    expect(await readSetting(db, DEMO_GONE)).toEqual(expect.any(String));
    await addContent(db, 'not-looked-at', 'news', { demo: 1 });
    expect(await hasDemoContent(db)).toBe(false);
  });
});
