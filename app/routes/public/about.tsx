import { PageLink } from '~/components/page-link';
import { ExternalLink } from '~/components/external-link';
import { ClosingCallToAction } from '~/components/home/call-to-action';
import { CardGridSection } from '~/components/home/card-grid-section';
import { FounderAvatar } from '~/components/home/founder-avatar';
import { PageHero } from '~/components/home/page-hero';
import { BUTTON, EYEBROW, TEXT_LINK } from '~/components/home/styles';
import { LinkedInLogo, XLogo } from '~/components/icons';
import { metaTranslator, useI18n } from '~/lib/i18n/i18n';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import { paragraphs } from '~/lib/site';
import { findFounderStoryPath, getFounderProfile } from '~/server/site/founder.server';
import { getAboutTexts } from '~/server/site/site.server';
import type { Route } from './+types/about';

export async function loader() {
  const [founder, about] = await Promise.all([getFounderProfile(), getAboutTexts()]);
  return { about, founder, storyPath: await findFounderStoryPath(founder) };
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteFromMatches(matches);
  const t = metaTranslator(site);
  return pageMeta({ title: t('about.title'), description: t('meta.about.description'), path: '/about', site });
};

export default function About({ loaderData }: Route.ComponentProps) {
  const { about, founder, storyPath } = loaderData;
  const { t, english } = useI18n();
  return (
    <>
      <PageHero id="about-title" kicker={t('about.kicker')} title={t('about.title')} intro={t('about.intro')} />

      <div className="mx-auto grid max-w-7xl gap-6 px-4 py-16 md:grid-cols-2">
        <section aria-labelledby="mission" className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
          <h2 id="mission" className="text-2xl font-bold text-slate-900">
            {t('about.mission')}
          </h2>
          <Paragraphs text={about.mission} />
        </section>
        <section aria-labelledby="vision" className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
          <h2 id="vision" className="text-2xl font-bold text-slate-900">
            {t('about.vision')}
          </h2>
          <Paragraphs text={about.vision} />
        </section>
      </div>

      {about.values.length > 0 && (
        <CardGridSection id="values" title={t('about.values')} items={about.values} itemsLang={english} columns={3} />
      )}

      <section id="founder" aria-labelledby="founder-title" className="mx-auto max-w-7xl scroll-mt-36 px-4 py-16 md:py-24">
        <div className="flex flex-col items-center gap-10 md:flex-row md:items-start md:gap-16">
          <FounderAvatar name={founder.name} pictureUrl={founder.pictureUrl} size="lg" />
          <div className="max-w-3xl">
            <p className={EYEBROW}>{t('about.founder')}</p>
            <h2 id="founder-title" className="mt-3 text-3xl font-bold text-slate-900 md:text-4xl">
              {founder.name}
            </h2>
            {founder.title && (
              <p lang={english} className="mt-2 text-lg font-medium text-indigo-800">
                {founder.title}
              </p>
            )}
            {paragraphs(founder.fullBio || founder.bio).map((paragraph, i) => (
              <p
                key={i}
                lang={english}
                className={`${i === 0 ? 'mt-5' : 'mt-4'} text-lg leading-relaxed whitespace-pre-line text-slate-700`}
              >
                {paragraph}
              </p>
            ))}
            <div className="mt-8 flex flex-wrap items-center gap-4">
              {storyPath && (
                <PageLink to={storyPath} className={BUTTON.primary}>
                  {t('home.readFounderStory', { name: founder.name })}
                </PageLink>
              )}
              {founder.social.twitter && (
                <ExternalLink href={founder.social.twitter} className={`${TEXT_LINK} inline-flex items-center gap-2`}>
                  <XLogo /> {t('about.onX', { name: founder.name })}
                </ExternalLink>
              )}
              {founder.social.linkedin && (
                <ExternalLink href={founder.social.linkedin} className={`${TEXT_LINK} inline-flex items-center gap-2`}>
                  <LinkedInLogo /> {t('about.onLinkedIn', { name: founder.name })}
                </ExternalLink>
              )}
            </div>
          </div>
        </div>
      </section>

      <ClosingCallToAction
        id="about-cta"
        tone="light"
        title={t('about.ctaTitle')}
        text={t('about.ctaText')}
        links={[
          { to: '/services', label: t('about.ourServices') },
          { to: '/contact', label: t('about.contactUs') },
        ]}
      />
    </>
  );
}

/** A plain text from Site settings: a blank line starts a new paragraph. */
function Paragraphs({ text }: { text: string }) {
  const { english } = useI18n();
  return paragraphs(text).map((paragraph, i) => (
    <p key={i} lang={english} className="mt-4 text-lg leading-relaxed whitespace-pre-line text-slate-700">
      {paragraph}
    </p>
  ));
}
