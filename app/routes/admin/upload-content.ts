import { getStaff } from '~/server/http/staff-context.server';
import { answerImageUpload } from '~/server/http/image-upload.server';
import { CONTENT_IMAGE_MAX_BYTES, CONTENT_UPLOAD_MESSAGES } from '~/lib/uploads';
import { isContentType } from '~/lib/content-form';
import type { Route } from './+types/upload-content';

export function loader() {
  return Response.json({ error: 'Use POST.' }, { status: 405 });
}

/** A featured image, uploaded as soon as it is chosen (spec §5: JPEG/PNG/GIF/WebP, at most 5 MB). */
export function action({ request, context }: Route.ActionArgs) {
  return answerImageUpload(request, getStaff(context).email, {
    folder: (type) => (isContentType(type) ? type : undefined),
    maxBytes: CONTENT_IMAGE_MAX_BYTES,
    messages: CONTENT_UPLOAD_MESSAGES,
  });
}
