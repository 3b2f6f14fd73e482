import { Link } from 'react-router';
import { HEADER_SCROLL_THRESHOLD, NAV_LINKS, type SiteInfo } from '~/lib/site';
import { ExternalLink } from './external-link';
import { HeartIcon, MenuIcon } from './icons';
import { Logo } from './logo';
import { MOBILE_MENU_ID, MobileMenu } from './mobile-menu';
import { NavList } from './nav-list';

/**
 * spec §2 header: fixed, changes look past 10 px, course banner (its words and link from Site settings)
 * while not scrolled. Markup only (issue 24): the page script (app/client/reading.ts) sets
 * `data-scrolled` and the classes below follow it; without scripts the header keeps its first look.
 */
export function SiteHeader({ site }: { site: SiteInfo }) {
  return (
    <header
      data-scrolled="false"
      data-scroll-threshold={HEADER_SCROLL_THRESHOLD}
      className="group fixed inset-x-0 top-0 z-40 bg-white motion-safe:transition-shadow motion-safe:duration-200 data-[scrolled=true]:bg-white/95 data-[scrolled=true]:shadow-md data-[scrolled=true]:backdrop-blur"
    >
      <div className="bg-indigo-900 text-white group-data-[scrolled=true]:hidden">
        <p className="mx-auto max-w-7xl px-4 py-2 text-center text-sm font-medium">
          <ExternalLink
            href={site.courseUrl}
            className="underline decoration-indigo-300 underline-offset-4 hover:decoration-white"
          >
            {site.courseBanner}
          </ExternalLink>
        </p>
      </div>
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-4 motion-safe:transition-[padding] motion-safe:duration-200 group-data-[scrolled=true]:py-2">
        <Link to="/" className="flex shrink-0 items-center rounded" aria-label={`${site.name} home`}>
          <Logo name={site.name} />
        </Link>
        <NavList
          label="Main"
          className="hidden md:block"
          listClassName="flex items-center gap-1 lg:gap-2"
          links={NAV_LINKS.map((link) => ({ to: link.to, label: link.label, end: link.to === '/' }))}
          look={{
            base: 'rounded-md px-3 py-2 text-base font-medium transition-colors',
            current: 'text-indigo-900 font-semibold underline decoration-2 underline-offset-8',
            other: 'text-slate-700 hover:text-indigo-800',
          }}
        />
        <div className="flex items-center gap-2">
          <ExternalLink
            href={site.donationUrl}
            className="inline-flex items-center gap-2 rounded-full bg-amber-400 px-4 py-2 font-semibold text-slate-900 shadow-sm hover:bg-amber-300"
          >
            <HeartIcon className="h-4 w-4" />
            Donate
          </ExternalLink>
          {/* Opens the menu without scripts in browsers with invoker commands; the page script does it in the rest. */}
          <button
            type="button"
            className="inline-flex h-11 w-11 items-center justify-center rounded-md text-slate-800 hover:bg-slate-100 md:hidden"
            aria-label="Open menu"
            aria-haspopup="dialog"
            aria-expanded="false"
            aria-controls={MOBILE_MENU_ID}
            {...{ command: 'show-modal', commandfor: MOBILE_MENU_ID }}
          >
            <MenuIcon />
          </button>
        </div>
      </div>
      <MobileMenu site={site} />
    </header>
  );
}
