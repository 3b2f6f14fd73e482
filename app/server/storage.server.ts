import fs from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Metadata, type Sharp } from 'sharp';
import type { Kysely } from 'kysely';
import type { Database } from './db/schema.ts';
import { newId, nowIso } from './ids.server.ts';
import { IMAGE_WIDTHS, variantUrl } from '../lib/images.ts';
import type { Collection } from '../lib/collections.ts';

// The one place that writes uploaded files. Images are decoded (proving they are images), rotated
// upright, stripped of metadata (phone photos carry GPS positions) and written as WebP in the
// responsive widths the public image component asks for.

export const MEDIA_URL_PREFIX = '/media/';

export class InvalidImageError extends Error {}

/** spec §5: JPEG, PNG, GIF or WebP, judged by decoding the bytes, never by the file name. */
const UPLOAD_FORMATS: string[] = ['jpeg', 'png', 'gif', 'webp'];

let uploadsRoot: string | undefined;

/** The folders uploads are kept in: one per collection, services, staff pictures and the site's own pictures. */
export type UploadFolder = Collection | 'services' | 'profiles' | 'site';

/** Uploads live in `{dataDir}/uploads`; start-up sets it from DATA_DIR, tests from their own folder. */
export function setUploadsRoot(dataDir: string): void {
  uploadsRoot = path.join(dataDir, 'uploads');
}

export function getUploadsRoot(): string {
  if (!uploadsRoot) throw new Error('The uploads folder has not been set');
  return uploadsRoot;
}

/** spec §5: characters other than letters, digits, dot and hyphen become underscores. */
export function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9.-]/g, '_');
}

/** How much of an uploaded file's name (without its extension) goes into the stored name. */
const FILE_STEM_MAX = 80;

/** A file name without its extension (the part from the last dot), found without a pattern. */
export function fileStem(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? name : name.slice(0, dot);
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
  const key = `${input.folder}/${Date.now()}_${base}.webp`;
  const dir = path.join(getUploadsRoot(), input.folder);
  await fs.mkdir(dir, { recursive: true });

  const maxWidth = input.maxWidth ?? IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]!;
  // Converted in memory first: a file whose header reads but whose pixels are broken (a truncated
  // photo) fails here, and is the sender's fault, not the server's.
  let converted: { data: Buffer; info: { width: number; height: number; size: number } };
  try {
    converted = await image
      .clone()
      .resize({ width: maxWidth, withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new InvalidImageError('The image data is damaged');
  }
  await fs.writeFile(path.join(getUploadsRoot(), key), converted.data);
  const main = converted.info;
  const url = MEDIA_URL_PREFIX + key;
  const widths = input.responsive === false ? [] : IMAGE_WIDTHS;
  await Promise.all(
    widths.map((width) =>
      image
        .clone()
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: 78 })
        .toFile(path.join(getUploadsRoot(), variantUrl(url, width).slice(MEDIA_URL_PREFIX.length))),
    ),
  );
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
