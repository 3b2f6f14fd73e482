import { usePublicLayout } from '~/lib/public-layout';
import type { MouseEvent } from 'react';
import { data, useLocation, useNavigate, useNavigation } from 'react-router';
import { PageLink } from '~/components/page-link';
import { ArticleBody } from '~/components/article-body';
import { ArticleSkeleton } from '~/components/article/article-skeleton';
import { AboutTheAuthor, AuthorByline } from '~/components/article/author';
import { ConsultationCta } from '~/components/article/consultation-cta';
import { ReadingProgress } from '~/components/article/reading-progress';
import { RelatedArticles } from '~/components/article/related-articles';
import { PILL_CLASS, ShareButtons } from '~/components/article/share-buttons';
import { useSaveData, withoutPoster } from '~/lib/save-data';
import { Image } from '~/components/image';
import { NewsletterBox } from '~/components/newsletter-box';
import { EasyReadLink } from '~/components/easy-read';
import {
  BREADCRUMB_TITLE_MAX,
  collectionFromPath,
  isArticlePathname,
  type ArticleAuthor,
  type ArticleView,
  type RelatedArticle,
} from '~/lib/article';
import { categoryLabel } from '~/lib/categories';
import { articlePath, COLLECTION_INFO, type Collection } from '~/lib/collections';
import { metaTranslator, useI18n, type Translate } from '~/lib/i18n/i18n';
import { localiseVideoMarkup } from '~/lib/video';
import { absoluteUrl, pageMeta, pageUrl, siteFromMatches } from '~/lib/seo';
import type { SiteInfo } from '~/lib/site';
import { truncate } from '~/lib/text';
import { loadArticlePage } from '~/server/content/articles.server';
import { languageOfPath, pathWithoutLanguage } from '~/lib/languages';
import { ArticleLanguageLinks, NotTranslatedNotice, useEnglishLang } from '~/components/translation';
import type { Route } from './+types/article';

// One module for /blog/:id, /news/:id and /resources/:id (spec §2 "Article page"); the collection
// comes from the path.

export async function loader({ request, params }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  // Issue 26: under /lg or /sw, the item's published version in that language, else its English text (marked).
  const collection = collectionFromPath(pathWithoutLanguage(pathname));
  const result = await loadArticlePage(collection, params.id, undefined, languageOfPath(pathname));
  return data({ ...result, collection }, { status: result.status });
}

export const meta: Route.MetaFunction = ({ loaderData, matches, location }) => {
  const site = siteFromMatches(matches);
  if (loaderData?.status !== 200) {
    const failed = loaderData?.status === 500;
    return pageMeta({
      title: metaTranslator(site)(failed ? 'article.failedTitle' : 'article.notFoundTitle'),
      description: metaTranslator(site)(failed ? 'article.failedText' : 'article.notFoundText'),
      path: location.pathname,
      site,
      noindex: true,
    });
  }
  const { article, author } = loaderData;
  const path = articlePath(article.collection, article.id);
  const description = article.summary || truncate(article.title, 160);
  const image = article.imageUrl ? absoluteUrl(site, article.imageUrl) : undefined;
  return [
    ...pageMeta({
      title: article.title,
      description,
      path,
      site,
      image: article.imageUrl,
      imageAlt: article.imageAlt,
      type: 'article',
      jsonLd: [
        {
          '@context': 'https://schema.org',
          '@type': 'Article',
          headline: article.title,
          description,
          ...(image ? { image: [image] } : {}),
          datePublished: article.createdAt,
          dateModified: article.updatedAt,
          author: { '@type': 'Person', name: author.name, ...(author.title ? { jobTitle: author.title } : {}) },
          publisher: { '@type': 'Organization', name: site?.name ?? '', url: absoluteUrl(site, '/') },
          mainEntityOfPage: { '@type': 'WebPage', '@id': absoluteUrl(site, path) },
          articleSection: categoryLabel(article.category),
          keywords: article.tags.join(', '),
        },
      ],
    }),
    { property: 'article:published_time', content: article.createdAt },
    { property: 'article:modified_time', content: article.updatedAt },
    { property: 'article:section', content: categoryLabel(article.category) },
  ];
};

export default function ArticlePage({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const location = useLocation();
  const layout = usePublicLayout();
  const next = navigation.state === 'loading' ? navigation.location : undefined;
  if (next && next.pathname !== location.pathname && isArticlePathname(next.pathname)) return <ArticleSkeleton />;

  if (loaderData.status === 404) return <ArticleNotFound collection={loaderData.collection} />;
  if (loaderData.status === 500) return <ArticleFailed collection={loaderData.collection} path={location.pathname} />;
  return <Article {...loaderData} site={layout?.site} />;
}

/** The article as visitors see it; a preview link (issue 13, routes/public/preview.tsx) shows it too. */
export function Article({
  article,
  author,
  related,
  site,
}: {
  article: ArticleView;
  author: ArticleAuthor;
  related: RelatedArticle[];
  site: SiteInfo | undefined;
}) {
  // Issue 24: with Save-Data the player shows no poster picture either.
  const saveData = useSaveData();
  const { t, tx, date, english } = useI18n();
  const section = COLLECTION_INFO[article.collection];
  // Shared and copied as read: in the page's language (issue 26), as its canonical address is.
  const url = pageUrl(site, articlePath(article.collection, article.id));
  // Issue 26: the item's own words are marked English when it has no version in the page's language.
  const contentLang = useEnglishLang(article.language).lang;
  const video = article.video && localiseVideoMarkup(article.video, tx, contentLang);
  return (
    <>
      <ReadingProgress />
      {/* Issue 24: what the page script shows while another article loads (spec §2 "Loading shows a skeleton"). */}
      <template id="article-skeleton">
        <ArticleSkeleton />
      </template>
      <article className="mx-auto max-w-3xl px-4 pt-8 pb-12 md:pt-12">
        <nav aria-label={t('article.breadcrumb')}>
          <ol className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-600">
            <li>
              <PageLink to="/" className="underline-offset-4 hover:text-indigo-800 hover:underline">
                {t('article.home')}
              </PageLink>
            </li>
            <li aria-hidden="true">/</li>
            <li>
              <PageLink to={section.path} className="underline-offset-4 hover:text-indigo-800 hover:underline">
                {tx(section.label)}
              </PageLink>
            </li>
            <li aria-hidden="true">/</li>
            <li aria-current="page" lang={contentLang} className="font-medium text-slate-800">
              {truncate(article.title, BREADCRUMB_TITLE_MAX)}
            </li>
          </ol>
        </nav>

        <NotTranslatedNotice shown={article.language} />
        <header className="mt-8">
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-slate-600">
            <p className="rounded-full bg-indigo-100 px-3 py-1 font-semibold text-indigo-900">
              <span className="sr-only">{t('article.category')}</span>
              {tx(categoryLabel(article.category))}
            </p>
            <p>
              <span className="sr-only">{t('article.published')}</span>
              <time dateTime={article.createdAt}>{date(article.createdAt)}</time>
              <span aria-hidden="true" className="px-2">
                ·
              </span>
              <span className="whitespace-nowrap">{readTimeIn(t, article.readTime)}</span>
            </p>
          </div>
          <h1
            lang={contentLang}
            className="mt-5 text-2xl leading-tight min-[20rem]:text-3xl font-extrabold text-balance text-slate-900 md:text-5xl"
          >
            {article.title}
          </h1>
          {article.easyRead && <EasyReadLink href={`${articlePath(article.collection, article.id)}/easy-read`} />}
          {/* Issue 14: markup made on the server, so pages without a video carry no video code. */}
          {video && <div dangerouslySetInnerHTML={{ __html: video.link }} />}
          {article.summary && (
            <p lang={contentLang} className="mt-5 text-xl leading-relaxed text-slate-700">
              {article.summary}
            </p>
          )}
          <ArticleLanguageLinks path={articlePath(article.collection, article.id)} versions={article.versions} />
          <div className="mt-6 border-t border-slate-200 pt-6">
            <AuthorByline author={author} />
          </div>
        </header>

        {video && (
          <>
            <div dangerouslySetInnerHTML={{ __html: saveData ? withoutPoster(video.player) : video.player }} />
            <script type="module" async src={video.script} />
          </>
        )}

        {article.imageUrl && (
          <Image
            src={article.imageUrl}
            alt={article.imageAlt}
            lang={contentLang}
            priority
            width={1600}
            height={900}
            sizes="(min-width: 768px) 720px, calc(100vw - 2rem)"
            className="mt-8 rounded-2xl"
          />
        )}

        <div lang={contentLang}>
          <ArticleBody html={article.html} className="mt-10" />
        </div>

        {article.tags.length > 0 && (
          <div className="mt-10">
            <h2 className="sr-only">{t('article.tags')}</h2>
            <ul lang={english} className="flex flex-wrap gap-2">
              {article.tags.map((tag) => (
                <li key={tag} className="rounded-full bg-slate-100 px-3 py-1 text-sm font-medium text-slate-700">
                  #{tag}
                </li>
              ))}
            </ul>
          </div>
        )}

        <div className="mt-10 border-y border-slate-200 py-6">
          <ShareButtons url={url} title={article.title} />
          {/* Issue 24: shown by the page script once the service worker can keep the story. */}
          <p className="mt-4">
            <button type="button" hidden data-save-offline="" data-saved-text={t('article.savedOffline')} className={PILL_CLASS}>
              {t('article.saveOffline')}
            </button>
          </p>
        </div>

        <div className="mt-10">
          <AboutTheAuthor author={author} />
        </div>
      </article>

      <div className="mx-auto flex max-w-7xl flex-col gap-14 px-4 pb-16">
        <RelatedArticles articles={related} />
        <ConsultationCta />
        <NewsletterBox source="article" />
      </div>
    </>
  );
}

/**
 * Whether the visitor came here from a page they can go back to: an earlier page of this visit
 * (React Router numbers its history entries) or a link elsewhere. A typed or bookmarked address, or
 * a new tab, has none, and Go Back then leads to the section list.
 */
function hasPreviousPage(): boolean {
  const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
  return idx > 0 || (window.history.length > 1 && document.referrer !== '');
}

/** spec §2: Article Not Found with Go Back: back in history when there is any, else the section list. */
function ArticleNotFound({ collection }: { collection: Collection }) {
  const navigate = useNavigate();
  const { t } = useI18n();
  function goBack(event: MouseEvent<HTMLAnchorElement>) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (hasPreviousPage()) {
      event.preventDefault();
      void navigate(-1);
    }
  }
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-4xl font-bold text-slate-900">{t('article.notFoundTitle')}</h1>
      <p className="mt-4 text-lg text-slate-700">{t('article.notFoundText')}</p>
      <PageLink
        to={COLLECTION_INFO[collection].path}
        onClick={goBack}
        data-go-back=""
        className="mt-8 inline-flex min-h-12 items-center rounded-full bg-indigo-800 px-6 font-semibold text-white hover:bg-indigo-900"
      >
        {t('article.goBack')}
      </PageLink>
    </section>
  );
}

/** spec §8: 'Failed to load article' when the read fails (HTTP 500). */
function ArticleFailed({ collection, path }: { collection: Collection; path: string }) {
  const section = COLLECTION_INFO[collection];
  const { t, tx } = useI18n();
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-4xl font-bold text-slate-900">{t('article.failedTitle')}</h1>
      <p className="mt-4 text-lg text-slate-700">{t('article.failedText')}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <a
          href={path}
          className="inline-flex min-h-12 items-center rounded-full bg-indigo-800 px-6 font-semibold text-white hover:bg-indigo-900"
        >
          {t('article.tryAgain')}
        </a>
        <PageLink
          to={section.path}
          className="inline-flex min-h-12 items-center rounded-full border-2 border-indigo-800 px-6 font-semibold text-indigo-900 hover:bg-indigo-50"
        >
          {t('article.backTo', { section: tx(section.label) })}
        </PageLink>
      </div>
    </section>
  );
}

/** "5 min read" (lib/text.ts) in the reader's language. */
function readTimeIn(t: Translate, readTime: string): string {
  const minutes = /^(\d+) min read$/.exec(readTime)?.[1];
  return minutes === undefined ? readTime : t('article.readTime', { minutes: Number(minutes) });
}
