import fs from 'node:fs';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
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

describe.each(ENGINES)('storing a picture on %s: decoded once, every copy from those pixels', (engine) => {
  const database = useTestDatabase(engine, { uploads: true });
  const read = async (url: string, width?: number) => {
    const key = url.slice('/media/'.length);
    const stored = await getMediaStore().get(width ? key.replace(/\.webp$/, `-${width}w.webp`) : key);
    const chunks: Buffer[] = [];
    for await (const chunk of stored!.body) chunks.push(Buffer.from(chunk as Uint8Array));
    return sharp(Buffer.concat(chunks));
  };
  /** One pixel's channels, at a share of the picture's width and height. */
  const pixelAt = async (picture: Sharp, x: number, y: number) => {
    const { data, info } = await picture.clone().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const at = (Math.floor(y * info.height) * info.width + Math.floor(x * info.width)) * info.channels;
    return [...data.subarray(at, at + info.channels)];
  };

  it('stands a phone’s portrait photo upright, in the main file and in every width', async () => {
    // 1200 × 900 pixels as the camera wrote them, with EXIF orientation 6: to be turned a quarter.
    const photo = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#1e3a8a' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const image = await storeImage(database().db, { folder: 'news', originalName: 'portrait.jpg', bytes: photo });
    expect(image).toMatchObject({ width: 900, height: 1200 });
    expect(await (await read(image.url, 480)).metadata()).toMatchObject({ width: 480, height: 640 });
    expect(await (await read(image.url, 1600)).metadata()).toMatchObject({ width: 900, height: 1200 });
  });

  it('keeps transparency and a 16-bit grey picture’s tones in every copy', async () => {
    // Left half opaque red, right half transparent.
    const half = await sharp({
      create: { width: 1000, height: 1000, channels: 4, background: { r: 220, g: 20, b: 20, alpha: 1 } },
    })
      .png()
      .toBuffer();
    const clear = await sharp({ create: { width: 2000, height: 1000, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: half, left: 0, top: 0 }])
      .png()
      .toBuffer();
    const stored = await storeImage(database().db, { folder: 'news', originalName: 'clear.png', bytes: clear });
    expect(stored).toMatchObject({ width: 1600, height: 800 });
    for (const width of IMAGE_WIDTHS) {
      const copy = await read(stored.url, width);
      expect((await copy.metadata()).width).toBe(width);
      const [r, g, b, alpha] = await pixelAt(copy, 0.25, 0.5);
      expect(r).toBeGreaterThan(200);
      expect(g! + b!).toBeLessThan(60);
      expect(alpha).toBe(255);
      expect((await pixelAt(copy, 0.75, 0.5))[3]).toBe(0);
    }

    const grey = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#808080' } })
      .toColourspace('grey16')
      .png()
      .toBuffer();
    expect((await sharp(grey).metadata()).depth).toBe('ushort');
    const tones = await storeImage(database().db, { folder: 'news', originalName: 'grey.png', bytes: grey });
    for (const width of [undefined, ...IMAGE_WIDTHS]) {
      const [r, g, b] = await pixelAt(await read(tones.url, width), 0.5, 0.5);
      for (const channel of [r, g, b]) expect(Math.abs(channel! - 128)).toBeLessThanOrEqual(3);
    }
  });

  it('refuses a picture whose pixels are cut off, and stores nothing of it', async () => {
    const whole = await sharp({
      create: { width: 800, height: 600, channels: 3, background: '#0f766e', noise: { type: 'gaussian', mean: 120, sigma: 40 } },
    })
      .png()
      .toBuffer();
    const before = await database().db.selectFrom('media').select('key').execute();
    await expect(
      storeImage(database().db, {
        folder: 'news',
        originalName: 'cut.png',
        bytes: whole.subarray(0, Math.floor(whole.length / 2)),
      }),
    ).rejects.toThrow('The image data is damaged');
    expect(await database().db.selectFrom('media').select('key').execute()).toEqual(before);
  });
});
