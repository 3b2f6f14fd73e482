import { PageLink } from '~/components/page-link';
import { useI18n } from '~/lib/i18n/i18n';
import { COLLECTION_INFO } from '~/lib/collections';

/** spec §2: the consultation call to action, to /contact and to the resources. */
export function ConsultationCta() {
  const { t } = useI18n();
  return (
    <section
      aria-labelledby="consultation"
      className="rounded-2xl border border-indigo-100 bg-indigo-50 px-6 py-10 shadow-sm md:px-12 md:py-12"
    >
      <h2 id="consultation" className="text-2xl font-bold text-indigo-950 md:text-3xl">
        {t('article.consultTitle')}
      </h2>
      <p className="mt-3 max-w-2xl text-lg text-slate-700">{t('article.consultText')}</p>
      <div className="mt-6 flex flex-wrap gap-3">
        <PageLink
          to="/contact?subject=Consultation"
          className="inline-flex min-h-12 items-center rounded-full bg-amber-400 px-6 font-semibold text-slate-900 hover:bg-amber-300"
        >
          {t('article.consultBook')}
        </PageLink>
        <PageLink
          to={COLLECTION_INFO.resources.path}
          className="inline-flex min-h-12 items-center rounded-full border-2 border-indigo-800 bg-white px-6 font-semibold text-indigo-900 hover:bg-indigo-100"
        >
          {t('article.browseResources')}
        </PageLink>
      </div>
    </section>
  );
}
