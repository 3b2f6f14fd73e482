import type { MetaDescriptor } from 'react-router';
import type { SiteInfo } from './site';
import { pathInLanguage } from './languages.ts';
import { publicLayoutOf } from './public-layout.ts';

// Builds every page's <title>, description, canonical URL and sharing cards in one place.

export interface PageMetaInput {
  /** The page's own title; the organisation's name is appended. */
  title: string;
  description: string;
  /** Path of the page, such as /blog/abc; made absolute with PUBLIC_URL. */
  path: string;
  site: SiteInfo | undefined;
  /** Absolute or site-relative image for sharing cards. */
  image?: string | null;
  imageAlt?: string;
  type?: 'website' | 'article';
  /** JSON-LD objects for this page. */
  jsonLd?: Record<string, unknown>[];
  noindex?: boolean;
}

export function absoluteUrl(site: SiteInfo | undefined, path: string): string {
  if (/^https?:\/\//.test(path)) return path;
  return `${site?.publicUrl ?? ''}${path.startsWith('/') ? path : `/${path}`}`;
}

/** A page's own address in full: a page in Luganda or Swahili is under its language's prefix (issue 26). */
export function pageUrl(site: SiteInfo | undefined, path: string): string {
  return absoluteUrl(site, site?.language ? pathInLanguage(path, site.language) : path);
}

export function pageMeta(input: PageMetaInput): MetaDescriptor[] {
  const name = input.site?.name ?? '';
  const fullTitle = name && input.title !== name ? `${input.title} | ${name}` : input.title;
  // The canonical address: a page in Luganda or Swahili is its own.
  const url = pageUrl(input.site, input.path);
  const tags: MetaDescriptor[] = [
    { title: fullTitle },
    { name: 'description', content: input.description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:site_name', content: name },
    { property: 'og:type', content: input.type ?? 'website' },
    { property: 'og:title', content: input.title },
    { property: 'og:description', content: input.description },
    { property: 'og:url', content: url },
    { name: 'twitter:card', content: input.image ? 'summary_large_image' : 'summary' },
    { name: 'twitter:title', content: input.title },
    { name: 'twitter:description', content: input.description },
  ];
  if (input.image) {
    const image = absoluteUrl(input.site, input.image);
    tags.push({ property: 'og:image', content: image }, { name: 'twitter:image', content: image });
    if (input.imageAlt)
      tags.push({ property: 'og:image:alt', content: input.imageAlt }, { name: 'twitter:image:alt', content: input.imageAlt });
  }
  if (input.noindex) tags.push({ name: 'robots', content: 'noindex' });
  for (const data of input.jsonLd ?? []) tags.push({ 'script:ld+json': data as never });
  return tags;
}

/** The layout route's site details, as seen from a route's meta function. */
export function siteFromMatches(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>): SiteInfo | undefined {
  return publicLayoutOf(matches)?.site;
}

/**
 * A dashboard screen's tags: its own name first in the title, so that a screen reader announces it
 * and a tab says which screen it holds (WCAG 2.4.2), and never indexed.
 */
export function dashboardMeta(screen: string): MetaDescriptor[] {
  return [{ title: `${screen} | TDG Uganda` }, { name: 'robots', content: 'noindex' }];
}
