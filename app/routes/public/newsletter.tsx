import { PageLink } from '~/components/page-link';
import { NewsletterBox } from '~/components/newsletter-box';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import { submitNewsletterForm } from '~/server/http/newsletter-form.server';
import { formAnswer, retryAfterHeaders } from '~/server/http/rate-limit.server';
import { requestContext } from '~/server/http/request-context.server';
import { metaTranslator, useI18n } from '~/lib/i18n/i18n';
import type { Route } from './+types/newsletter';

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteFromMatches(matches);
  const t = metaTranslator(site);
  return pageMeta({ title: t('newsletter.title'), description: t('newsletter.description'), path: '/newsletter', site });
};

/**
 * Every newsletter box posts here. With JavaScript the box shows the answer in place; without it the
 * browser lands on this page, which shows the answer and a link back. The answer is the same for
 * every valid address; the confirmation mail follows (docs/decisions/505-newsletter.md).
 */
export async function action({ request, context }: Route.ActionArgs) {
  return formAnswer(await submitNewsletterForm({ request, clientIp: context.get(requestContext).clientIp }));
}

export const headers = retryAfterHeaders;

export default function Newsletter({ actionData }: Route.ComponentProps) {
  const done = actionData?.status === 'received';
  const { t, tx } = useI18n();
  return (
    <div className="mx-auto max-w-3xl space-y-8 px-4 py-12 md:py-16">
      <div>
        <h1 className="text-4xl font-bold text-slate-900 md:text-5xl">{t('newsletter.title')}</h1>
        <p className="mt-4 text-lg text-slate-700">{t('newsletter.intro')}</p>
      </div>
      {actionData && (
        <div
          role={done ? 'status' : 'alert'}
          className={`rounded-2xl border p-6 text-lg shadow-sm ${done ? 'border-emerald-300 bg-emerald-50 text-emerald-950' : 'border-red-300 bg-red-50 text-red-950'}`}
        >
          <p className="font-semibold" data-answer={actionData.status}>
            {tx(actionData.message)}
          </p>
          <PageLink
            to={actionData.back}
            className="mt-4 inline-flex min-h-11 items-center font-semibold text-indigo-900 underline underline-offset-4"
          >
            {actionData.back === '/' ? t('newsletter.backHome') : t('newsletter.backPage')}
          </PageLink>
        </div>
      )}
      {!done && <NewsletterBox source="/newsletter" title={t('newsletter.subscribeTitle')} />}
    </div>
  );
}
