import sanitizeHtml, { type Attributes, type IOptions } from 'sanitize-html';
import type { Migration } from 'kysely/migration';
import { inTransaction, type Db } from './frozen.ts';

// Migration 0005_sanitise_stored_bodies (decision 202). Bodies are sanitised once, on write, and shown
// as stored, so every body stored before is run through the allow-list of SANITISER_VERSION 1 and its
// search text is derived again, a batch at a time. The allow-list and the text it derives are copied
// here as they were (app/server/sanitize.server.ts and html.server.ts at version 1), so this
// migration means the same thing forever; a later change to the list adds its own migration with its
// own copy. A migration uses only what this file and ./frozen.ts hold.

export default function migration(): Migration {
  return {
    up: (db) =>
      inTransaction(db, async (trx) => {
        await resanitiseStoredBodies(trx);
      }),
  };
}

/**
 * The deepest nesting handed to sanitize-html's parser (htmlparser2). Its work per tag grows with the
 * depth of the open elements (it shifts and searches that list), so a body of 300,000 nested `<b>`
 * took 20 seconds; below this depth a megabyte costs a fraction of a second. The content form
 * refuses far less (CONTENT_MAX_NESTING); this guards every other way in: previews, stored bodies.
 */
const MAX_PARSE_DEPTH = 256;

class TooDeepError extends Error {}

/**
 * sanitize-html with `options`, stopped as soon as elements nest deeper than MAX_PARSE_DEPTH; then
 * `tooDeep` answers instead. Depth is counted from the parser's own open and close events, so it is
 * exactly the parser's, and the parse is abandoned before it can grow costly.
 */
function sanitizeWithinDepth(html: string, options: IOptions, tooDeep: () => string): string {
  let depth = 0;
  try {
    return sanitizeHtml(html, {
      ...options,
      onOpenTag: () => {
        depth++;
        if (depth > MAX_PARSE_DEPTH) throw new TooDeepError();
      },
      onCloseTag: () => {
        depth--;
      },
    });
  } catch (error) {
    if (error instanceof TooDeepError) return tooDeep();
    throw error;
  }
}

/**
 * Markup with every tag (`<` up to the next `>`) replaced by what `replace` gives for it, in one
 * pass; a `<` with no `>` after it stays as text.
 */
function replaceTags(html: string, replace: (tag: string) => string): string {
  let text = '';
  let from = 0;
  for (;;) {
    const lt = html.indexOf('<', from);
    if (lt === -1) break;
    const gt = html.indexOf('>', lt + 1);
    if (gt === -1) break;
    text += html.slice(from, lt) + replace(html.slice(lt, gt + 1));
    from = gt + 1;
  }
  return text + html.slice(from);
}

/**
 * The text of markup with every tag read as a space. Only for markup too deep to give the parser:
 * it does not know comments or script, so their text stays too.
 */
function stripTags(html: string): string {
  return replaceTags(html, () => ' ');
}

const BREAK_TAG = /^(?:<\/(?:p|h[1-6]|li|blockquote|div|td|th)>|<br\s*\/?>)$/i;

function decodeAndTidy(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The same text as `htmlToText`, for HTML that `sanitizeArticleHtml` wrote, in one pass and without
 * a parser (a second parse of a megabyte body cost as much as sanitising it). Sanitised HTML is
 * plain enough for this: only allow-listed tags, every `<`, `>` and `&` in text and attribute
 * values escaped, no comments, no script. A test holds the two to the same answers.
 */
function sanitisedHtmlToText(html: string): string {
  return decodeAndTidy(replaceTags(html, (tag) => (BREAK_TAG.test(tag) ? ' ' : '')));
}

/** `<font size>` of execCommand('fontSize'), 1-7, as CSS keywords. */
const FONT_SIZES: Record<string, string> = {
  '1': 'x-small',
  '2': 'small',
  '3': 'medium',
  '4': 'large',
  '5': 'x-large',
  '6': 'xx-large',
  '7': 'xxx-large',
};

const COLOR = [
  /^#[0-9a-f]{3,8}$/i,
  /^rgba?\(\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*(,\s*(0|1|0?\.\d+)\s*)?\)$/i,
  /^[a-z]{3,20}$/i,
];
const TEXT_ALIGN = [/^(left|right|center|justify|start|end)$/i];
const FONT_SIZE = [
  /^(xx-small|x-small|small|medium|large|x-large|xx-large|xxx-large|smaller|larger)$/i,
  /^\d{1,2}(\.\d{1,2})?px$/i,
  /^\d(\.\d{1,2})?r?em$/i,
  /^\d{1,3}%$/,
];

/** The longest rel or colour worth reading; the patterns below are linear, but need not see more. */
const ATTRIBUTE_MAX = 200;

const REL_TOKENS = new Set(['nofollow', 'noopener', 'noreferrer', 'ugc', 'external']);

/** Links: only `_blank` survives as a target, and it always gets rel="noopener noreferrer". */
function transformLink(_tag: string, attribs: Attributes) {
  const { target, rel, ...rest } = attribs;
  const next: Attributes = { ...rest };
  const tokens = new Set(
    (rel ?? '')
      .slice(0, ATTRIBUTE_MAX) // all five tokens fit in 40 characters
      .toLowerCase()
      .split(/\s+/)
      .filter((t) => REL_TOKENS.has(t)),
  );
  if (target?.trim().toLowerCase() === '_blank') {
    next.target = '_blank';
    tokens.add('noopener');
    tokens.add('noreferrer');
  }
  if (tokens.size > 0) next.rel = [...tokens].join(' ');
  return { tagName: 'a', attribs: next };
}

/** `<font size color>` becomes a span with the same look as inline CSS (checked like any style). */
function transformFont(_tag: string, attribs: Attributes): { tagName: string; attribs: Attributes } {
  const styles: string[] = [];
  const size = FONT_SIZES[(attribs.size ?? '').trim()];
  if (size) styles.push(`font-size: ${size}`);
  const color = (attribs.color ?? '').trim();
  if (color.length <= ATTRIBUTE_MAX && COLOR.some((pattern) => pattern.test(color))) styles.push(`color: ${color}`);
  return { tagName: 'span', attribs: styles.length ? { style: styles.join('; ') } : {} };
}

const STYLED = ['span', 'p', 'h1', 'h2', 'h3'] as const;

/** The allow-list of SANITISER_VERSION 1. */
const ARTICLE_HTML_OPTIONS: IOptions = {
  allowedTags: ['h1', 'h2', 'h3', 'p', 'strong', 'b', 'em', 'i', 'u', 's', 'blockquote', 'ul', 'ol', 'li', 'a', 'br', 'span'],
  allowedAttributes: {
    a: ['href', { name: 'target', multiple: false, values: ['_blank'] }, 'rel'],
    ...Object.fromEntries(STYLED.map((tag) => [tag, ['style']])),
  },
  allowedStyles: {
    '*': { 'text-align': TEXT_ALIGN, color: COLOR, 'font-size': FONT_SIZE },
  },
  // Relative links (such as /services) stay; any other scheme (javascript:, data:, vbscript:...) goes.
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  // Whatever is inside these is not text a reader should see.
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'xmp',
    'noscript',
    'noembed',
    'noframes',
    'iframe',
    'template',
    'title',
    'svg',
    'math',
    'object',
    'select',
    'head',
  ],
  disallowedTagsMode: 'discard',
  transformTags: {
    a: transformLink,
    font: transformFont,
    // The page title is the one h1 (spec §9 editor headings 1-3): a heading 1 in a body reads as h2.
    h1: 'h2',
  },
};

/** Text made safe to place between tags: markup characters escaped, entities left as they are. */
function escapeText(text: string): string {
  return text
    .replace(/&(?![a-zA-Z0-9#]{1,20};)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * The safe HTML of an article body (see the allow-list above). Markup nesting deeper than the
 * parser is given (MAX_PARSE_DEPTH, far past anything the editor makes) keeps only its text, as
 * one paragraph: safe, and found in linear time.
 */
function sanitizeArticleHtml(html: string): string {
  return sanitizeWithinDepth(html, ARTICLE_HTML_OPTIONS, () => `<p>${escapeText(stripTags(html))}</p>`);
}

/** What a writer stores for a body: the sanitised HTML, and the text that search and read time use. */
function storedBody(html: string): { content: string; search_text: string } {
  const content = sanitizeArticleHtml(html);
  return { content, search_text: sanitisedHtmlToText(content) };
}

/**
 * Runs the allow-list of version 1 over every stored body, a batch at a time in id order, and rewrites
 * the rows it changes (with their search text). For migrations: typed loosely, as they are.
 */
async function resanitiseStoredBodies(db: Db, batch = 100): Promise<{ read: number; changed: number }> {
  let read = 0;
  let changed = 0;
  let after: string | undefined;
  for (;;) {
    let query = db.selectFrom('content').select(['id', 'content', 'search_text']).orderBy('id').limit(batch);
    if (after !== undefined) query = query.where('id', '>', after);
    const rows = (await query.execute()) as { id: string; content: string; search_text: string }[];
    for (const row of rows) {
      const next = storedBody(row.content);
      if (next.content === row.content && next.search_text === row.search_text) continue;
      await db.updateTable('content').set(next).where('id', '=', row.id).execute();
      changed++;
    }
    read += rows.length;
    if (rows.length < batch) return { read, changed };
    after = rows[rows.length - 1]!.id;
  }
}
