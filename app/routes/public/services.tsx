import { PageLink } from '~/components/page-link';
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
import { metaTranslator, useI18n } from '~/lib/i18n/i18n';
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
  const t = metaTranslator(site);
  return pageMeta({
    title: t('services.title'),
    description: truncate(t('services.metaDescription', { name: site?.name ?? 'TDG Uganda', titles }), 160),
    path: '/services',
    site,
  });
};

/** spec §2 /services: alternating image-and-text rows, Enroll Now, and links to /contact and /donate. */
export default function Services({ loaderData }: Route.ComponentProps) {
  const { services } = loaderData;
  const { t, tx, english } = useI18n();
  return (
    <>
      <PageHero id="services-title" kicker={t('services.kicker')} title={t('services.title')} intro={t('services.intro')} />

      <section aria-labelledby="course-title" className="mx-auto max-w-7xl px-4 pt-12">
        <div className="flex flex-col gap-6 rounded-2xl border border-amber-300 bg-amber-50 p-6 shadow-sm md:flex-row md:items-center md:justify-between md:p-8">
          <div>
            <p className="text-sm font-semibold tracking-widest text-amber-900 uppercase">{t('services.newCourse')}</p>
            <h2 id="course-title" className="mt-2 text-2xl font-bold text-slate-900">
              {t('course.title')}
            </h2>
            <p className="mt-2 text-slate-700">{t('services.courseText')}</p>
          </div>
          <PageLink to="/services/awareness-course" className={`${BUTTON.accent} shrink-0`}>
            {t('services.enroll')}
          </PageLink>
        </div>
      </section>

      {services.length === 0 ? (
        <p role="alert" className="mx-auto max-w-7xl px-4 py-16 text-lg text-slate-700">
          {tx(SERVICES_ERROR)}
        </p>
      ) : (
        <ul className="mx-auto max-w-7xl space-y-16 px-4 py-16 md:space-y-24">
          {services.map((service, index) => (
            <li key={service.id} className="grid items-center gap-8 md:grid-cols-2 md:gap-16">
              <div className={index % 2 === 1 ? 'md:order-last' : undefined}>
                <Image
                  src={service.imageUrl}
                  alt={service.imageAlt}
                  lang={english /* a service's picture has one description, in English: its versions have none */}
                  sizes="(min-width: 768px) 50vw, 100vw"
                  priority={index === 0}
                  className="rounded-2xl shadow-sm"
                />
              </div>
              <div>
                <NotTranslated textLanguage={service.textLanguage} />
                <h2 lang={service.textLanguage} className="text-3xl font-bold text-slate-900">
                  {service.title}
                </h2>
                {service.signLanguage && (
                  <p className="mt-3">
                    <SignLanguageBadge />
                  </p>
                )}
                <p lang={service.textLanguage} className="mt-4 text-lg leading-relaxed text-slate-700">
                  {service.description}
                </p>
                {service.features.length > 0 && (
                  <CheckList items={service.features.slice(0, FEATURES_SHOWN)} lang={service.textLanguage} className="mt-6" />
                )}
                <PageLink to={`/services/${encodeURIComponent(service.id)}`} className={`${TEXT_LINK} mt-6 inline-block`}>
                  {t('services.learnMore')}
                  <span className="sr-only">{t('services.learnMoreAbout', { title: service.title })}</span>
                </PageLink>
              </div>
            </li>
          ))}
        </ul>
      )}

      <ClosingCallToAction
        id="services-cta"
        tone="dark"
        kicker={t('services.ctaKicker')}
        title={t('services.ctaTitle')}
        text={t('services.ctaText')}
        links={[
          { to: '/contact', label: t('services.contactUs') },
          { to: '/donate', label: t('services.donate'), external: true },
        ]}
      />
    </>
  );
}
