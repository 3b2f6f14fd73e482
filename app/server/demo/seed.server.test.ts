import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, ENGINES, type TestDatabase } from '../../../tests/support/databases';
import { startServices } from '../start-up.server';
import { loadConfig } from '../platform/config.server';
import { createLogger } from '../platform/logger.server';
import { verifyPassword } from '../staff/passwords.server';
import { getDatabase, setDatabase } from '../db/db.server';
import { setUploadsRoot } from '../media/storage.server';
import { DEFAULT_SERVICE_IDS } from '../../lib/services';
import { defaultServices, listServices } from '../content/services.server';
import { SEED_ARTICLES, SEED_AUTHORS } from './seed-data';
import { BUILT_IN_SERVICES_STORED, ensureSuperAdmin, seedDemoContent, storeBuiltInServices } from './seed.server';
import { SEED_TRANSLATIONS } from './seed-translations';

describe.each(ENGINES)('first start on %s', (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('creates the super admin with the configured password, once', async () => {
    database = await createTestDatabase(engine);
    const first = await ensureSuperAdmin(database.db, { email: 'Chief@Example.org', password: 'a-long-passphrase' });
    expect(first).toEqual({ created: true, email: 'chief@example.org' });
    const second = await ensureSuperAdmin(database.db, { email: 'chief@example.org', password: 'another-one' });
    expect(second.created).toBe(false);
    const users = await database.db.selectFrom('system_users').selectAll().execute();
    expect(users).toHaveLength(1);
    expect(users[0]!.role).toBe('SUPER_ADMIN');
    expect(users[0]!.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(users[0]!.password_hash!, 'a-long-passphrase')).toBe(true);
  });

  it('generates a strong password when none is configured', async () => {
    database = await createTestDatabase(engine);
    const result = await ensureSuperAdmin(database.db, { email: 'chief@example.org' });
    expect(result.generatedPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const user = await database.db.selectFrom('system_users').select('password_hash').executeTakeFirstOrThrow();
    expect(user.password_hash).not.toContain(result.generatedPassword);
    expect(await verifyPassword(user.password_hash!, result.generatedPassword!)).toBe(true);
  });

  // Rendering and encoding the demo images is the slow part (seconds on a busy two-core machine).
  it('seeds demo content on an empty database, and nothing on a second start', { timeout: 180_000 }, async () => {
    database = await createTestDatabase(engine);
    setUploadsRoot(database.dataDir);
    const first = await seedDemoContent(database.db);
    expect(first.seeded).toBe(true);

    const all = await database.db.selectFrom('content').selectAll().execute();
    // Issue 26: besides the English items, the demo's translated stories, two in each language, published.
    const content = all.filter((row) => row.language === 'en');
    expect(content).toHaveLength(SEED_ARTICLES.length);
    const versions = all.filter((row) => row.language !== 'en');
    expect(versions).toHaveLength(SEED_TRANSLATIONS.length);
    for (const language of ['lg', 'sw']) {
      const own = versions.filter((row) => row.language === language);
      expect(own.length).toBeGreaterThanOrEqual(2);
      for (const row of own) {
        expect(row).toMatchObject({ status: 'published', demo: 1, collection: 'blogs' });
        expect(content.map((english) => english.id)).toContain(row.translation_of);
      }
    }
    const byCollection = (c: string) => content.filter((row) => row.collection === c);
    expect(byCollection('blogs').length).toBeGreaterThanOrEqual(8);
    expect(byCollection('news').length).toBeGreaterThanOrEqual(8);
    expect(byCollection('resources').length).toBeGreaterThanOrEqual(2);
    const storyCategories = new Set(byCollection('blogs').map((row) => row.category));
    for (const category of ['personal-experience', 'advocacy', 'community', 'inspiration', 'education', 'resources']) {
      expect(storyCategories).toContain(category);
    }
    for (const row of content) {
      expect(row.image_url).toMatch(/^\/media\/(blogs|news|resources)\/[0-9a-f]{32}_[A-Za-z0-9._-]+\.webp$/);
      expect(JSON.parse(row.tags).length).toBeGreaterThan(0);
      expect(row.search_text.length).toBeGreaterThan(200);
    }
    // Everything the demo adds is marked, so it can be removed in one action; services are not demo.
    expect(content.every((row) => row.demo === 1)).toBe(true);
    const staff = await database.db.selectFrom('system_users').select(['email', 'demo', 'password_hash']).execute();
    expect(staff.map((row) => row.email).sort()).toEqual(SEED_AUTHORS.map((a) => a.email).sort());
    expect(staff.every((row) => row.demo === 1 && row.password_hash === null)).toBe(true);
    expect(await database.db.selectFrom('services').select('id').execute()).toEqual([]);
    // Each story and news item's history starts with the version its author published.
    const revisions = await database.db.selectFrom('content_revisions').selectAll().execute();
    const dashboardItems = all.filter((row) => row.collection !== 'resources');
    expect(revisions).toHaveLength(dashboardItems.length);
    for (const row of dashboardItems) {
      const first = revisions.find((revision) => revision.content_id === row.id)!;
      expect(first).toMatchObject({ number: 1, kind: 'published', actor_email: row.author_email, created_at: row.created_at });
      expect(JSON.parse(first.snapshot)).toMatchObject({ title: row.title, content: row.content, imageUrl: row.image_url });
    }

    const second = await seedDemoContent(database.db);
    expect(second.seeded).toBe(false);
    expect(await database.db.selectFrom('content').select('id').execute()).toHaveLength(
      SEED_ARTICLES.length + SEED_TRANSLATIONS.length,
    );

    // Staff deleting every demo item does not bring the demo back on the next start.
    await database.db.deleteFrom('content').execute();
    expect((await seedDemoContent(database.db)).seeded).toBe(false);
    expect(await database.db.selectFrom('content').select('id').execute()).toHaveLength(0);
  });
});

describe.each(ENGINES)('the built-in services on first start on %s', (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it("become stored services once, the organisation's own, with their static pictures", async () => {
    database = await createTestDatabase(engine);
    expect(await storeBuiltInServices(database.db)).toEqual({ stored: 4 });
    const rows = await database.db.selectFrom('services').selectAll().orderBy('position').execute();
    expect(rows.map((row) => [row.id, row.position, row.demo])).toEqual(DEFAULT_SERVICE_IDS.map((id, i) => [id, i, 0]));
    expect(rows.map((row) => row.image_url)).toEqual(DEFAULT_SERVICE_IDS.map((id) => `/images/services/${id}.svg`));
    // The public pages show them exactly as they showed the built-in fallback.
    expect(await listServices(database.db)).toEqual(defaultServices());

    expect(await storeBuiltInServices(database.db)).toEqual({ stored: 0 });
    // Staff deleting every service does not bring them back on the next start (the fallback shows them).
    await database.db.deleteFrom('services').execute();
    expect(await storeBuiltInServices(database.db)).toEqual({ stored: 0 });
    expect(await database.db.selectFrom('services').select('id').execute()).toEqual([]);
  });

  it('on a site that already stores services (an earlier demo seed), only the flag is written', async () => {
    database = await createTestDatabase(engine);
    const at = new Date().toISOString();
    await database.db
      .insertInto('services')
      .values({
        id: 'digital-skills',
        title: 'Edited by staff',
        description: 'd',
        image_url: null,
        image_alt: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    expect(await storeBuiltInServices(database.db)).toEqual({ stored: 0 });
    expect((await database.db.selectFrom('services').select('title').execute()).map((r) => r.title)).toEqual(['Edited by staff']);
    expect(
      await database.db.selectFrom('settings').select('key').where('key', '=', BUILT_IN_SERVICES_STORED).execute(),
    ).toHaveLength(1);
  });

  it('two starts at once store them once', async () => {
    database = await createTestDatabase(engine);
    const results = await Promise.all([storeBuiltInServices(database.db), storeBuiltInServices(database.db)]);
    expect(results.reduce((sum, r) => sum + r.stored, 0)).toBe(4);
    expect(await database.db.selectFrom('services').select('id').execute()).toHaveLength(4);
  });
});

describe.each(ENGINES)('start-up with DEMO_CONTENT=false on %s', (engine) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-no-demo-'));
  const schema = `test_nodemo_${randomBytes(5).toString('hex')}`;
  const url = process.env.TEST_DATABASE_URL;
  const databaseUrl =
    engine === 'postgres' && url
      ? `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`
      : '';
  afterAll(async () => {
    await getDatabase()
      .close()
      .catch(() => undefined);
    setDatabase(undefined);
    if (engine === 'postgres') {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts with no demo stories, news or staff, and the four built-in services stored', async () => {
    if (engine === 'postgres') {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`CREATE SCHEMA ${schema}`);
      await client.end();
    }
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SUPER_ADMIN_EMAIL: 'first@example.org',
      SUPER_ADMIN_PASSWORD: 'a-long-first-passphrase',
      DEMO_CONTENT: 'false',
    });
    expect(config.demoContent).toBe(false);
    const handle = await startServices(config, createLogger('silent'));
    expect(handle.engine).toBe(engine);
    const { db } = handle;
    expect(await db.selectFrom('content').select('id').execute()).toEqual([]);
    expect((await db.selectFrom('system_users').select('email').execute()).map((r) => r.email)).toEqual(['first@example.org']);
    const services = await db.selectFrom('services').select(['id', 'demo']).orderBy('position').execute();
    expect(services).toEqual(DEFAULT_SERVICE_IDS.map((id) => ({ id, demo: 0 })));
    expect(fs.existsSync(path.join(dataDir, 'uploads'))).toBe(false);
  });
});
