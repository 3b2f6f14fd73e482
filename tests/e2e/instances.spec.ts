import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createS3Store } from '../../app/server/media/object-store.server';
import { openDatabase } from '../../app/server/db/db.server';
import { startS3 } from '../support/s3';
import { postSave, pngBytes } from './content-fixtures';
import { freshPostgresSchema, postgresServerUrl } from './engines';
import { E2E } from './env';
import { apiSignIn } from './staff';
import { startServer, type OtherServer } from './support';

// Issue 15, item 3, tested for real: two instances of the built site started at the same moment on
// one empty PostgreSQL schema, with their uploads in one S3-API bucket (s3rver, started here). Both
// come up (the first-start work ran once, under the database lock); a story published with a
// picture on instance A is served by instance B, picture and all, and B's cached list shows it
// within a second (the page caches hear each other through PostgreSQL LISTEN/NOTIFY).

const ADMIN = { email: 'instances@e2e.example', password: 'instances-Super-admin-passphrase' };

test('two instances on one PostgreSQL database and one bucket serve the same site', async ({ playwright }) => {
  // Two servers migrating, seeding the demo content and resizing its pictures on a busy machine.
  test.setTimeout(300_000);

  const s3 = await startS3('tdg-instances');
  const schema = `e2e_instances_${randomBytes(4).toString('hex')}`;
  await freshPostgresSchema(schema);
  const servers: OtherServer[] = [];
  const contexts: { dispose(): Promise<void> }[] = [];
  try {
    const env = {
      ...s3.env,
      DATABASE_URL: postgresServerUrl(schema),
      SUPER_ADMIN_EMAIL: ADMIN.email,
      SUPER_ADMIN_PASSWORD: ADMIN.password,
      // One process per instance: two instances are the point here, not the cores of one.
      WEB_CONCURRENCY: '1',
    };
    // At the same moment, on an empty database: before the start-up lock, one of them died with
    // `duplicate key value violates unique constraint "system_users_email_key"`.
    const [a, b] = await Promise.all([startServer(env, 'tdg-instance-a-'), startServer(env, 'tdg-instance-b-')]);
    servers.push(a!, b!);
    const urlOf = (server: OtherServer) => `http://127.0.0.1:${server.port}`;
    for (const server of servers) {
      const health = await fetch(`${urlOf(server)}/healthz`);
      expect(await health.json()).toMatchObject({ status: 'ok', database: 'postgres' });
    }

    // B's list of news is cached before anything is published.
    const listOnB = async () => (await fetch(`${urlOf(b!)}/news`)).text();
    const before = await listOnB();
    expect(await listOnB()).toBe(before);

    // A staff member on instance A uploads a picture and publishes a story with it.
    const onA = await playwright.request.newContext({ baseURL: urlOf(a!) });
    contexts.push(onA);
    await apiSignIn(onA, ADMIN);
    const upload = await onA.post('/admin/uploads/content', {
      multipart: { type: 'news', file: { name: 'two instances.png', mimeType: 'image/png', buffer: await pngBytes(1200) } },
    });
    expect(upload.status(), await upload.text()).toBe(200);
    const { url: imageUrl } = (await upload.json()) as { url: string };
    const title = `Two instances ${randomBytes(3).toString('hex')} share one story`;
    const saved = await postSave(onA, 'news', { title, imageUrl, imageAlt: 'Staff signing in a meeting' });
    expect(saved.status(), await saved.text()).toBe(200);

    // The picture went to the bucket, not to A's disk.
    const key = imageUrl.slice('/media/'.length);
    const bucket = await createS3Store(s3.settings());
    expect(await bucket.head(key)).toMatchObject({ size: expect.any(Number) });
    expect(fs.existsSync(path.join(a!.dataDir, 'uploads', key))).toBe(false);

    // B's cached list shows the story within a second.
    await expect.poll(listOnB, { timeout: 1_000, intervals: [50] }).toContain(title);

    // B serves the story page and its picture, from the bucket.
    const database = await openDatabase({ dataDir: os.tmpdir(), databaseUrl: E2E.postgres!.url, schema });
    const story = await database.db.selectFrom('content').select('id').where('title', '=', title).executeTakeFirstOrThrow();
    await database.close();
    const page = await fetch(`${urlOf(b!)}/news/${encodeURIComponent(story.id)}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(title);
    expect(html).toContain(imageUrl.replace(/\.webp$/, ''));
    for (const file of [imageUrl, imageUrl.replace(/\.webp$/, '-480w.webp')]) {
      const image = await fetch(`${urlOf(b!)}${file}`);
      expect(image.status, file).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/webp');
      expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    // The demo content's pictures, written to the bucket once by whichever instance did the first
    // start, are served by both.
    const demoKeys: string[] = [];
    for await (const item of bucket.list('blogs/')) demoKeys.push(item.key);
    expect(demoKeys.length).toBeGreaterThan(0);
    for (const server of servers) expect((await fetch(`${urlOf(server)}/media/${demoKeys[0]}`)).status).toBe(200);
  } finally {
    for (const context of contexts) await context.dispose();
    for (const server of servers) await server.dispose();
    const client = new (await import('pg')).default.Client({ connectionString: E2E.postgres!.url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
    await s3.close();
  }
});
