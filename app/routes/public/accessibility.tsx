import { pageMeta, siteFromMatches } from '~/lib/seo';
import { ProsePage } from '~/components/prose-page';
import { getLegalPage } from '~/server/site/site.server';
import type { Route } from './+types/accessibility';

/** The page's words are Site settings' Accessibility text (docs/decisions/003, 502). */
export async function loader() {
  return getLegalPage('accessibility');
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: 'Accessibility',
    description: 'How we make this website work for everyone, and how to tell us when it does not.',
    path: '/accessibility',
    site: siteFromMatches(matches),
  });

export default function Page({ loaderData }: Route.ComponentProps) {
  return <ProsePage title="Accessibility" updated={loaderData.updated} html={loaderData.html} />;
}
