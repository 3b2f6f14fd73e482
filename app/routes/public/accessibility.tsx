import { pageMeta, siteFromMatches } from '~/lib/seo';
import { ProsePage } from '~/components/prose-page';
import { getLegalPage } from '~/server/site/site.server';
import { metaTranslator, useI18n } from '~/lib/i18n/i18n';
import type { Route } from './+types/accessibility';

/** The page's words are Site settings' Accessibility text (docs/decisions/003, 502). */
export async function loader() {
  return getLegalPage('accessibility');
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteFromMatches(matches);
  const t = metaTranslator(site);
  return pageMeta({
    title: t('legal.accessibility'),
    description: t('legal.accessibilityDescription'),
    path: '/accessibility',
    site,
  });
};

export default function Page({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  return <ProsePage title={t('legal.accessibility')} updated={loaderData.updated} html={loaderData.html} />;
}
