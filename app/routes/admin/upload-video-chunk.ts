import { z } from 'zod';
import type { StaffUser } from '~/server/staff/auth.server';
import { getStaff } from '~/server/http/staff-context.server';
import { formRefusal, parseForm } from '~/server/http/forms.server';
import { CLOSE_CONNECTION, declaredLength } from '~/server/http/request-info.server';
import { appendVideoChunk, cancelVideoUpload, videoUploadStatus, VideoRuleError } from '~/server/media/video.server';
import { VIDEO_CHUNK_BYTES, VIDEO_CHUNK_TYPE, VIDEO_MESSAGES } from '~/lib/video-upload';
import type { Route } from './+types/upload-video-chunk';

// Issue 14: one upload of a sign-language video. GET says where it stands (how much arrived, so a
// dropped connection resumes there; then the processing's progress or failure); POST adds the next
// chunk, or cancels (a small form: intent=cancel). Only whoever started the upload reaches it.
//
// A chunk is the request's raw body (VIDEO_CHUNK_TYPE) with its offset in the address (?offset=),
// so whose upload it is, where it stands and the chunk's length are all checked before its body is
// read (issue 22: sixteen 4 MB chunks at a wrong offset, each read whole first, grew a process by
// 190 MB). A chunk answered without its body read to the end closes the connection, which then
// cannot carry another request.

function answerRuleError(error: unknown, headers: Record<string, string> = {}): Response {
  if (error instanceof VideoRuleError) return Response.json({ error: error.message }, { status: error.status, headers });
  throw error;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    return Response.json(await videoUploadStatus(getStaff(context), params.id), { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    return answerRuleError(error);
  }
}

const cancelSchema = z.object({ intent: z.literal('cancel') });

export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = getStaff(context);
  const mediaType = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType === VIDEO_CHUNK_TYPE) return receiveChunk(request, staff, params.id);
  const form = await parseForm(request, cancelSchema, { maxBytes: 1_000 });
  if (!form.ok) return form.refused ? formRefusal(form) : Response.json({ error: VIDEO_MESSAGES.outOfOrder }, { status: 400 });
  try {
    await cancelVideoUpload(staff, params.id);
    return Response.json({ cancelled: true, message: VIDEO_MESSAGES.cancelled });
  } catch (error) {
    return answerRuleError(error);
  }
}

async function receiveChunk(request: Request, staff: StaffUser, id: string): Promise<Response> {
  const offset = new URL(request.url).searchParams.get('offset') ?? '';
  const length = declaredLength(request);
  const refuse = (status: number, error: string) => Response.json({ error }, { status, headers: { ...CLOSE_CONNECTION } });
  if (!/^\d{1,15}$/.test(offset)) return refuse(400, VIDEO_MESSAGES.outOfOrder);
  // A browser always says how long a file's slice is; a body of unknown length could not be checked first.
  if (length === undefined || !Number.isSafeInteger(length) || length < 0) return refuse(411, VIDEO_MESSAGES.uploadFailed);
  if (length > VIDEO_CHUNK_BYTES) return refuse(413, VIDEO_MESSAGES.chunkTooLarge);
  const body = request.body ?? new Blob([]).stream();
  try {
    const answer = await appendVideoChunk(staff, id, Number(offset), { length, body });
    // A chunk sent again after a dropped answer is accepted without its body being read.
    return Response.json(answer, { headers: length > 0 && !request.bodyUsed ? { ...CLOSE_CONNECTION } : {} });
  } catch (error) {
    return answerRuleError(error, length > 0 ? { ...CLOSE_CONNECTION } : {});
  }
}
