import { data, redirect } from 'react-router';
import type { z } from 'zod';
import { checkFormSync } from '../../lib/forms.ts';
import { isVersionLanguage, VERSION_NAMES, type VersionIntent, type versionMessages } from '../../lib/versions.ts';
import { RuleError } from '../platform/rule-error.server.ts';
import { flashCookie } from './flash.server.ts';
import { formRefusal, parseForm } from './forms.server.ts';

// Decisions 033 and 051: the action of a version's form (a service's, an event's): the post read
// within its byte cap, the words checked as the English item's are unless it unpublishes, the save
// (whose refusals come back as the form's message, on a field when they name one), and the way back
// with what was done said in a toast.

/** A version form's answer when it is not saved: the message, the fields' errors and what was typed. */
export interface VersionFailure<Field extends string> {
  ok: false;
  message: string;
  errors: Partial<Record<Field, string>>;
  values: Record<Field, string>;
}

export async function versionFormAction<Field extends string, Input>(options: {
  request: Request;
  language: string;
  /** The post: the fields as strings, `intent` and the `version` the form was opened at. */
  postSchema: z.ZodType<Record<NoInfer<Field>, string> & { intent: VersionIntent; version?: string | undefined }>;
  /** The words, checked as the English item's. */
  wordsSchema: z.ZodType<Input>;
  empty: Record<Field, string>;
  maxBytes: number;
  fixErrors: string;
  messages: ReturnType<typeof versionMessages>;
  save: (intent: VersionIntent, input: Input | undefined, expectedVersion: number | undefined) => Promise<unknown>;
  /** Where to go once saved. */
  savedTo: string;
}) {
  const { messages, empty, fixErrors } = options;
  const form = await parseForm(options.request, options.postSchema, { maxBytes: options.maxBytes });
  if (!form.ok && form.refused) return formRefusal(form);
  if (!form.ok) {
    const values = { ...empty, ...form.values } as Record<Field, string>;
    return data({ ok: false, message: fixErrors, errors: {}, values } satisfies VersionFailure<Field>, { status: 400 });
  }
  const { intent, version, ...posted } = form.values;
  const values = posted as unknown as Record<Field, string>;
  const failure = (status: number, message: string, errors: VersionFailure<Field>['errors'] = {}) =>
    data({ ok: false, message, errors, values } satisfies VersionFailure<Field>, { status });
  let input: Input | undefined;
  if (intent !== 'unpublish') {
    const checked = checkFormSync(options.wordsSchema, values);
    if (!checked.ok) return failure(400, fixErrors, checked.fieldErrors as VersionFailure<Field>['errors']);
    input = checked.values as Input;
  }
  try {
    await options.save(intent, input, /^\d{1,9}$/.test(version ?? '') ? Number(version) : undefined);
  } catch (error) {
    if (!(error instanceof RuleError)) throw error;
    return error.field
      ? failure(error.status, fixErrors, { [error.field]: error.message } as VersionFailure<Field>['errors'])
      : failure(error.status, error.message);
  }
  const name = isVersionLanguage(options.language) ? VERSION_NAMES[options.language] : '';
  const message =
    intent === 'publish' ? messages.published(name) : intent === 'unpublish' ? messages.unpublished(name) : messages.saved(name);
  return redirect(options.savedTo, {
    status: 303,
    headers: { 'Set-Cookie': flashCookie({ type: 'success', message, toast: true }) },
  });
}
