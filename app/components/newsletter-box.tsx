import { useI18n } from '~/lib/i18n/i18n';
import { useFetcher, useLocation } from 'react-router';
import type { NewsletterResult } from '~/lib/newsletter';

/**
 * The newsletter box of /news and the article page. Subscribing queues the address and mails a
 * confirmation link (spec: the original did nothing; docs/decisions/505-newsletter.md): the answer
 * is the same for every valid address. Works without JavaScript as a plain POST.
 */
export function NewsletterBox({ source, title, text }: { source: string; title?: string; text?: string }) {
  const { t, tx } = useI18n();
  const fetcher = useFetcher<NewsletterResult>();
  // The page it was sent from: stored with the address, and the way back after a post without JavaScript.
  const { pathname } = useLocation();
  const result = fetcher.data;
  const busy = fetcher.state !== 'idle';
  const headingId = `newsletter-${source.replace(/[^a-z0-9]+/gi, '-')}`;
  return (
    <section aria-labelledby={headingId} className="rounded-2xl bg-indigo-900 px-6 py-10 text-center text-white md:px-12">
      <h2 id={headingId} className="text-2xl font-bold md:text-3xl">
        {title ?? t('newsletter.stayInformed')}
      </h2>
      <p className="mx-auto mt-3 max-w-xl text-indigo-100">{text ?? t('newsletter.boxText')}</p>
      <fetcher.Form
        method="post"
        action="/newsletter"
        data-enhance="answer"
        data-answer-into={`${headingId}-result`}
        data-sending={t('newsletter.subscribing')}
        className="mx-auto mt-6 flex max-w-md flex-col gap-3 sm:flex-row"
      >
        <input type="hidden" name="source" value={pathname} />
        <label htmlFor={`${headingId}-email`} className="sr-only">
          {t('newsletter.emailLabel')}
        </label>
        <input
          id={`${headingId}-email`}
          name="email"
          type="email"
          required
          maxLength={254}
          autoComplete="email"
          placeholder={t('newsletter.placeholder')}
          aria-describedby={result ? `${headingId}-result` : undefined}
          aria-invalid={result?.status === 'invalid' ? true : undefined}
          className="min-h-12 flex-1 rounded-full border-2 border-transparent bg-white px-5 text-slate-900 placeholder:text-slate-500"
        />
        <button
          type="submit"
          disabled={busy}
          className="min-h-12 rounded-full bg-amber-400 px-6 font-semibold text-slate-900 hover:bg-amber-300 disabled:opacity-70"
        >
          {busy ? t('newsletter.subscribing') : t('newsletter.subscribe')}
        </button>
      </fetcher.Form>
      <p id={`${headingId}-result`} role="status" className="mt-4 min-h-6 font-medium">
        {result && tx(result.message)}
      </p>
    </section>
  );
}
