import { pageMeta, siteFromMatches } from '~/lib/seo';
import type { Route } from './+types/accessibility';
import { Link } from 'react-router';
import { ProsePage } from '~/components/prose-page';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: 'Accessibility',
    description: 'How we make this website work for everyone, and how to tell us when it does not.',
    path: '/accessibility',
    site: siteFromMatches(matches),
  });

export default function Accessibility() {
  return (
    <ProsePage title="Accessibility" updated="November 2026">
      <p>
        We are a disability organisation, so this website must work for everyone: on a small phone, on slow mobile data, with a
        screen reader, a keyboard, captions or large text.
      </p>
      <h2>What we do</h2>
      <ul>
        <li>We aim to meet the Web Content Accessibility Guidelines (WCAG) 2.2 at level AA.</li>
        <li>Every page works with a keyboard alone, shows where focus is, and starts with a link to skip to the main content.</li>
        <li>Images carry text descriptions; text can be enlarged to 200% without losing content.</li>
        <li>Animations stop when your device asks for reduced motion.</li>
        <li>Pages are small and load quickly, and the contact form works even before the page&apos;s scripts have loaded.</li>
      </ul>
      <h2>Tell us what does not work</h2>
      <p>
        If something on this site is hard to use, please <Link to="/contact?subject=Accessibility">tell us</Link>. We will fix it
        or send you the content in a form that suits you.
      </p>
    </ProsePage>
  );
}
