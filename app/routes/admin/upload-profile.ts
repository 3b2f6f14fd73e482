import { getStaff } from '~/server/staff-context.server';
import { z } from 'zod';
import { formRefusal, parseForm } from '~/server/forms.server';
import { storeUploadedImage, UploadRefusedError } from '~/server/uploads.server';
import { PROFILE_PICTURE_MAX_BYTES, PROFILE_UPLOAD_MESSAGES } from '~/lib/uploads';
import type { Route } from './+types/upload-profile';

export function loader() {
  return Response.json({ error: 'Use POST.' }, { status: 405 });
}

const uploadSchema = z.object({ file: z.instanceof(File) });

/** Profile picture uploads from the user form (JSON answer). Any signed-in staff member may upload. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = getStaff(context);
  const form = await parseForm(request, uploadSchema, {
    maxBytes: PROFILE_PICTURE_MAX_BYTES + 64_000,
    tooLargeMessage: PROFILE_UPLOAD_MESSAGES.size,
  });
  if (!form.ok) return form.refused ? formRefusal(form) : Response.json({ error: PROFILE_UPLOAD_MESSAGES.type }, { status: 400 });
  const { file } = form.values;
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
