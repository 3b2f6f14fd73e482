import { preload } from 'react-dom';
import { data, Outlet, redirect, useLocation, useMatches } from 'react-router';
import { LOGO_SRC } from '~/components/logo';
import { LanguageAlternates } from '~/components/language-chooser';
import { I18nProvider, textsGeneration, translator } from '~/lib/i18n/i18n';
import { KeptFragment } from '~/lib/kept-fragment';
import { languageOfPath, pathWithoutLanguage } from '~/lib/languages';
import { SiteFooter } from '~/components/site-footer';
import { SiteHeader } from '~/components/site-header';
import { ToastProvider } from '~/components/toast';
import { useInlineStylesheet } from '~/lib/inline-stylesheet';
import { COLLECTION_INFO } from '~/lib/collections';
import { formatBytes, wantsSaveData } from '~/lib/save-data';
import { pictureBytes } from '~/server/media/picture-sizes.server';
import { pageScript } from '~/server/platform/page-scripts.server';
import { publicStylesheetFor } from '~/server/http/stylesheet.server';
import { getPublicLanguages, getSiteInfo } from '~/server/site/site.server';
import { applyStaffTexts } from '~/server/site/interface-texts.server';
import type { ScriptsHandle } from '~/root';
import type { Route } from './+types/layout';

/**
 * Issue 24: every public page is a document. React renders it on the server and sends no framework
 * runtime (app/root.tsx reads this); app/client/reading.ts, one small cached script, adds what the
 * pages do in the browser (docs/decisions/025-reading-pages-without-react.md).
 */
export const handle: ScriptsHandle = { scripts: false };

export const links: Route.LinksFunction = () => [
  { rel: 'alternate', type: 'application/rss+xml', title: 'Stories', href: `${COLLECTION_INFO.blogs.path}/rss.xml` },
  { rel: 'alternate', type: 'application/rss+xml', title: 'News', href: `${COLLECTION_INFO.news.path}/rss.xml` },
];

/** The pages of the private links the site mails to visitors (one fixed alternation: linear). */
const MAILED_LINK = /^\/(?:events\/cancel|newsletter\/confirm|newsletter\/unsubscribe)\//;

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // Issue 26: the same layout serves /, /lg and /sw (routes.ts); a language turned off has no pages.
  const language = languageOfPath(url.pathname);
  const [site, languages] = await Promise.all([getSiteInfo(), getPublicLanguages()]);
  if (!languages.includes(language)) {
    // A private link mailed in that language (cancel a registration, confirm or leave the newsletter)
    // must still work after it is turned off: it goes to its English page (decision 050). Others are 404.
    const english = pathWithoutLanguage(url.pathname);
    if (MAILED_LINK.test(english))
      throw redirect(`${english}${url.search}`, { headers: { 'Cache-Control': 'no-store', 'Referrer-Policy': 'same-origin' } });
    throw data(null, { status: 404 });
  }
  // Issue 26 item 3: the texts staff corrected on the Translations screen, over the built-in words.
  if (language !== 'en') await applyStaffTexts(language);
  // The page's address in English, for the language chooser and the alternates (paging is kept).
  const page = url.searchParams.get('page');
  const query = page && /^\d{1,6}$/.test(page) ? `?page=${page}` : '';
  return {
    site: language === 'en' ? site : { ...site, language },
    language,
    languages,
    englishPath: pathWithoutLanguage(url.pathname) + query,
    script: pageScript('reading'),
    saveData: wantsSaveData(request.headers),
    stylesheet: publicStylesheetFor(request),
  };
}

/** Longer than any address of an uploaded picture; the pattern cannot run past a quote or a tag. */
const PICTURE_BYTES = /<span data-picture-bytes="([^"<>]{1,600})"><\/span>/g;

/**
 * Issue 24: a page rendered for Save-Data names each picture it left out with its size. The sizes
 * are read here, once per page and from a cache after that, rather than by every loader that shows a
 * picture: the rendered page says which pictures it left out.
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request }, next) => {
    const response = (await next()) as Response;
    if (!wantsSaveData(request.headers) || !response.headers.get('content-type')?.startsWith('text/html')) return response;
    const html = await response.text();
    const urls = [...html.matchAll(PICTURE_BYTES)].map((m) => m[1]!.replaceAll('&amp;', '&'));
    const sizes = urls.length ? await pictureBytes(urls) : new Map<string, number>();
    const filled = html.replace(PICTURE_BYTES, (tag, url: string) => {
      const size = sizes.get(url.replaceAll('&amp;', '&'));
      return size === undefined ? tag : `<span data-picture-bytes="${url}"> (${formatBytes(size)})</span>`;
    });
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(filled, { status: response.status, statusText: response.statusText, headers });
  },
];

/** spec §2 shared layout: header, mobile menu, routed content offset below the fixed header, footer. */
export default function PublicLayout({ loaderData }: Route.ComponentProps) {
  const { site, script, stylesheet, saveData, language, languages, englishPath } = loaderData;
  const t = translator(language);
  const inlineCss = useInlineStylesheet();
  // No alternates on the page that is not there.
  const notFound = useMatches().at(-1)?.id.endsWith('routes/public/not-found') === true;
  const { pathname } = useLocation();
  const header = <SiteHeader site={site} languages={languages} englishPath={englishPath} />;
  const footer = <SiteFooter site={site} />;
  // Issue 29: the header and footer are kept rendered (app/lib/kept-fragment.tsx), each by what it is
  // rendered from: the settings, the words (staff correct them), the language, and for the header the
  // address (its current link, the language chooser). Not on the page that is not there, whose
  // addresses are whatever a visitor types.
  const words = `${language}\n${textsGeneration()}\n${JSON.stringify(site)}`;
  // React asks the browser to fetch early the pictures it renders; a kept header is not rendered, so
  // its logo is asked for here, on every page alike.
  preload(LOGO_SRC, { as: 'image' });
  return (
    <I18nProvider language={language}>
      <ToastProvider>
        {!notFound && <LanguageAlternates languages={languages} englishPath={englishPath} publicUrl={site.publicUrl} />}
        {/*
        Issue 24: inside the page on a reader's first page of a visit, linked after (lib/first-visit.ts).
        The first page also has the browser fetch the file once it is idle, for the next page; not with
        the data saver on, where most visits are one page. React puts these in the head.
      */}
        {!stylesheet.inline || !inlineCss ? (
          <link rel="stylesheet" href={stylesheet.href} precedence="default" />
        ) : (
          <>
            <style href={stylesheet.href} precedence="default">
              {inlineCss}
            </style>
            {!saveData && <link rel="prefetch" href={stylesheet.href} as="style" />}
          </>
        )}
        <script type="module" async src={script} />
        {/* Issue 26: a language's own feeds on its pages (the English ones are in `links`). */}
        {language !== 'en' && (
          <>
            <link
              rel="alternate"
              type="application/rss+xml"
              title={t('translation.feedStories')}
              href={`/${language}${COLLECTION_INFO.blogs.path}/rss.xml`}
            />
            <link
              rel="alternate"
              type="application/rss+xml"
              title={t('translation.feedNews')}
              href={`/${language}${COLLECTION_INFO.news.path}/rss.xml`}
            />
          </>
        )}
        <a
          href="#main"
          className="sr-only z-[60] rounded-md bg-white px-4 py-3 font-semibold text-indigo-900 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          {t('layout.skip')}
        </a>
        {notFound ? (
          header
        ) : (
          <KeptFragment fragmentKey={`header\n${pathname}\n${englishPath}\n${languages.join()}\n${words}`}>{header}</KeptFragment>
        )}
        <main
          id="main"
          tabIndex={-1}
          className="outline-none tall:pt-32 tall:md:pt-28"
          data-text-image-unavailable={language === 'en' ? undefined : t('script.imageUnavailable')}
          data-text-image-unavailable-short={language === 'en' ? undefined : t('script.imageUnavailableShort')}
          data-text-send-error={language === 'en' ? undefined : t('script.sendError')}
        >
          <Outlet />
        </main>
        {notFound ? footer : <KeptFragment fragmentKey={`footer\n${words}`}>{footer}</KeptFragment>}
      </ToastProvider>
    </I18nProvider>
  );
}
