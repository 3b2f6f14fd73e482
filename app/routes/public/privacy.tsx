import { pageMeta, siteFromMatches } from '~/lib/seo';
import { ProsePage } from '~/components/prose-page';
import { getLegalPage } from '~/server/site/site.server';
import type { Route } from './+types/privacy';

/** The page's words are Site settings' Privacy Policy text (docs/decisions/003, 502). */
export async function loader() {
  return getLegalPage('privacy');
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: 'Privacy Policy',
    description: 'What we collect when you use our website, why, and how to ask us to change or delete it.',
    path: '/privacy',
    site: siteFromMatches(matches),
  });

export default function Page({ loaderData }: Route.ComponentProps) {
  return <ProsePage title="Privacy Policy" updated={loaderData.updated} html={loaderData.html} />;
}
