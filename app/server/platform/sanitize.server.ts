import type { Attributes, IOptions } from 'sanitize-html';
import { sanitisedHtmlToText, sanitizeWithinDepth, stripTags } from './html.server.ts';

// Article bodies are HTML written by staff in the rich-text editor (spec §9 tools: headings 1-3,
// paragraph, bold, italic, underline, alignment, lists, font size 1-7, text colour, link, quote).
// Every body passes through this allow-list once, when it is written (publish, update, the demo
// seed, migration 0005), and is stored sanitised; pages show stored bodies as they are. The
// dashboard preview, which shows unsaved input, runs it too. Everything not listed here is dropped
// (docs/decisions/202-article-html-sanitising.md).
//
// ANY CHANGE TO THE ALLOW-LIST BELOW (tags, attributes, styles, schemes, transforms) changes what
// is safe to store, and bodies already stored were cleaned by the old list. So with the change:
// raise SANITISER_VERSION, and add a migration file (db/migrations/) that carries its own copy of the
// new list and re-runs it over every stored body (as 0005_sanitise_stored_bodies.ts does with
// version 1) and over the rich texts of Site settings (the `site.privacyText`, `site.termsText` and
// `site.accessibilityText` rows of `settings`, decision 502).
// sanitize.server.test.ts pins the list to the version to remind you.

/** The allow-list's version; see above. 1: the list of migration 0005. */
export const SANITISER_VERSION = 1;

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

/** The allow-list (exported only so a test can pin it to SANITISER_VERSION). */
export const ARTICLE_HTML_OPTIONS: IOptions = {
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
export function sanitizeArticleHtml(html: string): string {
  return sanitizeWithinDepth(html, ARTICLE_HTML_OPTIONS, () => `<p>${escapeText(stripTags(html))}</p>`);
}

/** What a writer stores for a body: the sanitised HTML, and the text that search and read time use. */
export function storedBody(html: string): { content: string; search_text: string } {
  const content = sanitizeArticleHtml(html);
  return { content, search_text: sanitisedHtmlToText(content) };
}
