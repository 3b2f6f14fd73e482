import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, ENGINES, type TestDatabase } from '../../../tests/support/databases';
import { createMigrator, migrateToLatest, migrationNames } from './migrations.server';

const TABLES = [
  'system_users',
  'sessions',
  'content',
  'services',
  'contacts',
  'media',
  'audit_log',
  'settings',
  'password_reset_tokens',
  'mail_outbox',
  'newsletter_subscribers',
  'login_attempts',
];

describe.each(ENGINES)('migrations on %s', (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('applies every migration to an empty database and creates every table', async () => {
    database = await createTestDatabase(engine, { migrate: false });
    const applied = await migrateToLatest(database.db, engine);
    expect(applied).toEqual(migrationNames(engine));
    const tables = (await database.db.introspection.getTables()).map((t) => t.name);
    expect(tables).toEqual(expect.arrayContaining(TABLES));
  });

  it('rolls forward without doing anything when already up to date', async () => {
    database = await createTestDatabase(engine, { migrate: false });
    await migrateToLatest(database.db, engine);
    expect(await migrateToLatest(database.db, engine)).toEqual([]);
    const migrations = await (await createMigrator(database.db, engine)).getMigrations();
    expect(migrations.every((m) => m.executedAt instanceof Date)).toBe(true);
  });

  it('enforces the constraints the application relies on', async () => {
    database = await createTestDatabase(engine);
    const now = new Date().toISOString();
    const user = { id: 'u1', name: 'A', email: 'a@example.org', role: 'VIEWER' as const, created_at: now, updated_at: now };
    await database.db.insertInto('system_users').values(user).execute();
    await expect(
      database.db
        .insertInto('system_users')
        .values({ ...user, id: 'u2' })
        .execute(),
    ).rejects.toThrow();
    await database.db
      .insertInto('password_reset_tokens')
      .values({ token_hash: 't1', user_id: 'u1', created_at: now, expires_at: now })
      .execute();
    // Deleting a user removes their reset links (foreign key with cascade).
    await database.db.deleteFrom('system_users').where('id', '=', 'u1').execute();
    expect(await database.db.selectFrom('password_reset_tokens').selectAll().execute()).toEqual([]);
    await expect(
      sql`INSERT INTO content (id, collection, title, content, category, author, created_at, published_at, updated_at)
          VALUES ('x', 'drafts', 't', 'c', 'news', 'a', ${now}, ${now}, ${now})`.execute(database.db),
    ).rejects.toThrow();
  });
});
