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
  return (
    <ProsePage title="Privacy Policy" updated={loaderData.updated} html={loaderData.html}>
      <VisitCounts />
    </ProsePage>
  );
}

/**
 * Issue 28: what the website itself counts, in plain words. Fixed text, not a setting: it says what
 * the software does (server/analytics.ts, app/server/analytics/).
 */
function VisitCounts() {
  return (
    <section aria-labelledby="visit-counts" className="mt-12 space-y-4 text-lg leading-relaxed text-slate-800">
      <h2 id="visit-counts" className="text-2xl font-bold text-slate-900">
        What this website counts
      </h2>
      <p>
        To know whether our stories reach people, this website counts visits itself. It uses no cookies, and nothing is sent to
        any other company.
      </p>
      <ul className="list-disc space-y-2 pl-6">
        <li>
          For each page read: the page, its language, the kind of device (phone, tablet or computer) and whether data saver was
          on.
        </li>
        <li>
          The website a visit came from (only its name, such as partner.org, never the full address), and campaign tags in the
          link (utm_source and similar).
        </li>
        <li>
          Whether a sign-language video was started and how far it was watched, and how many people followed a link from our news
          feed or newsletter.
        </li>
        <li>Words searched for on this site that found nothing, so we can write what people look for.</li>
      </ul>
      <p>
        To count how many different people visited in a day without knowing who they are, your internet address and browser name
        are mixed with a random code that changes every day and is then deleted. The result cannot be turned back into your
        address, and no one, including us, can link your visits on different days. We do not store your internet address or your
        browser name. The mixed codes are deleted after 48 hours; the daily totals are kept for a period we set (about two years
        unless we change it).
      </p>
      <p>
        We do not count you at all if your browser sends Do Not Track or Global Privacy Control, or when our staff are signed in.
        Search engines and other robots are not counted either.
      </p>
    </section>
  );
}
