import { PageLink } from '~/components/page-link';
import type { RelatedArticle } from '~/lib/article';
import { articlePath } from '~/lib/collections';
import { categoryLabel } from '~/lib/categories';
import { useI18n } from '~/lib/i18n/i18n';
import { Image } from '../image';
import { EnglishMarker } from '../translation';

/** spec §2 / §7: up to 3 related articles, summaries cut to 120 characters on the server. */
export function RelatedArticles({ articles }: { articles: RelatedArticle[] }) {
  const { t, tx, date, language } = useI18n();
  // Issue 26: an item with no version in the page's language is shown in English, marked.
  const textLanguage = (article: RelatedArticle) => (article.language !== language ? article.language : undefined);
  if (articles.length === 0) return null;
  return (
    <section aria-labelledby="related-articles">
      <h2 id="related-articles" className="text-2xl font-bold text-slate-900 md:text-3xl">
        {t('article.related')}
      </h2>
      <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {articles.map((article) => (
          <li
            key={article.id}
            className="group relative flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md"
          >
            {article.imageUrl && (
              <Image
                src={article.imageUrl}
                alt={article.imageAlt}
                lang={textLanguage(article)}
                width={1600}
                height={900}
                sizes="(min-width: 1024px) 400px, (min-width: 640px) 50vw, calc(100vw - 2rem)"
              />
            )}
            <div className="flex flex-1 flex-col p-5">
              <p className="flex flex-wrap items-center gap-2 text-sm font-semibold text-indigo-800">
                {tx(categoryLabel(article.category))}
                <EnglishMarker shown={article.language} />
              </p>
              <h3 lang={textLanguage(article)} className="mt-2 text-lg leading-snug font-bold text-slate-900">
                {/* The link covers the whole card, so the card is one large target. */}
                <PageLink
                  to={articlePath(article.collection, article.id)}
                  className="after:absolute after:inset-0 group-hover:text-indigo-800 group-hover:underline"
                >
                  {article.title}
                </PageLink>
              </h3>
              {article.summary && (
                <p lang={textLanguage(article)} className="mt-2 text-slate-700">
                  {article.summary}
                </p>
              )}
              <p className="mt-auto pt-4 text-sm text-slate-600">
                <time dateTime={article.createdAt}>{date(article.createdAt)}</time>
              </p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
