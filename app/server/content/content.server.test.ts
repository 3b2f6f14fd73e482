import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ENGINES, useTestDatabase, withUnreadableDatabase } from '../../../tests/support/databases';
import { COLLECTION_INFO } from '~/lib/collections';
import { setDatabase } from '../db/db.server';
import { getLogger } from '../platform/logger.server';
import { publicContentChanged } from '../platform/public-changes.server';
import { keepPublicReads } from '../platform/public-reads.server';
import { getSiteInfo } from '../site/site.server';
import { readSiteSettings, settingKey } from '../site/site-settings.server';
import {
  FIRST_PAGE_SIZE,
  listContentPage,
  listUsedCategories,
  loadContentList,
  PAGE_SIZE,
  pageCountFor,
  toPublicContent,
} from './content.server';

describe('pageCountFor', () => {
  it('counts 13 items on the first page and 12 on each later one', () => {
    expect(FIRST_PAGE_SIZE).toBe(13);
    expect(PAGE_SIZE).toBe(12);
    expect([0, 1, 13, 14, 25, 26, 30, 37, 38].map(pageCountFor)).toEqual([1, 1, 1, 2, 2, 3, 3, 3, 4]);
  });
});

describe('toPublicContent', () => {
  it('reads the summary or the excerpt and the JSON tags, tolerating bad JSON', () => {
    const row = {
      id: 'x',
      collection: 'blogs' as const,
      title: 'T',
      summary: null,
      excerpt: 'Excerpt',
      content: '<p>Body</p>',
      search_text: 'Body',
      category: 'community',
      author: 'A',
      author_email: null,
      author_role: null,
      image_url: null,
      image_alt: null,
      tags: '["one", 2, "two"]',
      status: 'published' as const,
      scheduled_at: null,
      version: 1,
      updated_by: null,
      demo: 0,
      video_id: null,
      language: 'en',
      translation_of: null,
      easy_read: null,
      created_at: '2026-01-01T00:00:00.000Z',
      published_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    };
    expect(toPublicContent(row)).toMatchObject({ summary: 'Excerpt', tags: ['one', 'two'], imageAlt: '' });
    expect(toPublicContent({ ...row, tags: 'not json' }).tags).toEqual([]);
  });
});

describe('loadContentList without a database', () => {
  it('answers 500 with the error state and logs the failure', async () => {
    setDatabase(undefined);
    const log = vi.spyOn(getLogger(), 'error').mockImplementation(() => undefined);
    const result = await loadContentList('blogs', new URL('http://x/blog?q=sign'));
    expect(result.httpStatus).toBe(500);
    expect(result.data.status).toBe('error');
    expect(result.data.list.items).toEqual([]);
    expect(log).toHaveBeenCalledOnce();
    log.mockRestore();
  });
});

describe.each(ENGINES)('public lists on %s', (engine) => {
  const database = useTestDatabase(engine);
  const url = (search: string) => new URL(`http://x/blog${search}`);
  const load = (search: string) => loadContentList('blogs', url(search), database().db, engine);
  const page = (options: Omit<Parameters<typeof listContentPage>[0], 'collection'>) =>
    listContentPage({ collection: 'blogs', ...options }, database().db, engine);
  // Story n was published n days after 1 January 2026, so the newest is s30.
  const id = (n: number) => `s${String(n).padStart(2, '0')}`;
  const newestFirst = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => id(from - i));

  beforeAll(async () => {
    const rows = Array.from({ length: 30 }, (_, i) => {
      const n = i + 1;
      const at = new Date(Date.UTC(2026, 0, 1 + n)).toISOString();
      return {
        id: id(n),
        collection: 'blogs' as const,
        title: n % 2 ? `Zebra crossing story ${n}` : `Classroom story ${n}`,
        summary: null,
        excerpt: `Summary of story ${n}.`,
        content: `<p>Body ${n}</p>`,
        search_text: `Body ${n}`,
        category: n === 7 ? 'technology' : n % 3 === 0 ? 'community' : 'education',
        author: 'Test Author',
        tags: JSON.stringify(['one', 'two', 'three', 'four', 'five']),
        created_at: at,
        published_at: at,
        updated_at: at,
      };
    });
    await database().db.insertInto('content').values(rows).execute();
    const at = new Date(Date.UTC(2026, 1, 1)).toISOString();
    await database()
      .db.insertInto('content')
      .values({
        id: 'n1',
        collection: 'news',
        title: 'Zebra news',
        summary: 'News.',
        excerpt: null,
        content: '<p>News</p>',
        category: 'news',
        author: 'Test Author',
        created_at: at,
        published_at: at,
        updated_at: at,
      })
      .execute();
  });

  it('shows 13 items on page 1, then 12 per page, newest first, without gaps or repeats', async () => {
    const first = await page({ page: 1 });
    expect(first).toMatchObject({ total: 30, page: 1, pageCount: 3 });
    expect(first.items.map((i) => i.id)).toEqual(newestFirst(30, 18));
    const second = await page({ page: 2 });
    expect(second.items.map((i) => i.id)).toEqual(newestFirst(17, 6));
    const third = await page({ page: 3 });
    expect(third).toMatchObject({ page: 3, pageCount: 3 });
    expect(third.items.map((i) => i.id)).toEqual(newestFirst(5, 1));
  });

  it('clamps page numbers to the pages that exist', async () => {
    expect((await page({ page: 99 })).page).toBe(3);
    expect((await page({ page: 99 })).items.map((i) => i.id)).toEqual(newestFirst(5, 1));
    for (const bad of [0, -1, Number.NaN, 1.7]) expect((await page({ page: bad })).page).toBe(1);
    expect((await page({ page: Number.MAX_SAFE_INTEGER })).page).toBe(3);
  });

  it('pages through search results and a category', async () => {
    const zebra = await page({ query: 'zebra', page: 2 });
    expect(zebra).toMatchObject({ total: 15, page: 2, pageCount: 2 });
    expect(zebra.items.map((i) => i.id)).toEqual([id(3), id(1)]);
    const community = await page({ category: 'community' });
    expect(community.total).toBe(10);
    expect(community.items.every((i) => i.category === 'community')).toBe(true);
    expect(await page({ query: 'zebra', category: 'community' })).toMatchObject({ total: 5, pageCount: 1 });
    expect(await page({ query: 'giraffe' })).toMatchObject({ total: 0, items: [], page: 1, pageCount: 1 });
  });

  it('lists the categories items carry, per collection', async () => {
    expect([...(await listUsedCategories('blogs', database().db))].sort()).toEqual(['community', 'education', 'technology']);
    expect(await listUsedCategories('news', database().db)).toEqual(['news']);
  });

  it('reads search, category and page from the URL', async () => {
    const result = await load('?q=%20Zebra%20&category=community&page=1');
    expect(result.httpStatus).toBe(200);
    expect(result.data).toMatchObject({ status: 'ok', q: 'Zebra', category: 'community', problem: null });
    expect(result.data.list.total).toBe(5);
    expect((await load('?page=2')).data.list.items.map((i) => i.id)).toEqual(newestFirst(17, 6));
  });

  it("offers the spec's story categories, then any other one in use", async () => {
    const { categories } = (await load('')).data;
    expect(categories.map((c) => c.value)).toEqual([...COLLECTION_INFO.blogs.publicCategories, 'technology']);
    expect(categories[0]).toEqual({ value: 'personal-experience', label: 'Personal Experience' });
    expect((await load('?category=technology')).data.list.items.map((i) => i.id)).toEqual([id(7)]);
    // A category of the spec's list with no items yet is an empty result, not an error.
    expect((await load('?category=inspiration')).data).toMatchObject({ problem: null, category: 'inspiration' });
    expect((await load('?category=inspiration')).data.list.total).toBe(0);
  });

  it('ignores an unknown category with a message and lists everything', async () => {
    const result = await load(`?category=${encodeURIComponent('<script>alert(1)</script>')}`);
    expect(result.httpStatus).toBe(200);
    expect(result.data).toMatchObject({
      problem: 'unknown-category',
      rejectedCategory: '<script>alert(1)</script>',
      category: '',
    });
    expect(result.data.list.total).toBe(30);
    const newsCategory = await loadContentList('news', new URL('http://x/news?category=news'), database().db, engine);
    expect(newsCategory.data.problem).toBeNull();
    expect(newsCategory.data.list.items.map((i) => i.id)).toEqual(['n1']);
  });

  it('refuses a search longer than 200 characters with 400 and no results', async () => {
    const result = await load(`?q=${'a'.repeat(5000)}`);
    expect(result.httpStatus).toBe(400);
    expect(result.data).toMatchObject({ status: 'ok', problem: 'query-too-long' });
    expect(result.data.q).toHaveLength(200);
    expect(result.data.list.items).toEqual([]);
    expect((await load(`?q=${'a'.repeat(200)}`)).httpStatus).toBe(200);
  });

  it('falls back to page 1 for page numbers that are not numbers', async () => {
    for (const bad of ['-1', 'abc', '1e3', '', '2.5', '99999999999999999999']) {
      const result = await load(`?page=${bad}`);
      expect(result.httpStatus).toBe(200);
      expect(result.data.list.page).toBe(1);
    }
    expect((await load('?page=500')).data.list.page).toBe(3);
  });

  it('treats search syntax as plain words', async () => {
    for (const q of ['"', 'zebra OR', "zebra'); DROP TABLE content; --", '*', '&|!:*']) {
      expect((await load(`?q=${encodeURIComponent(q)}`)).httpStatus).toBe(200);
    }
    expect((await load('')).data.list.total).toBe(30);
  });

  it('keeps a list’s count, its categories and the site settings for the serving database until something public changes', async () => {
    const stop = keepPublicReads(database().db);
    try {
      const before = await load('');
      expect(before.data.list.total).toBe(30);
      const name = (await getSiteInfo(database().db)).name;
      const at = new Date(Date.UTC(2026, 2, 1)).toISOString();
      await database()
        .db.insertInto('content')
        .values({
          id: 'kept-1',
          collection: 'blogs',
          title: 'A story written straight into the database',
          content: '<p>New</p>',
          category: 'sports',
          author: 'Test Author',
          created_at: at,
          published_at: at,
          updated_at: at,
        })
        .execute();
      await database()
        .db.insertInto('settings')
        .values({ key: settingKey('orgName'), value: JSON.stringify('Renamed'), updated_at: at })
        .execute();
      // The rows are read each time; the count, the categories and the settings are those kept.
      const kept = await load('');
      expect(kept.data.list.items[0]!.id).toBe('kept-1');
      expect(kept.data.list.total).toBe(30);
      expect(kept.data.categories.map((c) => c.value)).not.toContain('sports');
      expect((await getSiteInfo(database().db)).name).toBe(name);
      // A search is counted afresh.
      expect((await load('?q=straight')).data.list.total).toBe(1);
      publicContentChanged();
      const after = await load('');
      expect(after.data.list.total).toBe(31);
      expect(after.data.categories.map((c) => c.value)).toContain('sports');
      expect((await getSiteInfo(database().db)).name).toBe('Renamed');
      // The dashboard's own reads never wait for a change to be announced.
      await database()
        .db.updateTable('settings')
        .set({ value: JSON.stringify('Renamed again') })
        .where('key', '=', settingKey('orgName'))
        .execute();
      expect((await readSiteSettings(['orgName'], database().db)).values.orgName).toBe('Renamed again');
    } finally {
      stop();
      await database().db.deleteFrom('content').where('id', '=', 'kept-1').execute();
      await database().db.deleteFrom('settings').where('key', '=', settingKey('orgName')).execute();
    }
  });

  it('answers 500 and logs when the database cannot be read', async () => {
    const log = vi.spyOn(getLogger(), 'error').mockImplementation(() => undefined);
    const result = await withUnreadableDatabase(engine, (broken) =>
      loadContentList('news', new URL('http://x/news'), broken.db, engine),
    );
    expect(result.httpStatus).toBe(500);
    expect(result.data.status).toBe('error');
    expect(log).toHaveBeenCalledOnce();
    log.mockRestore();
  });
});
