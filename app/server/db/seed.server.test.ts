import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, ENGINES, type TestDatabase } from '../../../tests/support/databases';
import { verifyPassword } from '../passwords.server';
import { setUploadsRoot } from '../storage.server';
import { SEED_ARTICLES, SEED_SERVICES } from './seed-data';
import { ensureSuperAdmin, seedDemoContent } from './seed.server';

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

    const content = await database.db.selectFrom('content').selectAll().execute();
    expect(content).toHaveLength(SEED_ARTICLES.length);
    const byCollection = (c: string) => content.filter((row) => row.collection === c);
    expect(byCollection('blogs').length).toBeGreaterThanOrEqual(8);
    expect(byCollection('news').length).toBeGreaterThanOrEqual(8);
    expect(byCollection('resources').length).toBeGreaterThanOrEqual(2);
    const storyCategories = new Set(byCollection('blogs').map((row) => row.category));
    for (const category of ['personal-experience', 'advocacy', 'community', 'inspiration', 'education', 'resources']) {
      expect(storyCategories).toContain(category);
    }
    for (const row of content) {
      expect(row.image_url).toMatch(/^\/media\/(blogs|news|resources)\/\d+_[A-Za-z0-9._-]+\.webp$/);
      expect(JSON.parse(row.tags).length).toBeGreaterThan(0);
      expect(row.search_text.length).toBeGreaterThan(200);
    }
    const services = await database.db.selectFrom('services').select('id').orderBy('position').execute();
    expect(services.map((s) => s.id)).toEqual(['digital-skills', 'inclusion-talks', 'comm-services', 'merchandise']);
    expect(SEED_SERVICES).toHaveLength(4);

    const second = await seedDemoContent(database.db);
    expect(second.seeded).toBe(false);
    expect(await database.db.selectFrom('content').select('id').execute()).toHaveLength(SEED_ARTICLES.length);

    // Staff deleting every demo item does not bring the demo back on the next start.
    await database.db.deleteFrom('content').execute();
    expect((await seedDemoContent(database.db)).seeded).toBe(false);
    expect(await database.db.selectFrom('content').select('id').execute()).toHaveLength(0);
  });
});
