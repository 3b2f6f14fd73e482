import type { RouterContextProvider } from 'react-router';
import { requestContext } from './request-context.server.ts';

/** The client's address as the HTTP server saw it (behind a proxy only when TRUST_PROXY is set). */
export function clientIp(context: Readonly<RouterContextProvider>): string {
  return context.get(requestContext).clientIp || 'unknown';
}

// A refused body still has to leave the connection. HTTP/1.1 clients (browsers, Node's fetch) send
// the next request on the same connection once theirs is written, so a 413 sent while part of the
// body is still unread either poisons that connection (the server, never reading on, never sees the
// next request) or, when the body is cancelled, resets it before the 413 is out. So a refused body is
// read to its end and dropped, up to DRAIN_LIMIT_BYTES; Node itself drains any body nobody reads the
// same way, and the server's request timeout bounds how long a slow one can take. A body larger than
// that is left unread and its answer says `Connection: close`, so Node closes the connection right
// after sending it (a route's `headers` export must pass the header on; resource routes send it as is).

/** How much of a refused body is read and dropped so the connection stays usable. */
export const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

/** The header of an answer that left part of the request body unread. */
export const CLOSE_CONNECTION: Readonly<Record<string, string>> = Object.freeze({ Connection: 'close' });

export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  /** The whole body was read (and dropped): the connection can carry the next request. */
  readonly drained: boolean;
  constructor(drained: boolean) {
    super('The request body is larger than allowed');
    this.drained = drained;
  }

  /** The headers the refusal must be sent with. */
  get headers(): Record<string, string> {
    return this.drained ? {} : { ...CLOSE_CONNECTION };
  }
}

/** The body's length as its Content-Length declares it, or undefined when it declares none. */
export function declaredLength(request: Request): number | undefined {
  const header = request.headers.get('content-length');
  if (header === null || header.trim() === '') return undefined;
  const length = Number(header);
  return Number.isFinite(length) ? length : undefined;
}

/**
 * The request body, kept only up to `maxBytes`. A larger body is read on and dropped up to
 * DRAIN_LIMIT_BYTES, then refused with a BodyTooLargeError that says whether it was read to its end;
 * a Content-Length over DRAIN_LIMIT_BYTES is refused before anything is read. A body without a
 * Content-Length is counted as it streams in.
 */
export async function readBodyWithinLimit(request: Request, maxBytes: number): Promise<Buffer<ArrayBuffer>> {
  const declared = declaredLength(request);
  if (declared !== undefined && declared > Math.max(maxBytes, DRAIN_LIMIT_BYTES)) throw new BodyTooLargeError(false);
  if (!request.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size <= maxBytes) chunks.push(value);
      // Not cancelled: cancelling destroys the connection before the 413 can be sent.
      else if (size > DRAIN_LIMIT_BYTES) throw new BodyTooLargeError(false);
    }
  } finally {
    reader.releaseLock();
  }
  if (size > maxBytes) throw new BodyTooLargeError(true);
  return Buffer.concat(chunks);
}

/**
 * Reads and drops the body of a request refused for another reason; returns the headers the refusal
 * must be sent with (`Connection: close` when the body was too large to read to its end).
 */
export async function discardBody(request: Request): Promise<Record<string, string>> {
  try {
    await readBodyWithinLimit(request, 0);
    return {};
  } catch (error) {
    return error instanceof BodyTooLargeError ? error.headers : { ...CLOSE_CONNECTION };
  }
}
