import type { RouterContextProvider } from 'react-router';
import { readForm, clientIp } from './request-info.server.ts';
import { storeUploadedImage, UploadRefusedError } from './uploads.server.ts';
import {
  ContentRuleError,
  getContentForAdmin,
  publishContent,
  updateContent,
  type AdminContentItem,
} from './content-admin.server.ts';
import { isStoredImage } from './media.server.ts';
import { getLogger } from './logger.server.ts';
import type { StaffUser } from './auth.server.ts';
import { CONTENT_IMAGE_MAX_BYTES, CONTENT_UPLOAD_MESSAGES } from '../lib/uploads.ts';
import {
  CONTENT_FIELDS,
  CONTENT_MAX_BYTES,
  CONTENT_MESSAGES,
  contentErrors,
  contentSchema,
  failedMessage,
  publishedMessage,
  type ContentErrors,
  type ContentType,
} from '../lib/content-form.ts';

export type SaveResult =
  | { ok: true; status: 200; message: string; item: AdminContentItem }
  | { ok: false; status: 400 | 403 | 404 | 413 | 500; message: string; errors: ContentErrors; values: Record<string, string> };

/**
 * Reads, checks and saves the content form, for both the JavaScript path (JSON) and the plain form
 * post. A picture attached to a plain post is stored first.
 */
export async function saveContentForm(
  request: Request,
  context: Readonly<RouterContextProvider>,
  actor: StaffUser,
  target: { mode: 'create'; type: ContentType } | { mode: 'edit'; type: ContentType; id: string },
): Promise<SaveResult> {
  const form = await readForm(request, CONTENT_MAX_BYTES + CONTENT_IMAGE_MAX_BYTES + 64_000, CONTENT_MESSAGES.contentTooLong);
  const values: Record<string, string> = {};
  for (const field of CONTENT_FIELDS) {
    const value = form.get(field);
    // A field left out of the post reads as empty, so it gets the spec's message ('Title is required').
    values[field] = typeof value === 'string' ? value : '';
  }
  const failure = (status: 400 | 403 | 404 | 413 | 500, reason: string, errors: ContentErrors = {}): SaveResult => ({
    ok: false,
    status,
    message: status === 400 ? CONTENT_MESSAGES.fixErrors : failedMessage(target.type, target.mode, reason),
    errors,
    values,
  });

  const file = form.get('imageFile');
  if (file instanceof File && file.size > 0) {
    try {
      values.imageUrl = await storeUploadedImage(file, {
        folder: target.type,
        maxBytes: CONTENT_IMAGE_MAX_BYTES,
        messages: CONTENT_UPLOAD_MESSAGES,
        uploadedBy: actor.email,
      });
    } catch (error) {
      if (error instanceof UploadRefusedError)
        return failure(error.status === 500 ? 500 : 400, error.message, { imageUrl: error.message });
      throw error;
    }
  }

  const parsed = contentSchema(target.type).safeParse(values);
  if (!parsed.success) return failure(400, CONTENT_MESSAGES.fixErrors, contentErrors(parsed.error.issues));
  const imageUrl = parsed.data.imageUrl;
  if (imageUrl && !(await isStoredImage(imageUrl))) {
    // Kept as it is when the item already shows it; a newly chosen one must still be on file.
    const current = target.mode === 'edit' ? await getContentForAdmin(target.id) : undefined;
    if (current?.imageUrl !== imageUrl)
      return failure(400, CONTENT_MESSAGES.fixErrors, { imageUrl: CONTENT_MESSAGES.imageInvalid });
  }
  try {
    const ip = clientIp(context);
    const item =
      target.mode === 'create'
        ? await publishContent(actor, target.type, parsed.data, ip)
        : await updateContent(actor, target.id, parsed.data, ip);
    return { ok: true, status: 200, message: publishedMessage(target.type, target.mode), item };
  } catch (error) {
    if (error instanceof ContentRuleError) return failure(error.status, error.message);
    getLogger().error({ err: error }, 'saving content failed');
    return failure(500, CONTENT_MESSAGES.generic);
  }
}
