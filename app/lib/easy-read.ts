import { flesch } from 'flesch';
import { syllable } from 'syllable';

// Issue 26 item 6: the easy-read version of a story, news item, resource or service (decision 033).
// Plain text: paragraphs apart by a blank line, and lists of lines that start with "- ". No markup,
// so a page shows it as text (React escapes it) and nothing needs sanitising. Shared by the editor
// (the score as it is typed) and the server (the cap on every save, the score after a save).

/** "A few hundred words at most" (issue 26): a longer text is refused with a message. */
export const EASY_READ_MAX_WORDS = 400;
/**
 * Far more than 400 words take (about 2,600 characters in plain English); a longer text is refused
 * before any of it is counted.
 */
export const EASY_READ_MAX_CHARS = 8_000;
/** Flesch reading ease at or above this is "fairly easy" or easier: the editor's target. */
export const EASY_READ_TARGET = 70;

export const EASY_READ_MESSAGES = {
  tooManyWords: (words: number) =>
    `Easy read must be at most ${EASY_READ_MAX_WORDS} words. It has ${words.toLocaleString('en-US')} words now: please shorten it.`,
  tooLong: `Easy read is too long. Please keep it under ${EASY_READ_MAX_WORDS} words.`,
} as const;

/** Normalises line ends and trims; an empty text is no easy read at all. */
export function normaliseEasyRead(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

/** The words of a text (letters and digits, with inner apostrophes and hyphens). */
export function wordsOf(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** What is wrong with an easy-read text, if anything (the server's check on every save). */
export function easyReadProblem(text: string): string | undefined {
  if (text.length > EASY_READ_MAX_CHARS) return EASY_READ_MESSAGES.tooLong;
  const words = wordsOf(text).length;
  if (words > EASY_READ_MAX_WORDS) return EASY_READ_MESSAGES.tooManyWords(words);
  return undefined;
}

/** One block of an easy-read text, as a page shows it. */
export type EasyReadBlock = { kind: 'paragraph'; text: string } | { kind: 'list'; items: string[] };

/**
 * The text as blocks: a blank line ends a paragraph; lines starting with "- " (or "* ", "• ") make a
 * list; other lines of a paragraph are joined by a space.
 */
export function easyReadBlocks(text: string): EasyReadBlock[] {
  const blocks: EasyReadBlock[] = [];
  let paragraph: string[] = [];
  let list: string[] | null = null;
  const endParagraph = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
    paragraph = [];
  };
  const endList = () => {
    if (list && list.length > 0) blocks.push({ kind: 'list', items: list });
    list = null;
  };
  for (const raw of normaliseEasyRead(text).split('\n')) {
    const line = raw.trim();
    if (!line) {
      endParagraph();
      endList();
      continue;
    }
    const item = /^[-*•]\s/.test(line) ? line.slice(2).trim() : undefined;
    if (item !== undefined) {
      endParagraph();
      (list ??= []).push(item);
    } else {
      endList();
      paragraph.push(line);
    }
  }
  endParagraph();
  endList();
  return blocks;
}

/** The sentences of a text: ended by . ! ? or by the end of a paragraph or list item. */
export function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  for (const block of easyReadBlocks(text))
    for (const part of block.kind === 'list' ? block.items : [block.text])
      for (const sentence of part.split(/(?<=[.!?…])\s+/)) if (wordsOf(sentence).length > 0) sentences.push(sentence);
  return sentences;
}

/** How a Flesch reading ease score reads, in Flesch's own bands. */
export function fleschVerdict(score: number): string {
  if (score >= 90) return 'Very easy to read';
  if (score >= 80) return 'Easy to read';
  if (score >= 70) return 'Fairly easy to read';
  if (score >= 60) return 'Plain English';
  if (score >= 50) return 'Fairly difficult to read';
  if (score >= 30) return 'Difficult to read';
  return 'Very difficult to read';
}

export interface Readability {
  words: number;
  sentences: number;
  /** Words per sentence, one decimal; 0 for an empty text. */
  averageSentenceLength: number;
  /** Flesch reading ease (English only), rounded and held to 0–100; null for another language or an empty text. */
  score: number | null;
  /** The score in words ("Fairly easy to read"); null with the score. */
  verdict: string | null;
  /** The score reaches EASY_READ_TARGET. */
  meetsTarget: boolean | null;
}

/**
 * The readability of an easy-read text. Flesch reading ease (wooorm's `flesch`, syllables counted by
 * `syllable`) is a formula for English: for Luganda and Swahili only the counts are given.
 */
export function readabilityOf(text: string, language: string = 'en'): Readability {
  const bounded = text.slice(0, EASY_READ_MAX_CHARS * 2);
  const words = wordsOf(bounded);
  const sentences = sentencesOf(bounded).length;
  const averageSentenceLength = sentences > 0 ? Math.round((words.length / sentences) * 10) / 10 : 0;
  if (language !== 'en' || words.length === 0 || sentences === 0)
    return { words: words.length, sentences, averageSentenceLength, score: null, verdict: null, meetsTarget: null };
  const syllables = words.reduce((sum, word) => sum + Math.max(1, syllable(word)), 0);
  // The formula runs past both ends (120 for two-word sentences, far below 0 for dense prose); the
  // editor shows it on Flesch's own 0–100 scale.
  const score = Math.min(100, Math.max(0, Math.round(flesch({ sentence: sentences, word: words.length, syllable: syllables }))));
  return {
    words: words.length,
    sentences,
    averageSentenceLength,
    score,
    verdict: fleschVerdict(score),
    meetsTarget: score >= EASY_READ_TARGET,
  };
}

/** The readability as one line, for the editor's live region and the saved state. */
export function readabilitySummary(result: Readability): string {
  const counts = `${result.words} ${result.words === 1 ? 'word' : 'words'}, ${result.sentences} ${result.sentences === 1 ? 'sentence' : 'sentences'}, ${result.averageSentenceLength} words per sentence on average`;
  if (result.score === null) return counts;
  const target = result.meetsTarget ? 'meets the target' : `below the target of ${EASY_READ_TARGET}`;
  return `Reading ease ${result.score} (${result.verdict}), ${target}. ${counts}.`;
}
