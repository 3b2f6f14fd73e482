import { data } from 'react-router';
import { PageLink } from '~/components/page-link';
import { ArticleListPage, listPageMeta, type ListTexts } from '~/components/article-list-page';
import { COLLECTION_INFO } from '~/lib/collections';
import { loadContentList } from '~/server/content/content.server';
import { languageOfPath } from '~/lib/languages';
import { noteSearchOutcome } from '~/server/analytics/counting.server';
import { useI18n } from '~/lib/i18n/i18n';
import type { Route } from './+types/resources';

// spec §2 /resources: the resource articles (collection resources), listed and searched like In Media
// (§4 list states, §8 texts in the news list's words, §9 the news list's truncation lengths).
// docs/decisions/204-resources-page.md
const RESOURCE_LIST_TEXTS: ListTexts = {
  title: 'Resources',
  intro:
    'Practical guides and checklists on Deaf awareness, accessibility and disability inclusion in Uganda, for workplaces, schools, families and event organisers.',
  searchLabel: 'Search resources',
  searchPlaceholder: 'Search guides and checklists',
  noun: { one: 'resource', many: 'resources' },
  featuredLabel: 'Featured resource',
  moreHeading: 'More Resources',
  readMore: 'Read the full resource',
  loading: 'Loading resources...',
  error: 'Unable to load resources. Please try again later.',
  empty: 'No resources available. Check back later for updates.',
  noMatch: (q) => (q ? `No resources found for "${q}"` : 'No resources found'),
  noMatchHint: 'Try other words, or clear the search.',
  limits: { featuredSummary: 250, cardTitle: 80, cardSummary: 140 },
};

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { data: list, httpStatus } = await loadContentList('resources', url, undefined, undefined, languageOfPath(url.pathname));
  // Issue 28: a search that found nothing is counted with the page view (server/analytics.ts).
  noteSearchOutcome(url.pathname, list.q, list.status !== 'ok' || list.list.total > 0);
  return data(list, { status: httpStatus });
}

export const meta: Route.MetaFunction = listPageMeta(
  COLLECTION_INFO.resources.path,
  RESOURCE_LIST_TEXTS.title,
  'Free guides and checklists from TDG Uganda: communicating with deaf and hard-of-hearing people, accessible events and disability inclusion at work and school.',
);

const ctaButton = 'inline-flex min-h-12 items-center justify-center rounded-full px-8 font-semibold';

export default function Resources({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  return (
    // A handful of guides: the search box is enough, a category dropdown would offer mostly empty choices.
    <ArticleListPage data={loaderData} texts={RESOURCE_LIST_TEXTS} withCategories={false}>
      <section
        aria-labelledby="resources-help"
        className="mt-16 grid gap-6 rounded-2xl bg-indigo-900 px-6 py-10 text-white md:grid-cols-[2fr_1fr] md:items-center md:px-12"
      >
        <div>
          <h2 id="resources-help" className="text-2xl font-bold md:text-3xl">
            {t('resources.helpHeading')}
          </h2>
          <p className="mt-3 text-indigo-100">{t('resources.helpText')}</p>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row md:flex-col">
          <PageLink to="/contact?subject=Resources" className={`${ctaButton} bg-amber-400 text-slate-900 hover:bg-amber-300`}>
            {t('resources.ask')}
          </PageLink>
          <PageLink to="/services" className={`${ctaButton} border-2 border-white text-white hover:bg-indigo-800`}>
            {t('resources.seeServices')}
          </PageLink>
        </div>
      </section>
    </ArticleListPage>
  );
}
