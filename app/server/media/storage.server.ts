import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Metadata, Sharp, SharpOptions } from 'sharp';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newId, nowIso } from '../platform/ids.server.ts';
import { createDiskStore, type ObjectStore } from './object-store.server.ts';
import { IMAGE_WIDTHS, imageQuality, variantUrl } from '../../lib/images.ts';
import type { Collection } from '../../lib/collections.ts';

// The one place that writes uploaded files. Images are decoded (proving they are images), rotated
// upright, stripped of metadata (phone photos carry GPS positions) and written as WebP in the
// responsive widths the public image component asks for, into the media store: DATA_DIR/uploads, or
// the S3-compatible bucket of STORAGE_URL (object-store.server.ts).

export const MEDIA_URL_PREFIX = '/media/';

export class InvalidImageError extends Error {}

/** spec §5: JPEG, PNG, GIF or WebP, judged by decoding the bytes, never by the file name. */
const UPLOAD_FORMATS: string[] = ['jpeg', 'png', 'gif', 'webp'];

let uploadsRoot: string | undefined;
let mediaStore: ObjectStore | undefined;

/** The folders uploads are kept in: one per collection, services, staff pictures and the site's own pictures. */
export type UploadFolder = Collection | 'services' | 'profiles' | 'site' | 'events';

/**
 * Uploads live in `{dataDir}/uploads` unless a bucket is set: start-up sets it from DATA_DIR (then
 * the bucket, with setMediaStore), tests from their own folder.
 */
export function setUploadsRoot(dataDir: string): void {
  uploadsRoot = path.join(dataDir, 'uploads');
  mediaStore = createDiskStore(uploadsRoot);
}

/** The uploads folder on this machine (where they live when no bucket is set). */
export function getUploadsRoot(): string {
  if (!uploadsRoot) throw new Error('The uploads folder has not been set');
  return uploadsRoot;
}

/** Puts uploads in `store` (an S3-compatible bucket) instead of the folder. */
export function setMediaStore(store: ObjectStore): void {
  mediaStore = store;
}

/** Where this process reads and writes uploaded files. */
export function getMediaStore(): ObjectStore {
  if (!mediaStore) throw new Error('The uploads folder has not been set');
  return mediaStore;
}

/** spec §5: characters other than letters, digits, dot and hyphen become underscores. */
export function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9.-]/g, '_');
}

/** How much of an uploaded file's name (without its extension) goes into the stored name. */
const FILE_STEM_MAX = 80;

/**
 * sharp, loaded the first time an image is stored: a process that serves pages and never takes an
 * upload is spared libvips and its memory (about 10 MB). Issue 29: libvips keeps up to 50 MB of
 * finished operations for reuse, which a site that stores each picture once never reuses, and works
 * on as many threads as cores; without its cache and on one thread, the process that stored the
 * demo pictures keeps less than it did.
 */
export async function loadSharp(): Promise<(input?: Buffer, options?: SharpOptions) => Sharp> {
  const sharp = (await import('sharp')).default;
  if (!sharpTuned) {
    sharp.cache(false);
    sharp.concurrency(1);
    sharpTuned = true;
  }
  return sharp;
}
let sharpTuned = false;

/** A file name without its extension (the part from the last dot), found without a pattern. */
export function fileStem(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? name : name.slice(0, dot);
}

/**
 * The start of a new stored file's key: `folder/<128 random bits, hex>_<stem>`, to which the caller
 * adds its ending (`.webp`, `-360p.mp4` …). The random part makes the address of a file that is not
 * public yet (a draft's picture, an unpublished item's video) impossible to guess, where the time it
 * was stored was not; the stem (already made safe) keeps the store readable to whoever looks in it.
 */
export function newStoredBase(folder: string, stem: string): string {
  return `${folder}/${randomBytes(16).toString('hex')}_${stem}`;
}

export interface StoredImage {
  url: string;
  width: number;
  height: number;
}

export async function storeImage(
  db: Kysely<Database>,
  input: {
    folder: UploadFolder;
    originalName: string;
    bytes: Buffer;
    uploadedBy?: string | null;
    maxWidth?: number;
    /** Also write the responsive widths (content images); profile pictures need one size only. */
    responsive?: boolean;
  },
): Promise<StoredImage> {
  const sharp = await loadSharp();
  let image: Sharp;
  let meta: Metadata;
  try {
    image = sharp(input.bytes, { failOn: 'error', limitInputPixels: 40_000_000 }).rotate();
    meta = await image.metadata();
  } catch {
    throw new InvalidImageError('The file is not an image that can be read');
  }
  if (!meta.format || !UPLOAD_FORMATS.includes(meta.format)) {
    throw new InvalidImageError('The file is not a JPEG, PNG, GIF or WebP image');
  }
  const base = safeFileName(fileStem(input.originalName).slice(0, FILE_STEM_MAX)) || 'image';
  const key = `${newStoredBase(input.folder, base)}.webp`;
  const store = getMediaStore();

  const maxWidth = input.maxWidth ?? IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]!;
  const widths = input.responsive === false ? [] : IMAGE_WIDTHS;
  // The upload is decoded once, into pixels no wider than the widest copy (a photo's full size takes
  // most of the time: a 6300-pixel PNG took seconds for each copy when each decoded it again); every
  // copy is made from those. Decoding fails here for a file whose header reads but whose pixels are
  // broken (a truncated photo), which is the sender's fault, not the server's.
  let pixels: { data: Buffer; info: { width: number; height: number; channels: 1 | 2 | 3 | 4 } };
  let converted: { data: Buffer; info: { width: number; height: number; size: number } };
  const copyOf = (width: number) => sharp(pixels.data, { raw: pixels.info }).resize({ width, withoutEnlargement: true });
  try {
    pixels = await image
      .resize({ width: Math.max(maxWidth, ...widths), withoutEnlargement: true })
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    converted = await copyOf(maxWidth).webp({ quality: 80 }).toBuffer({ resolveWithObject: true });
  } catch {
    throw new InvalidImageError('The image data is damaged');
  }
  const main = converted.info;
  const url = MEDIA_URL_PREFIX + key;
  // The responsive copies first and the main file last: a page names the main file, so once it is
  // there every width it lists is there too.
  await Promise.all(
    widths.map(async (width) => {
      const copy = await copyOf(width)
        .webp({ quality: imageQuality(width) })
        .toBuffer();
      await store.put(variantUrl(url, width).slice(MEDIA_URL_PREFIX.length), copy, 'image/webp');
    }),
  );
  await store.put(key, converted.data, 'image/webp');
  await db
    .insertInto('media')
    .values({
      id: newId(),
      key,
      folder: input.folder,
      original_name: input.originalName.slice(0, 200),
      width: main.width,
      height: main.height,
      variants: JSON.stringify(widths),
      bytes: main.size,
      uploaded_by: input.uploadedBy ?? null,
      created_at: nowIso(),
    })
    .execute();
  return { url, width: main.width, height: main.height };
}

/** Gives pictures stored before a responsive width existed that width (issue 24: the 720 copy). */
export const RESPONSIVE_WIDTHS_JOB = 'media.widths';
export const RESPONSIVE_WIDTHS_EVERY_MS = 6 * 60 * 60_000;
/** Pictures given their missing widths per run; the next run takes the rest. */
const RESPONSIVE_WIDTHS_BATCH = 200;

/**
 * Makes the responsive copies a stored picture lacks from its main file, and records them. Until it
 * has, /media answers a missing copy with the main file (server/media.ts). Returns how many
 * pictures it completed; a picture whose main file is gone or unreadable is left as it is.
 */
export async function addMissingWidths(db: Kysely<Database>, limit = RESPONSIVE_WIDTHS_BATCH): Promise<number> {
  const rows = await db
    .selectFrom('media')
    .select(['id', 'key', 'variants'])
    .where('variants', '!=', '[]')
    .where('variants', '!=', JSON.stringify(IMAGE_WIDTHS))
    .limit(limit)
    .execute();
  if (rows.length === 0) return 0;
  const sharp = await loadSharp();
  const store = getMediaStore();
  let completed = 0;
  for (const row of rows) {
    let had: number[];
    try {
      const parsed: unknown = JSON.parse(row.variants);
      had = Array.isArray(parsed) ? parsed.filter((w): w is number => typeof w === 'number') : [];
    } catch {
      had = [];
    }
    const missing = IMAGE_WIDTHS.filter((width) => !had.includes(width));
    const main = await store.get(row.key);
    if (!main) continue;
    const chunks: Buffer[] = [];
    for await (const chunk of main.body) chunks.push(Buffer.from(chunk as Uint8Array));
    try {
      const image = sharp(Buffer.concat(chunks), { failOn: 'error', limitInputPixels: 40_000_000 });
      for (const width of missing) {
        const copy = await image
          .clone()
          .resize({ width, withoutEnlargement: true })
          .webp({ quality: imageQuality(width) })
          .toBuffer();
        await store.put(variantUrl(row.key, width), copy, 'image/webp');
      }
    } catch {
      continue;
    }
    await db
      .updateTable('media')
      .set({ variants: JSON.stringify(IMAGE_WIDTHS) })
      .where('id', '=', row.id)
      .execute();
    completed += 1;
  }
  return completed;
}
