import { useEffect } from 'react';
import { useI18n } from '~/lib/i18n/i18n';

const bone = 'rounded-lg bg-slate-200 motion-safe:animate-pulse';

/** spec §2 "Loading shows a skeleton": shown while another article is on its way. */
export function ArticleSkeleton() {
  const { t } = useI18n();
  // The new article starts at the top; show its skeleton there rather than where the old one ended.
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, []);
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 md:py-14" aria-busy="true">
      <p role="status" className="sr-only">
        {t('article.loading')}
      </p>
      <div aria-hidden="true">
        <div className={`${bone} h-4 w-2/3`} />
        <div className="mt-8 flex gap-3">
          <div className={`${bone} h-7 w-24 rounded-full`} />
          <div className={`${bone} h-7 w-32`} />
        </div>
        <div className={`${bone} mt-6 h-10 w-full`} />
        <div className={`${bone} mt-3 h-10 w-4/5`} />
        <div className={`${bone} mt-6 h-5 w-full`} />
        <div className={`${bone} mt-2 h-5 w-3/4`} />
        <div className="mt-8 flex items-center gap-3">
          <div className={`${bone} h-12 w-12 rounded-full`} />
          <div className={`${bone} h-5 w-40`} />
        </div>
        <div className={`${bone} mt-8 aspect-video w-full rounded-2xl`} />
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className={`${bone} mt-4 h-5 ${i % 2 ? 'w-11/12' : 'w-full'}`} />
        ))}
      </div>
    </div>
  );
}
