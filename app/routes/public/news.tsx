import { data } from 'react-router';
import { PageLink } from '~/components/page-link';
import { ArticleListPage, listPageMeta, type ListTexts } from '~/components/article-list-page';
import { NewsletterBox } from '~/components/newsletter-box';
import { COLLECTION_INFO } from '~/lib/collections';
import { loadContentList } from '~/server/content/content.server';
import { languageOfPath } from '~/lib/languages';
import { noteSearchOutcome } from '~/server/analytics/counting.server';
import { useI18n } from '~/lib/i18n/i18n';
import type { Route } from './+types/news';

// spec §2 /news, §4 list states, §8 news list texts, §9 truncation.
const NEWS_LIST_TEXTS: ListTexts = {
  title: 'In Media: News and Resources',
  intro: 'Our latest news, events and opportunities, and practical resources on disability inclusion in Uganda.',
  searchLabel: 'Search articles',
  searchPlaceholder: 'Search news and resources',
  noun: { one: 'article', many: 'articles' },
  featuredLabel: 'Featured update',
  moreHeading: 'More Updates',
  readMore: 'Read the full article',
  loading: 'Loading articles...',
  error: 'Unable to load articles. Please try again later.',
  empty: 'No articles available. Check back later for updates.',
  noMatch: (q) => (q ? `No articles found for "${q}"` : 'No articles found'),
  noMatchHint: 'Try other words, another category, or clear the search.',
  limits: { featuredSummary: 250, cardTitle: 80, cardSummary: 140 },
};

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { data: list, httpStatus } = await loadContentList('news', url, undefined, undefined, languageOfPath(url.pathname));
  // Issue 28: a search that found nothing is counted with the page view (server/analytics.ts).
  noteSearchOutcome(url.pathname, list.q, list.status !== 'ok' || list.list.total > 0);
  return data(list, { status: httpStatus });
}

export const meta: Route.MetaFunction = listPageMeta(
  COLLECTION_INFO.news.path,
  NEWS_LIST_TEXTS.title,
  'News, media coverage and practical resources on disability inclusion in Uganda from TDG Uganda: events, partnerships, opportunities and guides.',
);

// spec §2 /news: Helpful Resources, three cards. /course leaves the site, so it is a plain link.
const RESOURCES = [
  {
    title: 'news.res.course',
    text: 'news.res.courseText',
    action: 'news.res.courseAction',
    href: '/course',
    document: true,
  },
  {
    title: 'news.res.programs',
    text: 'news.res.programsText',
    action: 'news.res.programsAction',
    href: '/services',
    document: false,
  },
  {
    title: 'news.res.guides',
    text: 'news.res.guidesText',
    action: 'news.res.guidesAction',
    href: '/contact',
    document: false,
  },
] as const;

const actionStyle =
  'mt-auto inline-flex min-h-12 items-center justify-center self-start rounded-full bg-indigo-900 px-6 font-semibold text-white hover:bg-indigo-800';

export default function News({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  return (
    <ArticleListPage data={loaderData} texts={NEWS_LIST_TEXTS}>
      <section aria-labelledby="helpful-resources" className="mt-16">
        <h2 id="helpful-resources" className="text-3xl font-bold text-slate-900">
          {t('news.helpful')}
        </h2>
        <ul className="mt-6 grid gap-8 sm:grid-cols-2 lg:grid-cols-3">
          {RESOURCES.map((card) => (
            <li key={card.href} className="flex flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <h3 className="text-xl font-bold text-slate-900">{t(card.title)}</h3>
              <p className="text-slate-700">{t(card.text)}</p>
              {card.document ? (
                <a href={card.href} className={actionStyle}>
                  {t(card.action)}
                </a>
              ) : (
                <PageLink to={card.href} className={actionStyle}>
                  {t(card.action)}
                </PageLink>
              )}
            </li>
          ))}
        </ul>
      </section>

      <div className="mt-16">
        <NewsletterBox source="news" />
      </div>
    </ArticleListPage>
  );
}
