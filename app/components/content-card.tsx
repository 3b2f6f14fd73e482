import { Link, useLocation, useNavigation } from 'react-router';
import { Image } from '~/components/image';
import { ListSearch } from '~/components/list-search';
import { Pagination } from '~/components/pagination';
import { categoryLabel } from '~/lib/categories';
import { formatDate } from '~/lib/format';
import { truncate } from '~/lib/text';
import type { ContentListData, PublicContent } from '~/server/content.server';

// The pieces of the /blog, /news and /resources lists (spec §2, §4, §8, §9): the featured item, the
// cards of the grid and the states around them. Each page passes its own texts and limits.

export interface ListTexts {
  /** The page's one h1 and the line under it. */
  title: string;
  intro: string;
  searchLabel: string;
  searchPlaceholder: string;
  /** Where items live: /blog/{id}, /news/{id} or /resources/{id}. */
  basePath: '/blog' | '/news' | '/resources';
  noun: { one: string; many: string };
  featuredLabel: string;
  moreHeading: string;
  readMore: string;
  loading: string;
  error: string;
  empty: string;
  noMatch: (q: string) => string;
  noMatchHint: string;
  /** spec §9 truncation lengths. */
  limits: { featuredSummary: number; cardTitle: number; cardSummary: number };
}

/** spec §9: 4 tags on a featured item; 3 on a card with a '+N more' note. */
export const FEATURED_TAGS = 4;
export const CARD_TAGS = 3;

export function TagList({ tags, max, showMore }: { tags: string[]; max: number; showMore: boolean }) {
  if (tags.length === 0) return null;
  const hidden = tags.length - max;
  return (
    <ul aria-label="Tags" className="flex flex-wrap gap-2">
      {tags.slice(0, max).map((tag) => (
        <li key={tag} className="rounded-full bg-slate-100 px-3 py-1 text-xs font-medium text-slate-700">
          #{tag}
        </li>
      ))}
      {showMore && hidden > 0 && <li className="px-1 py-1 text-xs font-medium text-slate-600">+{hidden} more</li>}
    </ul>
  );
}

export function CategoryBadge({ category }: { category: string }) {
  return (
    <span className="inline-block rounded-full bg-indigo-50 px-3 py-1 text-xs font-semibold text-indigo-900">
      {categoryLabel(category)}
    </span>
  );
}

/** A shortened title that still reads in full to screen readers. */
function ShortTitle({ text, max }: { text: string; max: number }) {
  const short = truncate(text, max);
  if (short === text) return <>{text}</>;
  return (
    <>
      <span aria-hidden="true">{short}</span>
      <span className="sr-only">{text}</span>
    </>
  );
}

function ItemImage({
  item,
  priority,
  sizes,
  className = '',
}: {
  item: PublicContent;
  priority?: boolean;
  sizes: string;
  className?: string;
}) {
  if (!item.imageUrl) {
    return (
      <div aria-hidden="true" className={`aspect-video w-full bg-gradient-to-br from-indigo-900 to-indigo-700 ${className}`} />
    );
  }
  return (
    <Image
      src={item.imageUrl}
      alt={item.imageAlt}
      priority={priority}
      sizes={sizes}
      className={`w-full ${className}`}
      width={1600}
      height={900}
    />
  );
}

function Byline({ item, month }: { item: PublicContent; month: 'long' | 'short' }) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm text-slate-600">
      <CategoryBadge category={item.category} />
      <time dateTime={item.createdAt}>{formatDate(item.createdAt, month)}</time>
    </div>
  );
}

// The title link covers the whole card (its ::after is stretched), so the card is one large target.
const stretchedLink =
  'after:absolute after:inset-0 after:content-[""] hover:underline focus-visible:outline-none focus-visible:shadow-none';
const cardFrame =
  'relative overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md focus-within:outline focus-within:outline-3 focus-within:outline-offset-2 focus-within:outline-amber-400';

export function FeaturedContent({ item, texts }: { item: PublicContent; texts: ListTexts }) {
  return (
    <article className={`${cardFrame} grid lg:grid-cols-2`}>
      <ItemImage item={item} priority className="lg:h-full" sizes="(min-width: 1280px) 640px, (min-width: 1024px) 50vw, 100vw" />
      <div className="flex flex-col justify-center gap-4 p-6 md:p-10">
        <p className="text-sm font-semibold tracking-wider text-indigo-800 uppercase">{texts.featuredLabel}</p>
        <Byline item={item} month="long" />
        <h2 className="text-2xl leading-tight font-bold text-slate-900 md:text-4xl">
          <Link to={`${texts.basePath}/${item.id}`} className={stretchedLink}>
            {item.title}
          </Link>
        </h2>
        <p className="text-lg text-slate-700">{truncate(item.summary, texts.limits.featuredSummary)}</p>
        <p className="text-sm text-slate-700">
          By <span className="font-semibold text-slate-900">{item.author}</span>
        </p>
        <TagList tags={item.tags} max={FEATURED_TAGS} showMore={false} />
        <p aria-hidden="true" className="font-semibold text-indigo-800">
          {texts.readMore} →
        </p>
      </div>
    </article>
  );
}

export function ContentCard({ item, texts }: { item: PublicContent; texts: ListTexts }) {
  return (
    <article className={`${cardFrame} flex h-full flex-col`}>
      <ItemImage item={item} sizes="(min-width: 1280px) 400px, (min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw" />
      <div className="flex flex-1 flex-col gap-3 p-6">
        <Byline item={item} month="short" />
        <h3 className="text-xl leading-snug font-bold text-slate-900">
          <Link to={`${texts.basePath}/${item.id}`} className={stretchedLink}>
            <ShortTitle text={item.title} max={texts.limits.cardTitle} />
          </Link>
        </h3>
        <p className="text-slate-700">{truncate(item.summary, texts.limits.cardSummary)}</p>
        <p className="mt-auto pt-2 text-sm text-slate-700">
          By <span className="font-semibold text-slate-900">{item.author}</span>
        </p>
        <TagList tags={item.tags} max={CARD_TAGS} showMore />
      </div>
    </article>
  );
}

function countText(total: number, texts: ListTexts, filtered: boolean): string {
  const noun = total === 1 ? texts.noun.one : texts.noun.many;
  const count = total.toLocaleString('en-US');
  return filtered ? `${count} ${noun} found` : `Showing all ${count} ${noun}`;
}

function Notice({ children, tone = 'info' }: { children: React.ReactNode; tone?: 'info' | 'error' }) {
  const colours = tone === 'error' ? 'border-red-300 bg-red-50 text-red-900' : 'border-amber-300 bg-amber-50 text-slate-900';
  return <div className={`rounded-2xl border px-6 py-5 ${colours}`}>{children}</div>;
}

/**
 * The list body: the result count (a polite live region), the loading, error, empty and no-match
 * states, the featured item (page 1 only), the grid and the page links.
 */
export function ContentListResults({ data, texts }: { data: ContentListData; texts: ListTexts }) {
  const navigation = useNavigation();
  const location = useLocation();
  const pending = navigation.state === 'loading' && navigation.location.pathname === location.pathname;
  const { list } = data;
  const filtered = Boolean(data.q || data.category);
  const featured = list.page === 1 ? list.items[0] : undefined;
  const rest = list.page === 1 ? list.items.slice(1) : list.items;

  let status = '';
  if (pending) status = texts.loading;
  else if (data.status === 'ok' && !data.problem?.startsWith('query')) status = countText(list.total, texts, filtered);

  return (
    <div className="mt-8 space-y-10">
      <p role="status" className="min-h-6 text-slate-700">
        {status}
      </p>

      {data.status === 'error' && (
        <Notice tone="error">
          <p className="font-semibold">{texts.error}</p>
          <a href={`${location.pathname}${location.search}`} className="mt-2 inline-block font-semibold underline">
            Try again
          </a>
        </Notice>
      )}

      {data.problem === 'query-too-long' && (
        <Notice>
          <p className="font-semibold">Your search is too long. Please use at most 200 characters.</p>
        </Notice>
      )}

      {data.problem === 'unknown-category' && (
        <Notice>
          <p>
            There is no category “{data.rejectedCategory}”. Showing all {texts.noun.many} instead.
          </p>
        </Notice>
      )}

      {data.status === 'ok' && !data.problem?.startsWith('query') && list.total === 0 && (
        <Notice>
          {filtered ? (
            <>
              <p className="text-lg font-semibold">{texts.noMatch(data.q)}</p>
              <p className="mt-1">{texts.noMatchHint}</p>
              <Link to={location.pathname} className="mt-3 inline-block font-semibold text-indigo-800 underline">
                Clear search and filter
              </Link>
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
export function ContentListPage({
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
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 md:py-16">
      <header className="max-w-3xl">
        <h1 className="text-4xl font-extrabold text-slate-900 md:text-5xl">{texts.title}</h1>
        <p className="mt-4 text-lg text-slate-700">{texts.intro}</p>
      </header>
      <div className="mt-10">
        <ListSearch
          q={data.q}
          category={data.category}
          categories={withCategories ? data.categories : undefined}
          searchLabel={texts.searchLabel}
          placeholder={texts.searchPlaceholder}
        />
      </div>
      <ContentListResults data={data} texts={texts} />
      {children}
    </div>
  );
}
