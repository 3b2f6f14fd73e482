import { expect, test, type Page } from '@playwright/test';
import { SEED_ARTICLES, SEED_SERVICES } from '../../app/server/demo/seed-data';
import { E2E } from './env';

// What search engines and feed readers get: robots.txt, the sitemap and the two RSS feeds.

interface ParsedXml {
  error: string | null;
  root: string;
  namespace: string | null;
  nodes: Record<string, string>[];
  channel: Record<string, string>;
}

/** Parses XML with the browser's own strict parser; `nodes` are the <url> or <item> children as text. */
async function parseXml(page: Page, xml: string, nodeName: string): Promise<ParsedXml> {
  return page.evaluate(
    ({ text, name }) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      const error = doc.querySelector('parsererror')?.textContent ?? null;
      const fields = (element: Element) =>
        Object.fromEntries([...element.children].map((child) => [child.tagName, child.textContent ?? '']));
      const channel = doc.querySelector('channel');
      return {
        error,
        root: doc.documentElement.tagName,
        namespace: doc.documentElement.namespaceURI,
        nodes: [...doc.getElementsByTagName(name)].map(fields),
        channel: channel ? fields(channel) : {},
      };
    },
    { text: xml, name: nodeName },
  );
}

test('robots.txt allows the public site, keeps crawlers out of /admin and points to the sitemap', async ({ request }) => {
  const response = await request.get('/robots.txt');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('text/plain; charset=utf-8');
  expect(response.headers()['cache-control']).toMatch(/public, max-age=\d+/);
  const lines = (await response.text()).split('\n');
  expect(lines).toContain('User-agent: *');
  expect(lines).toContain('Allow: /');
  expect(lines).toContain('Disallow: /admin');
  expect(lines).toContain(`Sitemap: ${E2E.baseURL}/sitemap.xml`);
});

test('the sitemap lists every public page and every article and service, with absolute URLs', async ({ page, request }) => {
  const response = await request.get('/sitemap.xml');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/xml; charset=utf-8');
  expect(response.headers()['cache-control']).toMatch(/public, max-age=\d+/);
  const xml = await parseXml(page, await response.text(), 'url');
  expect(xml.error).toBeNull();
  expect(xml.root).toBe('urlset');
  expect(xml.namespace).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');

  const locs = xml.nodes.map((n) => n.loc!);
  expect(new Set(locs).size).toBe(locs.length);
  for (const loc of locs) expect(loc.startsWith(`${E2E.baseURL}/`), loc).toBe(true);
  const paths = locs.map((loc) => loc.slice(E2E.baseURL.length));
  for (const path of [
    '/',
    '/about',
    '/blog',
    '/news',
    '/resources',
    '/services',
    '/services/awareness-course',
    // Issue 27: the events page and each published event.
    '/events',
    '/contact',
    '/privacy',
  ]) {
    expect(paths).toContain(path);
  }
  expect(paths).not.toContain('/admin');
  expect(paths.filter((path) => /^\/events\/[a-z0-9-]+$/.test(path)).length).toBeGreaterThan(0);
  for (const [collection, section] of [
    ['blogs', '/blog/'],
    ['news', '/news/'],
    ['resources', '/resources/'],
  ] as const) {
    const articles = xml.nodes.filter((n) => n.loc!.startsWith(`${E2E.baseURL}${section}`));
    expect(articles, section).toHaveLength(SEED_ARTICLES.filter((a) => a.collection === collection).length);
    for (const article of articles) expect(Number.isNaN(Date.parse(article.lastmod ?? '')), article.loc).toBe(false);
    // A listed article really is there.
    const first = articles[0]!.loc!.slice(E2E.baseURL.length);
    expect((await request.get(first)).status(), first).toBe(200);
  }
  for (const service of SEED_SERVICES) expect(paths).toContain(`/services/${service.id}`);
});

for (const [path, collection, section] of [
  ['/blog/rss.xml', 'blogs', '/blog/'],
  ['/news/rss.xml', 'news', '/news/'],
] as const) {
  test(`${path} is a well-formed RSS 2.0 feed of the newest ${collection}, newest first`, async ({ page, request }) => {
    const response = await request.get(path);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(response.headers()['cache-control']).toMatch(/public, max-age=\d+/);
    const text = await response.text();
    expect(text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0"/);
    const xml = await parseXml(page, text, 'item');
    expect(xml.error).toBeNull();
    expect(xml.root).toBe('rss');
    expect(xml.channel.title).toContain('TDG Uganda');
    expect(xml.channel.link).toBe(`${E2E.baseURL}${section.slice(0, -1)}`);

    const seeded = SEED_ARTICLES.filter((a) => a.collection === collection);
    expect(xml.nodes).toHaveLength(Math.min(20, seeded.length));
    const dates = xml.nodes.map((item) => Date.parse(item.pubDate!));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    for (const item of xml.nodes) {
      // Issue 28: the link goes through the counting redirect; the guid is the page's own address.
      expect(item.guid!.startsWith(`${E2E.baseURL}${section}`), item.guid).toBe(true);
      expect(item.link).toBe(`${E2E.baseURL}/go/rss?to=${item.guid!.slice(E2E.baseURL.length)}`);
      expect(item.pubDate).toMatch(
        /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$/,
      );
      const source = seeded.find((a) => a.title === item.title);
      expect(source, item.title).toBeDefined();
      expect(item.description).toBe(source!.summary);
    }
    expect((await request.get(xml.nodes[0]!.link!.slice(E2E.baseURL.length))).status()).toBe(200);
    expect((await request.get(xml.nodes[0]!.guid!.slice(E2E.baseURL.length))).status()).toBe(200);
  });
}
