import { z } from 'zod';

// The one place where a schema's verdict on a form becomes what the form shows: one message per
// field, the first Zod found, and a message for the form as a whole when an issue names no field.
// The browser uses it for instant feedback; the server reaches it through parseForm
// (app/server/http/forms.server.ts), so both sides word every problem the same.

/** The names of a form schema's fields (any string for a schema that is not an object). */
export type FieldName<S> = S extends { shape: infer Shape } ? Extract<keyof Shape, string> : string;

/** One message per field. */
export type FieldErrors<K extends string = string> = Partial<Record<K, string>>;

export type CheckedForm<S extends z.ZodType> =
  { ok: true; values: z.output<S> } | { ok: false; fieldErrors: FieldErrors<FieldName<S>>; formError?: string };

/** Checks `input` against `schema`; a failure is one message per field (and one for the form). */
export async function checkForm<S extends z.ZodType>(schema: S, input: unknown): Promise<CheckedForm<S>> {
  return toChecked<S>(await schema.safeParseAsync(input));
}

/** checkForm for schemas without asynchronous rules (the browser's instant feedback). */
export function checkFormSync<S extends z.ZodType>(schema: S, input: unknown): CheckedForm<S> {
  return toChecked<S>(schema.safeParse(input));
}

function toChecked<S extends z.ZodType>(result: z.ZodSafeParseResult<z.output<S>>): CheckedForm<S> {
  if (result.success) return { ok: true, values: result.data };
  const fieldErrors: Record<string, string> = {};
  let formError: string | undefined;
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (field === undefined) formError ??= issue.message;
    else fieldErrors[String(field)] ??= issue.message;
  }
  return { ok: false, fieldErrors: fieldErrors as FieldErrors<FieldName<S>>, ...(formError === undefined ? {} : { formError }) };
}

/** The message to show when a form can show only one: the form's own, else the first field's. */
export function firstError(failure: { fieldErrors: FieldErrors; formError?: string | undefined }): string | undefined {
  return failure.formError ?? Object.values(failure.fieldErrors).find((message) => message !== undefined);
}

/** A field that may carry a file (a file input); empty or absent reads as undefined. */
export const optionalFile = z
  .union([z.instanceof(File), z.string()])
  .optional()
  .transform((value) => (value instanceof File && value.size > 0 ? value : undefined));
