import { pageMeta, siteFromMatches } from '~/lib/seo';
import { ProsePage } from '~/components/prose-page';
import { getLegalPage } from '~/server/site/site.server';
import { metaTranslator, useI18n } from '~/lib/i18n/i18n';
import type { Route } from './+types/privacy';

/** The page's words are Site settings' Privacy Policy text (docs/decisions/003, 502). */
export async function loader() {
  return getLegalPage('privacy');
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteFromMatches(matches);
  const t = metaTranslator(site);
  return pageMeta({ title: t('legal.privacy'), description: t('legal.privacyDescription'), path: '/privacy', site });
};

export default function Page({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  return (
    <ProsePage title={t('legal.privacy')} updated={loaderData.updated} html={loaderData.html}>
      <VisitCounts />
    </ProsePage>
  );
}

/**
 * Issue 28: what the website itself counts, in plain words. Fixed text, not a setting: it says what
 * the software does (server/analytics.ts, app/server/analytics/).
 */
function VisitCounts() {
  const { t } = useI18n();
  return (
    <section aria-labelledby="visit-counts" className="mt-12 space-y-4 text-lg leading-relaxed text-slate-800">
      <h2 id="visit-counts" className="text-2xl font-bold text-slate-900">
        {t('privacy.countsTitle')}
      </h2>
      <p>{t('privacy.counts1')}</p>
      <ul className="list-disc space-y-2 pl-6">
        <li>{t('privacy.counts2')}</li>
        <li>{t('privacy.counts3')}</li>
        <li>{t('privacy.counts4')}</li>
        <li>{t('privacy.counts5')}</li>
      </ul>
      <p>{t('privacy.counts6')}</p>
      <p>{t('privacy.counts7')}</p>
    </section>
  );
}
