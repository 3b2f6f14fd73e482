import { pageMeta, siteFromMatches } from '~/lib/seo';
import type { Route } from './+types/terms';
import { Link } from 'react-router';
import { ProsePage } from '~/components/prose-page';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: 'Terms of Service',
    description: 'The terms for using our website and sharing our stories.',
    path: '/terms',
    site: siteFromMatches(matches),
  });

export default function Terms() {
  return (
    <ProsePage title="Terms of Service" updated="November 2026">
      <p>
        By using this website you agree to these terms. They are short because our aim is simple: to share knowledge about
        disability inclusion.
      </p>
      <h2>Sharing our stories</h2>
      <p>
        You are welcome to share links to our stories and articles. To republish a story in full, please ask us first: many are
        personal accounts, and we protect the people who trusted us with them.
      </p>
      <h2>External sites</h2>
      <p>Donations and our awareness course are handled on partner sites that open in a new tab. Their own terms apply there.</p>
      <h2>Questions</h2>
      <p>
        If anything here is unclear, <Link to="/contact">contact us</Link>.
      </p>
    </ProsePage>
  );
}
