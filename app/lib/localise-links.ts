import { pathInLanguage, type Language } from './languages.ts';

// Issue 26: a page in Luganda or Swahili keeps its reader in that language. Its links (and form
// addresses) to the English public pages are put under the language's prefix after rendering, so the
// page's own words, the stories' bodies and every button need not know the language. Feeds, the
// sitemap, calendars, uploads and the dashboard are not pages in a language and are left alone, as is
// a link that names its language (the language chooser's link to English says hreflang="en").

/** The first segments of the public pages (routes.ts); the home page is "/" itself. */
const PAGE_SEGMENTS =
  'about|blog|news|resources|services|events|contact|volunteer|partner|book-speaker|design-help|newsletter|privacy|terms|accessibility|preview';

// One pass, linear: an optional hreflang="en" just before, the attribute, then the address up to its quote.
const SITE_LINK = new RegExp(
  String.raw`( hreflang="en")? (href|action)="\/((?:${PAGE_SEGMENTS})(?:[\/?#][^"<>]*)?|[?#][^"<>]*)?(?=")`,
  'gi',
);

const NOT_PAGES = /\.(?:xml|ics)(?:[?#]|$)/i;

export function localiseLinks(html: string, language: Language): string {
  if (language === 'en') return html;
  return html.replace(SITE_LINK, (whole, keep: string | undefined, attribute: string, path: string | undefined) => {
    if (keep) return whole;
    const address = `/${path ?? ''}`;
    if (NOT_PAGES.test(address)) return whole;
    return ` ${attribute}="${pathInLanguage(address, language)}`;
  });
}
