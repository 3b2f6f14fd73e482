import { pageMeta, siteFromMatches } from '~/lib/seo';
import type { Route } from './+types/privacy';
import { Link, useRouteLoaderData } from 'react-router';
import { ProsePage } from '~/components/prose-page';
import type { loader as layoutLoader } from './layout';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: 'Privacy Policy',
    description: 'What we collect when you use our website, why, and how to ask us to change or delete it.',
    path: '/privacy',
    site: siteFromMatches(matches),
  });

export default function Privacy() {
  const site = useRouteLoaderData<typeof layoutLoader>('routes/public/layout')?.site;
  return (
    <ProsePage title="Privacy Policy" updated="November 2026">
      <p>We collect as little about you as we can, and we never sell it.</p>
      <h2>What we keep</h2>
      <ul>
        <li>
          When you send the contact form: your name, email, optional phone number, subject and message, so we can answer you.
        </li>
        <li>When you subscribe to our newsletter: your email address, until you ask us to remove it.</li>
        <li>For staff who sign in: their account details and a record of sign-ins, to keep the dashboard secure.</li>
      </ul>
      <h2>What we do not do</h2>
      <p>
        This site has no advertising, no tracking scripts and no third-party analytics. Every file is served by us, so visiting
        does not tell any other company that you were here.
      </p>
      <h2>Your choices</h2>
      <p>
        To see, correct or delete what we hold about you, write to{' '}
        {site ? <a href={`mailto:${site.email}`}>{site.email}</a> : 'us'} or use the <Link to="/contact">contact form</Link>. We
        answer within 30 days, as the Data Protection and Privacy Act 2019 of Uganda requires.
      </p>
    </ProsePage>
  );
}
