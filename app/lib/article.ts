import { COLLECTION_INFO, type Collection } from './collections.ts';
import { ID_PATTERN, isId } from './ids.ts';
import type { SignLanguageMarkup } from './video.ts';
import type { Language, PrefixedLanguage } from './languages.ts';

// The article page's pure rules (spec §2 "Article page", §3, §9), shared by the server and the browser.

/**
 * spec §2: a path containing news uses news, one containing resources uses resources, any other blogs.
 * Only the route part of the path counts, not the id: ids are title slugs, so a story titled
 * "News from Gulu" must stay a story (docs/decisions/201-article-collection-and-ids.md).
 */
export function collectionFromPath(pathname: string): Collection {
  // Index arithmetic rather than /\/+$/, which is quadratic on a long run of slashes.
  let end = pathname.length;
  while (end > 0 && pathname.charCodeAt(end - 1) === 47 /* / */) end--;
  const lastSlash = pathname.lastIndexOf('/', end - 1);
  const route = lastSlash === -1 ? pathname.slice(0, end) : pathname.slice(0, lastSlash);
  if (route.includes('news')) return 'news';
  if (route.includes('resources')) return 'resources';
  return 'blogs';
}

/** Ids are slugs or UUIDs (lib/ids.ts); anything else (odd characters, overlong) cannot exist, so it is 'not found'. */
export const isArticleId = isId;

/** The address of one story, news item or resource (`/blog/my-story`), from the collections' paths. */
const STORY_PATH = new RegExp(
  `^(${Object.values(COLLECTION_INFO)
    .map((info) => info.path)
    .join('|')})/${ID_PATTERN.source.slice(1, -1)}$`,
);

/** True for the exact address of a story that could exist (no trailing slash, query or fragment). */
export function isStoryPath(path: string): boolean {
  return STORY_PATH.test(path);
}

/** spec §9 truncation lengths used on this page. */
export const BREADCRUMB_TITLE_MAX = 50;
export const RELATED_SUMMARY_MAX = 120;

export const ARTICLE_TEXTS = {
  notFoundTitle: 'Article Not Found',
  notFoundText: 'The article you are looking for does not exist or has been removed.',
  failedTitle: 'Failed to load article',
  failedText: 'Sorry, we could not load this article just now. Please try again in a moment.',
  linkCopied: 'Link copied to clipboard!',
  /** Issue 24: offline reading. */
  saveOffline: 'Save for offline',
  savedOffline: 'Saved for reading offline',
} as const;

/** The author block and about-the-author block (spec §3: name, title, bio, fullBio, socialLinks). */
export interface ArticleAuthor {
  name: string;
  title: string;
  bio: string;
  fullBio: string;
  picture: string | null;
  twitter: string | null;
  linkedin: string | null;
}

export interface RelatedArticle {
  id: string;
  collection: Collection;
  title: string;
  summary: string;
  category: string;
  imageUrl: string | null;
  imageAlt: string;
  createdAt: string;
  /** Issue 26: the language its words are in. */
  language: Language;
}

/** One article as the page shows it; `html` is the stored body, sanitised when it was written. */
export interface ArticleView {
  id: string;
  collection: Collection;
  title: string;
  summary: string;
  category: string;
  html: string;
  readTime: string;
  imageUrl: string | null;
  imageAlt: string;
  tags: string[];
  createdAt: string;
  updatedAt: string;
  /** Issue 14: its sign-language video, once processed and captioned; null otherwise. */
  video: SignLanguageMarkup | null;
  /** Issue 26: it is public and has an easy-read version (`<its address>/easy-read`). */
  easyRead: boolean;
  /** Issue 26: the language its words are in (under /lg, English when it has no published Luganda version). */
  language: Language;
  /** Issue 26: the languages besides English it is published in, for its links to them. */
  versions: PrefixedLanguage[];
}

const ARTICLE_PATHNAME = new RegExp(
  `^(${Object.values(COLLECTION_INFO)
    .map((info) => info.path)
    .join('|')})/[^/]+/?$`,
);

/** True for the address of an article page (the skeleton shows while one is loading). */
export function isArticlePathname(pathname: string): boolean {
  return ARTICLE_PATHNAME.test(pathname) && !/\/rss\.xml$/.test(pathname);
}
