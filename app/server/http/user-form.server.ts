import { data } from 'react-router';
import type { z } from 'zod';
import { optionalFile } from '../../lib/forms.ts';
import { parseForm } from './forms.server.ts';
import { storeUploadedImage, UploadRefusedError } from '../media/uploads.server.ts';
import { RuleError } from '../platform/rule-error.server.ts';
import { failureOf, ruleResponse } from './rules.server.ts';
import { PROFILE_PICTURE_MAX_BYTES, PROFILE_UPLOAD_MESSAGES } from '../../lib/uploads.ts';
import { createUserSchema, updateUserSchema, type UserFormErrors } from '../../lib/users.ts';
import { firstError } from '../../lib/forms.ts';

// The user form as posted: its fields, and a picture attached to a post made without JavaScript.
export const createUserForm = createUserSchema.extend({ profilePictureFile: optionalFile });
export const updateUserForm = updateUserSchema.extend({ profilePictureFile: optionalFile });
/** Your own card: the role is never taken from it (an unknown field, so it is dropped). */
export const profileForm = updateUserSchema.omit({ role: true }).extend({ profilePictureFile: optionalFile });

/**
 * Reads and checks the user form, then stores an attached picture. A failure is the answer to send:
 * the form's errors, each beside its field, with the right status.
 */
export async function readUserForm<T extends { profilePicture: string; profilePictureFile?: File | undefined }>(
  request: Request,
  schema: z.ZodType<T>,
  uploadedBy: string,
) {
  const form = await parseForm(request, schema, {
    maxBytes: PROFILE_PICTURE_MAX_BYTES + 64_000,
    tooLargeMessage: PROFILE_UPLOAD_MESSAGES.size,
  });
  if (!form.ok) {
    const errors: UserFormErrors = { ...form.fieldErrors, form: firstError(form) };
    if (form.status === 413) errors.profilePicture = form.formError;
    return { ok: false as const, failure: data({ errors }, { status: form.status, headers: form.headers }) };
  }
  const { profilePictureFile, ...values } = form.values;
  if (!profilePictureFile) return { ok: true as const, values };
  try {
    const profilePicture = await storeUploadedImage(profilePictureFile, {
      folder: 'profiles',
      maxBytes: PROFILE_PICTURE_MAX_BYTES,
      messages: PROFILE_UPLOAD_MESSAGES,
      uploadedBy,
      maxWidth: 400,
      responsive: false,
    });
    return { ok: true as const, values: { ...values, profilePicture } };
  } catch (error) {
    if (!(error instanceof UploadRefusedError)) throw error;
    const errors: UserFormErrors = { profilePicture: error.message, form: error.message };
    return { ok: false as const, failure: data({ errors }, { status: error.status }) };
  }
}

/** A schema failure or a rule refusal as the form's errors, with the right status. */
export function userFormFailure(error: unknown, fallback: string, what: string) {
  if (error instanceof RuleError) return ruleResponse(error);
  const { message, status } = failureOf(error, fallback, what);
  return data({ ok: false, message, errors: { form: message } satisfies UserFormErrors }, { status });
}
