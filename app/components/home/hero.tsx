import { PageLink } from '~/components/page-link';
import { useI18n } from '~/lib/i18n/i18n';
import { BUTTON } from './styles';

/** Home section 1: the mission headline and Partner with us (spec §2); the words come from Site settings. */
export function Hero({ headline, text }: { headline: string; text: string }) {
  const { t, english } = useI18n();
  return (
    <section aria-labelledby="home-title" className="relative overflow-hidden bg-indigo-900 text-white">
      <div
        aria-hidden="true"
        className="absolute inset-0 bg-[radial-gradient(circle_at_85%_20%,rgba(129,140,248,0.35),transparent_45%),radial-gradient(circle_at_10%_90%,rgba(251,191,36,0.18),transparent_40%)]"
      />
      <div className="relative mx-auto max-w-7xl px-4 py-16 sm:py-20 md:py-28">
        <p className="text-sm font-semibold tracking-widest text-amber-300 uppercase">{t('home.kicker')}</p>
        <h1
          id="home-title"
          lang={english}
          className="mt-4 max-w-3xl text-2xl leading-tight min-[20rem]:text-4xl font-extrabold text-balance md:text-6xl"
        >
          {headline}
        </h1>
        <p lang={english} className="mt-6 max-w-2xl text-lg whitespace-pre-line text-indigo-100 md:text-xl">
          {text}
        </p>
        <div className="mt-10">
          <PageLink to="/partner" className={`${BUTTON.accent} px-8 py-4 text-lg`}>
            {t('home.partner')}
          </PageLink>
        </div>
      </div>
    </section>
  );
}
