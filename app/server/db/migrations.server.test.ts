import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, ENGINES, type TestDatabase } from '../../../tests/support/databases';
import { searchContent } from '../content/search.server';
import { htmlToText } from '../platform/html.server';
import { sanitizeArticleHtml } from '../platform/sanitize.server';
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

  it('keeps content written before the search index was re-keyed, and finds it afterwards', async () => {
    database = await createTestDatabase(engine, { migrate: false });
    const migrator = await createMigrator(database.db, engine);
    expect((await migrator.migrateTo('0002_content_list_indexes')).error).toBeUndefined();
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
    const row = (id: string, title: string, minute: number) => ({
      id,
      collection: 'blogs' as const,
      title,
      content: '<p>Body</p>',
      search_text: `${title} body`,
      category: 'advocacy',
      author: 'A',
      created_at: at(minute),
      published_at: at(minute),
      updated_at: at(minute),
    });
    await database.db
      .insertInto('content')
      .values([row('older', 'Sign language in class', 1), row('newer', 'Ramps at the clinic', 2)])
      .execute();

    await migrateToLatest(database.db, engine);
    const all = await searchContent({ collection: 'blogs', limit: 10 }, database.db, engine);
    expect(all.rows.map((r) => [r.id, r.title])).toEqual([
      ['newer', 'Ramps at the clinic'],
      ['older', 'Sign language in class'],
    ]);
    const found = await searchContent({ collection: 'blogs', query: 'sign', limit: 10 }, database.db, engine);
    expect(found.rows.map((r) => r.id)).toEqual(['older']);

    // Written after the migration: found too, and ids stay unique.
    await database.db
      .insertInto('content')
      .values(row('latest', 'Sign language clubs', 3))
      .execute();
    const both = await searchContent({ collection: 'blogs', query: 'sign language', limit: 10 }, database.db, engine);
    expect(both.rows.map((r) => r.id)).toEqual(['latest', 'older']);
    expect(both.total).toBe(2);
    await expect(
      database.db
        .insertInto('content')
        .values(row('latest', 'Again', 4))
        .execute(),
    ).rejects.toThrow();
  });

  it('0005 sanitises every body stored before it, in batches, and derives its search text again', async () => {
    database = await createTestDatabase(engine, { migrate: false });
    const migrator = await createMigrator(database.db, engine);
    expect((await migrator.migrateTo('0004_jobs_and_limits')).error).toBeUndefined();
    const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
    const unsafe = (n: number) =>
      `<h1>Report ${n}</h1><p onclick="steal()">Captions in class <a href="javascript:alert(1)">here</a></p>` +
      `<script>exfiltrate()</script><img src=x onerror=alert(1)><iframe src="https://evil.example/"></iframe>`;
    const clean = '<p>Already <strong>clean</strong> and unchanged.</p>';
    // More rows than one batch holds, so the batches have to follow on from each other.
    const count = 100 * 2 + 5; // 100 a batch in migration 0005
    const rows = Array.from({ length: count }, (_, n) => ({
      id: `item-${String(n).padStart(4, '0')}`,
      collection: 'blogs' as const,
      title: `Item ${n}`,
      content: n === 0 ? clean : unsafe(n),
      // As an old writer might have left it: the raw body, script and all.
      search_text: n === 0 ? htmlToText(clean) : `${unsafe(n)} exfiltrate`,
      category: 'advocacy',
      author: 'A',
      created_at: at,
      published_at: at,
      updated_at: at,
    }));
    for (let i = 0; i < rows.length; i += 50) {
      await database.db
        .insertInto('content')
        .values(rows.slice(i, i + 50))
        .execute();
    }

    expect(await migrateToLatest(database.db, engine)).toContain('0005_sanitise_stored_bodies');
    const stored = await database.db.selectFrom('content').select(['id', 'content', 'search_text']).orderBy('id').execute();
    expect(stored).toHaveLength(count);
    expect(stored[0]).toEqual({ id: 'item-0000', content: clean, search_text: htmlToText(clean) });
    for (const [n, row] of stored.entries()) {
      if (n === 0) continue;
      expect(row.content).toBe(`<h2>Report ${n}</h2><p>Captions in class <a>here</a></p>`);
      expect(row.content).toBe(sanitizeArticleHtml(unsafe(n)));
      expect(row.search_text).toBe(htmlToText(row.content));
    }
    // The search index follows the new text: what only the script said is no longer found.
    expect((await searchContent({ collection: 'blogs', query: 'exfiltrate', limit: 5 }, database.db, engine)).total).toBe(0);
    expect((await searchContent({ collection: 'blogs', query: 'captions', limit: 5 }, database.db, engine)).total).toBe(
      count - 1,
    );
  });
});

describe.runIf(ENGINES.includes('postgres'))('migrations on a PostgreSQL server shared with other schemas', () => {
  const databases: TestDatabase[] = [];
  afterEach(async () => {
    await Promise.all(databases.splice(0).map((database) => database.drop()));
  });

  it('see only their own schema, and migrate while other schemas are created and dropped', async () => {
    const other = await createTestDatabase('postgres');
    databases.push(other);
    const ours = await createTestDatabase('postgres', { migrate: false });
    databases.push(ours);
    const schemaOf = async (database: TestDatabase) =>
      (await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(database.db)).rows[0]!.schema;
    // Before migrating, our schema has no table, though the other one has them all.
    expect(await ours.db.introspection.getTables({ withInternalKyselyTables: true })).toEqual([]);

    // Schemas with tables come and go on the server while ours is migrated.
    let churning = true;
    const churn = (async () => {
      let rounds = 0;
      while (churning || rounds < 3) {
        const passing = await createTestDatabase('postgres', { migrate: false });
        await sql`CREATE TABLE passing_by (id integer PRIMARY KEY, name text)`.execute(passing.db);
        await passing.drop();
        rounds += 1;
      }
      return rounds;
    })();
    try {
      expect(await migrateToLatest(ours.db, 'postgres')).toEqual(migrationNames('postgres'));
      for (let i = 0; i < 5; i++) await ours.db.introspection.getTables();
    } finally {
      churning = false;
    }
    expect(await churn).toBeGreaterThanOrEqual(3);

    const tables = await ours.db.introspection.getTables({ withInternalKyselyTables: true });
    expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([await schemaOf(ours)]));
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining([...TABLES, 'kysely_migration']));
    expect((await ours.db.introspection.getTables()).map((table) => table.name)).not.toContain('kysely_migration');
    const users = tables.find((table) => table.name === 'system_users')!;
    expect(users.columns.find((column) => column.name === 'email')).toMatchObject({ dataType: 'text', isNullable: false });
  });
});
