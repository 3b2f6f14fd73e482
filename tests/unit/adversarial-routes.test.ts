import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { RouteConfigEntry } from '@react-router/dev/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathWithoutLanguage } from '~/lib/languages';
import { saveSiteSettings } from '~/server/site/site-settings.server';
import { startSiteProcess, type SiteProcess } from '../support/site-process';
import { makeTestClip } from '../support/video-clips';
import { staffUserByEmail } from '../support/staff';
import routes from '~/routes';
import { ADMIN_ACCESS } from '~/routes/admin/access';
import { contentSchema } from '~/lib/content-form';
import { serviceSchema } from '~/lib/service-schema';
import type { StaffUser } from '~/server/staff/auth.server';
import { saveContactMessage } from '~/server/inbox/contact.server';
import { createContent } from '~/server/content/content-admin.server';
import { openDatabase, setDatabase, type DatabaseHandle } from '~/server/db/db.server';
import { issueConfirmLink, requestSubscription, signingKey, unsubscribeTokenFor } from '~/server/newsletter/newsletter.server';
import { hashToken } from '~/server/staff/password-reset.server';
import { createService } from '~/server/content/services.server';
import { createSession, sessionCookieName } from '~/server/staff/sessions.server';
import { setUploadsRoot } from '~/server/media/storage.server';
import { createUser } from '~/server/staff/users.server';
import { appendVideoChunk, startVideoUpload, videoUploadStatus } from '~/server/media/video.server';
import { eventFormSchema, registrationSchema } from '~/lib/events';
import { createEvent, eventColumns } from '~/server/events/events.server';
import { registerForEvent } from '~/server/events/registrations.server';

// Issue 22: one request must never stall the site. This walks the route table (app/routes.ts) as the
// access test does, so a route added tomorrow is walked too, and posts to every route that has an
// action (the upload endpoints among them) bodies that make a careless parser or pattern
// super-linear: "<", "<a ", nested tags, one letter, control characters and NUL, and thousands of
// distinct field names, as URL-encoded and as multipart forms, up to the route's own size cap (or
// 1 MB when the cap is larger). It fails when any single request holds the event loop longer than
// BLOCK_LIMIT_MS, naming the route and the body.
//
// The site runs from its production build in a process of its own (tests/support/site-process.ts),
// which reports the longest its event loop was held while each request was handled. The posts come
// from this site's origin, with real items in the address (a story with a captioned video, a
// message, a subscriber, a service, a video upload, live tokens), as a stranger where anyone may
// post (the public forms, signing in) and as the super admin with a fresh session everywhere else,
// so they reach the action and its form parsing rather than being refused at the door. Each body
// keeps the fields the route's own page form sends (so the checks behind the first field errors run
// too) and puts the hostile text in its free-text fields; a file field gets it as a file of the kind
// it accepts (a captions field, as a WebVTT cue). Resource routes without a page of their own get
// the fields of every form on the site. A route's size cap is found by posting it harmless bodies
// until it stops answering 413.
//
// SQLite only: the cost measured is reading and checking the body, which does not depend on the
// database engine (the database does the same few writes on either).

/** The longest a single request may hold the event loop. */
const BLOCK_LIMIT_MS = 100;
/** The largest body tried on a route whose cap is larger (a linear pass over it takes milliseconds). */
const MAX_BODY_BYTES = 1_000_000;
/**
 * Each body is tried at these fractions of the route's size, smallest first: quadratic code fails at
 * the smaller size in a second or two instead of taking minutes at the full one.
 */
const LADDER = [1 / 16, 1];
/** Above this a request is certainly blocking; below it, a measurement over the limit is taken again
 * (at most twice, keeping the lowest), since another program on a busy machine can pause this one. */
const CERTAIN_MS = 1_000;
/** What answers a post refused at the door, before the action (besides the sign-in redirect). */
const DOOR_REFUSALS = new Set([401, 403, 405, 429]);

const SUPER_ADMIN_EMAIL = 'walker@example.org';

interface FlatRoute {
  pattern: string;
  file: string;
}

/** Every route that can be matched (leaves and index routes), with its full pattern. */
function flatten(entries: RouteConfigEntry[], parentPath = ''): FlatRoute[] {
  return entries.flatMap((entry) => {
    const path = [parentPath, entry.path ?? ''].filter(Boolean).join('/');
    if (entry.children?.length) return flatten(entry.children, path);
    return [{ pattern: `/${path}`, file: entry.file }];
  });
}

// ---------------------------------------------------------------------------------------------
// The forms a page shows, read from its HTML.

interface Field {
  name: string;
  /** `text`: free text, where the hostile text goes; `fixed`: sent as the page has it; `file`: a file input. */
  kind: 'text' | 'fixed' | 'file';
  value: string;
  accept: string;
}

const ENTITY: Record<string, string> = { amp: '&', quot: '"', lt: '<', gt: '>', '#x27': "'", '#39': "'", nbsp: '\u00a0' };
const decode = (text: string) => text.replace(/&(amp|quot|lt|gt|#x27|#39|nbsp);/g, (_, name: string) => ENTITY[name]!);

interface StartTag {
  name: string;
  /** Where the tag starts and where its text (`<input a="b" c>`) ends. */
  start: number;
  end: number;
  attributes: Map<string, string>;
}

const isNameCharacter = (c: string) => /[\w:-]/.test(c);

/** The start tags named one of `names` in `html`, in order: one pass over the page's own markup. */
function startTags(html: string, names: string[]): StartTag[] {
  const found: StartTag[] = [];
  let at = html.indexOf('<');
  while (at !== -1) {
    const end = html.indexOf('>', at);
    if (end === -1) break;
    let i = at + 1;
    while (i < end && isNameCharacter(html[i]!)) i++;
    const name = html.slice(at + 1, i).toLowerCase();
    if (names.includes(name)) {
      // Its attributes: name, or name="value" (React quotes every value and escapes its quotes).
      const attributes = new Map<string, string>();
      while (i < end) {
        while (i < end && !isNameCharacter(html[i]!)) i++;
        const from = i;
        while (i < end && isNameCharacter(html[i]!)) i++;
        if (i === from) break;
        const attribute = html.slice(from, i).toLowerCase();
        let value = '';
        if (html[i] === '=' && html[i + 1] === '"') {
          const close = html.indexOf('"', i + 2);
          value = decode(html.slice(i + 2, close));
          i = close + 1;
        }
        attributes.set(attribute, value);
      }
      found.push({ name, start: at, end: end + 1, attributes });
    }
    at = html.indexOf('<', end);
  }
  return found;
}

const TEXT_INPUTS = new Set(['', 'text', 'email', 'url', 'search', 'tel', 'password', 'number']);

/** The fields of one form's inner HTML, in order (the first of a name wins, as a browser's first button would). */
function fieldsOf(html: string): Field[] {
  const fields: Field[] = [];
  for (const tag of startTags(html, ['input', 'textarea', 'select', 'button'])) {
    const attrs = tag.attributes;
    const name = attrs.get('name');
    if (!name || attrs.has('disabled')) continue;
    const value = attrs.get('value') ?? '';
    const accept = attrs.get('accept') ?? '';
    if (tag.name === 'textarea') {
      const end = html.indexOf('</textarea>', tag.end);
      fields.push({ name, kind: 'text', value: decode(html.slice(tag.end, end)), accept });
    } else if (tag.name === 'select') {
      const options = startTags(html.slice(tag.end, html.indexOf('</select>', tag.end)), ['option']).map((o) => o.attributes);
      const chosen = options.find((o) => o.has('selected')) ?? options[0];
      fields.push({ name, kind: 'fixed', value: chosen?.get('value') ?? '', accept });
    } else if (tag.name === 'button') {
      if ((attrs.get('type') ?? 'submit') === 'submit') fields.push({ name, kind: 'fixed', value, accept });
    } else {
      const type = (attrs.get('type') ?? '').toLowerCase();
      if (type === 'file') fields.push({ name, kind: 'file', value: '', accept });
      else if (type === 'checkbox' || type === 'radio') {
        if (attrs.has('checked')) fields.push({ name, kind: 'fixed', value: value || 'on', accept });
      } else if (TEXT_INPUTS.has(type)) fields.push({ name, kind: 'text', value, accept });
      else if (type !== 'submit' && type !== 'button' && type !== 'reset' && type !== 'image')
        fields.push({ name, kind: 'fixed', value, accept });
    }
  }
  return fields;
}

/** What a route is posted: to its address with `search`, the fields of the forms that post there. */
interface Target {
  search: string;
  fields: Field[];
}

/** The forms on `html` that post to `pathname`, their fields together for each query they post with. */
function postFormsOf(html: string, pathname: string): Target[] {
  const targets = new Map<string, Map<string, Field>>();
  for (const form of startTags(html, ['form'])) {
    if ((form.attributes.get('method') ?? 'get').toLowerCase() !== 'post') continue;
    const action = new URL(form.attributes.get('action') || pathname, 'http://site');
    if (action.pathname !== pathname) continue;
    // A form whose address has a query (one group of the settings) is a post of its own.
    const fields = targets.get(action.search) ?? new Map<string, Field>();
    targets.set(action.search, fields);
    const end = html.indexOf('</form>', form.end);
    for (const field of fieldsOf(html.slice(form.end, end === -1 ? undefined : end)))
      if (!fields.has(field.name)) fields.set(field.name, field);
  }
  return [...targets].map(([search, fields]) => ({ search, fields: [...fields.values()] }));
}

// ---------------------------------------------------------------------------------------------
// Hostile bodies.

interface Part {
  name: string;
  value: string;
  file?: { filename: string; type: string };
}

type Encoding = 'urlencoded' | 'multipart';

const BOUNDARY = '----adversarial-route-walk';

function encode(parts: Part[], encoding: Encoding): { body: Buffer<ArrayBuffer>; contentType: string } {
  if (encoding === 'urlencoded')
    return {
      body: Buffer.from(parts.map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(p.value)}`).join('&')),
      contentType: 'application/x-www-form-urlencoded',
    };
  const pieces = parts.map((p) => {
    const disposition = `form-data; name="${p.name}"${p.file ? `; filename="${p.file.filename}"` : ''}`;
    const type = p.file ? `\r\nContent-Type: ${p.file.type}` : '';
    return `--${BOUNDARY}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n${p.value}\r\n`;
  });
  return { body: Buffer.from(`${pieces.join('')}--${BOUNDARY}--\r\n`), contentType: `multipart/form-data; boundary=${BOUNDARY}` };
}

const encodedLength = (parts: Part[], encoding: Encoding) => encode(parts, encoding).body.byteLength;

/** `unit` repeated so that, as one field's value, it takes about `bytes` bytes of the body. */
function fillTo(unit: string, bytes: number, encoding: Encoding): string {
  const size = encoding === 'urlencoded' ? encodeURIComponent(unit).length : Buffer.byteLength(unit);
  return unit.repeat(Math.max(0, Math.floor(bytes / size)));
}

const CONTROL = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('') + '\u007f';

/** The hostile text, each repeated to fill the room it is given. */
const PAYLOADS: { name: string; unit: string }[] = [
  { name: '"<" repeated', unit: '<' },
  { name: '"<a " repeated', unit: '<a ' },
  { name: 'nested tags', unit: '<b><i>' },
  { name: 'one letter repeated', unit: 'a' },
  { name: 'NUL and control characters', unit: CONTROL },
];

/** What a file input's file is: a captions field's payload goes inside a WebVTT cue, so it is parsed as one. */
function asFile(field: Field, payload: (room: number) => string, room: number): Part {
  if (/vtt/i.test(field.accept)) {
    const head = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n';
    return { name: field.name, value: head + payload(room - head.length), file: { filename: 'captions.vtt', type: 'text/vtt' } };
  }
  if (/image/i.test(field.accept))
    return { name: field.name, value: payload(room), file: { filename: 'picture.png', type: 'image/png' } };
  return { name: field.name, value: payload(room), file: { filename: 'file.bin', type: 'application/octet-stream' } };
}

interface Body {
  name: string;
  encoding: Encoding;
  /** The parts of a body of about `bytes` bytes. */
  make(bytes: number): Part[];
}

/** The first of `parts` that together take no more than `bytes` (a small route cannot take a large form whole). */
function within(parts: Part[], bytes: number, encoding: Encoding): Part[] {
  let count = parts.length;
  while (count > 0 && encodedLength(parts.slice(0, count), encoding) > bytes) count--;
  return parts.slice(0, count);
}

/** The hostile bodies for a route whose form has `fields`. */
function bodiesFor(fields: Field[]): Body[] {
  const kept = fields.filter((f) => f.kind !== 'file').map((f) => ({ name: f.name, value: f.value }));
  const fixed = fields.filter((f) => f.kind === 'fixed').map((f) => ({ name: f.name, value: f.value }));
  const texts = fields.filter((f) => f.kind === 'text').map((f) => f.name);
  // A form with no free text (a confirmation) still gets the text, in a field it does not know.
  const targets = texts.length ? texts : ['note'];
  const isTarget = (part: Part) => targets.includes(part.name);
  const files = fields.filter((f) => f.kind === 'file');
  const oneFilePerKind = [...new Map(files.map((f) => [f.accept, f])).values()];
  const bodies: Body[] = [];
  for (const encoding of ['urlencoded', 'multipart'] as const) {
    // The form's own fields take at most half the room; the hostile part, the rest.
    const base = (parts: Part[], bytes: number) => within(parts, bytes / 2, encoding);
    for (const { name, unit } of PAYLOADS) {
      bodies.push({
        name: `${name} in every free-text field (${targets.length})`,
        encoding,
        make(bytes) {
          const fields = base([...fixed, ...targets.map((n) => ({ name: n, value: '' }))], bytes);
          if (!fields.some(isTarget)) fields.push({ name: targets[0]!, value: '' });
          const each = Math.floor(Math.max(0, bytes - encodedLength(fields, encoding)) / fields.filter(isTarget).length);
          return fields.map((f) => (isTarget(f) ? { name: f.name, value: fillTo(unit, each, encoding) } : f));
        },
      });
      if (encoding === 'multipart')
        for (const file of oneFilePerKind)
          bodies.push({
            name: `${name} as the file ${file.name} (${file.accept || 'any type'})`,
            encoding,
            make(bytes) {
              const fields = base(kept, bytes);
              const room = Math.max(0, bytes - encodedLength([...fields, asFile(file, () => '', 0)], encoding) - 64);
              return [...fields, asFile(file, (n) => fillTo(unit, n, encoding), room)];
            },
          });
    }
    bodies.push({
      name: 'thousands of distinct field names',
      encoding,
      make(bytes) {
        const parts: Part[] = base(kept, bytes);
        let size = encodedLength(parts, encoding);
        for (let i = 0; ; i++) {
          const name = `n${i}`;
          size +=
            encoding === 'urlencoded' ? name.length + 2 : encodedLength([{ name, value: '' }], encoding) - BOUNDARY.length - 6;
          if (size > bytes) break;
          parts.push({ name, value: '' });
        }
        return parts;
      },
    });
  }
  return bodies;
}

// ---------------------------------------------------------------------------------------------
// The site, its super admin, and the items the addresses name.

let site: SiteProcess;
let database: DatabaseHandle;
let origin: string;
let admin: StaffUser;
let dataDir: string;

/** A made-up client address for each request, so no per-address limit is reached by the walk itself. */
let clientCounter = 0;
const nextClient = () => {
  clientCounter++;
  return `10.${(clientCounter >> 16) & 255}.${(clientCounter >> 8) & 255}.${clientCounter & 255}`;
};

/**
 * Whether anyone may post to `pattern`: the public site's forms, and the admin routes whose action
 * the access table (routes/admin/access.ts) opens to everyone, such as signing in. Those are posted
 * as a stranger would post them; the rest as the super admin.
 */
const isOpenToAnyone = (pattern: string) => !ADMIN_ACCESS[pattern] || ADMIN_ACCESS[pattern].action === 'public';

/** The headers of a request from this site's own pages: the super admin's fresh session, unless `pattern` is open to anyone. */
async function headersFor(pattern: string): Promise<Record<string, string>> {
  const headers = { origin, 'x-forwarded-for': nextClient() };
  if (isOpenToAnyone(pattern)) return headers;
  const token = await createSession({ userId: admin.id, remember: false, ip: '', userAgent: null });
  return { ...headers, cookie: `${sessionCookieName()}=${token}` };
}

const storyInput = (title: string) =>
  contentSchema('blogs').parse({
    title,
    category: 'technology',
    tags: 'walk, test',
    summary: 'A story for the route walk.',
    content: `<p>${'A sentence of the story for the route walk. '.repeat(4)}</p>`,
  });

/** A ready video (uploaded and processed by the site's own job), for the story the edit form shows. */
let readyVideoId: string | undefined;
async function makeReadyVideo(): Promise<string> {
  const clip = makeTestClip(path.join(dataDir, 'walk-clip.mp4'), { size: '320x240', seconds: 1, silent: true });
  const bytes = new Uint8Array(fs.readFileSync(clip));
  const started = await startVideoUpload(admin, { name: 'walk-clip.mp4', size: bytes.byteLength });
  await appendVideoChunk(admin, started.id, 0, bytes);
  for (let i = 0; i < 600; i++) {
    const status = await videoUploadStatus(admin, started.id);
    if (status.status === 'ready') return started.id;
    if (status.status === 'failed') throw new Error(`the walk's video could not be processed: ${status.error}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the walk’s video was not processed within a minute');
}

let made = 0;
/** A newsletter subscriber asked for through the service; their id. */
async function subscriber(email: string): Promise<string> {
  await requestSubscription({ email }, database.db);
  const row = await database.db
    .selectFrom('newsletter_subscribers')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Issue 27: a published event a month ahead with room for the walk's registrations. */
async function walkEvent(n: number) {
  const day = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const input = eventFormSchema.parse({
    intent: 'publish',
    title: `Walk event ${n}`,
    summary: 'An event for the route walk.',
    description: '<p>An event for the route walk.</p>',
    startDate: day,
    startTime: '09:00',
    endDate: day,
    endTime: '12:00',
    place: 'Kampala',
    capacity: '10000',
    registrationOpen: 'on',
  });
  const columns = eventColumns(input, 'Africa/Kampala');
  if (!columns.ok) throw new Error('the walk event is not valid');
  return createEvent(admin, columns.columns, 'publish', '127.0.0.1', database.db);
}

/** What fills each parameter of a route's address: a real item, made through the services. */
async function paramValue(languagePattern: string, param: string): Promise<string> {
  // Issue 26: a page in Luganda or Swahili takes the same items as its English page.
  const pattern = pathWithoutLanguage(languagePattern);
  const n = ++made;
  if (param === '*') return `nothing-here-${n}`;
  if (param === 'type') return 'blogs';
  if (param === 'token' && pattern.startsWith('/newsletter/')) {
    const id = await subscriber(`reader${n}@example.org`);
    if (pattern.startsWith('/newsletter/confirm/'))
      return new URL(await issueConfirmLink(database.db, id)).pathname.split('/').pop()!;
    return unsubscribeTokenFor(await signingKey(database.db), id);
  }
  if (param === 'token' && pattern.startsWith('/admin/reset-password/')) {
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    await database.db
      .insertInto('password_reset_tokens')
      .values({
        token_hash: hashToken(token),
        user_id: admin.id,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + 3_600_000).toISOString(),
      })
      .execute();
    return token;
  }
  if (param === 'id' && pattern.startsWith('/admin/users/')) {
    const user = await createUser(
      admin,
      {
        name: `Walker ${n}`,
        email: `walker${n}@example.org`,
        role: 'EDITOR',
        bio: '',
        profilePicture: '',
        password: 'a-fine-passphrase',
      },
      '127.0.0.1',
    );
    return user.id;
  }
  if (param === 'id' && pattern.startsWith('/admin/content/')) {
    // The first story shown has the sign-language video, so its edit form has the captions field.
    const videoId = readyVideoId;
    readyVideoId = undefined;
    const story = await createContent(
      admin,
      'blogs',
      storyInput(`Route walk story ${n}`),
      '127.0.0.1',
      { intent: 'draft' },
      videoId ? { videoId } : {},
    );
    return story.id;
  }
  if (param === 'id' && pattern.startsWith('/admin/newsletter/')) {
    const story = await createContent(admin, 'blogs', storyInput(`Route walk newsletter ${n}`), '127.0.0.1');
    return story.id;
  }
  if (param === 'id' && pattern.startsWith('/admin/messages/')) {
    const message = await saveContactMessage(
      {
        name: 'A visitor',
        email: `visitor${n}@example.org`,
        phone: '',
        subject: 'A question',
        message: 'Hello, I have a question.',
      },
      database.db,
    );
    return message.id;
  }
  if (param === 'id' && pattern.startsWith('/admin/subscribers/')) return subscriber(`subscriber${n}@example.org`);
  if (param === 'id' && pattern.startsWith('/admin/services/')) {
    const service = await createService(
      admin,
      serviceSchema.parse({
        title: `Walk service ${n}`,
        description: 'A service for the route walk, described in full.',
        features: 'One\nTwo',
      }),
      '127.0.0.1',
    );
    return service.id;
  }
  // Issue 26: a service's version in Luganda.
  if (param === 'language' && pattern.startsWith('/admin/services/')) return 'lg';
  // Decision 051: an event's version in Swahili.
  if (param === 'language' && pattern.startsWith('/admin/events/')) return 'sw';
  if (param === 'id' && pattern.startsWith('/admin/uploads/video/')) {
    return (await startVideoUpload(admin, { name: `walk-${n}.mp4`, size: 10_000_000 })).id;
  }
  // Issue 27: a published event (its page and registration form), a registrant's cancellation link.
  if ((param === 'slug' && pattern.startsWith('/events/')) || (param === 'id' && pattern.startsWith('/admin/events/'))) {
    const event = await walkEvent(n);
    return param === 'slug' ? event.slug : event.id;
  }
  if (param === 'token' && pattern.startsWith('/events/cancel/')) {
    const event = await walkEvent(n);
    const outcome = await registerForEvent(
      event.slug,
      registrationSchema.parse({ name: 'Walker', phone: `+256 700 ${n}` }),
      database.db,
    );
    return outcome.cancelUrl!.split('/').pop()!;
  }
  throw new Error(`The route walk does not know what to put for :${param} in ${pattern}: teach paramValue`);
}

/** A route's address with a real item for each parameter, kept until an answer redirects (the item may be gone). */
class Address {
  private current: string | undefined;
  readonly pattern: string;
  constructor(pattern: string) {
    this.pattern = pattern;
  }
  async get(): Promise<string> {
    if (this.current) return this.current;
    let address = '';
    for (const segment of this.pattern.split('/').slice(1)) {
      if (segment === '*') address += `/${await paramValue(this.pattern, '*')}`;
      else if (segment.startsWith(':')) address += `/${encodeURIComponent(await paramValue(this.pattern, segment.slice(1)))}`;
      else address += `/${segment}`;
    }
    this.current = address || '/';
    return this.current;
  }
  /** After a redirect (a delete, a save that moved on) the next request gets new items. */
  answered(status: number) {
    if (status >= 300 && status < 400) this.current = undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Posting and measuring.

interface Measured {
  status: number;
  location: string | null;
  blockedMs: number;
}

/**
 * One post on a connection of its own (Connection: close), read to its end. An action that never
 * reads the body (a delete) may answer before all of it is sent: the answer counts, and the rest of
 * the body is dropped with the connection.
 */
function sendPost(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; location: string | null }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(url, {
      method: 'POST',
      agent: false,
      headers: { ...headers, 'content-length': String(body.byteLength) },
    });
    request.on('response', (response) => {
      answered = true;
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, location: response.headers.location ?? null }));
      response.on('error', reject);
    });
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    request.end(body);
  });
}

async function post(address: Address, search: string, body: Buffer<ArrayBuffer>, contentType: string): Promise<Measured> {
  const url = `${origin}${await address.get()}${search}`;
  const headers = { ...(await headersFor(address.pattern)), 'content-type': contentType };
  // A server that refuses a large body answers and closes at once; now and then the close reaches
  // this client while it is still writing (EPIPE), before the answer is read. That post is sent again.
  const attempt = (left: number): Promise<{ status: number; location: string | null }> =>
    sendPost(url, headers, body).catch((error: NodeJS.ErrnoException) => {
      if (left > 0 && (error.code === 'EPIPE' || error.code === 'ECONNRESET')) return attempt(left - 1);
      throw error;
    });
  const { result, blockedMs } = await site.blockedDuring(() => attempt(2));
  address.answered(result.status);
  return { ...result, blockedMs };
}

/** The route's size cap, found by posting harmless bodies: the largest below MAX_BODY_BYTES it does not refuse with 413. */
async function sizeCap(address: Address, search: string, answers: Measured[]): Promise<number> {
  const probe = async (bytes: number) => {
    const body = Buffer.from(`x=${'a'.repeat(bytes - 2)}`);
    const measured = await post(address, search, body, 'application/x-www-form-urlencoded');
    answers.push(measured);
    return measured.status !== 413;
  };
  // A small post first: an action that never reads the body still answers it.
  await probe(64);
  if (await probe(MAX_BODY_BYTES)) return MAX_BODY_BYTES;
  let high = MAX_BODY_BYTES;
  let low = high / 2;
  while (low > 64 && !(await probe(Math.floor(low)))) {
    high = low;
    low /= 2;
  }
  for (let step = 0; step < 6; step++) {
    const middle = (low + high) / 2;
    if (await probe(Math.floor(middle))) low = middle;
    else high = middle;
  }
  return Math.floor(low);
}

const isSignInRedirect = (m: Measured) =>
  m.status >= 300 && m.status < 400 && (m.location ?? '').startsWith('/admin?') && m.location!.includes('redirectTo=');

/** Whether an answer came from the action, not from the door (signed out, forbidden, limited, no item). */
function reachedAction(pattern: string, m: Measured): boolean {
  if (DOOR_REFUSALS.has(m.status) || isSignInRedirect(m)) return false;
  // A catch-all route's action says 404 itself; anywhere else a 404 means the item was not there.
  return m.status !== 404 || pattern.endsWith('*');
}

// ---------------------------------------------------------------------------------------------

const flat = flatten(routes);
const modules = await Promise.all(
  flat.map(async (route) => ({
    ...route,
    module: (await import(/* @vite-ignore */ `../../app/${route.file}`)) as { action?: unknown; default?: unknown },
  })),
);
const withAction = modules.filter((route) => typeof route.module.action === 'function');
/** The fields each page route's own forms post to it; resource routes get every form's fields. */
const formTargets = new Map<string, Target[]>();
/** Each route's address, kept from reading its page so the form's item is the one posted to. */
const routeAddresses = new Map<string, Address>();

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-walk-'));
  const settings = {
    DATA_DIR: dataDir,
    SUPER_ADMIN_EMAIL,
    SUPER_ADMIN_PASSWORD: 'a-long-walk-passphrase',
    DEMO_CONTENT: 'false',
    BACKUPS: 'off',
    TRUST_PROXY: 'loopback',
  };
  site = await startSiteProcess({ ...settings, NODE_ENV: 'production', LOG_LEVEL: 'silent' });
  origin = site.origin;
  Object.assign(process.env, settings);

  // The services this file calls share the site's data folder: its database file and its uploads.
  database = await openDatabase({ dataDir });
  setDatabase(database);
  setUploadsRoot(dataDir);
  admin = await staffUserByEmail(database.db, SUPER_ADMIN_EMAIL);
  // Issue 26: Luganda and Swahili on, so their pages (/lg/…, /sw/…) are walked as pages, not 404s.
  await saveSiteSettings(admin, 'languages', { languageLg: 'on', languageSw: 'on' }, { ip: '127.0.0.1' });
  readyVideoId = await makeReadyVideo();

  // The page routes' forms, read from their pages as the super admin sees them.
  const union = new Map<string, Field>();
  for (const route of withAction.filter((r) => typeof r.module.default === 'function')) {
    const address = new Address(route.pattern);
    const pathname = await address.get();
    const response = await fetch(`${origin}${pathname}`, { headers: await headersFor(route.pattern), redirect: 'manual' });
    const targets = postFormsOf(await response.text(), pathname);
    formTargets.set(route.pattern, targets);
    for (const field of targets.flatMap((t) => t.fields)) if (!union.has(field.name)) union.set(field.name, field);
    routeAddresses.set(route.pattern, address);
  }
  for (const route of withAction)
    if (!formTargets.get(route.pattern)?.length) formTargets.set(route.pattern, [{ search: '', fields: [...union.values()] }]);
}, 180_000);

afterAll(async () => {
  await site?.stop();
  setDatabase(undefined);
  await database?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('every route with an action, posted adversarial bodies', () => {
  it('finds the actions through the route table, the upload endpoints among them', () => {
    expect(withAction.length).toBeGreaterThan(25);
    expect(withAction.map((r) => r.pattern)).toEqual(
      expect.arrayContaining([
        '/contact',
        '/volunteer',
        '/partner',
        '/book-speaker',
        '/design-help',
        '/admin/content/autosave',
        '/admin/content/preview',
        '/admin/uploads/content',
        '/admin/uploads/video',
        '/admin/uploads/video/:id',
      ]),
    );
  });

  it.each(withAction.map((r) => [r.pattern] as const))(
    '%s answers each without blocking the event loop',
    { timeout: 300_000 },
    async (pattern) => {
      const address = routeAddresses.get(pattern) ?? new Address(pattern);
      const answers: Measured[] = [];
      const problems: string[] = [];
      const caps: string[] = [];
      for (const { search, fields } of formTargets.get(pattern) ?? []) {
        const cap = await sizeCap(address, search, answers);
        caps.push(`${search || 'size cap'} ${cap.toLocaleString('en')} bytes`);
        for (const body of bodiesFor(fields)) {
          for (const fraction of LADDER) {
            const { body: bytes, contentType } = encode(body.make(Math.floor(cap * fraction)), body.encoding);
            let measured = await post(address, search, bytes, contentType);
            for (let retry = 0; retry < 2 && measured.blockedMs > BLOCK_LIMIT_MS && measured.blockedMs < CERTAIN_MS; retry++) {
              const again = await post(address, search, bytes, contentType);
              if (again.blockedMs < measured.blockedMs) measured = again;
            }
            answers.push(measured);
            const what = `${search}${search ? ': ' : ''}${body.name}, ${body.encoding}, ${bytes.byteLength.toLocaleString('en')} bytes`;
            if (measured.status >= 500) problems.push(`${what}: answered ${measured.status}`);
            if (measured.blockedMs > BLOCK_LIMIT_MS) {
              problems.push(`${what}: held the event loop ${Math.round(measured.blockedMs)} ms (answered ${measured.status})`);
              break;
            }
          }
        }
      }
      const reached = answers.filter((m) => reachedAction(pattern, m));
      if (reached.length === 0)
        problems.push(`no post reached the action: answers ${[...new Set(answers.map((m) => m.status))].join(', ')}`);
      expect(problems, `${pattern} (${caps.join(', ')})`).toEqual([]);
    },
  );
});
