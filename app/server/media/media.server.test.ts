import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { startS3, type S3Sink } from '../../../tests/support/s3';
import { staffUserByEmail } from '../../../tests/support/staff';
import type { StaffUser } from '../staff/auth.server';
import { ensureSuperAdmin } from '../demo/seed.server';
import { startBackgroundJobs } from '../start-up.server';
import { recurringJobId } from '../platform/jobs.server';
import {
  ABANDONED_AFTER_MS,
  pruneUnusedUploads,
  removeImageIfUnused,
  UPLOAD_PRUNING_EVERY_MS,
  UPLOAD_PRUNING_JOB,
} from './media.server';
import { createS3Store } from './object-store.server';
import { addMissingWidths, getMediaStore, setMediaStore, setUploadsRoot, storeImage } from './storage.server';
import { IMAGE_WIDTHS } from '../../lib/images';
import { createUser, deleteUser, updateUser } from '../staff/users.server';

const IP = '203.0.113.9';

describe.each(ENGINES)('uploaded images on %s', (engine) => {
  const database = useTestDatabase(engine, { uploads: true });
  let boss: StaffUser;
  let png: Buffer;

  const upload = (folder: 'news' | 'profiles', name: string) =>
    storeImage(database().db, { folder, originalName: `${name}.png`, bytes: png, responsive: folder !== 'profiles' });
  /** The files on disk for one upload: the image and its responsive copies. */
  const filesOf = (folder: string, name: string) => {
    const dir = path.join(database().dataDir, 'uploads', folder);
    return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.includes(`_${name}`)) : [];
  };
  const mediaRows = async () => (await database().db.selectFrom('media').select('key').execute()).map((r) => r.key);

  beforeAll(async () => {
    await ensureSuperAdmin(database().db, { email: 'boss@example.org', password: 'boss-passphrase' });
    boss = await staffUserByEmail(database().db, 'boss@example.org');
    png = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#0f766e' } })
      .png()
      .toBuffer();
  });

  it('names every stored picture with 128 random bits, so one not yet shown cannot be found by its time', async () => {
    // Two pictures of one name in the same millisecond: before, both were news/<time>_same.webp.
    const now = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now });
    let first, second;
    try {
      first = await upload('news', 'same');
      second = await upload('news', 'same');
    } finally {
      vi.useRealTimers();
    }
    for (const stored of [first, second]) expect(stored.url).toMatch(/^\/media\/news\/[0-9a-f]{32}_same\.webp$/);
    expect(first.url).not.toBe(second.url);
    expect(first.url).not.toContain(String(now));
    // Its widths are beside it, found from its name as before.
    expect(
      filesOf('news', 'same').filter((f) =>
        f.startsWith(
          first.url
            .split('/')
            .pop()!
            .replace(/\.webp$/, ''),
        ),
      ),
    ).toHaveLength(1 + IMAGE_WIDTHS.length);
  });

  it('removes uploads nobody saved a day later, and keeps every image something shows', async () => {
    const abandoned = await upload('news', 'abandoned');
    const shown = await upload('news', 'shown');
    await upload('news', 'fresh_one');
    const now = new Date().toISOString();
    await database()
      .db.insertInto('content')
      .values({
        id: 'with-picture',
        collection: 'news',
        title: 'A picture',
        content: '<p>Body</p>',
        category: 'news',
        author: 'A',
        image_url: shown.url,
        created_at: now,
        published_at: now,
        updated_at: now,
      })
      .execute();
    expect(filesOf('news', 'abandoned')).toHaveLength(1 + IMAGE_WIDTHS.length);

    // Within the day, nothing goes: the form may still be open.
    expect(await pruneUnusedUploads()).toBe(0);
    expect(filesOf('news', 'abandoned')).toHaveLength(1 + IMAGE_WIDTHS.length);

    // Two days later only the upload nothing shows is gone, with its copies and its record; the
    // one made a moment ago waits for its own day.
    const twoDaysAgo = new Date(Date.now() - 2 * ABANDONED_AFTER_MS).toISOString();
    await database()
      .db.updateTable('media')
      .set({ created_at: twoDaysAgo })
      .where(
        'key',
        'in',
        [abandoned.url, shown.url].map((url) => url.replace('/media/', '')),
      )
      .execute();
    expect(await pruneUnusedUploads()).toBe(1);
    expect(filesOf('news', 'abandoned')).toEqual([]);
    expect(filesOf('news', 'shown')).toHaveLength(1 + IMAGE_WIDTHS.length);
    expect(filesOf('news', 'fresh_one')).toHaveLength(1 + IMAGE_WIDTHS.length);
    const keys = await mediaRows();
    expect(keys.some((k) => k.includes('abandoned'))).toBe(false);
    expect(keys.filter((k) => k.includes('shown') || k.includes('fresh_one'))).toHaveLength(2);
  });

  it("removes a staff member's old picture when it is replaced, and the last one when the account goes", async () => {
    const first = await upload('profiles', 'first_face');
    const second = await upload('profiles', 'second_face');
    const user = await createUser(
      boss,
      {
        name: 'Dora',
        email: 'dora@example.org',
        role: 'AUTHOR',
        bio: '',
        profilePicture: first.url,
        password: 'a-fine-passphrase',
      },
      IP,
    );
    expect(filesOf('profiles', 'first_face')).toHaveLength(1);

    await updateUser(boss, user.id, { name: 'Dora', bio: '', profilePicture: second.url }, IP);
    expect(filesOf('profiles', 'first_face')).toEqual([]);
    expect(filesOf('profiles', 'second_face')).toHaveLength(1);

    // Saving again with the same picture keeps it.
    await updateUser(boss, user.id, { name: 'Dora B', bio: '', profilePicture: second.url }, IP);
    expect(filesOf('profiles', 'second_face')).toHaveLength(1);

    await deleteUser(boss, user.id, IP);
    expect(filesOf('profiles', 'second_face')).toEqual([]);
    expect((await mediaRows()).some((k) => k.includes('_face'))).toBe(false);
  });
});

describe.each(ENGINES)('uploaded images in an S3-compatible bucket, on %s', (engine) => {
  const database = useTestDatabase(engine, { uploads: true });
  let s3: S3Sink;
  let png: Buffer;
  const keysIn = async (prefix: string) => {
    const keys: string[] = [];
    for await (const item of getMediaStore().list(prefix)) keys.push(item.key);
    return keys.toSorted();
  };

  beforeAll(async () => {
    s3 = await startS3();
    setMediaStore(await createS3Store(s3.settings('tdg/')));
    png = await sharp({ create: { width: 700, height: 400, channels: 3, background: '#1d4ed8' } })
      .png()
      .toBuffer();
  });
  afterAll(async () => {
    setUploadsRoot(database().dataDir);
    await s3.close();
  });

  it('writes the picture and its widths to the bucket, never to disk, and removes them there', async () => {
    const image = await storeImage(database().db, { folder: 'news', originalName: 'in the bucket.png', bytes: png });
    const key = image.url.slice('/media/'.length);
    expect(await keysIn('news/')).toEqual([key, ...IMAGE_WIDTHS.map((w) => key.replace(/\.webp$/, `-${w}w.webp`))].toSorted());
    expect(fs.existsSync(path.join(database().dataDir, 'uploads', 'news'))).toBe(false);
    expect(await getMediaStore().head(key)).toMatchObject({ size: expect.any(Number) });

    expect(await removeImageIfUnused(image.url)).toBe(true);
    expect(await keysIn('news/')).toEqual([]);
  });
});

describe.each(ENGINES)('responsive widths added later on %s (issue 24)', (engine) => {
  const database = useTestDatabase(engine, { uploads: true });

  it('gives a picture stored before the 720 width existed its copy, once, and leaves others alone', async () => {
    const png = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#4338ca' } })
      .png()
      .toBuffer();
    const old = await storeImage(database().db, { folder: 'blogs', originalName: 'older.png', bytes: png });
    const profile = await storeImage(database().db, {
      folder: 'profiles',
      originalName: 'face.png',
      bytes: png,
      responsive: false,
    });
    // As a picture stored by the earlier pipeline: no 720 copy, and its record says so.
    const key = old.url.slice('/media/'.length);
    const copy = key.replace(/\.webp$/, '-720w.webp');
    await getMediaStore().delete(copy);
    await database().db.updateTable('media').set({ variants: '[480,960,1600]' }).where('key', '=', key).execute();

    expect(await addMissingWidths(database().db)).toBe(1);
    const made = await getMediaStore().head(copy);
    expect(made?.size).toBeGreaterThan(0);
    const stored = await getMediaStore().get(copy);
    const chunks: Buffer[] = [];
    for await (const chunk of stored!.body) chunks.push(Buffer.from(chunk as Uint8Array));
    expect((await sharp(Buffer.concat(chunks)).metadata()).width).toBe(720);
    const row = await database().db.selectFrom('media').select('variants').where('key', '=', key).executeTakeFirstOrThrow();
    expect(JSON.parse(row.variants)).toEqual([...IMAGE_WIDTHS]);
    // Nothing left to do; the profile picture (one size only) was never a candidate.
    expect(await addMissingWidths(database().db)).toBe(0);
    const profileRow = await database()
      .db.selectFrom('media')
      .select('variants')
      .where('key', '=', profile.url.slice('/media/'.length))
      .executeTakeFirstOrThrow();
    expect(profileRow.variants).toBe('[]');
  });
});

describe.each(ENGINES)('the clean-up of abandoned uploads on %s', (engine) => {
  const database = useTestDatabase(engine, { uploads: true });

  it('is one recurring job across all processes, run by the job worker', async () => {
    const stop = startBackgroundJobs({ pollMs: 20 });
    const stopAnother = startBackgroundJobs({ pollMs: 20 });
    try {
      await vi.waitFor(
        async () => {
          const rows = await database().db.selectFrom('jobs').selectAll().where('kind', '=', UPLOAD_PRUNING_JOB).execute();
          expect(rows).toHaveLength(1);
          expect(rows[0]).toMatchObject({ id: recurringJobId(UPLOAD_PRUNING_JOB), status: 'queued', last_error: null });
          // It ran, and waits six hours for its next run.
          expect(rows[0]!.finished_at).not.toBeNull();
          expect(Date.parse(rows[0]!.run_at) - Date.parse(rows[0]!.finished_at!)).toBe(UPLOAD_PRUNING_EVERY_MS);
        },
        { timeout: 10_000, interval: 50 },
      );
    } finally {
      await stop();
      await stopAnother();
    }
  });
});
