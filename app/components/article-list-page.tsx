import { useLocation, useNavigation } from 'react-router';
import { PageLink } from '~/components/page-link';
import { ContentCard, FeaturedContent, type CardTexts } from '~/components/content-card';
import { ListSearch } from '~/components/list-search';
import { canonicalListPath, Pagination } from '~/components/pagination';
import { EN, type MessageId } from '~/lib/i18n/en';
import { keyOfEnglish, translateEnglish, useI18n, type I18n } from '~/lib/i18n/i18n';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import type { ContentListData } from '~/server/content/content.server';

// The /blog, /news and /resources list pages (spec §2, §4, §8, §9): the heading, the search form, the
// result count, the states around the results, the featured item, the grid and the page links.
// Each page passes its own texts and limits.

/** The head tags of a public list page: its title, description and canonical address (page 2 onwards keeps its page). */
export function listPageMeta(basePath: string, title: string, description: string) {
  return ({
    matches,
    loaderData,
  }: {
    matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;
    loaderData?: ContentListData;
  }) => {
    const site = siteFromMatches(matches);
    const language = site?.language ?? 'en';
    return pageMeta({
      title: translateEnglish(language, title),
      description: translateEnglish(language, description),
      path: canonicalListPath(basePath, loaderData),
      site,
    });
  };
}

/**
 * Issue 26: a list's words (written in English by each page) in the reader's language, each by the
 * catalogue key whose English text it is; a search's "No … found for "q"" uses the key of the same
 * name with "For" after it.
 */
export function listTextsIn({ t, tx }: Pick<I18n, 't' | 'tx'>, texts: ListTexts): ListTexts {
  const noMatchKey = keyOfEnglish(texts.noMatch(''));
  const noMatchFor = noMatchKey && `${noMatchKey}For` in EN ? (`${noMatchKey}For` as MessageId) : undefined;
  return {
    ...texts,
    title: tx(texts.title),
    intro: tx(texts.intro),
    searchLabel: tx(texts.searchLabel),
    searchPlaceholder: tx(texts.searchPlaceholder),
    noun: { one: tx(texts.noun.one), many: tx(texts.noun.many) },
    featuredLabel: tx(texts.featuredLabel),
    moreHeading: tx(texts.moreHeading),
    readMore: tx(texts.readMore),
    loading: tx(texts.loading),
    error: tx(texts.error),
    empty: tx(texts.empty),
    noMatch: (q) => (q && noMatchFor ? t(noMatchFor, { q }) : tx(texts.noMatch(q))),
    noMatchHint: tx(texts.noMatchHint),
  };
}

export interface ListTexts extends CardTexts {
  /** The page's one h1 and the line under it. */
  title: string;
  intro: string;
  searchLabel: string;
  searchPlaceholder: string;
  noun: { one: string; many: string };
  moreHeading: string;
  loading: string;
  error: string;
  empty: string;
  noMatch: (q: string) => string;
  noMatchHint: string;
}

function countText(total: number, texts: ListTexts, filtered: boolean, t: I18n['t']): string {
  const values = { count: total, one: texts.noun.one, many: texts.noun.many };
  return filtered ? t('list.found', values) : t('list.showingAll', values);
}

function Notice({ children, tone = 'info' }: { children: React.ReactNode; tone?: 'info' | 'error' }) {
  const colours = tone === 'error' ? 'border-red-300 bg-red-50 text-red-900' : 'border-amber-300 bg-amber-50 text-slate-900';
  return <div className={`rounded-2xl border px-6 py-5 ${colours}`}>{children}</div>;
}

/**
 * The list body: the result count (a polite live region), the loading, error, empty and no-match
 * states, the featured item (page 1 only), the grid and the page links.
 */
export function ArticleListResults({ data, texts: english }: { data: ContentListData; texts: ListTexts }) {
  const i18n = useI18n();
  const { t } = i18n;
  const texts = listTextsIn(i18n, english);
  const navigation = useNavigation();
  const location = useLocation();
  const pending = navigation.state === 'loading' && navigation.location.pathname === location.pathname;
  const { list } = data;
  const filtered = Boolean(data.q || data.category || data.signLanguage || data.easyRead);
  const featured = list.page === 1 ? list.items[0] : undefined;
  const rest = list.page === 1 ? list.items.slice(1) : list.items;

  let status = '';
  if (pending) status = texts.loading;
  else if (data.status === 'ok' && !data.problem?.startsWith('query')) status = countText(list.total, texts, filtered, t);

  return (
    <div className="mt-8 space-y-10" data-list-results="" data-loading-text={texts.loading}>
      <p role="status" className="min-h-6 text-slate-700">
        {status}
      </p>

      {data.status === 'error' && (
        <Notice tone="error">
          <p className="font-semibold">{texts.error}</p>
          <a href={`${location.pathname}${location.search}`} className="mt-2 inline-block font-semibold underline">
            {t('list.tryAgain')}
          </a>
        </Notice>
      )}

      {data.problem === 'query-too-long' && (
        <Notice>
          <p className="font-semibold">{t('list.queryTooLong')}</p>
        </Notice>
      )}

      {data.problem === 'unknown-category' && (
        <Notice>
          <p>{t('list.unknownCategory', { category: data.rejectedCategory, many: texts.noun.many })}</p>
        </Notice>
      )}

      {data.status === 'ok' && !data.problem?.startsWith('query') && list.total === 0 && (
        <Notice>
          {filtered ? (
            <>
              <p className="text-lg font-semibold">{texts.noMatch(data.q)}</p>
              <p className="mt-1">{texts.noMatchHint}</p>
              <PageLink to={location.pathname} className="mt-3 inline-block font-semibold text-indigo-800 underline">
                {t('list.clear')}
              </PageLink>
            </>
          ) : (
            <p className="text-lg font-semibold">{texts.empty}</p>
          )}
        </Notice>
      )}

      <div aria-busy={pending} className={`space-y-12 transition-opacity ${pending ? 'opacity-60' : ''}`}>
        {featured && <FeaturedContent item={featured} texts={texts} />}
        {rest.length > 0 && (
          <section aria-labelledby="more-heading">
            <h2 id="more-heading" className="text-3xl font-bold text-slate-900">
              {texts.moreHeading}
            </h2>
            <ul className="mt-6 grid gap-8 sm:grid-cols-2 lg:grid-cols-3">
              {rest.map((item) => (
                <li key={item.id}>
                  <ContentCard item={item} texts={texts} />
                </li>
              ))}
            </ul>
          </section>
        )}
        <Pagination page={list.page} pageCount={list.pageCount} />
      </div>
    </div>
  );
}

/**
 * A whole list page: the h1, the search form, the results, then the page's own closing sections.
 * `withCategories: false` leaves the category dropdown out of the form (a short list needs none).
 */
export function ArticleListPage({
  data,
  texts,
  withCategories = true,
  children,
}: {
  data: ContentListData;
  texts: ListTexts;
  withCategories?: boolean;
  children?: React.ReactNode;
}) {
  const i18n = useI18n();
  const shown = listTextsIn(i18n, texts);
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 md:py-16">
      <header className="max-w-3xl">
        <h1 className="text-2xl font-extrabold text-slate-900 min-[20rem]:text-3xl min-[22.5rem]:text-4xl md:text-5xl">
          {shown.title}
        </h1>
        <p className="mt-4 text-lg text-slate-700">{shown.intro}</p>
      </header>
      <div className="mt-10">
        <ListSearch
          q={data.q}
          category={data.category}
          categories={withCategories ? data.categories : undefined}
          signLanguage={data.signLanguage}
          easyRead={data.easyRead}
          searchLabel={shown.searchLabel}
          placeholder={shown.searchPlaceholder}
        />
      </div>
      <ArticleListResults data={data} texts={texts} />
      {children}
    </div>
  );
}
