import { z } from 'zod';
import { checkForm, type FieldErrors, type FieldName } from '../lib/forms.ts';
import { BodyTooLargeError, declaredLength, discardBody, readBodyWithinLimit } from './request-info.server.ts';

// One way to read a form (docs/decisions/013-one-way-to-handle-a-form.md): every route action that
// reads a posted form calls parseForm, whether the browser posted it itself (no JavaScript) or
// React Router did (a <Form>, a fetcher). The body is kept only up to its cap, parsed as URL-encoded
// or multipart form data and checked by the form's Zod schema.

export const FORM_TEXTS = {
  tooLarge: 'The form is too large to send.',
  lengthRequired: 'Please send the form with a known length.',
  unreadable: 'The form could not be read. Please try again.',
  unsupportedType: 'Please send the form as form data (application/x-www-form-urlencoded or multipart/form-data).',
} as const;

const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

export interface ParseFormOptions {
  /** The most of the body that is kept; a larger one is refused with 413. */
  maxBytes: number;
  /** What a 413 says (the form's own words for "too large"). */
  tooLargeMessage?: string;
  /**
   * Refuse a body sent without a Content-Length with 411 (the dashboard's forms, which browsers
   * always send with one). The public forms say false: a body sent in pieces is counted instead.
   */
  requireLength?: boolean;
}

/** The posted text fields, as sent, to fill the form in again. */
export type RawValues = Record<string, string>;

/** The body itself was not accepted (too large, no length, not a form): nothing was checked. */
export interface FormRefused {
  ok: false;
  refused: true;
  status: 400 | 411 | 413 | 415;
  fieldErrors: Record<string, never>;
  formError: string;
  values: RawValues;
  files: Record<string, never>;
  /** What the answer must be sent with (`Connection: close` when part of the body was left unread). */
  headers: Record<string, string>;
}

/** The form was read; the schema found problems. */
export interface FormInvalid<S> {
  ok: false;
  refused: false;
  status: 400;
  fieldErrors: FieldErrors<FieldName<S>>;
  formError?: string;
  values: RawValues;
  /** Files posted with the form (non-empty ones), for a form that keeps a chosen picture on a retry. */
  files: Record<string, File>;
  headers: Record<string, string>;
}

export type ParsedForm<S extends z.ZodType> = { ok: true; values: z.output<S> } | FormInvalid<S> | FormRefused;

/**
 * Reads the request's form and checks it with `schema`.
 *
 * - The body is streamed and kept only up to `maxBytes`; past that it is read on and dropped (up to
 *   DRAIN_LIMIT_BYTES, so the connection can carry the answer) and refused with 413. A declared
 *   length too large even to drop is refused before anything is read (request-info.server.ts).
 * - A body without a Content-Length is refused with 411 unless `requireLength` is false.
 * - A body that is neither URL-encoded nor multipart is refused with 415; one that does not parse
 *   as what it claims to be, with 400.
 * - A field the schema names but the post left out reads as '' (as an empty field would), so it
 *   gets the schema's own "required" message; fields the schema accepts missing stay missing.
 *   A name posted more than once reads as the list of its values.
 * - Zod issues become one message per field (app/lib/forms.ts), and `values` holds the posted text
 *   fields to fill the form in again.
 */
export async function parseForm<S extends z.ZodType>(
  request: Request,
  schema: S,
  options: ParseFormOptions,
): Promise<ParsedForm<S>> {
  const { maxBytes, tooLargeMessage = FORM_TEXTS.tooLarge, requireLength = true } = options;
  if (requireLength && declaredLength(request) === undefined)
    return refuse(411, FORM_TEXTS.lengthRequired, await discardBody(request));
  const contentType = request.headers.get('content-type') ?? '';
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  if (!FORM_TYPES.has(mediaType)) return refuse(415, FORM_TEXTS.unsupportedType, await discardBody(request));

  let body: Buffer<ArrayBuffer>;
  try {
    body = await readBodyWithinLimit(request, maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return refuse(413, tooLargeMessage, error.headers);
    return refuse(400, FORM_TEXTS.unreadable, {});
  }
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    return refuse(400, FORM_TEXTS.unreadable, {});
  }

  const input: Record<string, unknown> = {};
  const values: RawValues = {};
  const files: Record<string, File> = {};
  for (const name of new Set(form.keys())) {
    const all = form.getAll(name);
    input[name] = all.length === 1 ? all[0] : all;
    const first = all[0];
    if (typeof first === 'string') values[name] = first;
    else if (first && first.size > 0) files[name] = first;
  }
  if (schema instanceof z.ZodObject) {
    for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      if (!(name in input) && !field.safeParse(undefined).success) input[name] = '';
    }
  }

  const checked = await checkForm(schema, input);
  if (checked.ok) return checked;
  const { fieldErrors, formError } = checked;
  return {
    ok: false,
    refused: false,
    status: 400,
    fieldErrors,
    ...(formError === undefined ? {} : { formError }),
    values,
    files,
    headers: {},
  };
}

/** The JSON answer to a refused body, for the endpoints that answer in JSON ({ error }). */
export function formRefusal(refused: FormRefused): Response {
  return Response.json({ error: refused.formError }, { status: refused.status, headers: refused.headers });
}

/** A field that may carry a file (a file input); empty or absent reads as undefined. */
export const optionalFile = z
  .union([z.instanceof(File), z.string()])
  .optional()
  .transform((value) => (value instanceof File && value.size > 0 ? value : undefined));

function refuse(status: FormRefused['status'], formError: string, headers: Record<string, string>): FormRefused {
  return { ok: false, refused: true, status, fieldErrors: {}, formError, values: {}, files: {}, headers };
}
