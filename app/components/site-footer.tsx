import { Link } from 'react-router';
import { NAV_LINKS, telHref, type SiteInfo } from '~/lib/site';
import { ExternalLink } from './external-link';
import { MailIcon, PhoneIcon, PinIcon } from './icons';
import { SocialLinks } from './social-links';

const buttonBase = 'inline-flex items-center justify-center rounded-full px-6 py-3 font-semibold transition-colors';

/** spec §1 footer: closing call to action, description, contact details, social links, location, copyright, policies. */
export function SiteFooter({ site }: { site: SiteInfo }) {
  return (
    <footer className="bg-slate-950 text-slate-200">
      <section aria-labelledby="join-cause" className="bg-indigo-900">
        <div className="mx-auto flex max-w-7xl flex-col items-center gap-6 px-4 py-12 text-center">
          <h2 id="join-cause" className="text-3xl font-bold text-white">
            Join our cause
          </h2>
          <p className="max-w-2xl text-lg text-indigo-100">
            Every donation, partnership and hour volunteered helps a young person with a disability learn, work and be heard.
          </p>
          <div className="flex flex-wrap justify-center gap-3">
            <ExternalLink href={site.donationUrl} className={`${buttonBase} bg-amber-400 text-slate-900 hover:bg-amber-300`}>
              Donate now
            </ExternalLink>
            <Link to="/partner" className={`${buttonBase} bg-white text-indigo-900 hover:bg-indigo-50`}>
              Partner with us
            </Link>
            <Link
              to="/volunteer"
              className={`${buttonBase} border-2 border-white text-white hover:bg-white hover:text-indigo-900`}
            >
              Become a Volunteer
            </Link>
          </div>
        </div>
      </section>

      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div className="lg:col-span-2">
          <p className="text-xl font-bold text-white">{site.name}</p>
          <p className="mt-3 max-w-md text-slate-300">{site.description}</p>
          <SocialLinks
            site={site}
            className="mt-6 flex gap-3"
            linkClassName="inline-flex h-11 w-11 items-center justify-center rounded-full bg-slate-800 text-white hover:bg-indigo-700"
          />
        </div>
        <nav aria-label="Footer">
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Explore</h2>
          <ul className="mt-4 space-y-2">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="text-slate-300 underline-offset-4 hover:text-white hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
            {/* Issue 27: the header keeps the spec's five links; the footer also lists the events (decision 028). */}
            <li>
              <Link to="/events" className="text-slate-300 underline-offset-4 hover:text-white hover:underline">
                Trainings and events
              </Link>
            </li>
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Contact</h2>
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
              {site.location}
            </p>
          </address>
        </div>
      </div>

      <div className="border-t border-slate-800">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-6 text-sm text-slate-400 md:flex-row md:items-center md:justify-between">
          <p>
            © {site.year} {site.name}. All rights reserved.
          </p>
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            <li>
              <Link to="/privacy" className="hover:text-white hover:underline">
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link to="/terms" className="hover:text-white hover:underline">
                Terms of Service
              </Link>
            </li>
            <li>
              <Link to="/accessibility" className="hover:text-white hover:underline">
                Accessibility
              </Link>
            </li>
          </ul>
        </div>
      </div>
    </footer>
  );
}
