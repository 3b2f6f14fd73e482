import { z } from 'zod';
import { getStaff } from '~/server/http/staff-context.server';
import { formRefusal, parseForm } from '~/server/http/forms.server';
import { startVideoUpload, VideoRuleError, VideoUnavailableError } from '~/server/media/video.server';
import { VIDEO_MESSAGES } from '~/lib/video-upload';
import type { Route } from './+types/upload-video';

// Issue 14: starts a chunked upload of a sign-language video (the chunks go to /admin/uploads/video/:id).

export function loader() {
  return Response.json({ error: 'Use POST.' }, { status: 405 });
}

const startSchema = z.object({
  name: z.string().max(500),
  size: z.string().regex(/^\d{1,15}$/, VIDEO_MESSAGES.empty),
});

export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(request, startSchema, { maxBytes: 4_000 });
  if (!form.ok) return form.refused ? formRefusal(form) : Response.json({ error: VIDEO_MESSAGES.empty }, { status: 400 });
  try {
    const started = await startVideoUpload(getStaff(context), { name: form.values.name, size: Number(form.values.size) });
    return Response.json(started, { status: 201 });
  } catch (error) {
    if (error instanceof VideoUnavailableError) return Response.json({ error: error.message }, { status: 503 });
    if (error instanceof VideoRuleError) return Response.json({ error: error.message }, { status: error.status });
    throw error;
  }
}
