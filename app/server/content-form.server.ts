import { data, type RouterContextProvider } from 'react-router';
import { clientIp } from './request-info.server.ts';
import { optionalFile, parseForm } from './forms.server.ts';
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
  contentSchema,
  failedMessage,
  publishedMessage,
  type ContentAnswer,
  type ContentErrors,
  type ContentType,
} from '../lib/content-form.ts';

export type SaveResult =
  | { ok: true; status: 200; message: string; item: AdminContentItem }
  | {
      ok: false;
      status: 400 | 403 | 404 | 411 | 413 | 415 | 500;
      message: string;
      errors: ContentErrors;
      values: Record<string, string>;
      headers: Record<string, string>;
    };

/** The content form as posted: its fields, and a picture attached to a post made without JavaScript. */
const contentFormSchema = (type: ContentType) => contentSchema(type).extend({ imageFile: optionalFile });

/** The most a content form post may be: the longest body, the largest picture and room for the rest. */
export const CONTENT_FORM_MAX_BYTES = CONTENT_MAX_BYTES + CONTENT_IMAGE_MAX_BYTES + 64_000;

/**
 * Reads, checks and saves the content form (the content-new and content-edit actions, with or
 * without JavaScript). A picture attached to a plain post is stored first, even when another field
 * is wrong, so the form comes back showing it and the retry need not choose it again.
 */
export async function saveContentForm(
  request: Request,
  context: Readonly<RouterContextProvider>,
  actor: StaffUser,
  target: { mode: 'create'; type: ContentType } | { mode: 'edit'; type: ContentType; id: string },
): Promise<SaveResult> {
  const form = await parseForm(request, contentFormSchema(target.type), {
    maxBytes: CONTENT_FORM_MAX_BYTES,
    tooLargeMessage: CONTENT_MESSAGES.contentTooLong,
  });
  // What the form shows again after a failure: what was posted (or, once checked, the checked values).
  const values: Record<string, string> = {};
  if (form.ok) {
    const { title, category, tags, summary, imageUrl, imageAlt, content } = form.values;
    Object.assign(values, { title, category, tags: tags.join(', '), summary, imageUrl, imageAlt, content });
  } else for (const field of CONTENT_FIELDS) values[field] = form.values[field] ?? '';
  const failure = (
    status: Exclude<SaveResult['status'], 200>,
    reason: string,
    errors: ContentErrors = {},
    headers: Record<string, string> = {},
  ): SaveResult => ({
    ok: false,
    status,
    message: status === 400 ? CONTENT_MESSAGES.fixErrors : failedMessage(target.type, target.mode, reason),
    errors,
    values,
    headers,
  });
  if (!form.ok && form.refused) return failure(form.status, form.formError, {}, form.headers);

  const file = form.ok ? form.values.imageFile : form.files.imageFile;
  let storedUrl: string | undefined;
  if (file) {
    try {
      storedUrl = await storeUploadedImage(file, {
        folder: target.type,
        maxBytes: CONTENT_IMAGE_MAX_BYTES,
        messages: CONTENT_UPLOAD_MESSAGES,
        uploadedBy: actor.email,
      });
    } catch (error) {
      if (!(error instanceof UploadRefusedError)) throw error;
      const others = form.ok ? {} : (form.fieldErrors as ContentErrors);
      return failure(error.status === 500 ? 500 : 400, error.message, { ...others, imageUrl: error.message });
    }
  }
  if (storedUrl) values.imageUrl = storedUrl;
  if (!form.ok) return failure(400, CONTENT_MESSAGES.fixErrors, form.fieldErrors as ContentErrors);

  const { imageFile: _, ...input } = form.values;
  if (storedUrl) input.imageUrl = storedUrl;
  else if (input.imageUrl && !(await isStoredImage(input.imageUrl))) {
    // Kept as it is when the item already shows it; a newly chosen one must still be on file.
    const current = target.mode === 'edit' ? await getContentForAdmin(target.id) : undefined;
    if (current?.imageUrl !== input.imageUrl)
      return failure(400, CONTENT_MESSAGES.fixErrors, { imageUrl: CONTENT_MESSAGES.imageInvalid });
  }
  try {
    const ip = clientIp(context);
    const item =
      target.mode === 'create'
        ? await publishContent(actor, target.type, input, ip)
        : await updateContent(actor, target.id, input, ip);
    return { ok: true, status: 200, message: publishedMessage(target.type, target.mode), item };
  } catch (error) {
    if (error instanceof ContentRuleError) return failure(error.status, error.message);
    getLogger().error({ err: error }, 'saving content failed');
    return failure(500, CONTENT_MESSAGES.generic);
  }
}

/** The action's answer for the form (the same for a plain post and a fetcher), with its status. */
export function contentAnswer(result: SaveResult) {
  if (result.ok) return { ok: true, status: 200, message: result.message, errors: {}, values: {} } satisfies ContentAnswer;
  const { headers, ...answer } = result;
  return data(answer satisfies ContentAnswer, { status: result.status, headers });
}

/** A refusal made before the form is read (the role may not use the form). */
export function contentRefusal(status: 403, message: string) {
  return data({ ok: false, status, message, errors: {}, values: {} } satisfies ContentAnswer, { status });
}
