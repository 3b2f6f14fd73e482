import { pageMeta, siteFromMatches } from '~/lib/seo';
import { ProsePage } from '~/components/prose-page';
import { getLegalPage } from '~/server/site/site.server';
import type { Route } from './+types/terms';

/** The page's words are Site settings' Terms of Service text (docs/decisions/003, 502). */
export async function loader() {
  return getLegalPage('terms');
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: 'Terms of Service',
    description: 'The terms for using our website and sharing our stories.',
    path: '/terms',
    site: siteFromMatches(matches),
  });

export default function Page({ loaderData }: Route.ComponentProps) {
  return <ProsePage title="Terms of Service" updated={loaderData.updated} html={loaderData.html} />;
}
