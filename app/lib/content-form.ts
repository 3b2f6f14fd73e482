import { z } from 'zod';

// spec §3, §5 and §8: what the dashboard's content form writes, its rules and its messages, shared
// by the browser (instant feedback) and the server (which checks again).

export type ContentType = 'news' | 'blogs';

export function isContentType(value: unknown): value is ContentType {
  return value === 'news' || value === 'blogs';
}

/** spec §3: dashboard categories, per type, exactly as the spec lists them. */
export const DASHBOARD_CATEGORIES: Record<ContentType, readonly string[]> = {
  news: ['personal-experience', 'advocacy', 'community', 'inspiration', 'education'],
  blogs: ['news', 'resources', 'opportunities', 'advocacy', 'technology', 'education'],
};

export const TITLE_MAX = 100;
export const SUMMARY_MAX = 200;
export const CONTENT_MIN = 50;
/** Far above any real story; stops a pasted megabyte of markup. */
export const CONTENT_MAX_BYTES = 1_000_000;
export const TAG_MAX = 40;
export const TAGS_MAX = 20;
export const ALT_MAX = 250;
/** spec §9: content lists show 20 items. */
export const CONTENT_PAGE = 20;

export const CONTENT_MESSAGES = {
  fixErrors: 'Please fix the errors below before submitting.',
  titleRequired: 'Title is required',
  titleTooLong: 'Title must be less than 100 characters',
  authorRequired: 'Author is required',
  categoryRequired: 'Category is required',
  categoryInvalid: 'Please choose one of the listed categories',
  summaryRequired: 'Summary is required',
  summaryTooLong: 'Summary must be less than 200 characters',
  excerptRequired: 'Excerpt is required',
  excerptTooLong: 'Excerpt must be less than 200 characters',
  contentRequired: 'Content is required',
  contentTooShort: 'Content must be at least 50 characters long',
  contentTooLong: 'Content is too long. Please split it into shorter articles.',
  tagTooLong: 'Each tag must be at most 40 characters',
  tooManyTags: 'Please use at most 20 tags',
  altTooLong: 'The image description must be at most 250 characters',
  imageInvalid: 'Please upload the image again.',
  chooseType: 'Choose a Content Type',
  noSummary: 'No summary available',
  deleted: 'Content deleted successfully!',
  deleteFailed: (message: string) => `Error deleting content: ${message}`,
  forbidden: 'You do not have permission to perform this action.',
  network: 'Please check your internet connection and try again.',
  generic: 'Please try again or contact support if the problem persists.',
  notFound: 'The document you are trying to update was not found.',
  unauthenticated: 'You are not authenticated. Please log in again.',
  deleteConfirm: (title: string) => `Are you sure you want to delete "${title}"? This action cannot be undone.`,
} as const;

const noun = (type: ContentType) => (type === 'news' ? 'Story' : 'Blog post');

/** spec §8: '{Story|Blog post} published|updated successfully!' (publish adds a note). */
export function publishedMessage(type: ContentType, mode: 'create' | 'edit'): string {
  return mode === 'create'
    ? `${noun(type)} published successfully! It may take a moment to appear on the website.`
    : `${noun(type)} updated successfully!`;
}

/** spec §8: 'Failed to publish|update {story|blog post}.' followed by the reason. */
export function failedMessage(type: ContentType, mode: 'create' | 'edit', reason: string): string {
  return `Failed to ${mode === 'create' ? 'publish' : 'update'} ${noun(type).toLowerCase()}. ${reason}`;
}

export const emptyListMessage = (type: ContentType) => `No ${type} found`;

/** spec §5: comma-separated, trimmed, empty entries dropped (and duplicates, ignoring case). */
export function parseTags(input: string): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of input.split(',')) {
    const tag = raw.trim().replace(/\s+/g, ' ');
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  return tags;
}

/** The readable length of an HTML body (what the 50-character minimum counts). */
export function textLength(html: string): number {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/&[a-z]+;|&#\d+;/gi, 'x')
    .replace(/\s+/g, ' ')
    .trim().length;
}

export const CONTENT_FIELDS = ['title', 'category', 'tags', 'summary', 'imageUrl', 'imageAlt', 'content'] as const;
export type ContentField = (typeof CONTENT_FIELDS)[number];
export type ContentErrors = Partial<Record<ContentField | 'author', string>>;

export function contentSchema(type: ContentType) {
  const summaryRequired = type === 'news' ? CONTENT_MESSAGES.summaryRequired : CONTENT_MESSAGES.excerptRequired;
  const summaryTooLong = type === 'news' ? CONTENT_MESSAGES.summaryTooLong : CONTENT_MESSAGES.excerptTooLong;
  return z.object({
    title: z.string().trim().min(1, CONTENT_MESSAGES.titleRequired).max(TITLE_MAX, CONTENT_MESSAGES.titleTooLong),
    category: z
      .string()
      .trim()
      .min(1, CONTENT_MESSAGES.categoryRequired)
      .refine((v) => DASHBOARD_CATEGORIES[type].includes(v), CONTENT_MESSAGES.categoryInvalid),
    tags: z
      .string()
      .default('')
      .transform(parseTags)
      .refine((tags) => tags.every((t) => t.length <= TAG_MAX), CONTENT_MESSAGES.tagTooLong)
      .refine((tags) => tags.length <= TAGS_MAX, CONTENT_MESSAGES.tooManyTags),
    summary: z.string().trim().min(1, summaryRequired).max(SUMMARY_MAX, summaryTooLong),
    imageUrl: z
      .string()
      .trim()
      .default('')
      .refine(
        (v) => v === '' || new RegExp(`^/media/(${type}|news|blogs|resources)/[A-Za-z0-9._-]+\\.webp$`).test(v),
        CONTENT_MESSAGES.imageInvalid,
      ),
    imageAlt: z.string().trim().max(ALT_MAX, CONTENT_MESSAGES.altTooLong).default(''),
    content: z
      .string()
      .refine((v) => textLength(v) > 0, CONTENT_MESSAGES.contentRequired)
      .refine((v) => textLength(v) === 0 || textLength(v) >= CONTENT_MIN, CONTENT_MESSAGES.contentTooShort)
      .refine((v) => new TextEncoder().encode(v).length <= CONTENT_MAX_BYTES, CONTENT_MESSAGES.contentTooLong),
  });
}

export type ContentInput = z.output<ReturnType<typeof contentSchema>>;

/** The form's errors, one per field, in the order the form shows them. */
export function contentErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): ContentErrors {
  const errors: ContentErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '') as ContentField;
    if ((CONTENT_FIELDS as readonly string[]).includes(field) && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}
