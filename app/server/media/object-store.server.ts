import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { S3StorageSettings } from '../platform/config.server.ts';

// Where uploaded files live: a folder on this machine (the default), or an S3-compatible bucket so
// that every instance behind a load balancer serves the same pictures (STORAGE_URL=s3://…). Keys are
// the part of a /media URL after /media/, such as `news/9f86d081884c7d659a2feaa0c55ad015_class_photo-480w.webp`
// (128 random bits and the uploaded name: newStoredBase in storage.server.ts).

/** What the server knows of a stored file before sending it. */
export interface StoredObjectInfo {
  size: number;
  /** A quoted validator for ETag / If-None-Match / If-Range. */
  etag: string;
  lastModified: Date;
}

export interface ObjectListing {
  key: string;
  size: number;
  lastModified: Date;
}

/** An inclusive byte range, as in `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface ObjectStore {
  /** `disk` or `s3`, and where: for log lines and the backup's note. */
  readonly kind: 'disk' | 's3';
  readonly location: string;
  /** Stores a small file held in memory (a picture, captions, one upload chunk). */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /**
   * Stores the file at `file` (left where it is), streamed from the disk: for large files such as
   * video renditions, so memory stays flat whatever their size. Resolves to its size in bytes.
   */
  putFile(key: string, file: string, contentType: string): Promise<number>;
  /** The file (or the asked-for part of it) as a stream, or undefined when there is none. */
  get(key: string, range?: ByteRange): Promise<{ body: Readable; info: StoredObjectInfo } | undefined>;
  head(key: string): Promise<StoredObjectInfo | undefined>;
  /** Removes the file; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** Every file whose key starts with `prefix`. */
  list(prefix?: string): AsyncIterable<ObjectListing>;
  /** Proves the store can be used (start-up): throws with a readable reason when it cannot. */
  check(): Promise<void>;
}

/** The type a browser is told, from the stored name (uploads are WebP today; video comes next). */
const CONTENT_TYPES: Record<string, string> = {
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.vtt': 'text/vtt; charset=utf-8',
  '.pdf': 'application/pdf',
};

export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Whether `key` is a name this site could have stored: folders and names of letters, digits, dot,
 * hyphen and underscore (storage.server.ts makes them so), never `..`, never empty parts. Anything
 * else is refused before it reaches the disk or the bucket.
 */
/** Where a video's upload chunks are kept until it is processed: never sent to anyone (server/media.ts). */
export const VIDEO_UPLOADS_PREFIX = 'video-uploads/';

export function isSafeKey(key: string): boolean {
  if (key.length === 0 || key.length > 512) return false;
  return key.split('/').every((part) => part !== '' && part !== '.' && part !== '..' && /^[A-Za-z0-9._-]+$/.test(part));
}

function checkedKey(key: string): string {
  if (!isSafeKey(key)) throw new Error(`Not a storable file name: ${JSON.stringify(key.slice(0, 80))}`);
  return key;
}

// --- A folder on this machine ---

export function createDiskStore(root: string): ObjectStore {
  const full = (key: string) => path.join(root, ...checkedKey(key).split('/'));
  // Strong, so a resumed download's If-Range can match: a stored file is written once, whole
  // (renamed into place), and never changed.
  const infoOf = (stat: { size: number; mtime: Date }): StoredObjectInfo => ({
    size: stat.size,
    etag: `"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`,
    lastModified: stat.mtime,
  });
  const statFile = async (key: string) => {
    try {
      const stat = await fs.stat(full(key));
      return stat.isFile() ? stat : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  };

  async function* walk(dir: string, prefix: string): AsyncGenerator<ObjectListing> {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      const key = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) yield* walk(path.join(dir, entry.name), key);
      else if (entry.isFile() && !entry.name.startsWith('.')) {
        const stat = await fs.stat(path.join(dir, entry.name));
        yield { key, size: stat.size, lastModified: stat.mtime };
      }
    }
  }

  // Written beside its place and renamed, so a reader never sees half a file.
  const writeAtomically = async (key: string, write: (temporary: string) => Promise<void>) => {
    const file = full(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const temporary = `${path.join(path.dirname(file), '.')}${path.basename(file)}.${process.pid}.partial`;
    try {
      await write(temporary);
      await fs.rename(temporary, file);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
  };

  return {
    kind: 'disk',
    location: root,
    async put(key, body) {
      await writeAtomically(key, (temporary) => fs.writeFile(temporary, body));
    },
    async putFile(key, source) {
      // A copy, not a move: the source may be on another file system (a temporary folder), and
      // copyFile lets the kernel move the bytes without passing them through this process.
      await writeAtomically(key, (temporary) => fs.copyFile(source, temporary));
      return (await fs.stat(full(key))).size;
    },
    async get(key, range) {
      const stat = await statFile(key);
      if (!stat) return undefined;
      const body = createReadStream(full(key), range ? { start: range.start, end: range.end } : {});
      return { body, info: infoOf(stat) };
    },
    async head(key) {
      const stat = await statFile(key);
      return stat ? infoOf(stat) : undefined;
    },
    async delete(key) {
      await fs.rm(full(key), { force: true });
    },
    list(prefix = '') {
      const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
      const dir = folder ? path.join(root, ...checkedKey(folder).split('/')) : root;
      return (async function* () {
        for await (const item of walk(dir, folder)) if (item.key.startsWith(prefix)) yield item;
      })();
    },
    async check() {
      await fs.mkdir(root, { recursive: true });
      await fs.access(root, fs.constants.W_OK);
    },
  };
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

// --- An S3-compatible bucket ---

/** Tries at storing a file in the bucket before giving up (the job that stores it retries later). */
const PUT_FILE_ATTEMPTS = 3;

/** Why the bucket cannot be used, in words an operator can act on. */
export function describeStoreError(error: unknown): string {
  const e = error as { name?: string; message?: string; code?: string; $metadata?: { httpStatusCode?: number } } | null;
  const status = e?.$metadata?.httpStatusCode;
  if (status === 404) return 'no such bucket';
  if (status === 403) return 'access denied: check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and the bucket policy';
  if (status === 301 || status === 400)
    return `the store refused the request (HTTP ${status}): check AWS_REGION and AWS_ENDPOINT_URL_S3`;
  if (error instanceof AggregateError && error.errors.length) return describeStoreError(error.errors[0]);
  return e?.code ?? (e?.message || e?.name || String(error));
}

/**
 * The bucket named by STORAGE_URL, through the AWS SDK v3. Path-style addressing and checksums only
 * when an operation requires them: MinIO, Garage, Ceph and other non-AWS stores refuse or mangle the
 * SDK's default CRC32 trailers. The SDK is loaded only here, so a site on local disk never pays for it.
 */
export async function createS3Store(settings: S3StorageSettings): Promise<ObjectStore> {
  const s3 = await import('@aws-sdk/client-s3');
  const client = new s3.S3Client({
    region: settings.region,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
  });
  const { bucket, prefix } = settings;
  const objectKey = (key: string) => `${prefix}${checkedKey(key)}`;
  const notFound = (error: unknown) => {
    const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
    return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
  };
  const info = (output: { ContentLength?: number; ETag?: string; LastModified?: Date }, size?: number): StoredObjectInfo => ({
    size: size ?? Number(output.ContentLength ?? 0),
    etag: output.ETag ?? `"${Number(output.ContentLength ?? 0).toString(16)}"`,
    lastModified: output.LastModified ?? new Date(0),
  });

  return {
    kind: 's3',
    location: `s3://${bucket}/${prefix}`,
    async put(key, body, contentType) {
      await client.send(
        new s3.PutObjectCommand({
          Bucket: bucket,
          Key: objectKey(key),
          Body: body,
          ContentType: contentType,
          ContentLength: body.length,
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      );
    },
    async putFile(key, file, contentType) {
      const target = objectKey(key);
      const { size } = await fs.stat(file);
      // The SDK cannot retry a streamed body (it has been read), so a failure the store calls
      // passing (5xx, a dropped connection) is tried again here with the file opened afresh.
      for (let attempt = 1; ; attempt++) {
        // Pieces of 16 KB rather than 64: the ones already sent wait for V8's next collection, which
        // comes sooner the more pieces there are (scripts/bench-video.ts: a peak of 17–28 MB instead of 47–61).
        const body = createReadStream(file, { highWaterMark: 16 * 1024 });
        try {
          await client.send(
            new s3.PutObjectCommand({
              Bucket: bucket,
              Key: target,
              Body: body,
              ContentType: contentType,
              // Known in advance, so the SDK streams the file in one request instead of reading it whole.
              ContentLength: size,
              CacheControl: 'public, max-age=31536000, immutable',
            }),
          );
          return size;
        } catch (error) {
          const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
          if (attempt >= PUT_FILE_ATTEMPTS || (status !== undefined && status < 500)) throw error;
          await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
        } finally {
          body.destroy();
        }
      }
    },
    async get(key, range) {
      try {
        const output = await client.send(
          new s3.GetObjectCommand({
            Bucket: bucket,
            Key: objectKey(key),
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        // The whole file's size: from Content-Range when only a part was asked for.
        const total = /\/(\d+)$/.exec(output.ContentRange ?? '')?.[1];
        return { body: output.Body as Readable, info: info(output, total ? Number(total) : undefined) };
      } catch (error) {
        if (notFound(error)) return undefined;
        throw error;
      }
    },
    async head(key) {
      try {
        return info(await client.send(new s3.HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) })));
      } catch (error) {
        if (notFound(error)) return undefined;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new s3.DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },
    list(listPrefix = '') {
      return (async function* () {
        let token: string | undefined;
        do {
          const page = await client.send(
            new s3.ListObjectsV2Command({ Bucket: bucket, Prefix: prefix + listPrefix, ContinuationToken: token }),
          );
          for (const item of page.Contents ?? []) {
            if (!item.Key) continue;
            yield {
              key: item.Key.slice(prefix.length),
              size: Number(item.Size ?? 0),
              lastModified: item.LastModified ?? new Date(0),
            };
          }
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
      })();
    },
    async check() {
      await client.send(new s3.HeadBucketCommand({ Bucket: bucket }));
    },
  };
}
