import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, ENGINES, useTestDatabase, type TestDatabase } from '../../../tests/support/databases';
import type { Collection } from '~/lib/collections';
import { listRelatedArticles, loadArticlePage, readArticle, readArticleAuthor } from './articles.server';
import { getLogger } from '../platform/logger.server';
import { sanitizeArticleHtml, storedBody } from '../platform/sanitize.server';
import { SETTING_KEYS, writeSetting } from '../platform/settings.server';
import { DEFAULT_FOUNDER } from '../site/site-defaults.server';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 31);

interface Row {
  id: string;
  collection?: Collection;
  category: string;
  daysAgo: number;
  content?: string;
  /** Store `content` exactly as given, bypassing the writers' sanitising (the trust-boundary test). */
  raw?: boolean;
  authorEmail?: string | null;
  summary?: string;
}

async function insertArticles(database: TestDatabase, rows: Row[]) {
  for (const row of rows) {
    const at = new Date(NOW - row.daysAgo * DAY).toISOString();
    const collection = row.collection ?? 'blogs';
    await database.db
      .insertInto('content')
      .values({
        id: row.id,
        collection,
        title: `Title ${row.id}`,
        summary: collection === 'blogs' ? null : (row.summary ?? `Summary ${row.id}`),
        excerpt: collection === 'blogs' ? (row.summary ?? `Summary ${row.id}`) : null,
        // Stored as every writer stores a body: sanitised, with its text (decision 202).
        ...(row.raw ? { content: row.content ?? '', search_text: '' } : storedBody(row.content ?? `<p>Body of ${row.id}</p>`)),
        category: row.category,
        author: 'Someone',
        author_email: row.authorEmail ?? null,
        image_url: null,
        image_alt: null,
        tags: '["one","two"]',
        created_at: at,
        published_at: at,
        updated_at: at,
      })
      .execute();
  }
}

async function insertUser(database: TestDatabase, user: { email: string; name: string; socialLinks?: string }) {
  const at = new Date(NOW).toISOString();
  await database.db
    .insertInto('system_users')
    .values({
      id: user.email,
      name: user.name,
      email: user.email,
      role: 'AUTHOR',
      bio: `Short bio of ${user.name}.`,
      title: `Title of ${user.name}`,
      full_bio: `Full bio of ${user.name}.`,
      social_links: user.socialLinks ?? '{}',
      profile_picture: null,
      password_hash: null,
      created_at: at,
      updated_at: at,
      updated_by: null,
      last_login: null,
    })
    .execute();
}

/** Makes every query with a LIMIT fail: the related-article queries, and nothing else on the page. */
const failLimitedQueries: KyselyPlugin = {
  transformQuery(args: PluginTransformQueryArgs) {
    if (args.node.kind === 'SelectQueryNode' && args.node.limit) throw new Error('related query failed');
    return args.node;
  },
  transformResult: async (args: PluginTransformResultArgs) => args.result,
};

describe.each(ENGINES)('related articles on %s (spec §7)', (engine) => {
  const database = useTestDatabase(engine);
  const related = async (id: string, category: string, collection: Collection = 'blogs') =>
    (await listRelatedArticles({ id, collection, category }, database().db)).map((r) => r.id);

  beforeAll(async () => {
    await insertArticles(database(), [
      // Education: five stories, so the same-category query alone fills the list.
      { id: 'edu-1', category: 'education', daysAgo: 1 },
      { id: 'edu-2', category: 'education', daysAgo: 4 },
      { id: 'edu-3', category: 'education', daysAgo: 6 },
      { id: 'edu-4', category: 'education', daysAgo: 9 },
      { id: 'edu-5', category: 'education', daysAgo: 12 },
      // Community: two stories, so the other one needs a top-up of two.
      { id: 'com-1', category: 'community', daysAgo: 2 },
      { id: 'com-2', category: 'community', daysAgo: 20 },
      // Advocacy: one story, older than the newest six.
      { id: 'adv-1', category: 'advocacy', daysAgo: 30 },
      { id: 'other-1', category: 'general', daysAgo: 3 },
      { id: 'other-2', category: 'general', daysAgo: 5 },
      // Other collections never appear among stories' related articles.
      { id: 'news-1', collection: 'news', category: 'education', daysAgo: 0 },
      { id: 'news-2', collection: 'news', category: 'community', daysAgo: 1 },
      { id: 'res-1', collection: 'resources', category: 'education', daysAgo: 0 },
    ]);
  });

  it('takes the newest of the same category, without the current article, and keeps 3', async () => {
    expect(await related('edu-1', 'education')).toEqual(['edu-2', 'edu-3', 'edu-4']);
    expect(await related('edu-3', 'education')).toEqual(['edu-1', 'edu-2', 'edu-4']);
  });

  it('tops up from the newest 6 of the collection when fewer than 3 share the category', async () => {
    // Same category: com-1 only. Newest 6 stories: edu-1, com-1, other-1, edu-2, other-2, edu-3.
    expect(await related('com-2', 'community')).toEqual(['com-1', 'edu-1', 'other-1']);
  });

  it('skips the current article and duplicates while topping up', async () => {
    // Same category: com-2. The newest 6 hold com-1 itself; it is skipped, as is nothing twice.
    const ids = await related('com-1', 'community');
    expect(ids).toEqual(['com-2', 'edu-1', 'other-1']);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain('com-1');
  });

  it('fills the list with the newest of the collection when no other article shares the category', async () => {
    expect(await related('adv-1', 'advocacy')).toEqual(['edu-1', 'com-1', 'other-1']);
  });

  it('keeps to the collection', async () => {
    expect(await related('news-1', 'education', 'news')).toEqual(['news-2']);
    expect(await related('res-1', 'education', 'resources')).toEqual([]);
  });

  it('returns a short list rather than repeating when the collection is small', async () => {
    expect(await related('news-2', 'community', 'news')).toEqual(['news-1']);
  });

  it('gives what the cards show: title, summary cut to 120 characters, date', async () => {
    await insertArticles(database(), [
      { id: 'long-1', collection: 'news', category: 'long', daysAgo: 40, summary: 'word '.repeat(60) },
      { id: 'long-2', collection: 'news', category: 'long', daysAgo: 41 },
    ]);
    const [card] = await listRelatedArticles({ id: 'long-2', collection: 'news', category: 'long' }, database().db);
    expect(card).toMatchObject({ id: 'long-1', collection: 'news', title: 'Title long-1', category: 'long' });
    expect(card!.summary.length).toBeLessThanOrEqual(120);
    expect(card!.summary.endsWith('…')).toBe(true);
    expect(card!.createdAt).toBe(new Date(NOW - 40 * DAY).toISOString());
  });
});

describe.each(ENGINES)('reading one article on %s', (engine) => {
  const database = useTestDatabase(engine);

  beforeAll(async () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
    await insertArticles(database(), [
      {
        id: 'story-a',
        category: 'education',
        daysAgo: 1,
        authorEmail: 'Author@Example.org',
        content: `<h1>Heading</h1><p onclick="steal()">${words(150)}</p><script>${words(500)}</script><p>${words(51)}</p>`,
      },
      { id: 'story-b', category: 'education', daysAgo: 2, authorEmail: 'gone@example.org', content: `<p>${words(200)}</p>` },
      { id: 'story-c', category: '', daysAgo: 3 },
      { id: 'news-a', collection: 'news', category: 'news', daysAgo: 1 },
    ]);
    await insertUser(database(), {
      email: 'author@example.org',
      name: 'Amina Author',
      socialLinks: JSON.stringify({ twitter: 'https://x.example/amina', linkedin: 'javascript:alert(1)' }),
    });
    await insertUser(database(), { email: 'founder@example.org', name: 'Fiona Founder' });
  });
  afterEach(() => vi.restoreAllMocks());

  it('reads an article of the collection with the body its writer sanitised', async () => {
    const found = await readArticle('blogs', 'story-a', database().db);
    expect(found?.article).toMatchObject({
      id: 'story-a',
      collection: 'blogs',
      title: 'Title story-a',
      summary: 'Summary story-a',
    });
    expect(found?.article.tags).toEqual(['one', 'two']);
    expect(found?.article.html).toContain('<h2>Heading</h2>');
    expect(found?.article.html).not.toMatch(/script|onclick|<h1/);
  });

  it('shows a stored body exactly as stored: reading never sanitises (the trust boundary)', async () => {
    // Something the sanitiser would change, put straight into the database past every writer.
    const body = '<div class="kept"><p data-note="as is">Stored <font color="red">as it is</font>.</p></div>';
    expect(sanitizeArticleHtml(body)).not.toBe(body);
    await insertArticles(database(), [
      { id: 'stored-raw', collection: 'resources', category: 'other', daysAgo: 9, content: body, raw: true },
    ]);
    const page = await loadArticlePage('resources', 'stored-raw', database().db);
    if (page.status !== 200) throw new Error(`expected the article, got ${page.status}`);
    expect(page.article.html).toBe(body);
    // The page's component puts it into the document untouched: app/components/article-body.test.tsx.
  });

  it('counts read time at 200 words a minute, rounded up, from the text a reader sees', async () => {
    // 1 heading word + 150 + 51 visible words = 202 words; the script's 500 words are not read.
    expect((await readArticle('blogs', 'story-a', database().db))?.article.readTime).toBe('2 min read');
    expect((await readArticle('blogs', 'story-b', database().db))?.article.readTime).toBe('1 min read');
    expect((await readArticle('blogs', 'story-c', database().db))?.article.readTime).toBe('1 min read');
  });

  it('finds nothing in another collection, for an unknown id or for an odd id', async () => {
    expect(await readArticle('news', 'story-a', database().db)).toBeUndefined();
    expect(await readArticle('blogs', 'news-a', database().db)).toBeUndefined();
    expect(await readArticle('blogs', 'no-such-story', database().db)).toBeUndefined();
    expect(await readArticle('blogs', "story-a' OR '1'='1", database().db)).toBeUndefined();
  });

  it("uses the author's staff profile, matched by email, with only web links", async () => {
    const author = await readArticleAuthor('Author@Example.org', database().db);
    expect(author).toEqual({
      name: 'Amina Author',
      title: 'Title of Amina Author',
      bio: 'Short bio of Amina Author.',
      fullBio: 'Full bio of Amina Author.',
      picture: null,
      twitter: 'https://x.example/amina',
      linkedin: null,
    });
  });

  it("falls back to the founder's profile when the author has none", async () => {
    // Before the setting exists: the built-in founder, as on the home and About pages.
    expect((await readArticleAuthor('gone@example.org', database().db)).name).toBe(DEFAULT_FOUNDER.name);
    await writeSetting(database().db, SETTING_KEYS.founderEmail, 'founder@example.org');
    expect(await readArticleAuthor('gone@example.org', database().db)).toMatchObject({
      name: 'Fiona Founder',
      title: 'Title of Fiona Founder',
      fullBio: 'Full bio of Fiona Founder.',
    });
    expect((await readArticleAuthor(null, database().db)).name).toBe('Fiona Founder');
  });

  it('loads the whole page, and answers 404 for missing and odd ids', async () => {
    const page = await loadArticlePage('blogs', 'story-a', database().db);
    expect(page.status).toBe(200);
    if (page.status !== 200) return;
    expect(page.author.name).toBe('Amina Author');
    expect(page.related.map((r) => r.id)).toEqual(['story-b', 'story-c']);
    expect(await loadArticlePage('blogs', 'missing', database().db)).toEqual({ status: 404 });
    expect(await loadArticlePage('blogs', '<script>', database().db)).toEqual({ status: 404 });
    expect(await loadArticlePage('blogs', 'x'.repeat(500), database().db)).toEqual({ status: 404 });
    expect(await loadArticlePage('blogs', undefined, database().db)).toEqual({ status: 404 });
  });

  it('still shows the article when the related articles fail, and logs the failure', async () => {
    const logged = vi.spyOn(getLogger(), 'error').mockImplementation(() => undefined);
    const page = await loadArticlePage('blogs', 'story-a', database().db.withPlugin(failLimitedQueries));
    expect(page.status).toBe(200);
    if (page.status === 200) expect(page.related).toEqual([]);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ id: 'story-a' }), 'related articles read failed');
  });

  it('answers 500 and logs when the article cannot be read', async () => {
    const logged = vi.spyOn(getLogger(), 'error').mockImplementation(() => undefined);
    const broken = await createTestDatabase(engine, { migrate: false });
    await broken.drop();
    expect(await loadArticlePage('blogs', 'story-a', broken.db)).toEqual({ status: 500 });
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ id: 'story-a' }), 'article read failed');
  });
});
