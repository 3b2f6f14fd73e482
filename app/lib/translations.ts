import { LANGUAGE_NAMES, PREFIXED_LANGUAGES, type PrefixedLanguage } from './languages.ts';

// Issue 26 item 3: the Translations screen's words and limits, shared by the screen and the server
// (app/server/site/interface-texts.server.ts; docs/decisions/032-translations-screen.md). Staff
// correct the Luganda and Swahili texts; English is the source and is changed in code only.

/** The languages whose interface texts staff edit. */
export const TRANSLATION_LANGUAGES: readonly PrefixedLanguage[] = PREFIXED_LANGUAGES;

export function isTranslationLanguage(value: unknown): value is PrefixedLanguage {
  return typeof value === 'string' && (TRANSLATION_LANGUAGES as readonly string[]).includes(value);
}

export function languageName(language: PrefixedLanguage): string {
  return LANGUAGE_NAMES[language];
}

export const TRANSLATION_STATES = ['translated', 'missing', 'changed', 'staff'] as const;
export type TranslationState = (typeof TRANSLATION_STATES)[number];

export const STATE_LABELS: Readonly<Record<TranslationState, string>> = {
  translated: 'Translated',
  missing: 'Missing',
  changed: 'Changed since translated',
  staff: 'Edited by staff',
};

export function isTranslationState(value: unknown): value is TranslationState {
  return typeof value === 'string' && (TRANSLATION_STATES as readonly string[]).includes(value);
}

/** The longest one interface text may be, in characters. */
export const INTERFACE_TEXT_MAX = 2000;
/** The largest PO file an import takes; counted while the upload is read. */
export const PO_MAX_BYTES = 500_000;
/** How many of an import's problems are listed. */
export const IMPORT_PROBLEMS_SHOWN = 20;

/** One interface text of a language, as the screen lists it. */
export interface TranslationRow {
  key: string;
  /** The English source today. */
  source: string;
  /** The text the site shows in the language ('' when missing). */
  text: string;
  /** The built-in catalogue's text ('' when it has none). */
  builtIn: string;
  state: TranslationState;
  /** A staff text's author and time; null for a built-in one. */
  updatedBy: string | null;
  updatedAt: string | null;
  /** The English the text was written against, when that differs from today's. */
  oldSource: string | null;
}

export const TRANSLATION_MESSAGES = {
  unknownLanguage: 'Choose Oluganda or Kiswahili: the interface texts of other languages cannot be edited here.',
  unknownKey: 'There is no interface text with this key. Reload the page and try again.',
  required: 'Write the text, or use Reset to show the built-in text again.',
  tooLong: `The text is too long: at most ${INTERFACE_TEXT_MAX.toLocaleString('en-US')} characters.`,
  html: 'The text cannot contain HTML tags: it is shown as plain text.',
  control: 'The text contains an invisible control character. Please retype it.',
  fixErrors: 'Nothing was saved. Please correct the text below.',
  forbidden: 'Only an Admin or the Super Admin can change the translations.',
  unknownAction: 'That change is not known. Reload the page and try again.',
  noFile: 'Choose a PO file to import.',
  tooLarge: `The file is too large: a PO file may be at most ${(PO_MAX_BYTES / 1_000).toLocaleString('en-US')} KB.`,
  unreadable: 'The file could not be read as a PO file. Export the file again and make your changes in that one.',
  importRefused: 'Nothing was imported. Please correct the file and import it again.',
  nothingChanged: 'Nothing changed: the file holds the texts the site already shows.',
  failed: 'The change could not be saved. Please try again.',
} as const;

export function savedMessage(language: PrefixedLanguage, key: string): string {
  return `Saved the ${languageName(language)} text of ${key}.`;
}

export function resetMessage(language: PrefixedLanguage, key: string): string {
  return `The ${languageName(language)} text of ${key} is the built-in one again.`;
}

export function importedMessage(updated: number): string {
  return updated === 1 ? '1 text updated.' : `${updated.toLocaleString('en-US')} texts updated.`;
}

export function wrongLanguageMessage(found: string, language: PrefixedLanguage): string {
  return `The file is for the language "${found || 'none'}", not ${languageName(language)} (${language}). Import it under its own language.`;
}

export function invalidIcuMessage(detail: string): string {
  return `The text is not a valid message (${detail}). Check that every { has its }.`;
}

export function placeholdersMessage(expected: readonly string[], missing: readonly string[], extra: readonly string[]): string {
  const parts = [
    `Use exactly the placeholders of the English text${expected.length ? `: ${expected.join(', ')}` : ' (it has none)'}.`,
  ];
  if (missing.length) parts.push(`Missing: ${missing.join(', ')}.`);
  if (extra.length) parts.push(`Not in the English: ${extra.join(', ')}.`);
  return parts.join(' ');
}

export function moreProblemsMessage(more: number): string {
  return `…and ${more.toLocaleString('en-US')} more.`;
}

/** Texts per page of the Translations screen: a page stays light to load, render and read out on a phone. */
export const TEXTS_PER_PAGE = 50;
