import { z } from 'zod';
import { COLLECTIONS, DASHBOARD_CATEGORIES, isDashboardCollection, type DashboardCollection } from './collections.ts';
import { isSpaceCode } from './text.ts';
import type { FieldChange } from './revisions.ts';
import { easyReadSchema } from './easy-read-schema.ts';

// spec §3, §5 and §8: what the dashboard's content form writes, its rules and its messages, shared
// by the browser (instant feedback) and the server (which checks again).

/** The form's type is the collection it writes (app/lib/collections.ts): news (Story) or blogs (Blog post). */
export type ContentType = DashboardCollection;
export const isContentType = isDashboardCollection;
export { DASHBOARD_CATEGORIES };

export const TITLE_MAX = 100;
export const SUMMARY_MAX = 200;
export const CONTENT_MIN = 50;
/** Far above any real story; stops a pasted megabyte of markup. */
export const CONTENT_MAX_BYTES = 1_000_000;
/**
 * Far deeper than the editor's formatting ever nests (a quote holding a list holding styled text is
 * about 8). The HTML parser behind the sanitiser slows with the square of the depth, so deeper
 * markup is refused here and never reaches it (docs/decisions/202-article-html-sanitising.md).
 */
export const CONTENT_MAX_NESTING = 100;
export const TAG_MAX = 40;
export const TAGS_MAX = 20;
/** 20 tags of 40 characters with room for generous spacing; a longer field cannot be valid. */
export const TAGS_INPUT_MAX = 2_000;
export const ALT_MAX = 250;
/** Our upload addresses are about 60 characters; checked before the pattern runs. */
const IMAGE_URL_MAX = 300;
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
  contentTooDeep: 'The formatting is nested too deeply. Please remove some of the nested lists, quotes or styles.',
  tagTooLong: 'Each tag must be at most 40 characters',
  tooManyTags: 'Please use at most 20 tags',
  tagsTooLong: 'Tags are too long. Please use at most 20 tags of up to 40 characters each.',
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
  // Issue 13: drafts, scheduling, preview links and conflicting saves.
  scheduleRequired: 'Please choose the date and time to publish.',
  scheduleInvalid: 'Please enter a real date and a time such as 09:00.',
  schedulePast: 'Please choose a time in the future.',
  neverUnpublished: 'A published item stays published: it cannot become a draft or be scheduled again.',
  previewOnlyUnpublished: 'Preview links are for drafts and scheduled items. This one is published: share its page.',
  previewLinkMade: 'Preview link made. Anyone with it can see this item until it is published or 7 days have passed.',
  previewLinkCopied: 'Preview link copied.',
} as const;

/** Issue 13: an item's state. Only 'published' items are ever public. */
export const CONTENT_STATUSES = ['draft', 'scheduled', 'published'] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];
export const STATUS_LABELS: Record<ContentStatus, string> = { draft: 'Draft', scheduled: 'Scheduled', published: 'Published' };
export function isContentStatus(value: unknown): value is ContentStatus {
  return typeof value === 'string' && (CONTENT_STATUSES as readonly string[]).includes(value);
}

/** What a save asks for: the form's submit buttons (Publish/Update, Save draft, Schedule). */
export const SAVE_INTENTS = ['publish', 'draft', 'schedule'] as const;
export type SaveIntent = (typeof SAVE_INTENTS)[number];

/** The answer to a save: 'Draft saved.' and 'Story scheduled for …' beside the spec's own. */
export function savedMessage(type: ContentType, intent: SaveIntent, when?: string): string {
  if (intent === 'draft') return `${noun(type)} saved as a draft. It is not on the website.`;
  return `${noun(type)} scheduled for ${when ?? ''}. It will appear on the website then.`;
}

/** Issue 13: someone saved the item after this form was opened (409). */
export function conflictMessage(by: string, at: string): string {
  return `${by} saved this item at ${at}, after you opened it. Compare their version with yours, reload to see theirs, or overwrite it with yours.`;
}

const noun = (type: ContentType) => (type === 'news' ? 'Story' : 'Blog post');

/** spec §8: '{Story|Blog post} published|updated successfully!' (publish adds a note). */
export function publishedMessage(type: ContentType, mode: 'create' | 'edit'): string {
  return mode === 'create'
    ? `${noun(type)} published successfully! It may take a moment to appear on the website.`
    : `${noun(type)} updated successfully!`;
}

/**
 * spec §8: 'Failed to publish|update {story|blog post}.' followed by the reason; a draft or a schedule
 * that fails says so in the same words.
 */
export function failedMessage(
  type: ContentType,
  mode: 'create' | 'edit',
  reason: string,
  intent: SaveIntent = 'publish',
): string {
  const what = noun(type).toLowerCase();
  const verb =
    intent === 'draft' ? 'save the draft of' : intent === 'schedule' ? 'schedule' : mode === 'create' ? 'publish' : 'update';
  return `Failed to ${verb} ${what}. ${reason}`;
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

/** The number of bytes `text` takes in UTF-8 (what the size limit counts), without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3; // the rest of the plane, and a lone surrogate (encoded as U+FFFD)
  }
  return bytes;
}

/** True when a body is over CONTENT_MAX_BYTES; decided from its length alone when it can be. */
export function isContentTooLong(html: string): boolean {
  // Each UTF-16 unit is 1 to 3 bytes, so only bodies in between need counting.
  if (html.length > CONTENT_MAX_BYTES) return true;
  if (html.length * 3 <= CONTENT_MAX_BYTES) return false;
  return utf8Length(html) > CONTENT_MAX_BYTES;
}

/** Elements the HTML parser never keeps open: they have no end tag. */
const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** Open elements that a new start tag ends by itself, as browsers do (`<li>a<li>b` are siblings). */
const PARAGRAPH = new Set(['p']);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p']);
const ENDS_OPEN: Record<string, ReadonlySet<string>> = {
  li: new Set(['li']),
  a: new Set(['a']),
  dd: new Set(['dd', 'dt']),
  dt: new Set(['dd', 'dt']),
  option: new Set(['option']),
  tr: new Set(['tr', 'th', 'td']),
  td: new Set(['th', 'td']),
  th: new Set(['th']),
  ...Object.fromEntries(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((h) => [h, HEADINGS])),
  ...Object.fromEntries(
    ['p', 'div', 'ul', 'ol', 'blockquote', 'pre', 'table', 'section', 'article', 'aside', 'header', 'footer', 'nav', 'dl'].map(
      (tag) => [tag, PARAGRAPH],
    ),
  ),
};

const LT = 60; // <
const AMP = 38; // &
const HASH = 35; // #
const SEMI = 59; // ;
const SLASH = 47; // /

const isLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
const isDigit = (code: number) => code >= 48 && code <= 57;

export interface HtmlMeasure {
  /** The readable length (what the 50-character minimum counts). */
  textLength: number;
  /** How deeply elements nest, counted as an HTML parser would keep them open. */
  nesting: number;
}

/**
 * Measures an HTML body in one pass, in time proportional to its length, whatever it holds.
 *
 * The readable length is what this once computed with chained regular expressions, and still
 * agrees with exactly: a tag is `<` up to the next `>` and reads as a space; `&nbsp;` and `&#160;`
 * read as a space; any other `&name;` or `&#digits;` as one character; runs of spaces count as
 * one; spaces at either end not at all. (The old /<[^>]*>/g restarted at every `<` of a body with
 * no `>`: 60,000 of them took 9 seconds.)
 */
export function measureHtml(html: string): HtmlMeasure {
  const n = html.length;
  let length = 0;
  let space = false; // a space is owed before the next character, if one comes
  let nextGt = -2; // where the next `>` is (-1: there is none), looked up only when needed
  const open: string[] = [];
  const openCount = new Map<string, number>();
  let nesting = 0;

  const push = (name: string) => {
    open.push(name);
    openCount.set(name, (openCount.get(name) ?? 0) + 1);
    if (open.length > nesting) nesting = open.length;
  };
  const pop = () => {
    const name = open.pop()!;
    openCount.set(name, openCount.get(name)! - 1);
    return name;
  };
  const addSpace = () => {
    if (length > 0) space = true;
  };
  const addCharacter = () => {
    if (space) length++;
    space = false;
    length++;
  };

  for (let i = 0; i < n;) {
    const code = html.charCodeAt(i);
    if (code === LT) {
      if (nextGt !== -1 && nextGt < i) nextGt = html.indexOf('>', i + 1);
      if (nextGt !== -1) {
        trackTag(html, i + 1, nextGt, open, openCount, push, pop);
        addSpace();
        i = nextGt + 1;
        continue;
      }
      // No `>` anywhere after this: the rest is text, `<` included.
      addCharacter();
      i++;
      continue;
    }
    if (code === AMP) {
      const end = entityEnd(html, i);
      if (end !== -1) {
        const name = html.slice(i + 1, end);
        if (name === 'nbsp' || name === '#160') addSpace();
        else addCharacter();
        i = end + 1;
        continue;
      }
    }
    if (isSpaceCode(code)) addSpace();
    else addCharacter();
    i++;
  }
  return { textLength: length, nesting };
}

/** What is wrong with a body, if anything: its size is checked first, and alone when it fails. */
export function contentProblem(html: string): string | undefined {
  // An oversized body is refused before any character of it is parsed.
  if (isContentTooLong(html)) return CONTENT_MESSAGES.contentTooLong;
  const { textLength, nesting } = measureHtml(html);
  if (textLength === 0) return CONTENT_MESSAGES.contentRequired;
  if (textLength < CONTENT_MIN) return CONTENT_MESSAGES.contentTooShort;
  if (nesting > CONTENT_MAX_NESTING) return CONTENT_MESSAGES.contentTooDeep;
  return undefined;
}

/** The readable length of an HTML body (what the 50-character minimum counts). */
export function textLength(html: string): number {
  return measureHtml(html).textLength;
}

/** The index of the `;` ending `&letters;` or `&#digits;` at `at`, or -1 when there is none. */
function entityEnd(html: string, at: number): number {
  let i = at + 1;
  const numeric = html.charCodeAt(i) === HASH;
  if (numeric) i++;
  const start = i;
  while (i < html.length && (numeric ? isDigit(html.charCodeAt(i)) : isLetter(html.charCodeAt(i)))) i++;
  return i > start && html.charCodeAt(i) === SEMI ? i : -1;
}

/** Follows one tag (`html[from, to)` is what lies between `<` and `>`) on the stack of open elements. */
function trackTag(
  html: string,
  from: number,
  to: number,
  open: string[],
  openCount: Map<string, number>,
  push: (name: string) => void,
  pop: () => string,
): void {
  const closing = html.charCodeAt(from) === SLASH;
  const nameStart = closing ? from + 1 : from;
  if (nameStart >= to || !isLetter(html.charCodeAt(nameStart))) return; // text, a comment, <!doctype>
  let nameEnd = nameStart + 1;
  while (nameEnd < to) {
    const code = html.charCodeAt(nameEnd);
    if (isSpaceCode(code) || code === SLASH) break;
    nameEnd++;
  }
  const name = html.slice(nameStart, nameEnd).toLowerCase();
  if (VOID_ELEMENTS.has(name)) return;
  if (closing) {
    // An end tag closes its element and everything opened inside it; one with no open element is
    // ignored. Each element is pushed once and popped once, so this stays linear.
    if (!openCount.get(name)) return;
    while (pop() !== name);
    return;
  }
  const ends = ENDS_OPEN[name];
  while (ends && open.length > 0 && ends.has(open[open.length - 1]!)) pop();
  push(name);
}

// Issue 26: 'easyRead' is the plain-language version (app/lib/easy-read.ts, decision 033).
export const CONTENT_FIELDS = ['title', 'category', 'tags', 'summary', 'imageUrl', 'imageAlt', 'content', 'easyRead'] as const;
export type ContentField = (typeof CONTENT_FIELDS)[number];
/** The form's fields as typed: what it opens with, and what autosave keeps between saves. */
export type ContentFormValues = Record<ContentField, string>;
// Issue 14: 'video', 'captions' and 'transcript' are the sign-language video's fields.
export type ContentErrors = Partial<Record<ContentField | 'author' | 'scheduleAt' | 'video' | 'captions' | 'transcript', string>>;

/**
 * The categories a form for `type` accepts: the dashboard's list (spec §3), and the one an item being
 * edited already has when it is not on the list (demo stories, or items from before the dashboard),
 * so editing it does not mean choosing another.
 */
export function categoriesFor(type: ContentType, current?: string): readonly string[] {
  const listed: readonly string[] = DASHBOARD_CATEGORIES[type];
  return current && !listed.includes(current) ? [...listed, current] : listed;
}

export function contentSchema(type: ContentType, currentCategory?: string) {
  const categories = categoriesFor(type, currentCategory);
  const summaryRequired = type === 'news' ? CONTENT_MESSAGES.summaryRequired : CONTENT_MESSAGES.excerptRequired;
  const summaryTooLong = type === 'news' ? CONTENT_MESSAGES.summaryTooLong : CONTENT_MESSAGES.excerptTooLong;
  const imageUrlPattern = new RegExp(`^/media/(${COLLECTIONS.join('|')})/[A-Za-z0-9._-]+\\.webp$`);
  return z.object({
    title: z.string().trim().min(1, CONTENT_MESSAGES.titleRequired).max(TITLE_MAX, CONTENT_MESSAGES.titleTooLong),
    category: z
      .string()
      .trim()
      .min(1, CONTENT_MESSAGES.categoryRequired)
      .refine((v) => categories.includes(v), CONTENT_MESSAGES.categoryInvalid),
    tags: z
      .string()
      .default('')
      .transform((input, ctx) => {
        // Bounded before it is split, so a megabyte of commas is refused, not parsed.
        if (input.length > TAGS_INPUT_MAX) {
          ctx.issues.push({ code: 'custom', message: CONTENT_MESSAGES.tagsTooLong, input });
          return z.NEVER;
        }
        return parseTags(input);
      })
      .refine((tags) => tags.every((t) => t.length <= TAG_MAX), CONTENT_MESSAGES.tagTooLong)
      .refine((tags) => tags.length <= TAGS_MAX, CONTENT_MESSAGES.tooManyTags),
    summary: z.string().trim().min(1, summaryRequired).max(SUMMARY_MAX, summaryTooLong),
    imageUrl: z
      .string()
      .trim()
      .default('')
      .refine((v) => v === '' || (v.length <= IMAGE_URL_MAX && imageUrlPattern.test(v)), CONTENT_MESSAGES.imageInvalid),
    imageAlt: z.string().trim().max(ALT_MAX, CONTENT_MESSAGES.altTooLong).default(''),
    content: z.string().check((ctx) => {
      const message = contentProblem(ctx.value);
      if (message) ctx.issues.push({ code: 'custom', message, input: ctx.value });
    }),
    easyRead: easyReadSchema,
  });
}

export type ContentInput = z.output<ReturnType<typeof contentSchema>>;

/**
 * Issue 13: a draft may be half-written. It needs a title; every other rule that bounds a field's
 * size still holds (and the category, when chosen, must be one of the list), but nothing else is
 * required until it is published or scheduled, when the full schema applies.
 */
export function draftSchema(type: ContentType, currentCategory?: string) {
  const full = contentSchema(type, currentCategory);
  const categories = categoriesFor(type, currentCategory);
  const summaryTooLong = type === 'news' ? CONTENT_MESSAGES.summaryTooLong : CONTENT_MESSAGES.excerptTooLong;
  return full.extend({
    category: z
      .string()
      .trim()
      .default('')
      .refine((v) => v === '' || categories.includes(v), CONTENT_MESSAGES.categoryInvalid),
    summary: z.string().trim().max(SUMMARY_MAX, summaryTooLong).default(''),
    content: z
      .string()
      .default('')
      .check((ctx) => {
        if (isContentTooLong(ctx.value)) {
          ctx.issues.push({ code: 'custom', message: CONTENT_MESSAGES.contentTooLong, input: ctx.value });
          return;
        }
        if (measureHtml(ctx.value).nesting > CONTENT_MAX_NESTING)
          ctx.issues.push({ code: 'custom', message: CONTENT_MESSAGES.contentTooDeep, input: ctx.value });
      }),
  });
}

/**
 * The schema a save is checked with: a draft's, or the spec's full rules for publishing and
 * scheduling; `currentCategory` is the edited item's (categoriesFor).
 */
export function schemaFor(type: ContentType, intent: SaveIntent, currentCategory?: string) {
  return intent === 'draft' ? draftSchema(type, currentCategory) : contentSchema(type, currentCategory);
}

/** The intent a post carries (its submit button); a post without one publishes or updates, as before drafts. */
export function intentOf(value: unknown): SaveIntent {
  return typeof value === 'string' && (SAVE_INTENTS as readonly string[]).includes(value) ? (value as SaveIntent) : 'publish';
}

/** What the content-new and content-edit actions answer, with or without JavaScript. */
export interface ContentAnswer {
  ok: boolean;
  status: number;
  message: string;
  errors: ContentErrors;
  values: Record<string, string>;
  /** Set on an answer made in the browser; the form words it ('Failed to update story. {reason}'). */
  reason?: string;
  /** Issue 13: a 409, when someone saved the item after the form was opened. */
  conflict?: ContentConflict;
  /** Issue 13: the item's version after a successful save (the next save is checked against it). */
  version?: number;
  /** Issue 13: the address of a preview link just made. */
  previewUrl?: string;
}

/** Who saved the item since the form was opened, when, and what they saved (for Compare). */
export interface ContentConflict {
  by: string;
  at: string;
  /** The version to send to overwrite theirs. */
  version: number;
  /** The button that was pressed (Overwrite presses it again). */
  intent: SaveIntent;
  theirs: { title: string; summary: string; content: string; status: ContentStatus };
  /** Their version against the form just sent, field by field, word by word. */
  changes: FieldChange[];
}

/** What the form calls the short text: a news item's summary, a blog post's excerpt. */
export function summaryLabelOf(type: ContentType): 'Summary' | 'Excerpt' {
  return type === 'news' ? 'Summary' : 'Excerpt';
}
