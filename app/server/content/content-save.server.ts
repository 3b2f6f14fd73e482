import { z } from 'zod';
import { optionalFile } from '../../lib/forms.ts';
import { storeUploadedImage, UploadRefusedError } from '../media/uploads.server.ts';
import {
  ContentConflictError,
  ContentRuleError,
  createContent,
  getContentForAdmin,
  mayEditContent,
  saveContent,
  type AdminContentItem,
  type SaveRequest,
} from './content-admin.server.ts';
import { isStoredImage } from '../media/media.server.ts';
import { prepareVideoForSave, VIDEO_FORM_FIELDS, VideoRuleError, type PreparedVideo } from '../media/video.server.ts';
import { compareVersions } from './word-diff.server.ts';
import { CAPTIONS_MAX_BYTES } from '../../lib/webvtt.ts';
import { TRANSCRIPT_MAX } from '../../lib/video-upload.ts';
import { reportFailure } from '../platform/failure.server.ts';
import { EASY_READ_MAX_CHARS } from '../../lib/easy-read.ts';
import { readEditorialTimeZone } from './scheduled-publishing.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import { checkFormSync } from '../../lib/forms.ts';
import { formatInTimeZone, zonedToUtc } from '../../lib/schedule.ts';
import { CONTENT_IMAGE_MAX_BYTES, CONTENT_UPLOAD_MESSAGES } from '../../lib/uploads.ts';
import {
  CONTENT_FIELDS,
  CONTENT_MAX_BYTES,
  CONTENT_MESSAGES,
  conflictMessage,
  failedMessage,
  intentOf,
  publishedMessage,
  savedMessage,
  schemaFor,
  summaryLabelOf,
  type ContentConflict,
  type ContentErrors,
  type ContentField,
  type ContentType,
  type SaveIntent,
} from '../../lib/content-form.ts';

export type SaveResult =
  | { ok: true; status: 200; message: string; item: AdminContentItem; intent: SaveIntent; mode: 'create' | 'edit' }
  | {
      ok: false;
      status: 400 | 403 | 404 | 409 | 411 | 413 | 415 | 429 | 500;
      message: string;
      errors: ContentErrors;
      values: Record<string, string>;
      headers: Record<string, string>;
      conflict?: ContentConflict;
    };

type SaveFailure = Extract<SaveResult, { ok: false }>;

/**
 * The content form as posted: the fields beside the content (the button pressed, the version the
 * form was opened at, the schedule, a picture attached without JavaScript). The content's own fields
 * pass through as sent and are checked next, by the rules of the button pressed: a draft's or the
 * spec's. Any other name is dropped.
 */
export const CONTENT_POST_SCHEMA = z.object({
  ...(Object.fromEntries(CONTENT_FIELDS.map((field) => [field, z.unknown().optional()])) as Record<
    ContentField,
    z.ZodOptional<z.ZodUnknown>
  >),
  imageFile: optionalFile,
  intent: z.string().max(20).optional(),
  version: z.string().max(20).optional(),
  scheduleDate: z.string().max(20).optional(),
  scheduleTime: z.string().max(20).optional(),
  // Issue 14: the sign-language video, its captions and transcript.
  ...VIDEO_FORM_FIELDS,
});

/** The most a content form post may be: the longest body, the largest picture and room for the rest. */
export const CONTENT_FORM_MAX_BYTES =
  CONTENT_MAX_BYTES + CONTENT_IMAGE_MAX_BYTES + CAPTIONS_MAX_BYTES + TRANSCRIPT_MAX * 3 + 64_000;

/** The schedule a post asks for, as UTC, or the message for its date and time fields. */
function scheduleOf(date: string, time: string, timeZone: string): { at: string } | { error: string } {
  if (!date.trim() || !time.trim()) return { error: CONTENT_MESSAGES.scheduleRequired };
  const at = zonedToUtc(date.trim(), time.trim(), timeZone);
  if (!at) return { error: CONTENT_MESSAGES.scheduleInvalid };
  if (Date.parse(at) <= Date.now()) return { error: CONTENT_MESSAGES.schedulePast };
  return { at };
}

/** What the content form saves: a new item of a type, or a change to one. */
export type SaveTarget =
  | { mode: 'create'; type: ContentType }
  // `restoredFrom`: the revision the form was filled from (the edit page's ?restore=), saved as a restore.
  | { mode: 'edit'; type: ContentType; id: string; restoredFrom?: string };

/** The content form as read: its fields, or (when they are not valid) what was posted, to show again. */
export type ContentPost =
  { ok: true; values: z.output<typeof CONTENT_POST_SCHEMA> } | { ok: false; values: Record<string, string> };

/**
 * Checks and saves the content form (the content-new and content-edit actions, with or without
 * JavaScript) in one call: the fields by the rules of the button pressed, the schedule, the picture,
 * the video's captions and transcript, then one transaction that writes the item, its video and
 * captions, its revision and its audit entry. A picture attached to a plain post is stored first,
 * even when another field is wrong, so the form comes back showing it and the retry need not choose
 * it again.
 */
export async function saveContentPost(form: ContentPost, actor: StaffUser, target: SaveTarget, ip: string): Promise<SaveResult> {
  const posted: Record<string, string> = form.ok
    ? Object.fromEntries(Object.entries(form.values).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
    : form.values;
  const intent = intentOf(posted.intent);
  const values = shownValues(posted);
  const failure = (status: Exclude<SaveResult['status'], 200>, reason: string, errors: ContentErrors = {}) =>
    contentFailure(target, posted, status, reason, errors);
  if (!form.ok) return failure(400, CONTENT_MESSAGES.fixErrors, {});

  // The item as stored (undefined for a new one, or one that is gone: the save answers that).
  const current = target.mode === 'edit' ? await getContentForAdmin(target.id) : undefined;
  const checked = checkFormSync(schemaFor(target.type, intent, current?.category), values);
  const errors: ContentErrors = checked.ok ? {} : (checked.fieldErrors as ContentErrors);
  const timeZone = await readEditorialTimeZone();
  let scheduledAt: string | undefined;
  if (intent === 'schedule') {
    const schedule = scheduleOf(form.values.scheduleDate ?? '', form.values.scheduleTime ?? '', timeZone);
    if ('error' in schedule) errors.scheduleAt = schedule.error;
    else scheduledAt = schedule.at;
  }

  const file = form.values.imageFile;
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
      return failure(error.status === 500 ? 500 : 400, error.message, { ...errors, imageUrl: error.message });
    }
  }
  if (storedUrl) values.imageUrl = storedUrl;

  // Issue 14: a form that shows the video field always posts `videoId` ('' for none); one that does
  // not (an older page) leaves the item's video as it is.
  let videoId: string | null | undefined;
  let prepared: PreparedVideo | undefined;
  if (form.values.videoId !== undefined) {
    videoId = form.values.videoId.trim() || null;
    // Captions and transcript are checked here, for someone who may save the item (anyone else is
    // refused by the save itself), and written by the save, in its transaction: a save refused here
    // (400) or there (409, a rule) leaves the video's captions as they were.
    const maySave = target.mode === 'create' || (current !== undefined && mayEditContent(actor, current));
    if (videoId && maySave)
      try {
        prepared = await prepareVideoForSave({
          actor,
          videoId,
          contentId: target.mode === 'edit' ? target.id : undefined,
          captions: form.values.captionsFile,
          transcript: form.values.transcript,
        });
      } catch (error) {
        if (!(error instanceof VideoRuleError)) throw error;
        errors[(error.field ?? 'video') as 'video' | 'captions' | 'transcript'] = error.message;
      }
  }
  if (!checked.ok || errors.scheduleAt || errors.video || errors.captions || errors.transcript)
    return failure(400, CONTENT_MESSAGES.fixErrors, errors);

  const input = checked.values;
  if (storedUrl) input.imageUrl = storedUrl;
  else if (input.imageUrl && !(await isStoredImage(input.imageUrl))) {
    // Kept as it is when the item already shows it; a newly chosen one must still be on file.
    if (current?.imageUrl !== input.imageUrl)
      return failure(400, CONTENT_MESSAGES.fixErrors, { imageUrl: CONTENT_MESSAGES.imageInvalid });
  }
  const saveRequest: SaveRequest =
    intent === 'schedule' ? { intent, scheduledAt: scheduledAt! } : intent === 'draft' ? { intent } : { intent };
  // The version the edit form was opened at; a post without one (an older page) is not checked.
  const version = /^\d{1,9}$/.test(form.values.version ?? '') ? Number(form.values.version) : undefined;
  try {
    const item =
      target.mode === 'create'
        ? await createContent(actor, target.type, input, ip, saveRequest, { videoId, prepared })
        : await saveContent(actor, target.id, input, ip, saveRequest, version, target.restoredFrom, { videoId, prepared });
    // spec §8: 'updated' for a change to a published item; 'published' when it goes public now.
    const wasUpdate = item.action === 'content.updated' || item.action === 'content.restored';
    const message =
      intent === 'publish'
        ? publishedMessage(target.type, wasUpdate ? 'edit' : 'create')
        : savedMessage(target.type, intent, item.scheduledAt ? formatInTimeZone(item.scheduledAt, timeZone) : undefined);
    return { ok: true, status: 200, message, item, intent, mode: target.mode };
  } catch (error) {
    if (error instanceof ContentConflictError) {
      const { current } = error;
      const at = formatInTimeZone(current.updatedAt, timeZone);
      return {
        ...failure(409, conflictMessage(error.by, at)),
        message: conflictMessage(error.by, at),
        conflict: {
          by: error.by,
          at,
          version: current.version,
          intent,
          theirs: { title: current.title, summary: current.summary ?? '', content: current.content, status: current.status },
          changes: compareVersions(current, input, summaryLabelOf(target.type)),
        },
      };
    }
    if (error instanceof ContentRuleError) {
      if (error.field === 'scheduleAt') return failure(400, CONTENT_MESSAGES.fixErrors, { scheduleAt: error.message });
      if (error.field === 'captions') return failure(400, CONTENT_MESSAGES.fixErrors, { captions: error.message });
      return failure(error.status, error.message);
    }
    // Another item took the video while this one was saved (claimVideo).
    if (error instanceof VideoRuleError) return failure(400, CONTENT_MESSAGES.fixErrors, { video: error.message });
    return failure(500, `${CONTENT_MESSAGES.generic} ${reportFailure(error, 'saving content failed')}`);
  }
}

/** The most of a short field (title, tags, summary, picture, alt text) a refused form shows back: its limits are all under 2,000. */
const SHORT_FIELD_ECHO = 4_000;
/**
 * Issue 26: the most of an easy read a refused form shows back, twice its cap (400 words and
 * EASY_READ_MAX_CHARS): one over the cap comes back to be shortened, not as a pasted document.
 */
const EASY_READ_ECHO = EASY_READ_MAX_CHARS * 2;

/** What the form shows again after a failure: the posted content fields and the fields beside them. */
function shownValues(posted: Record<string, string>): Record<string, string> {
  const values: Record<string, string> = {};
  // The short fields come back to be shortened, not as a pasted document: a megabyte in each is not
  // rendered (and escaped) into the answer twice. The body keeps what was posted.
  for (const field of CONTENT_FIELDS) {
    const cut = field === 'content' ? Infinity : field === 'easyRead' ? EASY_READ_ECHO : SHORT_FIELD_ECHO;
    values[field] = (posted[field] ?? '').slice(0, cut);
  }
  for (const extra of ['scheduleDate', 'scheduleTime', 'videoId', 'transcript'] as const)
    if (posted[extra]) values[extra] = posted[extra];
  return values;
}

/**
 * The answer to a save that failed: the message for the whole form (the spec's words for a refusal,
 * "please fix" for field errors), the field errors, and what was posted, to show again.
 */
export function contentFailure(
  target: SaveTarget,
  posted: Record<string, string>,
  status: Exclude<SaveResult['status'], 200>,
  reason: string,
  errors: ContentErrors = {},
  headers: Record<string, string> = {},
): SaveFailure {
  return {
    ok: false,
    status,
    message:
      status === 400 ? CONTENT_MESSAGES.fixErrors : failedMessage(target.type, target.mode, reason, intentOf(posted.intent)),
    errors,
    values: shownValues(posted),
    headers,
  };
}
