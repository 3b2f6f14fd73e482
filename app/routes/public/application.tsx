import { useLocation } from 'react-router';
import { PageLink } from '~/components/page-link';
import {
  APPLICATION_TITLE_KEYS,
  ApplicationForm,
  ApplicationSent,
  useApplicationPrivacyNotice,
} from '~/components/application-form';
import { metaTranslator, translateEnglish, useI18n } from '~/lib/i18n/i18n';
import {
  APPLICATION_KINDS,
  APPLICATION_PATHS,
  APPLICATION_TEXT,
  applicationKindFromPath,
  type ApplicationKind,
  type ApplicationResult,
} from '~/lib/applications';
import { RETENTION } from '~/lib/messages';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import { submitApplicationForm } from '~/server/http/application-form.server';
import { formAnswer, retryAfterHeaders } from '~/server/http/rate-limit.server';
import { requestContext } from '~/server/http/request-context.server';
import { getRetentionMonths } from '~/server/inbox/messages.server';
import { getLogger } from '~/server/platform/logger.server';
import type { Route } from './+types/application';

// Issue 27 part 1: /volunteer, /partner, /book-speaker and /design-help, one route module for the
// four forms (app/routes.ts gives each an id). Each is a document without React scripts (decision
// 025): the form posts as a plain form, and app/client/reading.ts sends it in place
// (`data-enhance="swap"`), as it does the contact form.

/** The kind of the form at `pathname`; an address the route table maps here always has one. */
function kindOf(pathname: string): ApplicationKind {
  return applicationKindFromPath(pathname) ?? 'volunteer';
}

export const meta: Route.MetaFunction = ({ location, matches }) => {
  const kind = kindOf(location.pathname);
  const site = siteFromMatches(matches);
  const t = metaTranslator(site);
  return pageMeta({
    title: t(APPLICATION_TITLE_KEYS[kind]),
    description: translateEnglish(site?.language ?? 'en', APPLICATION_TEXT[kind].description),
    path: APPLICATION_PATHS[kind],
    site,
  });
};

/** How long applications are kept (the inbox's retention setting), for the privacy note. */
export async function loader() {
  try {
    return { retentionMonths: await getRetentionMonths() };
  } catch (error) {
    getLogger().error({ err: error }, 'the message retention setting could not be read');
    return { retentionMonths: RETENTION.defaultMonths };
  }
}

/** Works as a plain form post (no JavaScript) and as the page script's post in place. */
export async function action({ request, context }: Route.ActionArgs) {
  const kind = kindOf(new URL(request.url).pathname);
  return formAnswer(await submitApplicationForm({ kind, request, clientIp: context.get(requestContext).clientIp }));
}

export const headers = retryAfterHeaders;

export default function Application({ loaderData, actionData }: Route.ComponentProps) {
  const kind = kindOf(useLocation().pathname);
  const text = APPLICATION_TEXT[kind];
  const result: ApplicationResult | undefined = actionData;
  const { t, tx } = useI18n();
  const notice = useApplicationPrivacyNotice(kind, loaderData.retentionMonths);
  return (
    <>
      <section className="bg-indigo-900 text-white">
        <div className="mx-auto max-w-7xl px-4 py-12 md:py-16">
          <h1 className="text-4xl font-bold md:text-5xl">{t(APPLICATION_TITLE_KEYS[kind])}</h1>
          <p className="mt-4 max-w-2xl text-lg text-indigo-100">{tx(text.intro)}</p>
        </div>
      </section>
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 md:py-16 lg:grid-cols-3">
        <div className="lg:col-span-2">
          {result?.status === 'sent' ? (
            <ApplicationSent kind={kind} />
          ) : (
            <ApplicationForm key={kind} kind={kind} result={result} notice={notice} />
          )}
        </div>
        <aside aria-labelledby="other-ways" className="space-y-6">
          <section className="rounded-2xl border border-slate-200 bg-slate-50 p-6">
            <h2 id="other-ways" className="text-xl font-bold text-slate-900">
              {t('app.otherWays')}
            </h2>
            <ul className="mt-4 space-y-2">
              {APPLICATION_KINDS.filter((other) => other !== kind).map((other) => (
                <li key={other}>
                  <PageLink
                    to={APPLICATION_PATHS[other]}
                    className="inline-flex min-h-11 items-center font-semibold text-indigo-800 underline underline-offset-4 hover:text-indigo-950"
                  >
                    {t(APPLICATION_TITLE_KEYS[other])}
                  </PageLink>
                </li>
              ))}
              <li>
                <PageLink
                  to="/contact"
                  className="inline-flex min-h-11 items-center font-semibold text-indigo-800 underline underline-offset-4 hover:text-indigo-950"
                >
                  {t('app.somethingElse')}
                </PageLink>
              </li>
            </ul>
          </section>
        </aside>
      </div>
    </>
  );
}
