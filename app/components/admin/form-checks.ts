import type { z } from 'zod';
import { checkFormSync } from '~/lib/forms';
import { captionsMissing } from '~/lib/webvtt';

// What the content form and the service form check in the browser before they post, and where focus
// goes after a refusal: the same rules the server applies (lib/forms.ts, lib/webvtt.ts), written once
// for both forms.

/** The fields beside a form's own: its sign-language video, then the schedule, in the order shown. */
const VIDEO_FOCUS: Record<string, string> = {
  video: 'videoFile',
  captions: 'captionsFile',
  transcript: 'transcript',
  scheduleAt: 'scheduleDate',
};

/**
 * Puts the cursor on the first field in error: the form's own fields in `order` (their controls'
 * ids in `focusIds`), then the video, its captions and transcript, then the schedule.
 */
export function focusFirstError<F extends string>(
  errors: Partial<Record<string, string | undefined>>,
  order: readonly F[],
  focusIds: Record<F, string>,
): void {
  const first = order.find((field) => errors[field]);
  const id = first ? focusIds[first] : Object.keys(VIDEO_FOCUS).find((name) => errors[name]);
  if (id) document.getElementById(first ? id : VIDEO_FOCUS[id]!)?.focus();
}

/**
 * The posted form's text values and the problems the browser can see: the schema's field errors
 * and, when the save makes the item public with a video, captions that are neither stored nor chosen.
 */
export function checkPostedForm(
  form: FormData,
  schema: z.ZodType,
  captions: { goesPublic: boolean; message: string },
): { values: Record<string, string>; found: Record<string, string | undefined> } {
  const values = Object.fromEntries(
    [...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  const checked = checkFormSync(schema, values);
  const found: Record<string, string | undefined> = checked.ok ? {} : { ...checked.fieldErrors };
  const file = form.get('captionsFile');
  if (
    captionsMissing({
      videoId: values.videoId ?? '',
      goesPublic: captions.goesPublic,
      hasCaptions: !!values.videoHasCaptions || (file instanceof File && file.size > 0),
    })
  )
    found.captions = captions.message;
  return { values, found };
}
