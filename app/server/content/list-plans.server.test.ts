import Sqlite from 'better-sqlite3';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestDatabase } from '../../../tests/support/databases';
import { SQLITE_FILE } from '../db/db.server';
import { listRelatedArticles } from './articles.server';
import { loadContentList } from './content.server';
import { listPublishedVersions } from './translated.server';

// Issue 29: the public lists read their index, however large the stories grow. SQLite stores a row's
// columns in order, and a column added after the body (language, translation_of) is read by walking
// the body's overflow pages: a list whose condition on such a column is not in its index reads every
// published story to check it (with 5,000 stories an uncached /blog fell from 172 to 15 requests a
// second). Each query the lists make is explained here by SQLite itself.

describe('the public lists on sqlite', () => {
  const database = useTestDatabase('sqlite');

  beforeAll(async () => {
    const at = (n: number) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString();
    const story = (n: number, extra: object = {}) => ({
      id: `s${n}`,
      collection: 'blogs' as const,
      title: `Story ${n} about sign language`,
      summary: 'A story.',
      content: `<p>${'Words of the story. '.repeat(400)}</p>`,
      category: n % 2 ? 'education' : 'community',
      author: 'Test Author',
      created_at: at(n),
      published_at: at(n),
      updated_at: at(n),
      language: 'en',
      translation_of: null as string | null,
      easy_read: n % 3 ? null : 'A short story in plain words.',
      ...extra,
    });
    await database()
      .db.insertInto('content')
      .values([
        ...Array.from({ length: 30 }, (_, i) => story(i + 1)),
        story(99, { id: 's1-lg', language: 'lg', translation_of: 's1' }),
      ])
      .execute();
  });

  /** Each SELECT (or WITH) on the content table that `read` prepares, with SQLite's plan for it. */
  async function plansOf(read: () => Promise<void>) {
    const prepare = vi.spyOn(Sqlite.prototype, 'prepare');
    let prepared: string[];
    try {
      await read();
    } finally {
      prepared = prepare.mock.calls.map(([source]) => source);
      prepare.mockRestore();
    }
    const sources = [...new Set(prepared.filter((s) => /^\s*(?:select|with)\b/i.test(s) && /from "?content"?\s/i.test(s)))];
    const reader = new Sqlite(path.join(database().dataDir, SQLITE_FILE), { readonly: true });
    try {
      return sources.map((source) => {
        const statement = reader.prepare(`EXPLAIN QUERY PLAN ${source}`);
        const nulls = Array.from({ length: (source.match(/\?/g) ?? []).length }, () => null);
        const plan = (statement.all(...nulls) as { detail: string }[]).map((row) => row.detail);
        return { source, plan };
      });
    } finally {
      reader.close();
    }
  }

  it('never read every story to find a page, its count, the categories, related stories or a feed', async () => {
    const plans = await plansOf(async () => {
      for (const [address, language] of [
        ['/blog', 'en'],
        ['/blog?category=community', 'en'],
        ['/blog?page=2', 'en'],
        ['/blog?easy=1', 'en'],
        ['/lg/blog', 'lg'],
        ['/lg/blog?category=education&page=2', 'lg'],
      ] as const) {
        const { data, httpStatus } = await loadContentList(
          'blogs',
          new URL(address, 'http://x'),
          database().db,
          'sqlite',
          language,
        );
        expect(httpStatus, address).toBe(200);
        expect(data.list.total, address).toBeGreaterThan(0);
      }
      expect(
        await listRelatedArticles({ id: 's5', collection: 'blogs', category: 'education' }, database().db, 'lg'),
      ).toHaveLength(3);
      expect(await listPublishedVersions('blogs', 'lg', 20, database().db)).toHaveLength(1);
    });
    // The page, its count and the categories, with and without a category, the Luganda versions,
    // the related stories and the Luganda feed.
    expect(plans.length).toBeGreaterThanOrEqual(8);
    // Issue 29: the categories come from a skip through the index, one step per category.
    expect(plans.some(({ plan }) => plan.some((step) => /category>\?/.test(step)))).toBe(true);
    for (const { source, plan } of plans) {
      for (const step of plan.filter((s) => /^(SCAN|SEARCH) content\b/.test(s))) {
        expect(step, `${source}\n${plan.join('\n')}`).not.toMatch(/^SCAN content\b/);
        if (/"translation_of" in/.test(source))
          // The versions of a page's items: found by their English items' ids, not among every published row.
          expect(step, `${source}\n${plan.join('\n')}`).toMatch(/translation_of=\?/);
        else if (/"language" = \?/.test(source))
          // Asked for English items: the index narrows by language, or holds every column the query reads.
          expect(step, `${source}\n${plan.join('\n')}`).toMatch(/language=\?|COVERING INDEX/);
      }
    }
  });
});
