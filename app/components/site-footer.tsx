import { PageLink } from '~/components/page-link';
import { NAV_LINKS, telHref, type SiteInfo } from '~/lib/site';
import { ExternalLink } from './external-link';
import { MailIcon, PhoneIcon, PinIcon } from './icons';
import { SocialLinks } from './social-links';
import { useI18n } from '~/lib/i18n/i18n';
import { NAV_LABELS } from '~/lib/i18n/nav';

const buttonBase = 'inline-flex items-center justify-center rounded-full px-6 py-3 font-semibold transition-colors';

/** spec §1 footer: closing call to action, description, contact details, social links, location, copyright, policies. */
export function SiteFooter({ site }: { site: SiteInfo }) {
  const { t, path, language } = useI18n();
  // Issue 26: texts from Site settings are in English; a page in another language says so.
  const english = language === 'en' ? undefined : 'en';
  return (
    <footer className="bg-slate-950 text-slate-200">
      <section aria-labelledby="join-cause" className="bg-indigo-900">
        <div className="mx-auto flex max-w-7xl flex-col items-center gap-6 px-4 py-12 text-center">
          <h2 id="join-cause" className="text-3xl font-bold text-white">
            {t('footer.joinHeading')}
          </h2>
          <p className="max-w-2xl text-lg text-indigo-100">{t('footer.joinText')}</p>
          <div className="flex flex-wrap justify-center gap-3">
            <ExternalLink href={site.donationUrl} className={`${buttonBase} bg-amber-400 text-slate-900 hover:bg-amber-300`}>
              {t('footer.donateNow')}
            </ExternalLink>
            <PageLink to={path('/partner')} className={`${buttonBase} bg-white text-indigo-900 hover:bg-indigo-50`}>
              {t('footer.partner')}
            </PageLink>
            <PageLink
              to={path('/volunteer')}
              className={`${buttonBase} border-2 border-white text-white hover:bg-white hover:text-indigo-900`}
            >
              {t('footer.volunteer')}
            </PageLink>
          </div>
        </div>
      </section>

      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div className="lg:col-span-2">
          <p className="text-xl font-bold text-white">{site.name}</p>
          <p lang={english} className="mt-3 max-w-md text-slate-300">
            {site.description}
          </p>
          <SocialLinks
            site={site}
            className="mt-6 flex flex-wrap gap-3"
            linkClassName="inline-flex h-11 w-11 items-center justify-center rounded-full bg-slate-800 text-white hover:bg-indigo-700"
          />
        </div>
        <nav aria-label={t('nav.footer')}>
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">{t('footer.explore')}</h2>
          <ul className="mt-4 space-y-2">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <PageLink to={path(link.to)} className="text-slate-300 underline-offset-4 hover:text-white hover:underline">
                  {t(NAV_LABELS[link.to].label)}
                </PageLink>
              </li>
            ))}
            {/* Issue 27: the header keeps the spec's five links; the footer also lists the events (decision 028). */}
            <li>
              <PageLink to={path('/events')} className="text-slate-300 underline-offset-4 hover:text-white hover:underline">
                {t('footer.events')}
              </PageLink>
            </li>
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">{t('footer.contact')}</h2>
          <address className="mt-4 space-y-3 not-italic">
            <a href={`mailto:${site.email}`} className="flex items-start gap-2 break-all text-slate-300 hover:text-white">
              <MailIcon className="mt-0.5 h-5 w-5 shrink-0" />
              {site.email}
            </a>
            <a href={telHref(site.phone)} className="flex items-start gap-2 text-slate-300 hover:text-white">
              <PhoneIcon className="mt-0.5 h-5 w-5 shrink-0" />
              {site.phone}
            </a>
            <p className="flex items-start gap-2 text-slate-300">
              <PinIcon className="mt-0.5 h-5 w-5 shrink-0" />
              <span lang={english}>{site.location}</span>
            </p>
          </address>
        </div>
      </div>

      <div className="border-t border-slate-800">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-6 text-sm text-slate-400 md:flex-row md:items-center md:justify-between">
          <p>{t('footer.rights', { year: site.year, name: site.name })}</p>
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            <li>
              <PageLink to={path('/privacy')} className="hover:text-white hover:underline">
                {t('footer.privacy')}
              </PageLink>
            </li>
            <li>
              <PageLink to={path('/terms')} className="hover:text-white hover:underline">
                {t('footer.terms')}
              </PageLink>
            </li>
            <li>
              <PageLink to={path('/accessibility')} className="hover:text-white hover:underline">
                {t('footer.accessibility')}
              </PageLink>
            </li>
          </ul>
        </div>
      </div>
    </footer>
  );
}
