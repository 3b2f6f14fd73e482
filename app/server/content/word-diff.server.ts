import { diffWords } from 'diff';
import { sanitisedHtmlToText } from '../platform/html.server.ts';
import { categoryLabel } from '../../lib/categories.ts';
import type { FieldChange, WordChange, WordComparison } from '../../lib/revisions.ts';

// Issue 13: the word-level comparison of a revision with the current text (the `diff` package's
// diffWords: each word and punctuation mark is a token, spaces follow the words around them).

/**
 * The most word edits compared before giving up. Two versions of one story differ by far fewer; two
 * unrelated bodies of a megabyte would otherwise hold a request for seconds (the work grows with
 * length × edits).
 */
export const MAX_WORD_EDITS = 2_000;

/** `before` (the revision) against `after` (the current text), or null when they differ too much. */
export function compareWords(before: string, after: string): WordComparison {
  if (before === after) return before ? [{ type: 'same', text: before }] : [];
  const changes = diffWords(before, after, { maxEditLength: MAX_WORD_EDITS });
  if (!changes) return null;
  const out: WordChange[] = [];
  for (const change of changes) {
    const type = change.added ? 'inserted' : change.removed ? 'deleted' : 'same';
    const last = out[out.length - 1];
    if (last?.type === type) last.text += change.value;
    else out.push({ type, text: change.value });
  }
  return out;
}

/** Whether a comparison shows any change. */
export function hasChanges(comparison: WordComparison): boolean {
  return comparison === null || comparison.some((c) => c.type !== 'same');
}

/** A stored body's words, one paragraph (or heading, list item, quote) a line, for comparing. */
export function bodyText(html: string): string {
  return html
    .split(/<\/(?:p|h[1-6]|li|blockquote|pre)>|<br\s*\/?>/i)
    .map((part) => sanitisedHtmlToText(part))
    .filter(Boolean)
    .join('\n');
}

/** What two versions of an item are compared on. */
export interface ComparedVersion {
  title: string;
  summary: string | null;
  category: string;
  tags: string[];
  imageAlt: string;
  content: string;
  /** Issue 26: absent in revisions saved before easy read existed. */
  easyRead?: string | undefined;
}

/**
 * Issue 13: the fields that differ between two versions of an item, word by word, in the form's
 * order: a revision against the current text, or (on a 409) theirs against the form just sent.
 */
export function compareVersions(before: ComparedVersion, after: ComparedVersion, summaryLabel: string): FieldChange[] {
  const fields: FieldChange[] = [
    { label: 'Title', comparison: compareWords(before.title, after.title) },
    { label: summaryLabel, comparison: compareWords(before.summary ?? '', after.summary ?? '') },
    { label: 'Category', comparison: compareWords(categoryLabel(before.category), categoryLabel(after.category)) },
    { label: 'Tags', comparison: compareWords(before.tags.join(', '), after.tags.join(', ')) },
    { label: 'Image description', comparison: compareWords(before.imageAlt, after.imageAlt) },
    { label: 'Text', comparison: compareWords(bodyText(before.content), bodyText(after.content)) },
    { label: 'Easy read', comparison: compareWords(before.easyRead ?? '', after.easyRead ?? '') },
  ];
  return fields.filter((field) => hasChanges(field.comparison));
}
