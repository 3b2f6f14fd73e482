import { useLocation } from 'react-router';
import { NAV_LINKS, type SiteInfo } from '~/lib/site';
import { CloseIcon, MailIcon } from './icons';
import { NavList } from './nav-list';
import { ExternalLink } from './external-link';
import { SocialLinks } from './social-links';
import { LanguageChooser } from './language-chooser';
import { useI18n } from '~/lib/i18n/i18n';
import type { Language } from '~/lib/languages';
import { NAV_LABELS } from '~/lib/i18n/nav';

export const MOBILE_MENU_ID = 'mobile-menu';

/**
 * spec §2: the slide-in menu for small screens, a modal `<dialog>` (issue 24: no framework script).
 * The header's button opens it and the X closes it by invoker commands, a tap on the backdrop by
 * `closedby="any"`, Escape by the browser; focus goes to the X (its first control) and back to the button. Choosing a
 * link loads the page, which closes it. The page script (app/client/reading.ts) does the same where
 * the browser lacks commands, keeps Tab inside and keeps the button's aria-expanded true.
 */
export function MobileMenu({
  site,
  languages = ['en'],
  englishPath = '/',
}: {
  site: SiteInfo;
  languages?: readonly Language[];
  englishPath?: string;
}) {
  const { t, path } = useI18n();
  const { pathname } = useLocation();
  return (
    <dialog
      id={MOBILE_MENU_ID}
      aria-label={t('menu.label')}
      closedby="any"
      className="fixed inset-y-0 right-0 left-auto m-0 h-dvh max-h-none w-80 max-w-[85vw] flex-col overflow-y-auto bg-white p-0 shadow-xl backdrop:bg-slate-900/60 open:flex motion-safe:open:animate-slide-in md:hidden"
    >
      <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
        <span className="text-lg font-bold text-indigo-900">{site.name}</span>
        <button
          type="button"
          className="inline-flex h-11 w-11 items-center justify-center rounded-md text-slate-800 hover:bg-slate-100"
          aria-label={t('menu.close')}
          {...{ command: 'close', commandfor: MOBILE_MENU_ID }}
        >
          <CloseIcon />
        </button>
      </div>
      <NavList
        pagePath={pathname}
        label={t('nav.mobile')}
        className="px-2 py-4"
        listClassName="space-y-1"
        links={NAV_LINKS.map((link) => ({ to: path(link.to), label: t(NAV_LABELS[link.to].mobileLabel), end: link.to === '/' }))}
        look={{
          base: 'block rounded-lg px-4 py-3 text-lg font-medium',
          current: 'bg-indigo-50 text-indigo-900 font-semibold',
          other: 'text-slate-800 hover:bg-slate-100',
        }}
      />
      <LanguageChooser
        languages={languages}
        englishPath={englishPath}
        className="border-t border-slate-200 px-4 py-4"
        linkClassName="inline-flex min-h-11 items-center rounded-lg px-3 text-base font-medium text-slate-800 hover:bg-slate-100"
        currentClassName="bg-indigo-50 font-semibold text-indigo-900"
      />
      <div className="mt-auto space-y-4 border-t border-slate-200 px-6 py-6">
        {/* Where the header has no room for its Donate button (large text on a phone), it is here. */}
        <ExternalLink
          href={site.donationUrl}
          className="inline-flex items-center gap-2 rounded-full bg-amber-400 px-4 py-2 font-semibold text-slate-900 shadow-sm hover:bg-amber-300 min-[20rem]:hidden"
        >
          {t('header.donate')}
        </ExternalLink>
        <a
          href={`mailto:${site.email}`}
          className="flex items-center gap-2 break-all text-indigo-800 underline underline-offset-4"
        >
          <MailIcon />
          {site.email}
        </a>
        <SocialLinks
          site={site}
          className="flex flex-wrap gap-3"
          linkClassName="inline-flex h-11 w-11 items-center justify-center rounded-full bg-indigo-50 text-indigo-900 hover:bg-indigo-100"
        />
      </div>
    </dialog>
  );
}
