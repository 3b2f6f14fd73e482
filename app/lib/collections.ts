import type { Category } from './categories.ts';

// spec §2, §3: the three collections of articles. Their stored names, addresses, labels and
// categories are written here once; the database schema, the seed, the pages and the dashboard
// derive their types and lists from this module.

/** The stored names, in the order the site lists them. */
export const COLLECTIONS = ['blogs', 'news', 'resources'] as const;
export type Collection = (typeof COLLECTIONS)[number];

/** spec §3 "Categories": the stories list offers six; the news and resources lists add 'news'. */
const STORY_CATEGORIES = [
  'personal-experience',
  'advocacy',
  'community',
  'inspiration',
  'education',
  'resources',
] as const satisfies readonly Category[];

interface CollectionInfo {
  /** The public list's address; its articles live at `{path}/{id}`. */
  path: `/${string}`;
  /** The list's name in the header, the article breadcrumb and the feed. */
  label: string;
  /** The categories the public list offers before looking at the data. */
  publicCategories: readonly Category[];
  /** The column holding the short text: stories keep an excerpt, news and resources a summary. */
  summaryColumn: 'summary' | 'excerpt';
}

export const COLLECTION_INFO = {
  blogs: { path: '/blog', label: 'Stories', publicCategories: STORY_CATEGORIES, summaryColumn: 'excerpt' },
  news: { path: '/news', label: 'In Media', publicCategories: [...STORY_CATEGORIES, 'news'], summaryColumn: 'summary' },
  resources: {
    path: '/resources',
    label: 'Resources',
    publicCategories: [...STORY_CATEGORIES, 'news'],
    summaryColumn: 'summary',
  },
} as const satisfies Record<Collection, CollectionInfo>;

/** spec §5: the collections staff write in the dashboard, in the order its type buttons show them. */
export const DASHBOARD_COLLECTIONS = ['news', 'blogs'] as const satisfies readonly Collection[];
export type DashboardCollection = (typeof DASHBOARD_COLLECTIONS)[number];

/** spec §3: the dashboard's categories per type, exactly as the spec lists them. */
export const DASHBOARD_CATEGORIES = {
  news: ['personal-experience', 'advocacy', 'community', 'inspiration', 'education'],
  blogs: ['news', 'resources', 'opportunities', 'advocacy', 'technology', 'education'],
} as const satisfies Record<DashboardCollection, readonly Category[]>;

export function isDashboardCollection(value: unknown): value is DashboardCollection {
  return typeof value === 'string' && (DASHBOARD_COLLECTIONS as readonly string[]).includes(value);
}

/** The address of one article: /blog/{id}, /news/{id} or /resources/{id}. */
export function articlePath(collection: Collection, id: string): string {
  return `${COLLECTION_INFO[collection].path}/${id}`;
}
