import { useLocation } from 'react-router';
import { PageLink } from '~/components/page-link';
import { HEADER_SCROLL_THRESHOLD, NAV_LINKS, type SiteInfo } from '~/lib/site';
import { ExternalLink } from './external-link';
import { HeartIcon, MenuIcon } from './icons';
import { Logo } from './logo';
import { MOBILE_MENU_ID, MobileMenu } from './mobile-menu';
import { NavList } from './nav-list';
import { LanguageChooser } from './language-chooser';
import { useI18n } from '~/lib/i18n/i18n';
import type { Language } from '~/lib/languages';
import { NAV_LABELS } from '~/lib/i18n/nav';

/**
 * spec §2 header: fixed, changes look past 10 px, course banner (its words and link from Site settings)
 * while not scrolled. Markup only (issue 24): the page script (app/client/reading.ts) sets
 * `data-scrolled` and the classes below follow it; without scripts the header keeps its first look.
 */
export function SiteHeader({
  site,
  languages = ['en'],
  englishPath = '/',
}: {
  site: SiteInfo;
  /** Issue 26: the languages offered and this page's English address, for the language chooser. */
  languages?: readonly Language[];
  englishPath?: string;
}) {
  const { t, path, language } = useI18n();
  const { pathname } = useLocation();
  return (
    <header
      data-scrolled="false"
      data-scroll-threshold={HEADER_SCROLL_THRESHOLD}
      className="group relative inset-x-0 top-0 z-40 bg-white tall:fixed motion-safe:transition-shadow motion-safe:duration-200 data-[scrolled=true]:bg-white/95 data-[scrolled=true]:shadow-md data-[scrolled=true]:backdrop-blur"
    >
      <div className="bg-indigo-900 text-white group-data-[scrolled=true]:hidden">
        <p className="mx-auto max-w-7xl px-4 py-2 text-center text-sm font-medium">
          <ExternalLink
            lang={language === 'en' ? undefined : 'en'}
            href={site.courseUrl}
            className="underline decoration-indigo-300 underline-offset-4 hover:decoration-white"
          >
            {site.courseBanner}
          </ExternalLink>
        </p>
      </div>
      {/* On the narrowest phones (and at 400% zoom) the logo gives way, so the menu button stays on screen (WCAG 1.4.10).
          The breakpoints are in rem, so that text made larger in the browser's settings counts as a narrower
          screen (WCAG 1.4.4): at 200% on a phone the Donate button moves into the menu. */}
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-2 px-4 py-4 min-[22.5rem]:gap-4 motion-safe:transition-[padding] motion-safe:duration-200 group-data-[scrolled=true]:py-2">
        <PageLink to={path('/')} className="block min-w-0 rounded" aria-label={t('header.homeLink', { name: site.name })}>
          <Logo name={site.name} />
        </PageLink>
        <NavList
          pagePath={pathname}
          label={t('nav.main')}
          className="hidden md:block"
          listClassName="flex items-center gap-1 lg:gap-2"
          links={NAV_LINKS.map((link) => ({ to: path(link.to), label: t(NAV_LABELS[link.to].label), end: link.to === '/' }))}
          look={{
            base: 'rounded-md px-3 py-2 text-base font-medium transition-colors',
            current: 'text-indigo-900 font-semibold underline decoration-2 underline-offset-8',
            other: 'text-slate-700 hover:text-indigo-800',
          }}
        />
        <div className="flex shrink-0 items-center gap-2">
          <LanguageChooser
            languages={languages}
            englishPath={englishPath}
            className="hidden text-sm lg:block"
            linkClassName="inline-flex min-h-11 items-center rounded-md px-2 font-medium text-slate-700 underline-offset-4 hover:text-indigo-800 hover:underline"
            currentClassName="font-semibold text-indigo-900 underline"
          />
          <ExternalLink
            href={site.donationUrl}
            className="hidden items-center gap-2 rounded-full bg-amber-400 px-3 py-2 font-semibold whitespace-nowrap text-slate-900 shadow-sm hover:bg-amber-300 min-[20rem]:inline-flex min-[22.5rem]:px-4"
          >
            <HeartIcon className="hidden h-4 w-4 min-[22.5rem]:block" />
            {t('header.donate')}
          </ExternalLink>
          {/* Opens the menu without scripts in browsers with invoker commands; the page script does it in the rest. */}
          <button
            type="button"
            className="inline-flex h-11 w-11 items-center justify-center rounded-md text-slate-800 hover:bg-slate-100 md:hidden"
            aria-label={t('header.openMenu')}
            aria-haspopup="dialog"
            aria-expanded="false"
            aria-controls={MOBILE_MENU_ID}
            {...{ command: 'show-modal', commandfor: MOBILE_MENU_ID }}
          >
            <MenuIcon />
          </button>
        </div>
      </div>
      <MobileMenu site={site} languages={languages} englishPath={englishPath} />
    </header>
  );
}
