import { useI18n } from '~/lib/i18n/i18n';
import type { ReactNode } from 'react';
import { Form, useNavigation } from 'react-router';
import { PageLink } from '~/components/page-link';

/**
 * The card of the public confirm and unsubscribe pages: a heading, what happens, and either one
 * button that posts to the page itself (works without JavaScript) or the links onward. Its own file,
 * not beside the newsletter box: /news and every article page show the box and should not download
 * this (docs/decisions/406-script-weight.md).
 */
export function SubscriptionPanel({
  title,
  tone,
  children,
  action,
}: {
  title: string;
  tone: 'neutral' | 'done' | 'problem';
  children: ReactNode;
  /** The button's words when the page asks for a press; none once it is done. */
  action?: string;
}) {
  const { t, tx } = useI18n();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const look = {
    neutral: 'border-slate-200 bg-white',
    done: 'border-emerald-300 bg-emerald-50',
    problem: 'border-amber-300 bg-amber-50',
  }[tone];
  return (
    <div className="mx-auto max-w-2xl px-4 py-12 md:py-16">
      <section aria-labelledby="subscription-title" className={`rounded-2xl border p-6 shadow-sm md:p-10 ${look}`}>
        <h1 id="subscription-title" className="text-3xl font-bold text-slate-900 md:text-4xl">
          {tx(title)}
        </h1>
        <div className="mt-4 space-y-3 text-lg text-slate-800" role={tone === 'neutral' ? undefined : 'status'}>
          {children}
        </div>
        {action ? (
          <Form method="post" className="mt-8">
            <button
              type="submit"
              disabled={busy}
              className="min-h-12 rounded-full bg-indigo-800 px-8 text-lg font-semibold text-white hover:bg-indigo-900 disabled:opacity-70"
            >
              {busy ? t('newsletter.wait') : tx(action)}
            </button>
          </Form>
        ) : (
          <nav aria-label={t('newsletter.whereNext')} className="mt-8 flex flex-wrap gap-x-6 gap-y-3">
            <PageLink
              to="/"
              className="inline-flex min-h-11 items-center font-semibold text-indigo-900 underline underline-offset-4"
            >
              {t('newsletter.backHome')}
            </PageLink>
            <PageLink
              to="/news"
              className="inline-flex min-h-11 items-center font-semibold text-indigo-900 underline underline-offset-4"
            >
              {t('newsletter.latestNews')}
            </PageLink>
          </nav>
        )}
      </section>
    </div>
  );
}
