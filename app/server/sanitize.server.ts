import sanitizeHtml, { type Attributes, type IOptions } from 'sanitize-html';

// Article bodies are HTML written by staff in the rich-text editor (spec §9 tools: headings 1-3,
// paragraph, bold, italic, underline, alignment, lists, font size 1-7, text colour, link, quote).
// Stored HTML is never trusted: every body is passed through this allow-list before it is shown,
// on the article page and in the dashboard preview. Everything not listed here is dropped
// (docs/decisions/202-article-html-sanitising.md).

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

const REL_TOKENS = new Set(['nofollow', 'noopener', 'noreferrer', 'ugc', 'external']);

/** Links: only `_blank` survives as a target, and it always gets rel="noopener noreferrer". */
function transformLink(_tag: string, attribs: Attributes) {
  const { target, rel, ...rest } = attribs;
  const next: Attributes = { ...rest };
  const tokens = new Set(
    (rel ?? '')
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
  if (COLOR.some((pattern) => pattern.test(color))) styles.push(`color: ${color}`);
  return { tagName: 'span', attribs: styles.length ? { style: styles.join('; ') } : {} };
}

const STYLED = ['span', 'p', 'h1', 'h2', 'h3'] as const;

const OPTIONS: IOptions = {
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

/** The safe HTML of an article body (see the allow-list above). */
export function sanitizeArticleHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
