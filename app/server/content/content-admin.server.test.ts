import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { staffAs as staff } from '../../../tests/support/staff';
import { storeImage } from '../media/storage.server';
import { ContentRuleError, deleteContent, listContentForAdmin, publishContent, updateContent } from './content-admin.server';
import { searchContent } from './search.server';
import { htmlToText } from '../platform/html.server';
import { sanitizeArticleHtml } from '../platform/sanitize.server';
import { HTML_BUDGET_MESSAGE, resetHtmlBudgets } from '../platform/html-budget.server';
import { contentSchema, CONTENT_MESSAGES, parseTags, type ContentInput } from '../../lib/content-form';
import { IMAGE_WIDTHS } from '../../lib/images';

const IP = '198.51.100.20';

const body =
  '<p>Deaf students in Kampala now follow every recorded lesson with captions, and they say it changed how they study.</p>';
const input = (overrides: Partial<Record<string, string>> = {}): ContentInput =>
  contentSchema('news').parse({
    title: 'Captioned lessons',
    category: 'education',
    tags: 'captions, education',
    summary: 'Lessons with captions.',
    content: body,
    ...overrides,
  });

describe('the content form rules', () => {
  it('gives every spec message for a bad form', () => {
    const result = contentSchema('news').safeParse({
      title: 'x'.repeat(101),
      category: '',
      tags: '',
      summary: '',
      content: '<p>short</p>',
    });
    expect(result.success).toBe(false);
    const messages = result.error!.issues.map((i) => i.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'Title must be less than 100 characters',
        'Category is required',
        'Summary is required',
        'Content must be at least 50 characters long',
      ]),
    );
    const blog = contentSchema('blogs').safeParse({ title: '', category: 'education', summary: '', content: '' });
    expect(blog.error!.issues.map((i) => i.message)).toEqual(
      expect.arrayContaining(['Title is required', 'Excerpt is required', 'Content is required']),
    );
  });

  it('takes only the spec categories of each type', () => {
    expect(contentSchema('news').safeParse({ ...input(), tags: '', category: 'technology' }).success).toBe(false);
    expect(contentSchema('blogs').safeParse({ ...input(), tags: '', category: 'technology' }).success).toBe(true);
  });

  it('checks the size of a body before anything else, and refuses markup nested too deep', () => {
    const refused = (content: string) => contentSchema('blogs').safeParse({ ...input(), tags: '', content }).error?.issues;
    expect(refused(`${body}${'<'.repeat(1_000_000)}`)).toEqual([
      expect.objectContaining({ message: CONTENT_MESSAGES.contentTooLong }),
    ]);
    expect(refused(`${'<blockquote>'.repeat(150)}${body}`)).toEqual([
      expect.objectContaining({ path: ['content'], message: CONTENT_MESSAGES.contentTooDeep }),
    ]);
    expect(refused(`${'<blockquote>'.repeat(20)}${body}`)).toBeUndefined();
  });

  it('refuses a tags field too long to hold valid tags before splitting it', () => {
    const issues = contentSchema('news').safeParse({ ...input(), tags: ','.repeat(5_000) }).error?.issues;
    expect(issues).toEqual([expect.objectContaining({ path: ['tags'], message: CONTENT_MESSAGES.tagsTooLong })]);
  });

  it('splits tags on commas, trims them and drops empty and repeated ones', () => {
    expect(parseTags(' sign language, , youth ,Youth,employment ,')).toEqual(['sign language', 'youth', 'employment']);
  });
});

describe.each(ENGINES)('content management on %s', (engine) => {
  const database = useTestDatabase(engine, { uploads: true });

  it('publishes with the author from the session, status published, sanitised HTML and searchable text', async () => {
    const author = staff('AUTHOR');
    const item = await publishContent(
      author,
      'news',
      input({ content: `${body}<script>alert(1)</script><img src=x onerror=alert(2)>` }),
      IP,
    );
    const row = await database().db.selectFrom('content').selectAll().where('id', '=', item.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      collection: 'news',
      author: 'AUTHOR Person',
      author_email: 'author@example.org',
      author_role: 'AUTHOR',
      status: 'published',
      excerpt: null,
      summary: 'Lessons with captions.',
    });
    expect(row.content).not.toMatch(/script|onerror|<img/);
    // Stored as the page will show it: sanitised once, here, with the text derived from that.
    expect(row.content).toBe(body);
    expect(row.search_text).toBe(htmlToText(body));
    expect(row.created_at).toBe(row.published_at);
    expect(JSON.parse(row.tags)).toEqual(['captions', 'education']);
    expect(
      (await searchContent({ collection: 'news', query: 'captions', limit: 5 }, database().db, engine)).rows.map((r) => r.id),
    ).toContain(item.id);
    const audit = await database()
      .db.selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'content.published')
      .where('target', '=', item.id)
      .executeTakeFirst();
    expect(audit?.actor_email).toBe('author@example.org');
  });

  it('cleans only so much of what one account writes at a time, and stores nothing it refuses (decision 047)', async () => {
    resetHtmlBudgets();
    const long = input({ content: `<p>${'a'.repeat(990_000)}</p>` });
    const writer = staff('EDITOR', 'prolific');
    const first = await publishContent(writer, 'news', long, IP);
    await publishContent(writer, 'news', long, IP);
    const refused = await publishContent(writer, 'news', long, IP).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ContentRuleError);
    expect(refused).toMatchObject({ status: 429, message: HTML_BUDGET_MESSAGE });
    const update = await updateContent(writer, first.id, { ...long, title: 'Changed' }, IP).catch((error: unknown) => error);
    expect(update).toMatchObject({ status: 429, message: HTML_BUDGET_MESSAGE });
    const stored = await database()
      .db.selectFrom('content')
      .select(['id', 'title'])
      .where('author_email', '=', 'prolific@example.org')
      .execute();
    expect(stored).toHaveLength(2);
    expect(stored.find((row) => row.id === first.id)?.title).toBe('Captioned lessons');
    // Another account writes on.
    await expect(publishContent(staff('EDITOR', 'other'), 'news', long, IP)).resolves.toMatchObject({ status: 'published' });
    resetHtmlBudgets();
  });

  it('stores an edited body sanitised too', async () => {
    const item = await publishContent(staff('EDITOR'), 'news', input(), IP);
    const unsafe = `<h1 onclick="x()">Update</h1>${body}<iframe src="https://evil.example/"></iframe><a href="javascript:go()">more</a>`;
    await updateContent(staff('EDITOR'), item.id, input({ content: unsafe }), IP);
    const row = await database().db.selectFrom('content').selectAll().where('id', '=', item.id).executeTakeFirstOrThrow();
    expect(row.content).toBe(`<h2>Update</h2>${body}<a>more</a>`);
    expect(row.content).toBe(sanitizeArticleHtml(unsafe));
    expect(row.search_text).toBe(htmlToText(row.content));
  });

  it('keeps createdAt, publishedAt and the author on edit, and changes updatedAt', async () => {
    const item = await publishContent(
      staff('ADMIN'),
      'blogs',
      contentSchema('blogs').parse({ ...input(), tags: '', category: 'technology' }),
      IP,
    );
    await new Promise((r) => setTimeout(r, 5));
    const edited = await updateContent(
      staff('EDITOR'),
      item.id,
      contentSchema('blogs').parse({ ...input({ title: 'Captioned lessons, a term later' }), tags: '', category: 'technology' }),
      IP,
    );
    expect(edited.title).toBe('Captioned lessons, a term later');
    expect(edited.createdAt).toBe(item.createdAt);
    expect(edited.publishedAt).toBe(item.publishedAt);
    expect(edited.author).toBe('ADMIN Person');
    expect(edited.updatedAt > item.updatedAt).toBe(true);
    expect(edited.summary).toBe('Lessons with captions.');
  });

  it('refuses each role what spec §6 does not give it, changing nothing', async () => {
    const item = await publishContent(staff('EDITOR'), 'news', input(), IP);
    const refused = async (promise: Promise<unknown>) => {
      await expect(promise).rejects.toBeInstanceOf(ContentRuleError);
    };
    await refused(publishContent(staff('VIEWER'), 'news', input(), IP));
    await refused(updateContent(staff('AUTHOR'), item.id, input({ title: 'Changed' }), IP));
    await refused(updateContent(staff('VIEWER'), item.id, input({ title: 'Changed' }), IP));
    await refused(deleteContent(staff('EDITOR'), item.id, IP));
    await refused(deleteContent(staff('AUTHOR'), item.id, IP));
    const row = await database().db.selectFrom('content').select('title').where('id', '=', item.id).executeTakeFirstOrThrow();
    expect(row.title).toBe('Captioned lessons');
    await expect(updateContent(staff('ADMIN'), 'no-such-id', input(), IP)).rejects.toThrow(CONTENT_MESSAGES.notFound);
  });

  it('deletes an item and its image files once nothing else uses them', async () => {
    const bytes = await sharp({ create: { width: 1200, height: 700, channels: 3, background: '#3730a3' } })
      .png()
      .toBuffer();
    const image = await storeImage(database().db, { folder: 'news', originalName: 'class photo.png', bytes });
    expect(image.url).toMatch(/^\/media\/news\/[0-9a-f]{32}_class_photo\.webp$/);
    const files = () => fs.readdirSync(path.join(database().dataDir, 'uploads', 'news')).filter((f) => f.includes('class_photo'));
    expect(files()).toHaveLength(1 + IMAGE_WIDTHS.length);
    const a = await publishContent(
      staff('ADMIN'),
      'news',
      input({ imageUrl: image.url, imageAlt: 'Students watching a captioned lesson' }),
      IP,
    );
    const b = await publishContent(staff('ADMIN'), 'news', input({ imageUrl: image.url }), IP);
    await deleteContent(staff('ADMIN'), a.id, IP);
    expect(files()).toHaveLength(1 + IMAGE_WIDTHS.length);
    await deleteContent(staff('SUPER_ADMIN'), b.id, IP);
    expect(files()).toHaveLength(0);
    expect(await database().db.selectFrom('media').select('id').where('key', 'like', '%class_photo%').execute()).toEqual([]);
  });

  it('lists the newest items first, 20 at a time, with a title search', async () => {
    for (let i = 0; i < 22; i++)
      await publishContent(
        staff('ADMIN'),
        'blogs',
        contentSchema('blogs').parse({ ...input({ title: `Story number ${i}` }), tags: '', category: 'news' }),
        IP,
      );
    const first = await listContentForAdmin({ type: 'blogs', limit: 20 });
    expect(first.items).toHaveLength(20);
    const times = first.items.map((i) => i.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(first.next).not.toBeNull();
    const found = await listContentForAdmin({ type: 'blogs', limit: 20, q: 'number 1' });
    expect(found.items.map((i) => i.title).sort()).toEqual(
      ['Story number 1', ...Array.from({ length: 10 }, (_, i) => `Story number 1${i}`)].sort(),
    );
    expect((await listContentForAdmin({ type: 'blogs', limit: 20, q: '100%_' })).items).toEqual([]);
  });
});
