import { articlePath, COLLECTION_INFO } from '~/lib/collections';
import { DEFAULT_SERVICE_IDS } from '~/lib/services';
import { APPLICATION_PATHS } from '~/lib/applications';
import { getConfig } from '~/server/platform/config.server';
import { getDb } from '~/server/db/db.server';
import { pathInLanguage } from '~/lib/languages';
import { getPublicLanguages } from '~/server/site/site.server';
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
  const [content, services, events, languages] = await Promise.all([
    // Issue 13: only published items; a draft's or scheduled item's address answers 404.
    db
      .selectFrom('content')
      .select(['id', 'collection', 'updated_at'])
      .where('status', '=', 'published')
      // Issue 26: an item's address is its English item's; its versions are that address in each language.
      .where('language', '=', 'en')
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
    getPublicLanguages(),
  ]);
  const newest: Partial<Record<string, string>> = {};
  for (const row of content) {
    const section = COLLECTION_INFO[row.collection].path;
    if (!newest[section] || row.updated_at > newest[section]) newest[section] = row.updated_at;
    if (!newest['/'] || row.updated_at > newest['/']) newest['/'] = row.updated_at;
  }
  const base = getConfig().publicUrl;
  const entry = (path: string, lastmod: string | undefined, alternates: string) =>
    `<url><loc>${escapeXml(base + path)}</loc>${lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : ''}${alternates}</url>`;
  // Issue 26: with a language besides English turned on, every page is listed in each language, each
  // naming all of them (and English as x-default) as alternates.
  const url = (path: string, lastmod?: string) => {
    if (languages.length < 2) return entry(path, lastmod, '');
    const link = (hreflang: string, href: string) =>
      `<xhtml:link rel="alternate" hreflang="${hreflang}" href="${escapeXml(base + href)}"/>`;
    const alternates =
      languages.map((language) => link(language, pathInLanguage(path, language))).join('') + link('x-default', path);
    return languages.map((language) => entry(pathInLanguage(path, language), lastmod, alternates)).join('\n');
  };
  const namespaces =
    languages.length < 2
      ? 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
      : 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"';
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<urlset ${namespaces}>`];
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
