import { data } from 'react-router';
import { readForm } from './request-info.server.ts';
import { storeUploadedImage, UploadRefusedError } from './uploads.server.ts';
import { UserRuleError } from './users.server.ts';
import { PROFILE_PICTURE_MAX_BYTES, PROFILE_UPLOAD_MESSAGES } from '../lib/uploads.ts';
import type { UserFormErrors } from '../components/admin/user-form.tsx';

/**
 * Reads the user form (multipart: without JavaScript the picture file comes along) into plain
 * fields, storing an attached picture. Refusals become a 4xx with the message beside its field.
 */
export async function readUserForm(request: Request, uploadedBy: string): Promise<Record<string, string>> {
  const form = await readForm(request, PROFILE_PICTURE_MAX_BYTES + 64_000, PROFILE_UPLOAD_MESSAGES.size);
  const fields: Record<string, string> = {};
  for (const key of ['name', 'email', 'role', 'bio', 'profilePicture', 'password']) {
    const value = form.get(key);
    if (typeof value === 'string') fields[key] = value;
  }
  const file = form.get('profilePictureFile');
  if (file instanceof File && file.size > 0) {
    try {
      fields.profilePicture = await storeUploadedImage(file, {
        folder: 'profiles',
        maxBytes: PROFILE_PICTURE_MAX_BYTES,
        messages: PROFILE_UPLOAD_MESSAGES,
        uploadedBy,
        maxWidth: 400,
        responsive: false,
      });
    } catch (error) {
      if (error instanceof UploadRefusedError)
        throw data(
          { errors: { profilePicture: error.message, form: error.message } satisfies UserFormErrors },
          { status: error.status },
        );
      throw error;
    }
  }
  return fields;
}

/** A schema failure or a rule refusal as the form's errors, with the right status. */
export function userFormFailure(error: unknown, fallback: string) {
  if (error instanceof UserRuleError) {
    const errors: UserFormErrors = { form: error.message };
    if (error.field) errors[error.field] = error.message;
    return data({ errors }, { status: error.status });
  }
  return data({ errors: { form: fallback } satisfies UserFormErrors }, { status: 500 });
}

export function schemaFailure(issues: { path: PropertyKey[]; message: string }[]) {
  const errors: UserFormErrors = { form: issues[0]?.message ?? 'Please check the form.' };
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '') as keyof UserFormErrors;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return data({ errors }, { status: 400 });
}
