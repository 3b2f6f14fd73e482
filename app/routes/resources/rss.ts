import { COLLECTION_INFO, type Collection } from '~/lib/collections';
import { listRecentContent, toPublicContent, type PublicContent } from '~/server/content/content.server';
import { getSiteInfo } from '~/server/site/site.server';
import { listFeedVideos } from '~/server/media/video.server';
import { languageOfPath, pathInLanguage, pathWithoutLanguage, type Language } from '~/lib/languages';
import { translator } from '~/lib/i18n/i18n';
import { getPublicLanguages } from '~/server/site/site.server';
import { listPublishedVersions } from '~/server/content/translated.server';
import type { Route } from './+types/rss';

// RSS 2.0 feeds of the newest stories (/blog/rss.xml) and news (/news/rss.xml): one module, two routes.

export const FEED_SIZE = 20;
export const XML_CACHE_CONTROL = 'public, max-age=300';

/** The collections with a feed (decision 204: none for resources), each at `{list path}/rss.xml`. */
const FEED_DESCRIPTIONS = {
  blogs: 'Stories of deaf, hard-of-hearing and disabled people in Uganda.',
  news: 'News and resources on disability inclusion in Uganda.',
} as const satisfies Partial<Record<Collection, string>>;

/** Text made safe for XML: markup characters escaped, characters XML forbids removed. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** RFC 822 date, as RSS 2.0 asks (e.g. "Sat, 10 Jan 2026 09:30:00 GMT"). */
export function rfc822(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? new Date(0).toUTCString() : date.toUTCString();
}

/** Issue 26: the feed's words in Luganda and Swahili (its title after the site's name). */
const FEED_TITLE_KEYS = { blogs: 'translation.feedStories', news: 'translation.feedNews' } as const;

export async function loader({ request }: Route.LoaderArgs) {
  const pathname = new URL(request.url).pathname;
  // Issue 26: /lg/blog/rss.xml and /sw/…: that language's published versions, only while it is offered.
  const language = languageOfPath(pathname);
  const collection = pathWithoutLanguage(pathname).startsWith(`${COLLECTION_INFO.news.path}/`) ? 'news' : 'blogs';
  if (language !== 'en' && !(await getPublicLanguages()).includes(language)) return new Response('Not Found', { status: 404 });
  const t = translator(language);
  const feed = {
    ...COLLECTION_INFO[collection],
    label: language === 'en' ? COLLECTION_INFO[collection].label : t(FEED_TITLE_KEYS[collection]),
    description: language === 'en' ? FEED_DESCRIPTIONS[collection] : t(FEED_TITLE_KEYS[collection]),
    path: pathInLanguage(COLLECTION_INFO[collection].path, language),
  };
  const [site, items] = await Promise.all([getSiteInfo(), feedItems(collection, language)]);
  // Issue 14: an item's sign-language video travels with it as its enclosure (the 360p MP4).
  const videos = await listFeedVideos(items.filter((item) => item.signLanguage).map((item) => item.videoOf));
  const base = site.publicUrl;
  const channelLink = `${base}${feed.path}`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '<channel>',
    `<title>${escapeXml(`${site.name}: ${feed.label}`)}</title>`,
    `<link>${escapeXml(channelLink)}</link>`,
    `<description>${escapeXml(feed.description)}</description>`,
    `<language>${language}</language>`,
    `<atom:link href="${escapeXml(`${channelLink}/rss.xml`)}" rel="self" type="application/rss+xml"/>`,
  ];
  if (items[0]) lines.push(`<lastBuildDate>${rfc822(items[0].createdAt)}</lastBuildDate>`);
  for (const item of items) {
    const path = `${feed.path}/${encodeURIComponent(item.id)}`;
    const link = `${base}${path}`;
    const video = videos.get(item.videoOf);
    lines.push(
      '<item>',
      `<title>${escapeXml(item.title)}</title>`,
      // Issue 28: the link counts that it was followed from the feed (how many, never who); the guid stays the page's address.
      `<link>${escapeXml(`${base}/go/rss?to=${path}`)}</link>`,
      `<guid isPermaLink="true">${escapeXml(link)}</guid>`,
      `<pubDate>${rfc822(item.createdAt)}</pubDate>`,
      `<description>${escapeXml(item.summary)}</description>`,
      item.category ? `<category>${escapeXml(item.category)}</category>` : '',
      item.author ? `<dc:creator>${escapeXml(item.author)}</dc:creator>` : '',
      video ? `<enclosure url="${escapeXml(`${base}${video.url}`)}" length="${video.bytes}" type="video/mp4"/>` : '',
      '</item>',
    );
  }
  lines.push('</channel>', '</rss>');
  return new Response(lines.filter(Boolean).join('\n'), {
    headers: { 'Content-Type': 'application/rss+xml; charset=utf-8', 'Cache-Control': XML_CACHE_CONTROL },
  });
}

/**
 * The feed's items: in English the newest English items; in Luganda or Swahili the newest published
 * versions, each at its English item's address under the prefix. `videoOf` is the row whose video it carries.
 */
async function feedItems(collection: 'blogs' | 'news', language: Language): Promise<(PublicContent & { videoOf: string })[]> {
  if (language === 'en') return (await listRecentContent(collection, FEED_SIZE)).map((item) => ({ ...item, videoOf: item.id }));
  const rows = await listPublishedVersions(collection, language, FEED_SIZE);
  // A version carries its video as any item does; its sign_language is read from the video the feed looks up.
  return rows.map((row) => ({
    ...toPublicContent({ ...row, sign_language: row.video_id !== null }),
    id: row.translation_of!,
    videoOf: row.id,
  }));
}
