import { z } from 'zod';
import { formRefusal, parseForm } from '~/server/http/forms.server';
import { getStaff } from '~/server/http/staff-context.server';
import { autosaveTarget } from '~/server/content/revision-access.server';
import { discardAutosave, getAutosave, saveAutosave } from '~/server/content/revisions.server';
import { readEditorialTimeZone } from '~/server/content/scheduled-publishing.server';
import { RuleError } from '~/server/platform/rule-error.server';
import { CONTENT_MAX_BYTES, CONTENT_MESSAGES, isContentTooLong, TAGS_INPUT_MAX } from '~/lib/content-form';
import { EASY_READ_MAX_CHARS } from '~/lib/easy-read';
import type { Route } from './+types/content-autosave';

// Issue 13, autosave: the content form's server slot (docs/decisions/016-revisions-and-autosave.md).
// GET ?slot= answers what this staff member's slot holds and the organisation's time zone; POST keeps
// the form as typed (intent=save) or forgets it (intent=discard). Unsaved input is kept as typed, not
// checked against the form's rules: it is checked when it is saved.

const SLOT = z.string().trim().min(1).max(130);
/** Far above any field but the body; each field is cut here rather than refused (it is only a safety copy). */
const FIELD_MAX = TAGS_INPUT_MAX;
const field = z
  .string()
  .catch('')
  .transform((v) => v.slice(0, FIELD_MAX));

const autosaveSchema = z.object({
  intent: z.enum(['save', 'discard']),
  slot: SLOT,
  title: field,
  category: field,
  tags: field,
  summary: field,
  imageUrl: field,
  imageAlt: field,
  content: z.string().catch(''),
  // Issue 26: the easy-read text, cut far above its word cap.
  easyRead: z
    .string()
    .catch('')
    .transform((v) => v.slice(0, EASY_READ_MAX_CHARS)),
});

async function answerRule<T>(run: () => Promise<T>): Promise<T | Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof RuleError) return Response.json({ error: error.message }, { status: error.status });
    throw error;
  }
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = getStaff(context);
  const slot = SLOT.safeParse(new URL(request.url).searchParams.get('slot') ?? '');
  if (!slot.success) return Response.json({ error: CONTENT_MESSAGES.notFound }, { status: 404 });
  return answerRule(async () => {
    await autosaveTarget(staff, slot.data);
    const [saved, timeZone] = await Promise.all([getAutosave(staff.email, slot.data), readEditorialTimeZone()]);
    return Response.json({ staff: staff.email, timeZone, saved: saved ?? null }, { headers: { 'Cache-Control': 'no-store' } });
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = getStaff(context);
  const form = await parseForm(request, autosaveSchema, {
    maxBytes: CONTENT_MAX_BYTES + 64_000,
    tooLargeMessage: CONTENT_MESSAGES.contentTooLong,
  });
  if (!form.ok) {
    if (form.refused) return formRefusal(form);
    return Response.json({ error: 'Please send the form with an intent and a slot.' }, { status: 400 });
  }
  const { intent, slot, ...values } = form.values;
  if (isContentTooLong(values.content)) return Response.json({ error: CONTENT_MESSAGES.contentTooLong }, { status: 413 });
  return answerRule(async () => {
    const target = await autosaveTarget(staff, slot);
    if (intent === 'discard') {
      await discardAutosave(staff.email, slot);
      return Response.json({ discarded: true });
    }
    const savedAt = await saveAutosave(staff.email, target, values);
    return Response.json({ savedAt });
  });
}
