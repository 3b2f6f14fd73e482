import { useLocation } from 'react-router';
import { PageLink } from '~/components/page-link';
import { useI18n } from '~/lib/i18n/i18n';

/** The address of another page of the current list, keeping the search and category. */
export function pageHref(pathname: string, search: string, page: number): string {
  const params = new URLSearchParams(search);
  if (page <= 1) params.delete('page');
  else params.set('page', String(page));
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/**
 * The canonical address of a list page: a search or a filter points at the bare list; plain paging
 * keeps its page number, since each page lists different items.
 */
export function canonicalListPath(
  basePath: string,
  list: { q: string; category: string; list: { page: number } } | undefined,
): string {
  if (!list || list.q || list.category || list.list.page <= 1) return basePath;
  return `${basePath}?page=${list.list.page}`;
}

const linkStyle =
  'inline-flex min-h-12 items-center rounded-full border-2 border-indigo-800 px-4 font-semibold text-indigo-900 hover:bg-indigo-50 sm:px-6';

/** Previous / next page links as plain links, so paging works without JavaScript. Hidden for one page. */
export function Pagination({ page, pageCount }: { page: number; pageCount: number }) {
  const { pathname, search } = useLocation();
  const { t } = useI18n();
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={t('list.pagination')} className="flex flex-wrap items-center justify-center gap-3 pt-4 sm:gap-4">
      {page > 1 && (
        <PageLink to={pageHref(pathname, search, page - 1)} rel="prev" className={linkStyle}>
          <span aria-hidden="true">←&nbsp;</span>
          {t('list.previous')}
        </PageLink>
      )}
      <p className="order-first w-full text-center text-slate-700 sm:order-none sm:w-auto">
        {t('list.pageOf', { page, pageCount })}
      </p>
      {page < pageCount && (
        <PageLink to={pageHref(pathname, search, page + 1)} rel="next" className={linkStyle}>
          {t('list.next')}
          <span aria-hidden="true">&nbsp;→</span>
        </PageLink>
      )}
    </nav>
  );
}
