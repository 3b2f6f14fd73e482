import { PageLink } from '~/components/page-link';
import { Image } from '~/components/image';
import { categoryLabel } from '~/lib/categories';
import { articlePath } from '~/lib/collections';
import { useI18n } from '~/lib/i18n/i18n';
import { truncate } from '~/lib/text';
import { SignLanguageBadge } from './sign-language-badge';
import { EnglishMarker, useEnglishLang } from './translation';
import type { PublicContent } from '~/server/content/content.server';

// One item of the /blog, /news and /resources lists (spec §2, §9): the featured item at the top of
// page 1 and the cards of the grid. The list page around them is in article-list-page.tsx.

/** The words and spec §9 truncation lengths a list passes to its cards. */
export interface CardTexts {
  featuredLabel: string;
  readMore: string;
  limits: { featuredSummary: number; cardTitle: number; cardSummary: number };
}

/** spec §9: 4 tags on a featured item; 3 on a card with a '+N more' note. */
export const FEATURED_TAGS = 4;
export const CARD_TAGS = 3;

export function TagList({ tags, max, showMore }: { tags: string[]; max: number; showMore: boolean }) {
  const { t, english, language } = useI18n();
  if (tags.length === 0) return null;
  const hidden = tags.length - max;
  return (
    <ul aria-label={t('card.tags')} lang={english} className="flex flex-wrap gap-2">
      {tags.slice(0, max).map((tag) => (
        <li key={tag} className="rounded-full bg-slate-100 px-3 py-1 text-xs font-medium text-slate-700">
          #{tag}
        </li>
      ))}
      {showMore && hidden > 0 && (
        <li lang={english ? language : undefined} className="px-1 py-1 text-xs font-medium text-slate-600">
          {t('card.more', { count: hidden })}
        </li>
      )}
    </ul>
  );
}

export function CategoryBadge({ category }: { category: string }) {
  const { tx } = useI18n();
  return (
    <span className="inline-block rounded-full bg-indigo-50 px-3 py-1 text-xs font-semibold text-indigo-900">
      {tx(categoryLabel(category))}
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
  // A description written for an item still in English is English too (issue 26).
  const { lang } = useEnglishLang(item.language);
  if (!item.imageUrl) {
    return (
      <div aria-hidden="true" className={`aspect-video w-full bg-gradient-to-br from-indigo-900 to-indigo-700 ${className}`} />
    );
  }
  return (
    <Image
      src={item.imageUrl}
      alt={item.imageAlt}
      lang={lang}
      priority={priority}
      sizes={sizes}
      className={`w-full ${className}`}
      width={1600}
      height={900}
    />
  );
}

function Byline({ item, month }: { item: PublicContent; month: 'long' | 'short' }) {
  const { date } = useI18n();
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm text-slate-600">
      <CategoryBadge category={item.category} />
      {item.signLanguage && <SignLanguageBadge />}
      <EnglishMarker shown={item.language} />
      <time dateTime={item.createdAt}>{date(item.createdAt, month)}</time>
    </div>
  );
}

// The title link covers the whole card (its ::after is stretched), so the card is one large target.
const stretchedLink =
  'after:absolute after:inset-0 after:content-[""] hover:underline focus-visible:outline-none focus-visible:shadow-none';
const cardFrame =
  'relative overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md focus-within:outline focus-within:outline-3 focus-within:outline-offset-2 focus-within:outline-amber-400';

export function FeaturedContent({ item, texts }: { item: PublicContent; texts: CardTexts }) {
  // A person's name is kept as written (marked English, as the catalogue does for names); the item's
  // own words are marked English only when it has no version in the page's language (issue 26).
  const { t, english: names } = useI18n();
  const { lang: english } = useEnglishLang(item.language);
  return (
    <article className={`${cardFrame} grid lg:grid-cols-2`}>
      <ItemImage
        item={item}
        priority
        className="lg:h-full"
        sizes="(min-width: 1280px) 640px, (min-width: 1024px) 50vw, calc(100vw - 2rem)"
      />
      <div className="flex flex-col justify-center gap-4 p-6 md:p-10">
        <p className="text-sm font-semibold tracking-wider text-indigo-800 uppercase">{texts.featuredLabel}</p>
        <Byline item={item} month="long" />
        <h2 lang={english} className="text-2xl leading-tight font-bold text-slate-900 md:text-4xl">
          <PageLink to={articlePath(item.collection, item.id)} className={stretchedLink}>
            {item.title}
          </PageLink>
        </h2>
        <p lang={english} className="text-lg text-slate-700">
          {truncate(item.summary, texts.limits.featuredSummary)}
        </p>
        <p className="text-sm text-slate-700">
          {t('card.by')}
          <span lang={names} className="font-semibold text-slate-900">
            {item.author}
          </span>
        </p>
        <TagList tags={item.tags} max={FEATURED_TAGS} showMore={false} />
        <p aria-hidden="true" className="font-semibold text-indigo-800">
          {texts.readMore} →
        </p>
      </div>
    </article>
  );
}

export function ContentCard({ item, texts }: { item: PublicContent; texts: CardTexts }) {
  const { t, english: names } = useI18n();
  const { lang: english } = useEnglishLang(item.language);
  return (
    <article className={`${cardFrame} flex h-full flex-col`}>
      <ItemImage
        item={item}
        sizes="(min-width: 1280px) 400px, (min-width: 1024px) 33vw, (min-width: 640px) 50vw, calc(100vw - 2rem)"
      />
      <div className="flex flex-1 flex-col gap-3 p-6">
        <Byline item={item} month="short" />
        <h3 lang={english} className="text-xl leading-snug font-bold text-slate-900">
          <PageLink to={articlePath(item.collection, item.id)} className={stretchedLink}>
            <ShortTitle text={item.title} max={texts.limits.cardTitle} />
          </PageLink>
        </h3>
        <p lang={english} className="text-slate-700">
          {truncate(item.summary, texts.limits.cardSummary)}
        </p>
        <p className="mt-auto pt-2 text-sm text-slate-700">
          {t('card.by')}
          <span lang={names} className="font-semibold text-slate-900">
            {item.author}
          </span>
        </p>
        <TagList tags={item.tags} max={CARD_TAGS} showMore />
      </div>
    </article>
  );
}
