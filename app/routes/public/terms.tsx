import { pageMeta, siteFromMatches } from '~/lib/seo';
import { ProsePage } from '~/components/prose-page';
import { getLegalPage } from '~/server/site/site.server';
import { metaTranslator, useI18n } from '~/lib/i18n/i18n';
import type { Route } from './+types/terms';

/** The page's words are Site settings' Terms of Service text (docs/decisions/003, 502). */
export async function loader() {
  return getLegalPage('terms');
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteFromMatches(matches);
  const t = metaTranslator(site);
  return pageMeta({ title: t('legal.terms'), description: t('legal.termsDescription'), path: '/terms', site });
};

export default function Page({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  return <ProsePage title={t('legal.terms')} updated={loaderData.updated} html={loaderData.html} />;
}
