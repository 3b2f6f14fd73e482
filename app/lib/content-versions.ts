import { LANGUAGE_NAMES, PREFIXED_LANGUAGES, STAFF_LANGUAGE_NAMES, type PrefixedLanguage } from './languages.ts';

// Issue 26, items 4 and 5: a story, news item or resource in Luganda or Swahili is a version of its
// own (a content row with `language` and `translation_of`), drafted and published on its own
// (docs/decisions/031-translated-content.md). The words the dashboard shows about versions.

/** The languages an English item can have a version in. */
export const VERSION_LANGUAGES: readonly PrefixedLanguage[] = PREFIXED_LANGUAGES;

/** The dashboard's English name of each version language, for its buttons. */
export const VERSION_LANGUAGE_LABELS: Readonly<Record<PrefixedLanguage, string>> = STAFF_LANGUAGE_NAMES;

export const VERSION_MESSAGES = {
  unknownLanguage: 'Choose Luganda or Swahili: there is no version in that language.',
  missingItem: 'The item you want a version of was not found.',
  ofVersion: 'This is already a version in another language: add versions to the English item.',
  exists: 'This item already has a version in that language.',
  created: (language: PrefixedLanguage) =>
    `${VERSION_LANGUAGE_LABELS[language]} version added as a draft with the English words: translate it, then publish it.`,
} as const;

/** A version's state as the Languages panel shows it. */
export type VersionState = 'none' | 'draft' | 'scheduled' | 'published';

export interface VersionSummary {
  language: PrefixedLanguage;
  /** Its own name (Oluganda, Kiswahili). */
  name: string;
  id: string | null;
  state: VersionState;
}

export function versionName(language: PrefixedLanguage): string {
  return LANGUAGE_NAMES[language];
}
