import { RouterContextProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ENGINES, useTestDatabase } from '../support/databases';
import { staffAs } from '../support/staff';
import { action } from '~/routes/admin/upload-video-chunk';
import type { StaffUser } from '~/server/staff/auth.server';
import { adminAccessContext } from '~/server/http/staff-context.server';
import { getMediaStore } from '~/server/media/storage.server';
import { startVideoUpload, videoUploadStatus } from '~/server/media/video.server';
import { VIDEO_CHUNK_BYTES, VIDEO_CHUNK_TYPE, VIDEO_CHUNKS_AT_ONCE, VIDEO_MESSAGES } from '~/lib/video-upload';

// Issue 22, point 6: a video chunk is the request's raw body, and everything that could refuse it
// (whose upload, where it stands, how long it is, how many of its sender's are being received) is
// decided before its body is read. Before, the chunk came inside a multipart form that was read
// whole, parsed and copied before its offset was looked at: sixteen chunks at a wrong offset grew a
// process by 190 MB.

const PIECE = 16 * 1024;

/**
 * A chunk post of `length` bytes whose body is handed over a 16 KiB piece at a time as the server
 * reads it, counting what it handed over; `hold` keeps all but two pieces back until `release()`.
 */
function chunkPost(url: string, length: number, options: { hold?: boolean; declare?: boolean } = {}) {
  let sent = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent >= length) return controller.close();
      if (options.hold && sent >= 2 * PIECE) await released;
      const size = Math.min(PIECE, length - sent);
      sent += size;
      controller.enqueue(new Uint8Array(size).fill(7));
    },
  });
  const request = new Request(url, {
    method: 'POST',
    headers: {
      'content-type': VIDEO_CHUNK_TYPE,
      ...(options.declare === false ? {} : { 'content-length': String(length) }),
    },
    body,
    duplex: 'half',
  } as RequestInit);
  return { request, sent: () => sent, release };
}

function contextFor(user: StaffUser) {
  const context = new RouterContextProvider();
  context.set(adminAccessContext, { current: { status: 'signed-in', user } });
  return context;
}

async function post(request: Request, user: StaffUser, id: string) {
  const response = (await action({ request, params: { id }, context: contextFor(user) } as never)) as Response;
  return {
    status: response.status,
    connection: response.headers.get('connection'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

const url = (id: string, offset: number | string) => `http://localhost/admin/uploads/video/${id}?offset=${offset}`;

describe.each(ENGINES)('the video chunk endpoint on %s', (engine) => {
  useTestDatabase(engine, { uploads: true });

  it('stores a chunk sent as the raw body, and takes the last one', async () => {
    const editor = staffAs('EDITOR', 'Sender');
    const size = VIDEO_CHUNK_BYTES + 1000;
    const { id } = await startVideoUpload(editor, { name: 'a.mp4', size });
    const first = chunkPost(url(id, 0), VIDEO_CHUNK_BYTES);
    expect(await post(first.request, editor, id)).toMatchObject({
      status: 200,
      connection: null,
      body: { received: VIDEO_CHUNK_BYTES },
    });
    const part = await getMediaStore().head(`video-uploads/${id}/000000.part`);
    expect(part?.size).toBe(VIDEO_CHUNK_BYTES);
    const last = chunkPost(url(id, VIDEO_CHUNK_BYTES), 1000);
    expect(await post(last.request, editor, id)).toMatchObject({ status: 200, body: { status: 'processing', received: size } });
  });

  it('refuses a chunk at a wrong offset, for someone else’s upload, or over 4 MiB before reading its body', async () => {
    const editor = staffAs('EDITOR', 'Early');
    const { id } = await startVideoUpload(editor, { name: 'a.mp4', size: 3 * VIDEO_CHUNK_BYTES });

    const wrong = chunkPost(url(id, VIDEO_CHUNK_BYTES), VIDEO_CHUNK_BYTES);
    expect(await post(wrong.request, editor, id)).toEqual({
      status: 409,
      connection: 'close',
      body: { error: VIDEO_MESSAGES.outOfOrder },
    });
    // At most the one piece a stream readies before anyone reads it: none of the other 255.
    expect(wrong.sent()).toBeLessThanOrEqual(PIECE);

    const stranger = chunkPost(url(id, 0), VIDEO_CHUNK_BYTES);
    expect(await post(stranger.request, staffAs('EDITOR', 'Stranger'), id)).toMatchObject({ status: 404, connection: 'close' });
    expect(stranger.sent()).toBeLessThanOrEqual(PIECE);

    const large = chunkPost(url(id, 0), VIDEO_CHUNK_BYTES + 1);
    expect(await post(large.request, editor, id)).toEqual({
      status: 413,
      connection: 'close',
      body: { error: VIDEO_MESSAGES.chunkTooLarge },
    });
    expect(large.sent()).toBeLessThanOrEqual(PIECE);

    const unknownLength = chunkPost(url(id, 0), VIDEO_CHUNK_BYTES, { declare: false });
    expect(await post(unknownLength.request, editor, id)).toMatchObject({ status: 411, connection: 'close' });
    expect(unknownLength.sent()).toBeLessThanOrEqual(PIECE);

    const noOffset = chunkPost(url(id, 'x'), VIDEO_CHUNK_BYTES);
    expect(await post(noOffset.request, editor, id)).toMatchObject({ status: 400, connection: 'close' });

    // Nothing of them was stored or counted.
    expect((await videoUploadStatus(editor, id)).received).toBe(0);
    expect(await getMediaStore().head(`video-uploads/${id}/000000.part`)).toBeUndefined();
  });

  it('answers a chunk sent again after its answer was lost without reading it again', async () => {
    const editor = staffAs('EDITOR', 'Again');
    const { id } = await startVideoUpload(editor, { name: 'a.mp4', size: 2 * VIDEO_CHUNK_BYTES });
    await post(chunkPost(url(id, 0), VIDEO_CHUNK_BYTES).request, editor, id);
    const again = chunkPost(url(id, 0), VIDEO_CHUNK_BYTES);
    expect(await post(again.request, editor, id)).toMatchObject({
      status: 200,
      connection: 'close',
      body: { received: VIDEO_CHUNK_BYTES },
    });
    expect(again.sent()).toBeLessThanOrEqual(PIECE);
  });

  it(`receives at most ${VIDEO_CHUNKS_AT_ONCE} chunks of one person at once: the next is refused 429, unread`, async () => {
    const editor = staffAs('EDITOR', 'Busy');
    const uploads = await Promise.all(
      [1, 2, 3].map((n) => startVideoUpload(editor, { name: `${n}.mp4`, size: 2 * VIDEO_CHUNK_BYTES })),
    );
    const [a, b, c] = uploads.map((u) => u.id) as [string, string, string];
    const first = chunkPost(url(a, 0), VIDEO_CHUNK_BYTES, { hold: true });
    const second = chunkPost(url(b, 0), VIDEO_CHUNK_BYTES, { hold: true });
    const answers = [post(first.request, editor, a), post(second.request, editor, b)];
    // Both are being received (past the piece a stream readies by itself).
    await vi.waitFor(() => expect(Math.min(first.sent(), second.sent())).toBeGreaterThan(PIECE), { timeout: 10_000 });

    const third = chunkPost(url(c, 0), VIDEO_CHUNK_BYTES);
    expect(await post(third.request, editor, c)).toEqual({
      status: 429,
      connection: 'close',
      body: { error: VIDEO_MESSAGES.tooManyChunks },
    });
    expect(third.sent()).toBeLessThanOrEqual(PIECE);
    // Someone else is not held up by them.
    const other = staffAs('EDITOR', 'Other');
    const { id: theirs } = await startVideoUpload(other, { name: 'o.mp4', size: 1000 });
    expect((await post(chunkPost(url(theirs, 0), 1000).request, other, theirs)).status).toBe(200);

    first.release();
    second.release();
    for (const answer of await Promise.all(answers))
      expect(answer).toMatchObject({ status: 200, body: { received: VIDEO_CHUNK_BYTES } });
    // Their places are given back: the third goes through now.
    expect(await post(chunkPost(url(c, 0), VIDEO_CHUNK_BYTES).request, editor, c)).toMatchObject({ status: 200 });
  });

  it('cancels with a small form post', async () => {
    const editor = staffAs('EDITOR', 'Canceller');
    const { id } = await startVideoUpload(editor, { name: 'a.mp4', size: 1000 });
    const request = new Request(`http://localhost/admin/uploads/video/${id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '13' },
      body: 'intent=cancel',
    });
    expect(await post(request, editor, id)).toMatchObject({ status: 200, body: { cancelled: true } });
    await expect(videoUploadStatus(editor, id)).rejects.toMatchObject({ status: 404 });
  });
});
