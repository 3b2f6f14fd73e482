// /media: uploaded files, from the folder or the S3-compatible bucket (app/server/media/object-store.server.ts),
// sent the same way from either: a year of immutable caching (every stored name is new, so a file
// never changes), its type, ETag and Last-Modified answered with 304, and byte ranges (206) so a
// video can be scrubbed and a broken download resumed. A video's upload chunks (video-uploads/) are
// never sent: they are a staff member's raw file, perhaps of a story never published.
import { pipeline } from 'node:stream/promises';
import type { Request, RequestHandler, Response } from 'express';
import {
  contentTypeOf,
  isSafeKey,
  VIDEO_UPLOADS_PREFIX,
  type ByteRange,
  type ObjectStore,
  type StoredObjectInfo,
} from '../app/server/media/object-store.server.ts';
import type { Logger } from '../app/server/platform/logger.server.ts';
import { mainOfVariant } from '../app/lib/images.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

// What a bucket said about a file, kept a while: a stored name is written once and never changed, so
// only its removal can make this stale, and then the GET finds nothing and the answer is a 404.
// Playing or scrubbing a video asks for many parts of one file: one HEAD for them instead of one
// each. A folder answers from a stat, cheaper than any of this, and is always asked.
const INFO_KEPT_MS = 5 * 60_000;
const INFO_KEPT_MAX = 1_000;

export function mediaHandler(
  store: () => ObjectStore,
  logger: Logger,
  /** How long a bucket's answer is kept (the bench compares with 0: asked every time). */
  { infoKeptMs = INFO_KEPT_MS }: { infoKeptMs?: number } = {},
): RequestHandler {
  const known = new Map<string, { info: StoredObjectInfo; until: number }>();
  const describe = async (key: string): Promise<StoredObjectInfo | undefined> => {
    const from = store();
    if (from.kind !== 's3') return from.head(key);
    const kept = known.get(key);
    if (kept && kept.until > Date.now()) return kept.info;
    known.delete(key);
    const info = await from.head(key);
    if (info && infoKeptMs > 0) {
      // The oldest goes first (a Map keeps the order things were put in).
      if (known.size >= INFO_KEPT_MAX) known.delete(known.keys().next().value!);
      known.set(key, { info, until: Date.now() + infoKeptMs });
    }
    return info;
  };
  return async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.set('Allow', 'GET, HEAD').status(405).end();
      return;
    }
    let key: string;
    try {
      key = decodeURIComponent(req.path.replace(/^\/+/, ''));
    } catch {
      key = '';
    }
    if (!isSafeKey(key) || key.startsWith(VIDEO_UPLOADS_PREFIX)) return notFound(next);
    try {
      let info = await describe(key);
      // A responsive width a picture does not have yet (stored before the width existed, until the
      // media.widths job makes it): its main file, the same picture larger, rather than a hole.
      const main = info ? undefined : mainOfVariant(key);
      if (main) {
        info = await describe(main);
        if (info) key = main;
      }
      if (!info) return notFound(next);
      setHeaders(res, key, info);
      if (isFresh(req, info)) {
        res.status(304).end();
        return;
      }
      const range = wantedRange(req, info);
      if (range === 'unsatisfiable') {
        res.set('Content-Range', `bytes */${info.size}`).status(416).end();
        return;
      }
      if (range) {
        // A part of a file must reach the browser byte for byte: no compression on the way.
        res.set('Cache-Control', `${IMMUTABLE}, no-transform`);
        res.status(206).set('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
        res.set('Content-Length', String(range.end - range.start + 1));
      } else res.status(200).set('Content-Length', String(info.size));
      if (req.method === 'HEAD' || info.size === 0) {
        res.end();
        return;
      }
      const found = await store().get(key, range);
      if (!found) {
        // Removed between the two questions (or since its description was kept).
        known.delete(key);
        res.removeHeader('Content-Length');
        res.removeHeader('Content-Range');
        return notFound(next);
      }
      await pipeline(found.body, res);
    } catch (error) {
      // A visitor closing the tab mid-download is not the site's problem.
      if ((error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
      if (res.headersSent) {
        logger.warn({ err: error, key }, 'an uploaded file could not be sent whole');
        res.destroy();
        return;
      }
      next(error);
    }
  };
}

function notFound(next: (error?: unknown) => void): void {
  next(Object.assign(new Error('No such uploaded file'), { status: 404 }));
}

function setHeaders(res: Response, key: string, info: StoredObjectInfo): void {
  res.set({
    'Content-Type': contentTypeOf(key),
    'Cache-Control': IMMUTABLE,
    ETag: info.etag,
    'Last-Modified': info.lastModified.toUTCString(),
    'Accept-Ranges': 'bytes',
    // Newsletter mails show our pictures inside web mail (another site); helmet's same-origin would
    // have the browser refuse them there (docs/decisions/018-many-instances.md).
    'Cross-Origin-Resource-Policy': 'cross-origin',
  });
}

/** Whether the browser's copy is this one (If-None-Match wins over If-Modified-Since, RFC 9110 §13.2.2). */
function isFresh(req: Request, info: StoredObjectInfo): boolean {
  const noneMatch = req.get('If-None-Match');
  if (noneMatch) {
    if (noneMatch.trim() === '*') return true;
    const tag = opaque(info.etag);
    return noneMatch.split(',').some((candidate) => opaque(candidate.trim()) === tag);
  }
  const since = Date.parse(req.get('If-Modified-Since') ?? '');
  return Number.isFinite(since) && Math.floor(info.lastModified.getTime() / 1000) * 1000 <= since;
}

/** An entity tag without its weak marker: If-None-Match compares weakly. */
function opaque(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/**
 * The one byte range asked for, if any (RFC 9110 §14): `bytes=a-b`, `bytes=a-` or `bytes=-n`. A
 * list of ranges, or an If-Range that no longer matches, is answered with the whole file, which the
 * standard allows; a range wholly past the end is unsatisfiable.
 */
function wantedRange(req: Request, info: StoredObjectInfo): ByteRange | 'unsatisfiable' | undefined {
  const header = req.get('Range');
  if (!header) return undefined;
  const ifRange = req.get('If-Range');
  if (ifRange) {
    const date = Date.parse(ifRange);
    const matches =
      ifRange.startsWith('"') || ifRange.startsWith('W/')
        ? !info.etag.startsWith('W/') && ifRange === info.etag
        : Number.isFinite(date) && Math.floor(info.lastModified.getTime() / 1000) * 1000 === date;
    if (!matches) return undefined;
  }
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const size = info.size;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
    if (end < start && match[2] !== '') return undefined;
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return { start, end };
}
