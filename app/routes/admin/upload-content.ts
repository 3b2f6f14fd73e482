import { requirePermission } from '~/server/auth.server';
import { readForm } from '~/server/request-info.server';
import { storeUploadedImage, UploadRefusedError } from '~/server/uploads.server';
import { CONTENT_IMAGE_MAX_BYTES, CONTENT_UPLOAD_MESSAGES } from '~/lib/uploads';
import { isContentType } from '~/lib/content-form';
import type { Route } from './+types/upload-content';

export function loader() {
  return Response.json({ error: 'Use POST.' }, { status: 405 });
}

/** A featured image, uploaded as soon as it is chosen (spec §5: JPEG/PNG/GIF/WebP, at most 5 MB). */
export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, 'content:create');
  // Refused before the body is read when it says it is too large.
  const form = await readForm(request, CONTENT_IMAGE_MAX_BYTES + 64_000, CONTENT_UPLOAD_MESSAGES.size);
  const type = form.get('type');
  const file = form.get('file');
  if (!isContentType(type) || !(file instanceof File))
    return Response.json({ error: CONTENT_UPLOAD_MESSAGES.type }, { status: 400 });
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
