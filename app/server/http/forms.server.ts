import { z } from 'zod';
import { checkForm, type FieldErrors, type FieldName } from '../../lib/forms.ts';
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
  tooManyFields: 'The form sent more fields than it has. Please reload the page and try again.',
  controlCharacter:
    'The form contains an invisible control character that cannot be saved. Please retype the text (or paste it as plain text) and try again.',
} as const;

/**
 * Fields a form may send beyond the names its schema knows: a button's name, a hidden field the page
 * keeps for itself, a name sent twice. A form that posts a list says how many fields it may send.
 */
export const EXTRA_FIELDS = 16;
/** The most fields a form whose schema names no fields (not an object) may send. */
export const DEFAULT_MAX_FIELDS = 64;

/** A C0 control character other than tab, line feed and carriage return (NUL among them). */
const CONTROL_CHARACTER = /[^\P{Cc}\t\n\r\x7F-\x9F]/u;

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
  /**
   * The most fields the form may send (every entry counts, a name sent twice twice). By default the
   * names the schema knows and EXTRA_FIELDS more; a form that posts a list gives its own bound.
   */
  maxFields?: number;
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
 * - A body with more fields than the form can have (`maxFields`) is refused with 400 before it is
 *   parsed (its separators are counted in the raw bytes) or grouped; so is a field whose name or
 *   text holds a control character other than tab, line feed and carriage return (NUL among them).
 *   The fields are grouped in one pass; a name an object schema does not know is dropped (it still
 *   counts towards the bound), unless the schema keeps unknown keys.
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
  const fields = fieldsOf(schema);
  const maxFields = options.maxFields ?? (fields ? fields.names.size + EXTRA_FIELDS : DEFAULT_MAX_FIELDS);
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
  // Counted in the raw bytes first, so a body of thousands of fields is never parsed at all.
  const sent =
    mediaType === 'multipart/form-data'
      ? multipartPartCount(body, contentType, maxFields)
      : urlencodedFieldCount(body, maxFields);
  if (sent > maxFields) return refuse(400, FORM_TEXTS.tooManyFields, {});
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    return refuse(400, FORM_TEXTS.unreadable, {});
  }

  // One pass over the entries: counted, checked and grouped by name (a name sent twice is a list).
  const grouped = new Map<string, FormDataEntryValue[]>();
  let count = 0;
  for (const [name, value] of form) {
    if (++count > maxFields) return refuse(400, FORM_TEXTS.tooManyFields, {});
    if (CONTROL_CHARACTER.test(name) || (typeof value === 'string' && CONTROL_CHARACTER.test(value)))
      return refuse(400, FORM_TEXTS.controlCharacter, {});
    if (fields?.dropUnknown && !fields.names.has(name)) continue;
    const all = grouped.get(name);
    if (all) all.push(value);
    else grouped.set(name, [value]);
  }
  const inputs: [string, unknown][] = [];
  const texts: [string, string][] = [];
  const chosen: [string, File][] = [];
  for (const [name, all] of grouped) {
    const first = all[0]!;
    inputs.push([name, all.length === 1 ? first : all]);
    if (typeof first === 'string') texts.push([name, first]);
    else if (first.size > 0) chosen.push([name, first]);
  }
  // Each name becomes an own field (Object.fromEntries defines them): one named __proto__ is a field like any other.
  const input: Record<string, unknown> = Object.fromEntries(inputs);
  const values: RawValues = Object.fromEntries(texts);
  const files: Record<string, File> = Object.fromEntries(chosen);
  if (schema instanceof z.ZodObject) {
    for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      if (!Object.hasOwn(input, name) && !field.safeParse(undefined).success) input[name] = '';
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

/** The field names a schema knows, and whether a name it does not know is dropped rather than kept. */
interface KnownFields {
  names: Set<string>;
  dropUnknown: boolean;
}

/**
 * The names an object schema (or a union of them, or either piped on) knows; undefined for any other
 * schema. An object that keeps or refuses unknown keys (loose, strict, catchall) gets them all.
 */
function fieldsOf(schema: z.ZodType): KnownFields | undefined {
  if (schema instanceof z.ZodObject) {
    const catchall = (schema as z.ZodObject)._zod.def.catchall;
    return { names: new Set(Object.keys(schema.shape as object)), dropUnknown: catchall === undefined };
  }
  if (schema instanceof z.ZodPipe) return fieldsOf(schema.in as z.ZodType);
  if (schema instanceof z.ZodUnion) {
    const names = new Set<string>();
    let dropUnknown = true;
    for (const option of schema.options as readonly z.ZodType[]) {
      const known = fieldsOf(option);
      if (!known) return undefined;
      for (const name of known.names) names.add(name);
      dropUnknown &&= known.dropUnknown;
    }
    return { names, dropUnknown };
  }
  return undefined;
}

/** The fields of a URL-encoded body (its non-empty `&`-separated pieces), counted up to one past `stopAbove`. */
function urlencodedFieldCount(body: Buffer, stopAbove: number): number {
  let count = 0;
  for (let start = 0; start <= body.length && count <= stopAbove;) {
    let end = body.indexOf(0x26, start);
    if (end === -1) end = body.length;
    if (end > start) count++;
    start = end + 1;
  }
  return count;
}

/**
 * The parts of a multipart body at most (its boundary lines less the closing one), counted up to one
 * past `stopAbove`; 0 without a boundary (the parse then refuses the body).
 */
function multipartPartCount(body: Buffer, contentType: string, stopAbove: number): number {
  const parameter = contentType
    .split(';')
    .map((piece) => piece.trim())
    .find((piece) => piece.toLowerCase().startsWith('boundary='));
  let boundary = parameter?.slice('boundary='.length) ?? '';
  if (boundary.length >= 2 && boundary.startsWith('"') && boundary.endsWith('"')) boundary = boundary.slice(1, -1);
  if (!boundary) return 0;
  const delimiter = Buffer.from(`--${boundary}`);
  let lines = 0;
  for (let at = body.indexOf(delimiter); at !== -1 && lines <= stopAbove + 1; at = body.indexOf(delimiter, at + delimiter.length))
    lines++;
  return Math.max(0, lines - 1);
}

function refuse(status: FormRefused['status'], formError: string, headers: Record<string, string>): FormRefused {
  return { ok: false, refused: true, status, fieldErrors: {}, formError, values: {}, files: {}, headers };
}
