import { useEffect, useRef } from 'react';
import { NAV_LINKS, type SiteInfo } from '~/lib/site';
import { CloseIcon, MailIcon } from './icons';
import { NavList } from './nav-list';
import { SocialLinks } from './social-links';

const FOCUSABLE = 'a[href], button:not([disabled]), input, select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * spec §2: the slide-in menu for small screens. Closes by the backdrop, the X, Escape or choosing a
 * link; keeps keyboard focus inside while open (the header returns it to the menu button).
 */
export function MobileMenu({ site, onClose }: { site: SiteInfo; onClose: () => void }) {
  const panel = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    closeButton.current?.focus();
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onClose();
        return;
      }
      if (event.key !== 'Tab' || !panel.current) return;
      const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      } else if (!panel.current.contains(document.activeElement)) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = previousOverflow;
    };
  }, [onClose]);

  return (
    <div className="fixed inset-0 z-50 md:hidden">
      {/* Pointer users close by tapping outside; keyboard users have Escape and the X button. */}
      <div
        data-testid="menu-backdrop"
        className="absolute inset-0 animate-fade-in bg-slate-900/60"
        aria-hidden="true"
        onClick={onClose}
      />
      <div
        ref={panel}
        id="mobile-menu"
        role="dialog"
        aria-modal="true"
        aria-label="Menu"
        className="absolute inset-y-0 right-0 flex w-80 max-w-[85vw] animate-slide-in flex-col overflow-y-auto bg-white shadow-xl"
      >
        <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
          <span className="text-lg font-bold text-indigo-900">{site.name}</span>
          <button
            ref={closeButton}
            type="button"
            className="inline-flex h-11 w-11 items-center justify-center rounded-md text-slate-800 hover:bg-slate-100"
            aria-label="Close menu"
            onClick={onClose}
          >
            <CloseIcon />
          </button>
        </div>
        <NavList
          label="Mobile"
          className="px-2 py-4"
          listClassName="space-y-1"
          links={NAV_LINKS.map((link) => ({ to: link.to, label: link.mobileLabel, end: link.to === '/' }))}
          look={{
            base: 'block rounded-lg px-4 py-3 text-lg font-medium',
            current: 'bg-indigo-50 text-indigo-900 font-semibold',
            other: 'text-slate-800 hover:bg-slate-100',
          }}
          onNavigate={onClose}
        />
        <div className="mt-auto space-y-4 border-t border-slate-200 px-6 py-6">
          <a
            href={`mailto:${site.email}`}
            className="flex items-center gap-2 break-all text-indigo-800 underline underline-offset-4"
          >
            <MailIcon />
            {site.email}
          </a>
          <SocialLinks
            site={site}
            className="flex gap-3"
            linkClassName="inline-flex h-11 w-11 items-center justify-center rounded-full bg-indigo-50 text-indigo-900 hover:bg-indigo-100"
          />
        </div>
      </div>
    </div>
  );
}
