import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { expect, type APIRequestContext, type APIResponse, type Page } from '@playwright/test';
import type { Selectable } from 'kysely';
import sharp from 'sharp';
import type { ContentType } from '../../app/lib/content-form';
import type { ContentTable } from '../../app/server/db/schema';
import { E2E } from './env';
import { db } from './staff';

// Helpers for the content journeys (issue 5): items made straight in the journeys' database or
// through the real publish action, generated images, and the clean-up behind the `tag` fixture
// (fixtures.ts), which deletes every item a test made (through the server, so the public page cache
// forgets it too).

/** A body the publish rules accept (spec §5: at least 50 readable characters). */
export const BODY = '<p>Deaf and hard-of-hearing young people in Kampala met employers to talk about inclusive hiring.</p>';

/** A row of the content table, as SQLite returns it. */
export type ContentRow = Selectable<ContentTable>;

export function contentRow(id: string): ContentRow | undefined {
  return db().prepare('SELECT * FROM content WHERE id = ?').get(id) as ContentRow | undefined;
}

export function contentByTitle(title: string): ContentRow | undefined {
  return db().prepare('SELECT * FROM content WHERE title = ?').get(title) as ContentRow | undefined;
}

/** Waits for the item titled `title` to be stored (the browser's save answers before we look). */
export async function storedItem(title: string): Promise<ContentRow> {
  await expect.poll(() => contentByTitle(title)?.id, { message: `"${title}" is stored` }).toBeTruthy();
  return contentByTitle(title)!;
}

/** Inserts an item directly (no page cache is told; use it only where public pages are not read). */
export function insertContent(input: {
  type: ContentType;
  title: string;
  summary?: string | null;
  category?: string;
  author?: string;
  tags?: string[];
  createdAt?: string;
  content?: string;
}): ContentRow {
  const id = `${input.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)}-${randomBytes(3).toString('hex')}`;
  const at = input.createdAt ?? new Date().toISOString();
  const summary = input.summary === undefined ? `Summary of ${input.title}` : input.summary;
  db()
    .prepare(
      `INSERT INTO content (id, collection, title, summary, excerpt, content, search_text, category, author, author_email,
         author_role, image_url, image_alt, tags, status, created_at, published_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, '', ?, ?, NULL, NULL, NULL, NULL, ?, 'published', ?, ?, ?)`,
    )
    .run(
      id,
      input.type,
      input.title,
      input.type === 'news' ? summary : null,
      input.type === 'blogs' ? summary : null,
      input.content ?? BODY,
      input.category ?? (input.type === 'news' ? 'advocacy' : 'technology'),
      input.author ?? 'Grace Nakato',
      JSON.stringify(input.tags ?? []),
      at,
      at,
      at,
    );
  return contentRow(id)!;
}

export interface ContentFields {
  title: string;
  category?: string;
  summary?: string;
  tags?: string;
  content?: string;
  imageUrl?: string;
  imageAlt?: string;
  [extra: string]: string | undefined;
}

function multipartOf(fields: ContentFields, type: ContentType): Record<string, string> {
  const form: Record<string, string> = {
    category: type === 'news' ? 'advocacy' : 'technology',
    summary: 'A short summary for the list.',
    tags: '',
    content: BODY,
  };
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) form[key] = value;
  return form;
}

/**
 * Posts the content form to its own route's action (Add Story/Add Blog, or Edit with `id`), as a
 * browser without JavaScript does: the answer is the form's page (read it with formAnswerOf).
 */
export function postSave(request: APIRequestContext, type: ContentType, fields: ContentFields, id?: string) {
  const path = id ? `/admin/content/${encodeURIComponent(id)}/edit` : `/admin/content/new/${type}`;
  return request.post(path, { multipart: multipartOf(fields, type), maxRedirects: 0 });
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'" };
const decodeHtml = (text: string) => text.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, name: string) => ENTITIES[name]!);

/**
 * What the content form's page says after a post, as a person reads it: the banner above the form,
 * and the message under each field (by field name; the picture's is `imageUrl`).
 */
export async function formAnswerOf(
  response: APIResponse,
): Promise<{ message: string | undefined; errors: Record<string, string> }> {
  const html = await response.text();
  const errors: Record<string, string> = {};
  for (const [, id, text] of html.matchAll(/<p id="([\w-]+)-error"[^>]*>([^<]*)<\/p>/g))
    errors[id === 'image' ? 'imageUrl' : id!] = decodeHtml(text!);
  const banner = html.match(/<form[^>]*>\s*<div role="(?:alert|status)"[^>]*>\s*<div[^>]*>\s*<p[^>]*>([^<]*)<\/p>/)?.[1];
  return { message: banner === undefined ? undefined : decodeHtml(banner), errors };
}

/** Publishes through the real action (the form posted to Add Story/Add Blog) and returns the stored row. */
export async function publish(request: APIRequestContext, type: ContentType, fields: ContentFields): Promise<ContentRow> {
  const response = await postSave(request, type, fields);
  expect(response.status(), await response.text()).toBe(200);
  return contentByTitle(fields.title)!;
}

/** Deletes, through the server, every item whose title contains `tag`. */
export async function removeTagged(request: APIRequestContext, tag: string): Promise<void> {
  const rows = db().prepare('SELECT id FROM content WHERE instr(title, ?) > 0').all(tag) as { id: string }[];
  for (const { id } of rows) {
    const response = await request.post(`/admin/content/${encodeURIComponent(id)}/delete`, { maxRedirects: 0 });
    // If the server would not (the session ended), do not leave the item behind.
    if (response.status() !== 303 || contentRow(id)) db().prepare('DELETE FROM content WHERE id = ?').run(id);
  }
}

/** A real PNG of `size` px. */
export function pngBytes(size = 320, colour = '#3730a3'): Promise<Buffer> {
  return sharp({ create: { width: size, height: Math.round((size * 9) / 16), channels: 3, background: colour } })
    .png()
    .toBuffer();
}

export function jpegBytes(width = 400, height = 300): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#b45309' } })
    .jpeg()
    .toBuffer();
}

/** A phone-style JPEG: camera make, a GPS position and "rotate 90°" in its EXIF. */
export function jpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 400, height: 240, channels: 3, background: '#047857' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'PhoneMaker', Model: 'Pocket 7' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '0/1 20/1 12/1', GPSLongitudeRef: 'E', GPSLongitude: '32/1 35/1 0/1' },
    })
    .toBuffer();
}

/** A zip archive (an empty one: the end-of-central-directory record only). */
export const ZIP_BYTES = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)]);

/**
 * Sends headers that announce `declaredBytes` but only a few bytes of body, then waits for the
 * answer: a server that trusts the length refuses at once instead of reading (or waiting for) it all.
 */
export function postAnnouncingSize(
  path: string,
  cookie: string,
  declaredBytes: number,
): Promise<{ status: number; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const url = new URL(path, E2E.baseURL);
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: 'POST',
        headers: {
          cookie,
          'content-type': 'multipart/form-data; boundary=e2eboundary',
          'content-length': String(declaredBytes),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body, ms: Date.now() - started });
          req.destroy();
        });
      },
    );
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.write('--e2eboundary\r\nContent-Disposition: form-data; name="type"\r\n\r\nnews\r\n');
  });
}

/** The 'name=value' session cookie an API client holds. */
export async function cookieOf(request: APIRequestContext): Promise<string> {
  const { cookies } = await request.storageState();
  return cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

/** The content form's rich-text body (its toolbar's tools are buttons named 'Bold', 'Heading 1' …). */
export const editorOf = (page: Page) => page.getByRole('textbox', { name: 'Content' });

/** Opens Add Story or Add Blog and waits until it is interactive (the preview toggle and toolbar exist only then). */
export async function openForm(page: Page, type: ContentType) {
  await page.goto(`/admin/content/new/${type}`);
  await expect(page.getByRole('button', { name: 'Show Preview' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Formatting' })).toBeVisible();
}

/** A toast with `message` appears; it is then closed (toasts close on click) so the next one is distinct. */
export async function expectToast(page: Page, message: string) {
  const toast = page.getByRole('button', { name: message });
  await expect(toast).toBeVisible();
  await toast.click();
  await expect(toast).toHaveCount(0);
}
