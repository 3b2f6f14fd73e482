import type { MetaDescriptor } from 'react-router';
import type { SiteInfo } from './site';
import { pathInLanguage } from './languages.ts';

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

export function pageMeta(input: PageMetaInput): MetaDescriptor[] {
  const name = input.site?.name ?? '';
  const fullTitle = name && input.title !== name ? `${input.title} | ${name}` : input.title;
  // Issue 26: a page in Luganda or Swahili is its own canonical address, under its language's prefix.
  const url = absoluteUrl(input.site, input.site?.language ? pathInLanguage(input.path, input.site.language) : input.path);
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
  // Issue 26: the layout is there once per language (routes.ts); its id ends the same in each.
  const layout = matches.find((m) => m?.id.endsWith('routes/public/layout'));
  return (layout?.loaderData as { site?: SiteInfo } | undefined)?.site;
}

/**
 * A dashboard screen's tags: its own name first in the title, so that a screen reader announces it
 * and a tab says which screen it holds (WCAG 2.4.2), and never indexed.
 */
export function dashboardMeta(screen: string): MetaDescriptor[] {
  return [{ title: `${screen} | TDG Uganda` }, { name: 'robots', content: 'noindex' }];
}
