import { getStaff } from '~/server/http/staff-context.server';
import { answerImageUpload } from '~/server/http/image-upload.server';
import { CONTENT_IMAGE_MAX_BYTES, CONTENT_UPLOAD_MESSAGES } from '~/lib/uploads';
import type { Route } from './+types/upload-site';

export function loader() {
  return Response.json({ error: 'Use POST.' }, { status: 405 });
}

/** A picture for the site's own pages (the founder's photo): the same rules as a story's featured image. */
export function action({ request, context }: Route.ActionArgs) {
  return answerImageUpload(request, getStaff(context).email, {
    folder: 'site',
    maxBytes: CONTENT_IMAGE_MAX_BYTES,
    messages: CONTENT_UPLOAD_MESSAGES,
  });
}
