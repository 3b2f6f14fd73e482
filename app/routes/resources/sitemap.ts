import { articlePath, COLLECTION_INFO } from '~/lib/collections';
import { DEFAULT_SERVICE_IDS } from '~/lib/services';
import { APPLICATION_PATHS } from '~/lib/applications';
import { getConfig } from '~/server/platform/config.server';
import { getDb } from '~/server/db/db.server';
import { escapeXml, XML_CACHE_CONTROL } from './rss';

// Every public page and every article, service and resource, for search engines (issue 3 item 10).

/** Public pages with no id, in the order of the route table. */
export const SITEMAP_PAGES = [
  '/',
  '/about',
  COLLECTION_INFO.blogs.path,
  COLLECTION_INFO.news.path,
  COLLECTION_INFO.resources.path,
  '/services',
  '/services/awareness-course',
  '/events',
  '/contact',
  // Issue 27: the application forms.
  ...Object.values(APPLICATION_PATHS),
  '/newsletter',
  '/privacy',
  '/terms',
  '/accessibility',
] as const;

export async function loader() {
  const db = getDb();
  const [content, services, events] = await Promise.all([
    // Issue 13: only published items; a draft's or scheduled item's address answers 404.
    db
      .selectFrom('content')
      .select(['id', 'collection', 'updated_at'])
      .where('status', '=', 'published')
      .orderBy('created_at', 'desc')
      .execute(),
    db.selectFrom('services').select(['id', 'updated_at']).orderBy('position').execute(),
    // Issue 27: published and cancelled events (a draft's address answers 404).
    db
      .selectFrom('events')
      .select(['slug', 'updated_at'])
      .where('status', 'in', ['published', 'cancelled'])
      .orderBy('starts_at', 'desc')
      .limit(5_000)
      .execute(),
  ]);
  const newest: Partial<Record<string, string>> = {};
  for (const row of content) {
    const section = COLLECTION_INFO[row.collection].path;
    if (!newest[section] || row.updated_at > newest[section]) newest[section] = row.updated_at;
    if (!newest['/'] || row.updated_at > newest['/']) newest['/'] = row.updated_at;
  }
  const base = getConfig().publicUrl;
  const url = (path: string, lastmod?: string) =>
    `<url><loc>${escapeXml(base + path)}</loc>${lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : ''}</url>`;
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'];
  for (const path of SITEMAP_PAGES) lines.push(url(path, newest[path]));
  for (const row of content) lines.push(url(articlePath(row.collection, encodeURIComponent(row.id)), row.updated_at));
  if (services.length) for (const row of services) lines.push(url(`/services/${encodeURIComponent(row.id)}`, row.updated_at));
  // spec §3: the four built-in services are shown when none are stored.
  else for (const id of DEFAULT_SERVICE_IDS) lines.push(url(`/services/${id}`));
  for (const row of events) lines.push(url(`/events/${encodeURIComponent(row.slug)}`, row.updated_at));
  lines.push('</urlset>');
  return new Response(lines.join('\n'), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': XML_CACHE_CONTROL },
  });
}
