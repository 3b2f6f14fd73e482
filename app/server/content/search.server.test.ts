import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { sql } from 'kysely';
import { searchContent, searchTerms, tidySearchIndex } from './search.server';

describe('searchTerms', () => {
  it('keeps words only, lower-cased, without duplicates', () => {
    expect(searchTerms('Sign LANGUAGE, sign! "quote" OR * NEAR(')).toEqual(['sign', 'language', 'quote', 'or', 'near']);
    expect(searchTerms('   ')).toEqual([]);
    expect(searchTerms('Kampala’s café')).toEqual(['kampala', 's', 'café']);
  });

  it('caps the number of words', () => {
    expect(searchTerms('a b c d e f g h i j k')).toHaveLength(8);
  });
});

describe.each(ENGINES)('searchContent on %s', (engine) => {
  const database = useTestDatabase(engine);
  const search = (options: Parameters<typeof searchContent>[0]) => searchContent(options, database().db, engine);

  beforeAll(async () => {
    const rows = [
      ['a', 'blogs', 'Learning sign language in Wakiso', 'community', 'Parents meet every Saturday.', '["sign language"]', 3],
      ['b', 'blogs', 'Ramps at the taxi park', 'advocacy', 'Wheelchair users and boda-boda riders.', '["mobility"]', 2],
      [
        'c',
        'blogs',
        'A deaf student in Kampala',
        'education',
        'Interpreters in the classroom make signing possible.',
        '["education"]',
        1,
      ],
      ['d', 'news', 'Sign language workshop for employers', 'news', 'Forty staff trained.', '["employment"]', 1],
    ] as const;
    for (const [id, collection, title, category, body, tags, daysAgo] of rows) {
      const at = new Date(Date.UTC(2026, 0, 10 - daysAgo)).toISOString();
      await database()
        .db.insertInto('content')
        .values({
          id,
          collection,
          title,
          summary: null,
          excerpt: body,
          content: `<p>${body}</p>`,
          search_text: body,
          category,
          author: 'Test',
          tags,
          created_at: at,
          published_at: at,
          updated_at: at,
        })
        .execute();
    }
  });

  it('lists one collection newest first when there is no query', async () => {
    const result = await search({ collection: 'blogs', limit: 10 });
    expect(result.rows.map((r) => r.id)).toEqual(['c', 'b', 'a']);
    expect(result.total).toBe(3);
  });

  it('finds words in titles, bodies and tags, by prefix and stem', async () => {
    expect((await search({ collection: 'blogs', query: 'sign', limit: 10 })).rows.map((r) => r.id)).toEqual(['c', 'a']);
    expect((await search({ collection: 'blogs', query: 'wheelchair', limit: 10 })).rows.map((r) => r.id)).toEqual(['b']);
    expect((await search({ collection: 'blogs', query: 'kamp', limit: 10 })).rows.map((r) => r.id)).toEqual(['c']);
    expect((await search({ collection: 'blogs', query: 'mobility', limit: 10 })).rows.map((r) => r.id)).toEqual(['b']);
  });

  it('finds a word of one or two letters only whole, not as the start of every word it begins', async () => {
    expect((await search({ collection: 'blogs', query: 'ka', limit: 10 })).total).toBe(0);
    expect((await search({ collection: 'blogs', query: 'kam', limit: 10 })).rows.map((r) => r.id)).toEqual(['c']);
    expect((await search({ collection: 'blogs', query: 'in kampala', limit: 10 })).rows.map((r) => r.id)).toEqual(['c']);
    expect((await search({ collection: 'blogs', query: 'a b c d e f g h', limit: 10 })).total).toBe(0);
  });

  it('needs every word to match', async () => {
    expect((await search({ collection: 'blogs', query: 'sign saturday', limit: 10 })).rows.map((r) => r.id)).toEqual(['a']);
    expect((await search({ collection: 'blogs', query: 'sign zebra', limit: 10 })).total).toBe(0);
  });

  it('keeps to the collection and the category', async () => {
    expect((await search({ collection: 'news', query: 'sign', limit: 10 })).rows.map((r) => r.id)).toEqual(['d']);
    expect(
      (await search({ collection: 'blogs', query: 'sign', category: 'community', limit: 10 })).rows.map((r) => r.id),
    ).toEqual(['a']);
    expect((await search({ collection: 'blogs', category: 'no-such-category', limit: 10 })).total).toBe(0);
  });

  it('pages through results and counts them all', async () => {
    const page = await search({ collection: 'blogs', limit: 2, offset: 2 });
    expect(page.rows.map((r) => r.id)).toEqual(['a']);
    expect(page.total).toBe(3);
  });

  it('never hides everything behind a query of common words only', async () => {
    // PostgreSQL's index leaves out stop words such as "the"; SQLite's keeps them. Either way the
    // items that hold the word are listed.
    const found = await search({ collection: 'blogs', query: 'the', limit: 10 });
    expect(found.rows.map((r) => r.id)).toEqual(expect.arrayContaining(['c', 'b']));
  });

  it('treats search syntax as plain words', async () => {
    for (const query of ['"', 'sign OR', 'NEAR(sign', "sign'); DROP TABLE content; --", '*', 'title:sign', '&|!:*']) {
      await expect(search({ collection: 'blogs', query, limit: 10 })).resolves.toBeDefined();
    }
    expect((await search({ collection: 'blogs', limit: 10 })).total).toBe(3);
  });

  it('counts what the list shows as items are unpublished, moved and translated', async () => {
    const found = async (collection: 'blogs' | 'news') => {
      const { rows, total } = await search({ collection, query: 'sign', limit: 10 });
      return { ids: rows.map((r) => r.id), total };
    };
    expect(await found('blogs')).toEqual({ ids: ['c', 'a'], total: 2 });
    const change = (values: { status?: 'draft' | 'published'; collection?: 'blogs' | 'news'; language?: 'en' | 'lg' }) =>
      database().db.updateTable('content').set(values).where('id', '=', 'a').execute();
    await change({ status: 'draft' });
    expect(await found('blogs')).toEqual({ ids: ['c'], total: 1 });
    await change({ status: 'published', collection: 'news' });
    expect(await found('blogs')).toEqual({ ids: ['c'], total: 1 });
    expect(await found('news')).toEqual({ ids: ['d', 'a'], total: 2 });
    await change({ collection: 'blogs', language: 'lg' });
    expect(await found('blogs')).toEqual({ ids: ['c'], total: 1 });
    await change({ language: 'en' });
    expect(await found('blogs')).toEqual({ ids: ['c', 'a'], total: 2 });
  });

  it('never matches the words the index keeps for itself', async () => {
    for (const query of ['sblogsxpublishedxen0', 'sblogs', 'scope']) {
      expect((await search({ collection: 'blogs', query, limit: 10 })).total, query).toBe(0);
    }
  });

  it('follows edits and deletions', async () => {
    await database()
      .db.updateTable('content')
      .set({ title: 'Zebra crossings', search_text: 'zebra' })
      .where('id', '=', 'b')
      .execute();
    expect((await search({ collection: 'blogs', query: 'zebra', limit: 10 })).rows.map((r) => r.id)).toEqual(['b']);
    expect((await search({ collection: 'blogs', query: 'ramps', limit: 10 })).total).toBe(0);
    await database().db.deleteFrom('content').where('id', '=', 'b').execute();
    expect((await search({ collection: 'blogs', query: 'zebra', limit: 10 })).total).toBe(0);
  });
});

describe.each(ENGINES)("the search index's daily tidy on %s (issue 29)", (engine) => {
  const database = useTestDatabase(engine);
  const search = (query: string) => searchContent({ collection: 'blogs', query, limit: 50 }, database().db, engine);
  /** SQLite: the pages of the search index (its pieces' leaves and their structure). */
  const indexPages = async () =>
    Number((await sql<{ n: number }>`SELECT count(*) AS n FROM content_fts_data`.execute(database().db)).rows[0]!.n);

  it('merges the pieces each saved story wrote, a few pages at a time, and finds the same stories', async () => {
    // Saved one at a time, as staff do: each story is a piece of the index of its own.
    for (let i = 0; i < 40; i++) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
      await database()
        .db.insertInto('content')
        .values({
          id: `t${i}`,
          collection: 'blogs',
          title: `Story ${i} about ${i % 2 ? 'access' : 'captions'} in Kampala`,
          summary: null,
          excerpt: `Accessible taxis ${i}`,
          content: '<p>Text</p>',
          search_text: `Word${i} accessibility`,
          category: 'community',
          author: 'Test',
          tags: '[]',
          created_at: at,
          published_at: at,
          updated_at: at,
        })
        .execute();
    }
    await database().db.deleteFrom('content').where('id', 'in', ['t0', 't1', 't2']).execute();
    const queries = ['access', 'acc', 'cap', 'kampala', 'word17', 'taxi'];
    const before = await Promise.all(queries.map(search));
    const pagesBefore = engine === 'sqlite' ? await indexPages() : 0;

    const steps = await tidySearchIndex(database().db, engine, 2);
    if (engine === 'sqlite') {
      expect(steps).toBeGreaterThan(0);
      expect(await indexPages()).toBeLessThan(pagesBefore);
      // Merged: nothing is left to do.
      expect(await tidySearchIndex(database().db, engine, 2)).toBe(0);
    } else {
      expect(steps).toBe(0);
    }
    const after = await Promise.all(queries.map(search));
    expect(after.map((r) => r.total)).toEqual(before.map((r) => r.total));
    expect(after.map((r) => r.rows.map((row) => row.id))).toEqual(before.map((r) => r.rows.map((row) => row.id)));
    expect(after.map((r) => r.total)).toEqual([37, 37, 18, 37, 1, 37]);
  });
});
