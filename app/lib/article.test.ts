import { describe, expect, it } from 'vitest';
import { categoryLabel } from './categories';
import { collectionFromPath, isArticleId, isArticlePathname, isStoryPath } from './article';
import { articlePath } from './collections';

describe('collectionFromPath (spec §2 collection choice)', () => {
  it('uses news for a path containing news, resources for one containing resources, blogs otherwise', () => {
    expect(collectionFromPath('/news/abc')).toBe('news');
    expect(collectionFromPath('/resources/abc')).toBe('resources');
    expect(collectionFromPath('/blog/abc')).toBe('blogs');
    expect(collectionFromPath('/anything/abc')).toBe('blogs');
    expect(collectionFromPath('/in-the-news/abc')).toBe('news');
    expect(collectionFromPath('/free-resources/abc')).toBe('resources');
  });

  it('looks at the route, not at the id, so a story titled "News ..." stays a story', () => {
    expect(collectionFromPath('/blog/news-from-gulu-a1b2c3')).toBe('blogs');
    expect(collectionFromPath('/blog/resources-for-parents-a1b2c3')).toBe('blogs');
    expect(collectionFromPath('/news/resources-round-up-a1b2c3')).toBe('news');
    expect(collectionFromPath('/resources/news-digest/')).toBe('resources');
  });

  it('reads paths made of many slashes correctly and at once', () => {
    expect(collectionFromPath('/news///')).toBe('blogs');
    expect(collectionFromPath('/news/a///')).toBe('news');
    expect(collectionFromPath('///')).toBe('blogs');
    expect(collectionFromPath('')).toBe('blogs');
    expect(collectionFromPath('news')).toBe('news');
    const start = performance.now();
    expect(collectionFromPath(`/news${'/'.repeat(200_000)}x`)).toBe('news');
    expect(performance.now() - start).toBeLessThan(5_000);
  });
});

describe('isArticleId', () => {
  it('accepts slugs and UUIDs', () => {
    expect(isArticleId('front-row-eyes-open-a1b2c3')).toBe(true);
    expect(isArticleId('3f2b8c1e-9d4a-4b7e-8f00-123456789abc')).toBe(true);
    expect(isArticleId('a_B-9')).toBe(true);
  });

  it('refuses odd characters, empty and overlong ids', () => {
    for (const id of [undefined, '', '<script>', 'a b', 'a/b', '../etc', 'é', 'x'.repeat(121), "1' OR '1'='1", 'a.b']) {
      expect(isArticleId(id), String(id)).toBe(false);
    }
    expect(isArticleId('x'.repeat(120))).toBe(true);
  });
});

describe('the category badge', () => {
  it('reads General when an article has no category (spec §2)', () => {
    expect(categoryLabel('')).toBe('General');
    expect(categoryLabel(null)).toBe('General');
    expect(categoryLabel('personal-experience')).toBe('Personal Experience');
  });
});

describe('article paths', () => {
  it('builds the page address of each collection', () => {
    expect(articlePath('blogs', 'a')).toBe('/blog/a');
    expect(articlePath('news', 'a')).toBe('/news/a');
    expect(articlePath('resources', 'a')).toBe('/resources/a');
  });

  it('recognises article pages and nothing else', () => {
    expect(isArticlePathname('/blog/a')).toBe(true);
    expect(isArticlePathname('/news/a-b')).toBe(true);
    expect(isArticlePathname('/resources/a')).toBe(true);
    for (const path of ['/blog', '/news/', '/blog/rss.xml', '/news/rss.xml', '/services/a', '/blog/a/b']) {
      expect(isArticlePathname(path), path).toBe(false);
    }
  });
});

describe('isStoryPath', () => {
  it('takes the exact address of a story of any collection, with an id that could exist', () => {
    for (const path of ['/blog/a', '/news/a-b_C', '/resources/0f1e2d3c-aaaa-4bbb-8ccc-123456789abc', `/blog/${'a'.repeat(120)}`])
      expect(isStoryPath(path), path).toBe(true);
    for (const path of [
      '/blog',
      '/blog/',
      '/blog/a/',
      '/blog/rss.xml',
      '/services/a',
      '/blog/a b',
      `/blog/${'a'.repeat(121)}`,
      '/blogs/a',
    ])
      expect(isStoryPath(path), path).toBe(false);
  });
});
