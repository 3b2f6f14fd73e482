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
      .select(['id', 'slug', 'updated_at'])
      .where('status', 'in', ['published', 'cancelled'])
      .orderBy('starts_at', 'desc')
      .limit(5_000)
      .execute(),
    getPublicLanguages(),
  ]);
  // Only pages in several languages are dated by their versions.
  const versions = languages.length < 2 ? new Map<string, string>() : await publishedVersions(db);
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
  // naming all of them (and English as x-default) as alternates. A page in a language its item has a
  // published version in changed when either did.
  const url = (path: string, lastmod?: string, id?: string) => {
    if (languages.length < 2) return entry(path, lastmod, '');
    const link = (hreflang: string, href: string) =>
      `<xhtml:link rel="alternate" hreflang="${hreflang}" href="${escapeXml(base + href)}"/>`;
    const alternates =
      languages.map((language) => link(language, pathInLanguage(path, language))).join('') + link('x-default', path);
    const lastmodIn = (language: string) => {
      const version = id === undefined ? undefined : versions.get(versionKey(id, language));
      return version !== undefined && (lastmod === undefined || version > lastmod) ? version : lastmod;
    };
    return languages.map((language) => entry(pathInLanguage(path, language), lastmodIn(language), alternates)).join('\n');
  };
  const namespaces =
    languages.length < 2
      ? 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
      : 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"';
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<urlset ${namespaces}>`];
  for (const path of SITEMAP_PAGES) lines.push(url(path, newest[path]));
  for (const row of content)
    lines.push(url(articlePath(row.collection, encodeURIComponent(row.id)), row.updated_at, `content:${row.id}`));
  if (services.length)
    for (const row of services) lines.push(url(`/services/${encodeURIComponent(row.id)}`, row.updated_at, `service:${row.id}`));
  // spec §3: the four built-in services are shown when none are stored.
  else for (const id of DEFAULT_SERVICE_IDS) lines.push(url(`/services/${id}`));
  for (const row of events) lines.push(url(`/events/${encodeURIComponent(row.slug)}`, row.updated_at, `event:${row.id}`));
  lines.push('</urlset>');
  return new Response(lines.join('\n'), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': XML_CACHE_CONTROL },
  });
}

const versionKey = (id: string, language: string) => `${id}\n${language}`;

/**
 * When each published version in another language last changed, by `kind:id` of its English item and
 * language: stories and news (issue 26), services (decision 033) and events (decision 051).
 */
async function publishedVersions(db: ReturnType<typeof getDb>): Promise<Map<string, string>> {
  const [content, services, events] = await Promise.all([
    db
      .selectFrom('content')
      .select(['translation_of', 'language', 'updated_at'])
      .where('status', '=', 'published')
      .where('translation_of', 'is not', null)
      .execute(),
    db
      .selectFrom('service_translations')
      .select(['service_id', 'language', 'updated_at'])
      .where('status', '=', 'published')
      .execute(),
    db
      .selectFrom('event_translations')
      .select(['event_id', 'language', 'updated_at'])
      .where('status', '=', 'published')
      .execute(),
  ]);
  const versions = new Map<string, string>();
  for (const row of content)
    if (row.translation_of) versions.set(versionKey(`content:${row.translation_of}`, row.language), row.updated_at);
  for (const row of services) versions.set(versionKey(`service:${row.service_id}`, row.language), row.updated_at);
  for (const row of events) versions.set(versionKey(`event:${row.event_id}`, row.language), row.updated_at);
  return versions;
}
