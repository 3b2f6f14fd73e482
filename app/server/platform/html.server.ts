import sanitizeHtml, { type IOptions } from 'sanitize-html';

/**
 * The deepest nesting handed to sanitize-html's parser (htmlparser2). Its work per tag grows with the
 * depth of the open elements (it shifts and searches that list), so a body of 300,000 nested `<b>`
 * took 20 seconds; below this depth a megabyte costs a fraction of a second. The content form
 * refuses far less (CONTENT_MAX_NESTING); this guards every other way in: previews, stored bodies.
 */
export const MAX_PARSE_DEPTH = 256;

/** Text made safe to put in markup, between tags or in a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

class TooDeepError extends Error {}

/**
 * sanitize-html with `options`, stopped as soon as elements nest deeper than MAX_PARSE_DEPTH; then
 * `tooDeep` answers instead. Depth is counted from the parser's own open and close events, so it is
 * exactly the parser's, and the parse is abandoned before it can grow costly.
 */
export function sanitizeWithinDepth(html: string, options: IOptions, tooDeep: () => string): string {
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
export function stripTags(html: string): string {
  return replaceTags(html, () => ' ');
}

const TEXT_OPTIONS: IOptions = {
  allowedTags: [],
  allowedAttributes: {},
  nonTextTags: ['style', 'script', 'textarea', 'noscript'],
};

/** After these, text reads as separate words; other tags join what is on either side. */
const BREAK = /<\/(p|h[1-6]|li|blockquote|div|td|th)>|<br\s*\/?>/gi;
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

/** The readable text of any HTML, for search indexes and read-time estimates. */
export function htmlToText(html: string): string {
  // Every alternative starts with a fixed `<`, so each match attempt ends within a few characters.
  const spaced = html.replace(BREAK, '$& ');
  return decodeAndTidy(sanitizeWithinDepth(spaced, TEXT_OPTIONS, () => stripTags(spaced)));
}

/**
 * The same text as `htmlToText`, for HTML that `sanitizeArticleHtml` wrote, in one pass and without
 * a parser (a second parse of a megabyte body cost as much as sanitising it). Sanitised HTML is
 * plain enough for this: only allow-listed tags, every `<`, `>` and `&` in text and attribute
 * values escaped, no comments, no script. A test holds the two to the same answers.
 */
export function sanitisedHtmlToText(html: string): string {
  return decodeAndTidy(replaceTags(html, (tag) => (BREAK_TAG.test(tag) ? ' ' : '')));
}
