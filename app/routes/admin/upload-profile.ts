import { requireUser } from '~/server/auth.server';
import { readForm } from '~/server/request-info.server';
import { storeUploadedImage, UploadRefusedError } from '~/server/uploads.server';
import { PROFILE_PICTURE_MAX_BYTES, PROFILE_UPLOAD_MESSAGES } from '~/lib/uploads';
import type { Route } from './+types/upload-profile';

export function loader() {
  return Response.json({ error: 'Use POST.' }, { status: 405 });
}

/** Profile picture uploads from the user form (JSON answer). Any signed-in staff member may upload. */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request, PROFILE_PICTURE_MAX_BYTES + 64_000, PROFILE_UPLOAD_MESSAGES.size);
  const file = form.get('file');
  if (!(file instanceof File)) return Response.json({ error: PROFILE_UPLOAD_MESSAGES.type }, { status: 400 });
  try {
    const url = await storeUploadedImage(file, {
      folder: 'profiles',
      maxBytes: PROFILE_PICTURE_MAX_BYTES,
      messages: PROFILE_UPLOAD_MESSAGES,
      uploadedBy: user.email,
      maxWidth: 400,
      responsive: false,
    });
    return Response.json({ url });
  } catch (error) {
    if (error instanceof UploadRefusedError) return Response.json({ error: error.message }, { status: error.status });
    throw error;
  }
}
