import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { streamedFormPost } from '../../../tests/support/requests';
import { optionalFile } from '../../lib/forms';
import { EXTRA_FIELDS, FORM_TEXTS, formRefusal, parseForm, type ParsedForm } from './forms.server';
import { CLOSE_CONNECTION, DRAIN_LIMIT_BYTES } from './request-info.server';

// parseForm: what it accepts, how Zod's verdict reaches the form, and each refusal with what it
// says and whether the connection can carry the next request.

const schema = z.object({
  email: z.string().trim().min(1, 'Email is required').pipe(z.email('Please enter a valid email address')),
  password: z.string().min(6, 'Password must be at least 6 characters'),
  note: z.string().max(10, 'Note too long').optional(),
});

function post(body: BodyInit | ReadableStream<Uint8Array>, headers: Record<string, string>) {
  return new Request('http://localhost/admin', { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
}

const URLENCODED = 'application/x-www-form-urlencoded';

/** A URL-encoded post with its Content-Length (or a given one). */
function urlencoded(fields: Record<string, string>, length?: number) {
  const body = new URLSearchParams(fields).toString();
  return post(body, { 'content-type': URLENCODED, 'content-length': String(length ?? Buffer.byteLength(body)) });
}

/** A multipart post, encoded as a browser would, with its Content-Length. */
async function multipart(form: FormData) {
  const encoded = new Response(form);
  const bytes = Buffer.from(await encoded.arrayBuffer());
  return post(bytes, { 'content-type': encoded.headers.get('content-type')!, 'content-length': String(bytes.length) });
}

/** A body sent in pieces without a Content-Length; counts what was pulled and whether it was cancelled. */
const streamed = (totalBytes: number) => streamedFormPost('http://localhost/admin', 'note', totalBytes);

function refused<S extends z.ZodType>(result: ParsedForm<S>) {
  if (result.ok || !result.refused) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return result;
}

describe('parseForm reads', () => {
  it('a URL-encoded form, typed by its schema', async () => {
    const result = await parseForm(urlencoded({ email: ' A@Example.org ', password: 'secret-words' }), schema, {
      maxBytes: 1024,
    });
    expect(result).toEqual({ ok: true, values: { email: 'A@Example.org', password: 'secret-words' } });
  });

  it('a multipart form with a file, which a schema can take', async () => {
    const form = new FormData();
    form.append('email', 'a@example.org');
    form.append('password', 'secret-words');
    form.append('picture', new File([new Uint8Array([1, 2, 3])], 'p.png', { type: 'image/png' }));
    const withFile = schema.extend({ picture: optionalFile });
    const result = await parseForm(await multipart(form), withFile, { maxBytes: 4096 });
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect(result.values.email).toBe('a@example.org');
    expect(result.values.picture).toBeInstanceOf(File);
    expect(result.values.picture!.size).toBe(3);
  });

  it('an empty file input as no file, and a name sent twice as a list', async () => {
    const form = new FormData();
    form.append('picture', new File([], ''));
    form.append('tag', 'a');
    form.append('tag', 'b');
    const result = await parseForm(await multipart(form), z.object({ picture: optionalFile, tag: z.array(z.string()) }), {
      maxBytes: 4096,
    });
    expect(result).toEqual({ ok: true, values: { picture: undefined, tag: ['a', 'b'] } });
  });
});

describe('parseForm turns Zod issues into one message per field', () => {
  it('gives each field its first message, keeps the typed values and the files', async () => {
    const form = new FormData();
    form.append('email', 'not-an-email');
    form.append('password', 'abc');
    form.append('note', 'far too long a note');
    form.append('picture', new File([new Uint8Array([1])], 'p.png', { type: 'image/png' }));
    const result = await parseForm(await multipart(form), schema.extend({ picture: optionalFile }), { maxBytes: 4096 });
    expect(result).toMatchObject({
      ok: false,
      refused: false,
      status: 400,
      fieldErrors: {
        email: 'Please enter a valid email address',
        password: 'Password must be at least 6 characters',
        note: 'Note too long',
      },
      values: { email: 'not-an-email', password: 'abc', note: 'far too long a note' },
    });
    if (result.ok) throw new Error('expected a failure');
    expect(result.formError).toBeUndefined();
    expect(Object.keys(result.files)).toEqual(['picture']);
  });

  it('reads a required field left out as empty, so it gets its own message; an optional one stays missing', async () => {
    const result = await parseForm(urlencoded({ password: 'secret-words' }), schema, { maxBytes: 1024 });
    expect(result).toMatchObject({
      ok: false,
      fieldErrors: { email: 'Email is required' },
      values: { password: 'secret-words' },
    });
    if (result.ok) throw new Error('expected a failure');
    expect(Object.keys(result.fieldErrors)).toEqual(['email']);
  });

  it('puts an issue that names no field in formError', async () => {
    const matching = z
      .object({ password: z.string(), confirm: z.string() })
      .refine((v) => v.password === v.confirm, { message: 'The two passwords do not match.' });
    const result = await parseForm(urlencoded({ password: 'one-thing', confirm: 'another' }), matching, { maxBytes: 1024 });
    expect(result).toMatchObject({ ok: false, refused: false, fieldErrors: {}, formError: 'The two passwords do not match.' });
  });
});

describe('parseForm refuses', () => {
  it('a body over the cap with 413 and the form’s message, reading it to its end so the connection stays usable', async () => {
    const request = urlencoded({ note: 'x'.repeat(10_000) });
    const result = refused(await parseForm(request, schema, { maxBytes: 1024, tooLargeMessage: 'Too big.' }));
    expect(result).toMatchObject({ status: 413, formError: 'Too big.', headers: {}, values: {} });
    expect(request.bodyUsed).toBe(true);
    const response = formRefusal(result);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'Too big.' });
    expect(response.headers.get('connection')).toBeNull();
  });

  it('a declared length beyond the drain limit at once, reading nothing and closing the connection', async () => {
    const request = urlencoded({ note: 'x' }, DRAIN_LIMIT_BYTES + 1);
    const result = refused(await parseForm(request, schema, { maxBytes: 1024 }));
    expect(result).toMatchObject({ status: 413, formError: FORM_TEXTS.tooLarge, headers: CLOSE_CONNECTION });
    expect(request.bodyUsed).toBe(false);
    expect(formRefusal(result).headers.get('connection')).toBe('close');
  });

  it('a streamed body past the drain limit without reading all of it, and without cancelling it', async () => {
    const body = streamed(DRAIN_LIMIT_BYTES + 1024 * 1024);
    const result = refused(await parseForm(body.request, schema, { maxBytes: 64 * 1024, requireLength: false }));
    expect(result).toMatchObject({ status: 413, headers: CLOSE_CONNECTION });
    expect(body.sent()).toBeLessThan(DRAIN_LIMIT_BYTES + 1024 * 1024);
    // Cancelling would reset the connection before the 413 is out.
    expect(body.cancelled()).toBe(false);
  });

  it('a body without a length with 411 (after reading and dropping it), unless told to count it', async () => {
    const request = post('email=a%40example.org&password=secret-words', { 'content-type': URLENCODED });
    const result = refused(await parseForm(request, schema, { maxBytes: 1024 }));
    expect(result).toMatchObject({ status: 411, formError: FORM_TEXTS.lengthRequired, headers: {} });
    expect(request.bodyUsed).toBe(true);

    const counted = await parseForm(post('email=a%40example.org&password=secret-words', { 'content-type': URLENCODED }), schema, {
      maxBytes: 1024,
      requireLength: false,
    });
    expect(counted.ok).toBe(true);
    const tooLong = refused(await parseForm(streamed(200 * 1024).request, schema, { maxBytes: 64 * 1024, requireLength: false }));
    expect(tooLong).toMatchObject({ status: 413, headers: {} });
  });

  it('a body that is not a form with 415 and a clear message, reading it first', async () => {
    for (const contentType of ['application/json', 'text/plain', '']) {
      const body = '{"email":"a@example.org"}';
      const headers: Record<string, string> = { 'content-length': String(body.length) };
      if (contentType) headers['content-type'] = contentType;
      const request = post(body, headers);
      const result = refused(await parseForm(request, schema, { maxBytes: 1024 }));
      expect(result, contentType).toMatchObject({ status: 415, formError: FORM_TEXTS.unsupportedType, headers: {} });
      expect(request.bodyUsed).toBe(true);
    }
  });

  it('a body that does not parse as the form it claims to be with 400', async () => {
    const body = 'not a multipart body';
    const request = post(body, { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(body.length) });
    const result = refused(await parseForm(request, schema, { maxBytes: 1024 }));
    expect(result).toMatchObject({ status: 400, formError: FORM_TEXTS.unreadable });
    expect(await formRefusal(result).json()).toEqual({ error: FORM_TEXTS.unreadable });
  });
});

/** `count` distinct empty fields, URL-encoded as `0=&1=&…` (names in base 36, as short as they come). */
const manyFields = (count: number) => Array.from({ length: count }, (_, i) => `${i.toString(36)}=`).join('&');

/** A URL-encoded post of a body as given, with its Content-Length. */
function rawUrlencoded(body: string) {
  return post(body, { 'content-type': URLENCODED, 'content-length': String(Buffer.byteLength(body)) });
}

/**
 * A bound far above what one pass over the fields needs (milliseconds), even on a machine busy
 * with other suites: grouping by a scan per name took seconds on 13,000 fields and grows with the
 * square of their number.
 */
const ONE_PASS_MS = 3_000;

describe('parseForm counts the fields before it groups them', () => {
  it('refuses 40,000 distinct fields with 400 and a plain message, URL-encoded or multipart, before parsing them', async () => {
    const request = rawUrlencoded(manyFields(40_000));
    let started = performance.now();
    const result = refused(await parseForm(request, schema, { maxBytes: 1024 * 1024 }));
    expect(performance.now() - started).toBeLessThan(ONE_PASS_MS);
    expect(result).toMatchObject({ status: 400, formError: FORM_TEXTS.tooManyFields, values: {} });
    expect(await formRefusal(result).json()).toEqual({ error: FORM_TEXTS.tooManyFields });

    const parts = Array.from({ length: 40_000 }, (_, i) => `--b\r\nContent-Disposition: form-data; name="${i}"\r\n\r\n\r\n`);
    const multipartBody = `${parts.join('')}--b--\r\n`;
    const multipartRequest = post(multipartBody, {
      'content-type': 'multipart/form-data; boundary=b',
      'content-length': String(Buffer.byteLength(multipartBody)),
    });
    started = performance.now();
    const multipartResult = refused(await parseForm(multipartRequest, schema, { maxBytes: 8 * 1024 * 1024 }));
    expect(multipartResult).toMatchObject({ status: 400, formError: FORM_TEXTS.tooManyFields });
    expect(performance.now() - started).toBeLessThan(ONE_PASS_MS);
  });

  it('takes the fields its schema knows and a few more (a name sent twice, a button), and drops the names it does not know', async () => {
    // 3 names known, EXTRA_FIELDS more: a post of 3 + EXTRA_FIELDS fields is read, one more is not.
    const fields = Array.from({ length: EXTRA_FIELDS }, (_, i) => `other${i}=x`);
    const body = `email=a%40example.org&password=secret-words&note=hi&${fields.join('&')}`;
    const result = await parseForm(rawUrlencoded(body), schema, { maxBytes: 4096 });
    expect(result).toEqual({ ok: true, values: { email: 'a@example.org', password: 'secret-words', note: 'hi' } });
    const tooMany = refused(await parseForm(rawUrlencoded(`${body}&one=more`), schema, { maxBytes: 4096 }));
    expect(tooMany).toMatchObject({ status: 400, formError: FORM_TEXTS.tooManyFields });

    // Unknown names never reach the values shown again either, and a name like __proto__ is only a name.
    const invalid = await parseForm(rawUrlencoded('email=nope&password=x&__proto__=y&intent=save'), schema, { maxBytes: 4096 });
    if (invalid.ok || invalid.refused) throw new Error(JSON.stringify(invalid));
    expect(invalid.values).toEqual({ email: 'nope', password: 'x' });
    expect(Object.getPrototypeOf(invalid.values)).toBe(Object.prototype);

    // A union of forms (the message page's reply and status forms) knows the names of each.
    const either = z.discriminatedUnion('intent', [
      z.object({ intent: z.literal('a'), one: z.string() }),
      z.object({ intent: z.literal('b'), two: z.string() }),
    ]);
    expect(await parseForm(rawUrlencoded('intent=b&two=2&three=3'), either, { maxBytes: 4096 })).toEqual({
      ok: true,
      values: { intent: 'b', two: '2' },
    });
  });

  it('reads 13,000 fields in one pass when the form says it may have that many', async () => {
    const listed = z.looseObject({});
    const request = rawUrlencoded(manyFields(13_000));
    const started = performance.now();
    const result = await parseForm(request, listed, { maxBytes: 1024 * 1024, maxFields: 13_000 });
    expect(performance.now() - started).toBeLessThan(ONE_PASS_MS);
    if (!result.ok) throw new Error(JSON.stringify(result).slice(0, 200));
    expect(Object.keys(result.values)).toHaveLength(13_000);
    expect(result.values).toMatchObject({ '0': '', a0: '' });
    // One more than it says is refused before it is parsed.
    const over = refused(
      await parseForm(rawUrlencoded(manyFields(13_001)), listed, { maxBytes: 1024 * 1024, maxFields: 13_000 }),
    );
    expect(over).toMatchObject({ status: 400, formError: FORM_TEXTS.tooManyFields });
  });
});

describe('parseForm refuses control characters', () => {
  it('in a value or a name, NUL among them, URL-encoded or multipart, with 400 and a plain message', async () => {
    const posts = [
      'email=a%40example.org&password=secret%00words',
      'email=a%40example.org&password=secret-words&note=%0B',
      'email=a%40example.org&password=secret-words&note=%1B%5B31m',
      'email=a%40example.org&password=secret-words&no%00te=x',
      // A name no schema knows is checked too: it is read before it is dropped.
      'email=a%40example.org&password=secret-words&other=%00',
    ];
    for (const body of posts) {
      const result = refused(await parseForm(rawUrlencoded(body), schema, { maxBytes: 4096 }));
      expect(result, body).toMatchObject({ status: 400, formError: FORM_TEXTS.controlCharacter, values: {} });
    }
    const form = new FormData();
    form.append('email', 'a@example.org');
    form.append('password', 'secret\u0000words');
    expect(refused(await parseForm(await multipart(form), schema, { maxBytes: 4096 }))).toMatchObject({
      status: 400,
      formError: FORM_TEXTS.controlCharacter,
    });
  });

  it('but keeps tabs and line breaks (a message typed in a text box, pasted columns)', async () => {
    const text = z.object({ message: z.string() });
    const body = new URLSearchParams({ message: 'Dear team,\r\nName:\tGrace\nThanks' }).toString();
    expect(await parseForm(rawUrlencoded(body), text, { maxBytes: 4096 })).toEqual({
      ok: true,
      values: { message: 'Dear team,\r\nName:\tGrace\nThanks' },
    });
    const form = new FormData();
    form.append('message', 'one\r\ntwo\tthree');
    expect(await parseForm(await multipart(form), text, { maxBytes: 4096 })).toEqual({
      ok: true,
      values: { message: 'one\r\ntwo\tthree' },
    });
  });
});
