// spec §3 "Categories": every category the site and the dashboard use, with its human label. Which
// collection offers which categories is in app/lib/collections.ts.

export const CATEGORY_LABELS = {
  'personal-experience': 'Personal Experience',
  advocacy: 'Advocacy',
  community: 'Community',
  inspiration: 'Inspiration',
  education: 'Education',
  resources: 'Resources',
  news: 'News',
  opportunities: 'Opportunities',
  technology: 'Technology',
} as const satisfies Record<string, string>;

/** A category slug with a label; stored items may carry others (they read as their words). */
export type Category = keyof typeof CATEGORY_LABELS;

/** spec §2 article page: an item without a category reads 'General'. */
export const DEFAULT_CATEGORY_LABEL = 'General';

const LABELS: Readonly<Partial<Record<string, string>>> = CATEGORY_LABELS;

/** The label of a category slug; an unlisted slug reads as its words, capitalised. */
export function categoryLabel(slug: string | null | undefined): string {
  const value = (slug ?? '').trim();
  if (!value) return DEFAULT_CATEGORY_LABEL;
  return (
    (Object.hasOwn(LABELS, value) ? LABELS[value] : undefined) ??
    value
      .split(/[-_\s]+/)
      .filter(Boolean)
      .map((word) => word[0]!.toUpperCase() + word.slice(1))
      .join(' ')
  );
}
