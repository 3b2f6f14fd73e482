import { getStaff } from '~/server/http/staff-context.server';
import { answerImageUpload } from '~/server/http/image-upload.server';
import { PROFILE_PICTURE_MAX_BYTES, PROFILE_UPLOAD_MESSAGES } from '~/lib/uploads';
import type { Route } from './+types/upload-profile';

export function loader() {
  return Response.json({ error: 'Use POST.' }, { status: 405 });
}

/** Profile picture uploads from the user form (JSON answer). Any signed-in staff member may upload. */
export function action({ request, context }: Route.ActionArgs) {
  return answerImageUpload(request, getStaff(context).email, {
    folder: 'profiles',
    maxBytes: PROFILE_PICTURE_MAX_BYTES,
    messages: PROFILE_UPLOAD_MESSAGES,
    maxWidth: 400,
    responsive: false,
  });
}
