// Requests as a browser (or a bot) sends them, for tests of form handlers.

const URLENCODED = 'application/x-www-form-urlencoded';

/** A URL-encoded form post to `url`, with any extra headers (such as a Content-Length). */
export function formPost(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Request {
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': URLENCODED, ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/**
 * A URL-encoded post to `url` of about `totalBytes` (one `field` repeated in 16 KiB pieces) sent without a
 * Content-Length, as a bot might; counts what was pulled and whether the reader cancelled the body.
 */
export function streamedFormPost(url: string, field: string, totalBytes: number) {
  const piece = new TextEncoder().encode(`${field}=${'a'.repeat(16 * 1024 - field.length - 1)}`);
  let sent = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= totalBytes) return controller.close();
      sent += piece.byteLength;
      controller.enqueue(piece);
    },
    cancel() {
      cancelled = true;
    },
  });
  const request = new Request(url, {
    method: 'POST',
    headers: { 'content-type': URLENCODED },
    body,
    duplex: 'half',
  } as RequestInit);
  return { request, sent: () => sent, cancelled: () => cancelled };
}
