import { data } from 'react-router';
import { PageLink } from '~/components/page-link';
import { CallToAction } from '~/components/home/call-to-action';
import { CheckList } from '~/components/home/check-list';
import { BUTTON, TEXT_LINK } from '~/components/home/styles';
import { Image } from '~/components/image';
import { EasyReadLink, NotTranslated } from '~/components/easy-read';
import { servicesInLanguage } from '~/server/content/service-versions.server';
import { languageOfPath } from '~/lib/languages';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import { useSaveData, withoutPoster } from '~/lib/save-data';
import { serviceContactHref } from '~/lib/services';
import { truncate } from '~/lib/text';
import { APPLICATION_PATHS, SERVICE_APPLICATIONS } from '~/lib/applications';
import { APPLICATION_TITLE_KEYS } from '~/components/application-form';
import { metaTranslator, useI18n } from '~/lib/i18n/i18n';
import { localiseVideoMarkup } from '~/lib/video';
import { getService } from '~/server/content/services.server';
import type { Route } from './+types/service';

// Service ids are short slugs; anything else cannot exist, so it is not looked up.
const SERVICE_ID = /^[A-Za-z0-9_-]{1,100}$/;

export async function loader({ params, request }: Route.LoaderArgs) {
  const found = SERVICE_ID.test(params.id) ? await getService(params.id) : undefined;
  if (!found) return data({ service: null }, { status: 404 });
  // Issue 26: under /lg and /sw, its published version in that language, else its English words, marked.
  const [service] = await servicesInLanguage([found], languageOfPath(new URL(request.url).pathname));
  return { service: service! };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const site = siteFromMatches(matches);
  const service = loaderData?.service;
  if (!service) {
    const t = metaTranslator(site);
    return pageMeta({
      title: t('service.notFound'),
      description: t('service.notFoundText'),
      path: '/services',
      site,
      noindex: true,
    });
  }
  return pageMeta({
    title: service.title,
    description: truncate(service.description, 160),
    path: `/services/${service.id}`,
    site,
    image: service.imageUrl,
    imageAlt: service.imageAlt,
  });
};

/** The breadcrumb's way back up, above the service's own title. */
const PARENTS = [
  { to: '/', label: 'service.home' },
  { to: '/services', label: 'service.services' },
] as const;

/** spec §2 /services/{id}: the service's picture, description, every feature and a way to ask about it. */
export default function ServiceDetail({ loaderData }: Route.ComponentProps) {
  const { service } = loaderData;
  // Issue 24: with Save-Data the player shows no poster picture either.
  const saveData = useSaveData();
  const { t, tx, english } = useI18n();
  if (!service) {
    return (
      <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
        <h1 className="text-4xl font-bold text-slate-900">{t('service.notFound')}</h1>
        <p className="mt-4 text-lg text-slate-700">{t('service.notFoundText')}</p>
        <PageLink to="/services" className={`${BUTTON.primary} mt-8`}>
          {t('service.back')}
        </PageLink>
      </section>
    );
  }
  const video = service.video && localiseVideoMarkup(service.video, tx, english);
  return (
    <article className="mx-auto max-w-7xl px-4 py-12 md:py-16">
      <nav aria-label={t('service.breadcrumb')} className="text-sm text-slate-600">
        <ol className="flex flex-wrap gap-2">
          {PARENTS.map((parent) => (
            <li key={parent.to}>
              <PageLink to={parent.to} className="underline-offset-4 hover:underline">
                {t(parent.label)}
              </PageLink>
              <span aria-hidden="true"> /</span>
            </li>
          ))}
          <li aria-current="page" lang={service.textLanguage} className="font-medium text-slate-800">
            {service.title}
          </li>
        </ol>
      </nav>
      <div className="mt-8 grid gap-10 md:grid-cols-2 md:gap-16">
        <Image
          src={service.imageUrl}
          alt={service.imageAlt}
          lang={english /* a service's picture has one description, in English: its versions have none */}
          priority
          sizes="(min-width: 768px) 50vw, 100vw"
          className="rounded-2xl shadow-sm"
        />
        <div>
          <NotTranslated textLanguage={service.textLanguage} />
          <h1
            lang={service.textLanguage}
            className="text-2xl font-extrabold text-slate-900 min-[20rem]:text-3xl min-[22.5rem]:text-4xl md:text-5xl"
          >
            {service.title}
          </h1>
          {service.easyRead && <EasyReadLink href={`/services/${service.id}/easy-read`} />}
          {/* Issue 14: markup made on the server, so pages without a video carry no video code (decision 021). */}
          {video && <div dangerouslySetInnerHTML={{ __html: video.link }} />}
          <p lang={service.textLanguage} className="mt-6 text-lg leading-relaxed text-slate-700">
            {service.description}
          </p>
        </div>
      </div>
      {video && (
        <div className="mx-auto max-w-3xl">
          <div dangerouslySetInnerHTML={{ __html: saveData ? withoutPoster(video.player) : video.player }} />
          <script type="module" async src={video.script} />
        </div>
      )}
      {service.features.length > 0 && (
        <section aria-labelledby="features-title" className="mt-12 rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
          <h2 id="features-title" className="text-2xl font-bold text-slate-900">
            {t('service.included')}
          </h2>
          <div lang={service.textLanguage}>
            <CheckList items={service.features} className="mt-6 text-lg" />
          </div>
        </section>
      )}
      <div className="mt-12">
        <CallToAction
          id="service-cta"
          tone="light"
          title={t('service.interested', { title: service.title })}
          text={t('service.ctaText')}
        >
          {SERVICE_APPLICATIONS[service.id] && (
            <PageLink to={APPLICATION_PATHS[SERVICE_APPLICATIONS[service.id]!]} className={BUTTON.accent}>
              {t(APPLICATION_TITLE_KEYS[SERVICE_APPLICATIONS[service.id]!])}
            </PageLink>
          )}
          <PageLink
            to={serviceContactHref(service)}
            className={SERVICE_APPLICATIONS[service.id] ? BUTTON.outline : BUTTON.accent}
          >
            {t('service.contactAbout')}
          </PageLink>
          <PageLink to="/services" className={TEXT_LINK}>
            {t('service.all')}
          </PageLink>
        </CallToAction>
      </div>
    </article>
  );
}
