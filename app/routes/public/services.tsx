import { Link } from 'react-router';
import { ClosingCallToAction } from '~/components/home/call-to-action';
import { CheckList } from '~/components/home/check-list';
import { PageHero } from '~/components/home/page-hero';
import { BUTTON, TEXT_LINK } from '~/components/home/styles';
import { Image } from '~/components/image';
import { SignLanguageBadge } from '~/components/sign-language-badge';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import { FEATURES_SHOWN, SERVICES_ERROR } from '~/lib/services';
import { truncate } from '~/lib/text';
import { listServices } from '~/server/content/services.server';
import { servicesInLanguage } from '~/server/content/service-versions.server';
import { languageOfPath } from '~/lib/languages';
import { NotTranslated } from '~/components/easy-read';
import type { Route } from './+types/services';

export async function loader({ request }: Route.LoaderArgs) {
  // Issue 26: under /lg and /sw, each service's published version in that language.
  const language = languageOfPath(new URL(request.url).pathname);
  return { services: await servicesInLanguage(await listServices(), language) };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const site = siteFromMatches(matches);
  // The services staff keep on the Services screen, named in their order.
  const titles = (loaderData?.services ?? []).map((service) => service.title).join(', ');
  return pageMeta({
    title: 'Our Services',
    description: truncate(`Services from ${site?.name ?? 'TDG Uganda'}: ${titles}.`, 160),
    path: '/services',
    site,
  });
};

/** spec §2 /services: alternating image-and-text rows, Enroll Now, and links to /contact and /donate. */
export default function Services({ loaderData }: Route.ComponentProps) {
  const { services } = loaderData;
  return (
    <>
      <PageHero
        id="services-title"
        kicker="What we do"
        title="Our Services"
        intro="Training, talks and design work led by people with lived experience of disability, for young people, schools, employers and community groups across Uganda."
      />

      <section aria-labelledby="course-title" className="mx-auto max-w-7xl px-4 pt-12">
        <div className="flex flex-col gap-6 rounded-2xl border border-amber-300 bg-amber-50 p-6 shadow-sm md:flex-row md:items-center md:justify-between md:p-8">
          <div>
            <p className="text-sm font-semibold tracking-widest text-amber-900 uppercase">New course</p>
            <h2 id="course-title" className="mt-2 text-2xl font-bold text-slate-900">
              Deaf / Hard of Hearing Awareness Training
            </h2>
            <p className="mt-2 text-slate-700">
              Learn to communicate with deaf and hard-of-hearing people, at your own pace, from Deaf trainers.
            </p>
          </div>
          <Link to="/services/awareness-course" className={`${BUTTON.accent} shrink-0`}>
            Enroll Now
          </Link>
        </div>
      </section>

      {services.length === 0 ? (
        <p role="alert" className="mx-auto max-w-7xl px-4 py-16 text-lg text-slate-700">
          {SERVICES_ERROR}
        </p>
      ) : (
        <ul className="mx-auto max-w-7xl space-y-16 px-4 py-16 md:space-y-24">
          {services.map((service, index) => (
            <li key={service.id} className="grid items-center gap-8 md:grid-cols-2 md:gap-16">
              <div className={index % 2 === 1 ? 'md:order-last' : undefined}>
                <Image
                  src={service.imageUrl}
                  alt={service.imageAlt}
                  sizes="(min-width: 768px) 50vw, 100vw"
                  priority={index === 0}
                  className="rounded-2xl shadow-sm"
                />
              </div>
              <div lang={service.textLanguage}>
                <NotTranslated textLanguage={service.textLanguage} />
                <h2 className="text-3xl font-bold text-slate-900">{service.title}</h2>
                {service.signLanguage && (
                  <p className="mt-3">
                    <SignLanguageBadge />
                  </p>
                )}
                <p className="mt-4 text-lg leading-relaxed text-slate-700">{service.description}</p>
                {service.features.length > 0 && <CheckList items={service.features.slice(0, FEATURES_SHOWN)} className="mt-6" />}
                <Link to={`/services/${encodeURIComponent(service.id)}`} className={`${TEXT_LINK} mt-6 inline-block`}>
                  Learn more<span className="sr-only"> about {service.title}</span>
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}

      <ClosingCallToAction
        id="services-cta"
        tone="dark"
        kicker="Get started"
        title="Let’s work together"
        text="Tell us what you need, or support our programmes for young people with disabilities."
        links={[
          { to: '/contact', label: 'Contact us' },
          { to: '/donate', label: 'Donate', external: true },
        ]}
      />
    </>
  );
}
