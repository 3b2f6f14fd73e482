import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { HEADER_SCROLL_THRESHOLD, NAV_LINKS, type SiteInfo } from '~/lib/site';
import { ExternalLink } from './external-link';
import { HeartIcon, MenuIcon } from './icons';
import { Logo } from './logo';
import { MobileMenu } from './mobile-menu';
import { NavList } from './nav-list';

function useScrolledPast(threshold: number): boolean {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > threshold);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [threshold]);
  return scrolled;
}

/** spec §2 header: fixed, changes look past 10 px, course banner (its words and link from Site settings) while not scrolled. */
export function SiteHeader({ site }: { site: SiteInfo }) {
  const scrolled = useScrolledPast(HEADER_SCROLL_THRESHOLD);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  return (
    <header
      data-scrolled={scrolled ? 'true' : 'false'}
      className={`fixed inset-x-0 top-0 z-40 transition-shadow duration-200 ${scrolled ? 'bg-white/95 shadow-md backdrop-blur' : 'bg-white'}`}
    >
      {!scrolled && (
        <div className="bg-indigo-900 text-white">
          <p className="mx-auto max-w-7xl px-4 py-2 text-center text-sm font-medium">
            <ExternalLink
              href={site.courseUrl}
              className="underline decoration-indigo-300 underline-offset-4 hover:decoration-white"
            >
              {site.courseBanner}
            </ExternalLink>
          </p>
        </div>
      )}
      <div
        className={`mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 transition-[padding] duration-200 ${scrolled ? 'py-2' : 'py-4'}`}
      >
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
          <button
            ref={menuButton}
            type="button"
            className="inline-flex h-11 w-11 items-center justify-center rounded-md text-slate-800 hover:bg-slate-100 md:hidden"
            aria-label="Open menu"
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpen(true)}
          >
            <MenuIcon />
          </button>
        </div>
      </div>
      {menuOpen && (
        <MobileMenu
          site={site}
          onClose={() => {
            setMenuOpen(false);
            menuButton.current?.focus();
          }}
        />
      )}
    </header>
  );
}
