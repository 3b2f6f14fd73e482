import { PageLink } from '~/components/page-link';
import { CountUp } from '~/components/count-up';
import { Image } from '~/components/image';
import { useI18n } from '~/lib/i18n/i18n';
import { paragraphs } from '~/lib/site';
import type { Stat } from '~/lib/stats';
import { BUTTON, EYEBROW } from './styles';

/**
 * Home section 2: the mission, Join now and Discover, and the animated lives-impacted counter (the
 * first of the stats). The words and the figure come from Site settings.
 */
export function Mission({ heading, text, counter }: { heading: string; text: string; counter: Stat }) {
  const { t, english } = useI18n();
  return (
    <section aria-labelledby="mission-title" className="mx-auto max-w-7xl px-4 py-16 md:py-24">
      <div className="grid items-center gap-10 md:grid-cols-2 md:gap-16">
        <div className="relative md:order-last">
          <Image
            src="/images/home/mission.svg"
            alt={t('home.missionAlt')}
            width={1200}
            height={900}
            sizes="(min-width: 768px) 50vw, 100vw"
            className="rounded-2xl shadow-sm"
          />
          <div className="absolute -bottom-6 left-4 rounded-2xl border border-slate-200 bg-white px-6 py-4 shadow-md sm:left-6">
            <p className="flex flex-col">
              <CountUp
                id="lives-impacted-mission"
                target={counter.number}
                suffix={counter.suffix}
                className="text-4xl font-extrabold text-indigo-900"
              />
              <span lang={english} className="text-sm font-semibold text-slate-700">
                {counter.label}
              </span>
            </p>
          </div>
        </div>
        <div className="pt-4 md:pt-0">
          <p className={EYEBROW}>{t('home.mission')}</p>
          <h2 id="mission-title" lang={english} className="mt-3 text-3xl font-bold text-slate-900 md:text-4xl">
            {heading}
          </h2>
          {paragraphs(text).map((paragraph, i) => (
            <p
              key={i}
              lang={english}
              className={`${i === 0 ? 'mt-5' : 'mt-4'} text-lg leading-relaxed whitespace-pre-line text-slate-700`}
            >
              {paragraph}
            </p>
          ))}
          <div className="mt-8 flex flex-wrap gap-3">
            <PageLink to="/volunteer" className={BUTTON.accent}>
              {t('home.joinNow')}
            </PageLink>
            <PageLink to="/about" className={BUTTON.outline}>
              {t('home.discover')}
            </PageLink>
          </div>
        </div>
      </div>
    </section>
  );
}
