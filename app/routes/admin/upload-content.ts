import { getStaff } from '~/server/staff-context.server';
import { z } from 'zod';
import { formRefusal, parseForm } from '~/server/forms.server';
import { storeUploadedImage, UploadRefusedError } from '~/server/uploads.server';
import { CONTENT_IMAGE_MAX_BYTES, CONTENT_UPLOAD_MESSAGES } from '~/lib/uploads';
import { isContentType, type ContentType } from '~/lib/content-form';
import type { Route } from './+types/upload-content';

export function loader() {
  return Response.json({ error: 'Use POST.' }, { status: 405 });
}

const uploadSchema = z.object({ type: z.custom<ContentType>(isContentType), file: z.instanceof(File) });

/** A featured image, uploaded as soon as it is chosen (spec §5: JPEG/PNG/GIF/WebP, at most 5 MB). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = getStaff(context);
  // Refused before the body is read when it says it is too large.
  const form = await parseForm(request, uploadSchema, {
    maxBytes: CONTENT_IMAGE_MAX_BYTES + 64_000,
    tooLargeMessage: CONTENT_UPLOAD_MESSAGES.size,
  });
  if (!form.ok) return form.refused ? formRefusal(form) : Response.json({ error: CONTENT_UPLOAD_MESSAGES.type }, { status: 400 });
  const { type, file } = form.values;
  try {
    const url = await storeUploadedImage(file, {
      folder: type,
      maxBytes: CONTENT_IMAGE_MAX_BYTES,
      messages: CONTENT_UPLOAD_MESSAGES,
      uploadedBy: user.email,
    });
    return Response.json({ url });
  } catch (error) {
    if (error instanceof UploadRefusedError) return Response.json({ error: error.message }, { status: error.status });
    throw error;
  }
}
