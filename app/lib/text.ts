/** spec §9: cut to `max` characters with an ellipsis, at a word boundary when one is near. */
export function truncate(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  if (max < 1) return '';
  // Never end on half of a character made of two UTF-16 code units (emoji and the like).
  const cut = clean.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, '');
  const space = cut.lastIndexOf(' ');
  const base = space > max * 0.6 ? cut.slice(0, space) : cut;
  return `${base.replace(/[\s.,;:!?-]+$/, '')}…`;
}

/** spec §9: 200 words per minute, rounded up, at least one minute. */
export function readMinutes(plainText: string): number {
  const words = plainText.trim().split(/\s+/).filter(Boolean).length;
  return Math.max(1, Math.ceil(words / 200));
}

export function readTimeLabel(plainText: string): string {
  return `${readMinutes(plainText)} min read`;
}
