import { brotliCompressSync, constants as zlibConstants, gzipSync, zstdCompressSync } from 'node:zlib';
import type { RequestHandler, Response } from 'express';
import Negotiator from 'negotiator';

// Issue 29: a rendered page reaches Express in one piece (app/entry.server.tsx renders it whole), so
// it is compressed here in one call on this thread. The compression middleware does it as a stream on
// the thread pool, which for a 90 KB first-visit page cost about 2.3 ms of CPU against 1.5 ms here.
// Everything else (files, exports, feeds, JSON) still goes through the compression middleware, which
// leaves alone a body that already says how it is encoded.

/**
 * Brotli for an answer made per request, here and in the compression middleware (server/app.ts):
 * quality 3 and a 256 KB window; pages read again get the page cache's best copies. Quality 4 is
 * where Brotli starts searching harder: for a 55 KB list page it took 2.2 ms against 0.33 ms at 3,
 * a fifth of the page's whole CPU, for 6% fewer bytes (7,432 against 7,885; gzip: 8,446 in 0.5 ms).
 */
export const PER_REQUEST_BROTLI = {
  [zlibConstants.BROTLI_PARAM_QUALITY]: 3,
  [zlibConstants.BROTLI_PARAM_LGWIN]: 18,
};
const PAGE_GZIP_LEVEL = 6;
/**
 * Zstandard where the browser takes it (Chrome, Edge and Samsung Internet since 2024, Firefox since
 * 126): level 3 made the pages of decision 035 about 1% larger than Brotli at quality 3 in about
 * half to 60% of the time (a first visit's /blog, 94 KB: 0.46 ms against 0.94; a story, 44 KB: 0.33
 * against 0.56). Only for answers made per request: pages read again go out in the page cache's
 * Brotli, a fifth smaller.
 */
const PAGE_ZSTD_LEVEL = 3;
/** Smaller bodies are sent as they are, here and by the compression middleware. */
export const PAGE_COMPRESSION_THRESHOLD = 1024;

type Encoding = 'zstd' | 'br' | 'gzip';
type Chunk = string | Uint8Array;
type Callback = (error?: Error | null) => void;

function compress(body: Buffer, encoding: Encoding): Buffer {
  if (encoding === 'gzip') return gzipSync(body, { level: PAGE_GZIP_LEVEL });
  if (encoding === 'zstd')
    return zstdCompressSync(body, {
      pledgedSrcSize: body.length,
      params: { [zlibConstants.ZSTD_c_compressionLevel]: PAGE_ZSTD_LEVEL },
    });
  return brotliCompressSync(body, {
    params: {
      ...PER_REQUEST_BROTLI,
      [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

/** Whether the answer being started is an HTML page this middleware may hold and compress. */
function isWholePage(res: Response): boolean {
  if (res.headersSent || res.statusCode === 204 || res.statusCode === 304) return false;
  if (res.getHeader('Content-Encoding') !== undefined) return false;
  const type = String(res.getHeader('Content-Type') ?? '');
  if (!type.startsWith('text/html')) return false;
  return !/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(String(res.getHeader('Cache-Control') ?? ''));
}

/** Bytes are held as they are (a writer may not change a chunk it has written, as with any stream). */
const toBuffer = (chunk: Chunk, encoding?: BufferEncoding) =>
  typeof chunk === 'string'
    ? Buffer.from(chunk, encoding ?? 'utf8')
    : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

/**
 * Holds an HTML answer's writes and, at its end, sends it compressed in the encoding the request
 * prefers (Zstandard, then Brotli, then gzip; none when it accepts none of them). Mounted after the compression middleware
 * and before the page cache, which so keeps the uncompressed page.
 */
export function pageCompression(): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'HEAD') return next();
    // Zstandard, then Brotli, then gzip where the request likes them as well (browsers list gzip
    // first). Vary: Accept-Encoding is the compression middleware's to add.
    const accepted = new Negotiator(req).encoding(['zstd', 'br', 'gzip', 'identity'], { preferred: ['zstd', 'br', 'gzip'] });
    const encoding: Encoding | undefined = accepted === 'zstd' || accepted === 'br' || accepted === 'gzip' ? accepted : undefined;
    if (!encoding) return next();

    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    /** Decided at the first write: hold an HTML page, or pass everything on as it comes. */
    let state: 'undecided' | 'holding' | 'passing' = 'undecided';
    let held: Buffer[] = [];
    const holds = () => {
      if (state === 'undecided') state = isWholePage(res) ? 'holding' : 'passing';
      return state === 'holding';
    };

    res.write = function (chunk: Chunk, encodingOrCallback?: BufferEncoding | Callback, callback?: Callback) {
      if (!holds()) return write(chunk, encodingOrCallback, callback);
      held.push(toBuffer(chunk, typeof encodingOrCallback === 'string' ? encodingOrCallback : undefined));
      const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
      if (done) process.nextTick(done);
      return true;
    } as Response['write'];

    res.end = function (chunk?: Chunk | Callback, encodingOrCallback?: BufferEncoding | Callback, callback?: Callback) {
      if (typeof chunk === 'function') [chunk, callback] = [undefined, chunk];
      if (typeof encodingOrCallback === 'function') [encodingOrCallback, callback] = [undefined, encodingOrCallback];
      if (!holds()) return end(chunk, encodingOrCallback, callback);
      if (chunk !== undefined && chunk !== null) held.push(toBuffer(chunk, encodingOrCallback));
      const body = held.length === 1 ? held[0]! : Buffer.concat(held);
      held = [];
      // Sent once: anything after goes on as it is.
      state = 'passing';
      if (body.length < PAGE_COMPRESSION_THRESHOLD) {
        res.setHeader('Content-Length', body.length);
        return end(body, callback);
      }
      let compressed: Buffer;
      try {
        compressed = compress(body, encoding);
      } catch {
        // Sent as it is rather than not at all.
        res.setHeader('Content-Length', body.length);
        return end(body, callback);
      }
      res.setHeader('Content-Encoding', encoding);
      res.setHeader('Content-Length', compressed.length);
      return end(compressed, callback);
    } as Response['end'];
    next();
  };
}
