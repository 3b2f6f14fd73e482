import { data } from 'react-router';
import { PageLink } from '~/components/page-link';
import { ArticleListPage, listPageMeta, type ListTexts } from '~/components/article-list-page';
import { COLLECTION_INFO } from '~/lib/collections';
import { loadContentList } from '~/server/content/content.server';
import { languageOfPath } from '~/lib/languages';
import { noteSearchOutcome } from '~/server/analytics/counting.server';
import { useI18n } from '~/lib/i18n/i18n';
import type { Route } from './+types/blog';

// spec §2 /blog, §4 list states, §8 story list texts, §9 truncation.
const STORY_LIST_TEXTS: ListTexts = {
  title: 'Stories',
  intro:
    'Voices from the deaf, hard-of-hearing and disability community in Uganda: everyday life, advocacy and the people changing what is possible.',
  searchLabel: 'Search stories',
  searchPlaceholder: 'Search by title, topic or place',
  noun: { one: 'story', many: 'stories' },
  featuredLabel: 'Featured story',
  moreHeading: 'More Stories',
  readMore: 'Read the full story',
  loading: 'Loading stories...',
  error: 'Unable to load stories. Please try again later.',
  empty: 'No stories available yet. Check back soon for new content.',
  noMatch: () => 'No stories found',
  noMatchHint: 'Try adjusting your search or filter to find what you are looking for.',
  limits: { featuredSummary: 280, cardTitle: 60, cardSummary: 120 },
};

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { data: list, httpStatus } = await loadContentList('blogs', url, undefined, undefined, languageOfPath(url.pathname));
  // Issue 28: a search that found nothing is counted with the page view (server/analytics.ts).
  noteSearchOutcome(url.pathname, list.q, list.status !== 'ok' || list.list.total > 0);
  return data(list, { status: httpStatus });
}

export const meta: Route.MetaFunction = listPageMeta(
  COLLECTION_INFO.blogs.path,
  STORY_LIST_TEXTS.title,
  'Real stories from deaf, hard-of-hearing and disabled people in Uganda: personal experience, advocacy, community, education and inspiration.',
);

const ctaButton = 'inline-flex min-h-12 items-center justify-center rounded-full px-8 font-semibold';

export default function Blog({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  return (
    <ArticleListPage data={loaderData} texts={STORY_LIST_TEXTS}>
      <section
        aria-labelledby="share-story"
        className="mt-16 grid gap-8 rounded-2xl bg-indigo-900 px-6 py-10 text-white md:grid-cols-2 md:px-12"
      >
        <div>
          <h2 id="share-story" className="text-2xl font-bold md:text-3xl">
            {t('blog.shareHeading')}
          </h2>
          <p className="mt-3 text-indigo-100">{t('blog.shareText')}</p>
          <PageLink
            to="/contact?subject=Share%20my%20story"
            className={`${ctaButton} mt-6 bg-amber-400 text-slate-900 hover:bg-amber-300`}
          >
            {t('blog.submit')}
          </PageLink>
        </div>
        <div>
          <h2 className="text-2xl font-bold md:text-3xl">{t('blog.whyHeading')}</h2>
          <p className="mt-3 text-indigo-100">{t('blog.whyText')}</p>
          <PageLink to="/about" className={`${ctaButton} mt-6 border-2 border-white text-white hover:bg-indigo-800`}>
            {t('blog.learnMission')}
          </PageLink>
        </div>
      </section>
    </ArticleListPage>
  );
}
