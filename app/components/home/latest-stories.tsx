import { PageLink } from '~/components/page-link';
import { Image } from '~/components/image';
import { articlePath, COLLECTION_INFO } from '~/lib/collections';
import { truncate } from '~/lib/text';
import type { PublicContent } from '~/server/content/content.server';
import { TEXT_LINK } from './styles';
import { useI18n } from '~/lib/i18n/i18n';
import { EnglishMarker } from '../translation';

/** spec §9: story cards cut titles at 60 and summaries at 120 characters. */
const TITLE_MAX = 60;
const SUMMARY_MAX = 120;

/** The three newest stories from the database, after the action cards. */
export function LatestStories({ stories }: { stories: PublicContent[] }) {
  const { t, date, language } = useI18n();
  // Issue 26: a story with no version in the page's language is shown in English, marked.
  const textLanguage = (story: PublicContent) => (story.language !== language ? story.language : undefined);
  if (stories.length === 0) return null;
  return (
    <section aria-labelledby="latest-stories" className="mx-auto max-w-7xl px-4 py-16 md:py-24">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h2 id="latest-stories" className="text-3xl font-bold text-slate-900 md:text-4xl">
          {t('home.latestStories')}
        </h2>
        <PageLink to={COLLECTION_INFO.blogs.path} className={TEXT_LINK}>
          {t('home.allStories')}
        </PageLink>
      </div>
      <ul className="mt-10 grid gap-8 sm:grid-cols-2 lg:grid-cols-3">
        {stories.map((story) => (
          <li
            key={story.id}
            className="relative flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow focus-within:shadow-md hover:shadow-md"
          >
            <Image
              src={story.imageUrl}
              alt={story.imageAlt}
              lang={textLanguage(story)}
              sizes="(min-width: 1024px) 400px, (min-width: 640px) 50vw, calc(100vw - 2rem)"
            />
            <div className="flex flex-1 flex-col p-6">
              <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
                <time dateTime={story.createdAt}>{date(story.createdAt)}</time>
                <EnglishMarker shown={story.language} />
              </p>
              <h3 lang={textLanguage(story)} className="mt-2 text-xl font-bold text-slate-900">
                <PageLink
                  to={articlePath('blogs', encodeURIComponent(story.id))}
                  className="after:absolute after:inset-0 hover:text-indigo-800"
                >
                  {truncate(story.title, TITLE_MAX)}
                </PageLink>
              </h3>
              <p lang={textLanguage(story)} className="mt-3 text-slate-700">
                {truncate(story.summary, SUMMARY_MAX)}
              </p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
