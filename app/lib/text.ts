// Text helpers for user-supplied strings. Each is a single pass over its input: they see summaries,
// titles and whole article bodies, and a backtracking pattern such as /[\s.]+$/ turns quadratic on a
// long run of the characters it matches (docs/decisions/202-article-html-sanitising.md).

/** True for exactly the characters JavaScript's `\s` and `String.prototype.trim` treat as spaces. */
export function isSpaceCode(code: number): boolean {
  return (
    (code >= 9 && code <= 13) ||
    code === 32 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

const TRAILING_PUNCTUATION = new Set(' .,;:!?-');

/** spec §9: cut to `max` characters with an ellipsis, at a word boundary when one is near. */
export function truncate(text: string, max: number): string {
  // Spaces tidied (runs to one, none at either end), reading no further than one character past
  // `max`: all that is needed to know whether the text is too long. Each word goes in as one slice:
  // added a character at a time, the cards of one list page made about 60 KB of garbage (issue 29).
  let clean = '';
  let i = 0;
  while (i < text.length && clean.length <= max) {
    const spaces = i;
    while (i < text.length && isSpaceCode(text.charCodeAt(i))) i++;
    if (i === text.length) break;
    const gap = i > spaces && clean.length > 0 ? ' ' : '';
    // Never less than one character, so that each turn moves on.
    const room = Math.max(1, max + 1 - clean.length - gap.length);
    const start = i;
    while (i < text.length && i - start < room && !isSpaceCode(text.charCodeAt(i))) i++;
    clean += gap + text.slice(start, i);
  }
  if (clean.length <= max) return clean;
  if (max < 1) return '';
  let cut = clean.slice(0, max - 1);
  // Never end on half of a character made of two UTF-16 code units (emoji and the like).
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  const spaceAt = cut.lastIndexOf(' ');
  const base = spaceAt > max * 0.6 ? cut.slice(0, spaceAt) : cut;
  let end = base.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(base[end - 1]!)) end--;
  return `${base.slice(0, end)}…`;
}

/** The number of words (runs of characters other than spaces) in a text. */
export function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpaceCode(text.charCodeAt(i));
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

/** spec §9: 200 words per minute, rounded up, at least one minute. */
export function readMinutes(plainText: string): number {
  return Math.max(1, Math.ceil(countWords(plainText) / 200));
}

export function readTimeLabel(plainText: string): string {
  return `${readMinutes(plainText)} min read`;
}
