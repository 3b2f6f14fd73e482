import { PageLink } from '~/components/page-link';
import { Image } from '~/components/image';
import { useI18n } from '~/lib/i18n/i18n';
import { BUTTON, EYEBROW } from './styles';

/**
 * Home section 5: the Awareness Project with Learn more. The three slider dots (first active) are a
 * decorative indicator only: there is one slide, so they are hidden from assistive technology
 * (docs/decisions/302).
 */
export function AwarenessProject() {
  const { t } = useI18n();
  return (
    <section aria-labelledby="awareness-title" className="mx-auto max-w-7xl px-4 py-16 md:py-24">
      <div className="grid items-center gap-10 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm md:grid-cols-2">
        <div>
          <Image
            src="/images/home/awareness.svg"
            alt={t('home.awarenessAlt')}
            width={1600}
            height={900}
            sizes="(min-width: 768px) 50vw, 100vw"
          />
        </div>
        <div className="px-6 pb-8 md:py-10 md:pr-10 md:pl-0">
          <p className={EYEBROW}>{t('home.awarenessKicker')}</p>
          <h2 id="awareness-title" className="mt-3 text-3xl font-bold text-slate-900">
            {t('home.awarenessTitle')}
          </h2>
          <p className="mt-4 text-lg leading-relaxed text-slate-700">{t('home.awarenessText')}</p>
          <div className="mt-8 flex flex-wrap items-center justify-between gap-6">
            {/* The hidden words make the link say where it goes, to screen readers and to search engines
                (which read the text, not an aria-label); the name still starts with what is seen. */}
            <PageLink to="/services/awareness-course" className={BUTTON.accent}>
              {t('home.learnMore')}
              <span className="sr-only">{t('home.learnMoreAwareness')}</span>
            </PageLink>
            <div aria-hidden="true" className="flex gap-2">
              <span data-active="true" className="h-2.5 w-8 rounded-full bg-indigo-800" />
              <span className="h-2.5 w-2.5 rounded-full bg-slate-300" />
              <span className="h-2.5 w-2.5 rounded-full bg-slate-300" />
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}
