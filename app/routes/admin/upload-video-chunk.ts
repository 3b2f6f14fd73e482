import { z } from 'zod';
import { getStaff } from '~/server/staff-context.server';
import { formRefusal, parseForm } from '~/server/forms.server';
import { appendVideoChunk, cancelVideoUpload, videoUploadStatus, VideoRuleError } from '~/server/video.server';
import { VIDEO_CHUNK_BYTES, VIDEO_MESSAGES } from '~/lib/video-upload';
import type { Route } from './+types/upload-video-chunk';

// Issue 14: one upload of a sign-language video. GET says where it stands (how much arrived, so a
// dropped connection resumes there; then the processing's progress or failure); POST adds the next
// chunk, or cancels (intent=cancel). Only whoever started the upload reaches it.

function answerRuleError(error: unknown): Response {
  if (error instanceof VideoRuleError) return Response.json({ error: error.message }, { status: error.status });
  throw error;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    return Response.json(await videoUploadStatus(getStaff(context), params.id), { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    return answerRuleError(error);
  }
}

const chunkSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('cancel') }),
  z.object({ intent: z.literal('chunk'), offset: z.string().regex(/^\d{1,15}$/), chunk: z.instanceof(File) }),
]);

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await parseForm(request, chunkSchema, {
    maxBytes: VIDEO_CHUNK_BYTES + 64_000,
    tooLargeMessage: VIDEO_MESSAGES.outOfOrder,
  });
  if (!form.ok) return form.refused ? formRefusal(form) : Response.json({ error: VIDEO_MESSAGES.outOfOrder }, { status: 400 });
  const staff = getStaff(context);
  try {
    if (form.values.intent === 'cancel') {
      await cancelVideoUpload(staff, params.id);
      return Response.json({ cancelled: true, message: VIDEO_MESSAGES.cancelled });
    }
    const bytes = new Uint8Array(await form.values.chunk.arrayBuffer());
    return Response.json(await appendVideoChunk(staff, params.id, Number(form.values.offset), bytes));
  } catch (error) {
    return answerRuleError(error);
  }
}
