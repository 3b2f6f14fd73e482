import type { Collection } from '~/server/db/schema';

// spec §3 "Categories": the public lists' categories. Stories use six; the news list adds 'news'.
export const STORY_CATEGORIES = [
  'personal-experience',
  'advocacy',
  'community',
  'inspiration',
  'education',
  'resources',
] as const;

export const NEWS_CATEGORIES = [...STORY_CATEGORIES, 'news'] as const;

/** Human labels for every category the site and the dashboard use (spec §3). */
export const CATEGORY_LABELS: Readonly<Record<string, string>> = {
  'personal-experience': 'Personal Experience',
  advocacy: 'Advocacy',
  community: 'Community',
  inspiration: 'Inspiration',
  education: 'Education',
  resources: 'Resources',
  news: 'News',
  opportunities: 'Opportunities',
  technology: 'Technology',
};

/** spec §2 article page: an item without a category reads 'General'. */
export const DEFAULT_CATEGORY_LABEL = 'General';

/** The label of a category slug; an unlisted slug reads as its words, capitalised. */
export function categoryLabel(slug: string | null | undefined): string {
  const value = (slug ?? '').trim();
  if (!value) return DEFAULT_CATEGORY_LABEL;
  return (
    CATEGORY_LABELS[value] ??
    value
      .split(/[-_\s]+/)
      .filter(Boolean)
      .map((word) => word[0]!.toUpperCase() + word.slice(1))
      .join(' ')
  );
}

/** The categories a list page offers before looking at the data. */
export function publicCategories(collection: Collection): readonly string[] {
  return collection === 'blogs' ? STORY_CATEGORIES : NEWS_CATEGORIES;
}
