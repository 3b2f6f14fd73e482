import { STAFF_LANGUAGE_NAMES } from './languages.ts';

// Decisions 033 and 051: what a service's and an event's versions in Luganda and Swahili share: the
// languages they are written in, the buttons of their form and the words staff are told.

export const VERSION_LANGUAGES = ['lg', 'sw'] as const;
export type VersionLanguage = (typeof VERSION_LANGUAGES)[number];
export const VERSION_NAMES: Readonly<Record<VersionLanguage, string>> = STAFF_LANGUAGE_NAMES;

export function isVersionLanguage(value: unknown): value is VersionLanguage {
  return typeof value === 'string' && (VERSION_LANGUAGES as readonly string[]).includes(value);
}

export const VERSION_INTENTS = ['draft', 'publish', 'unpublish'] as const;
export type VersionIntent = (typeof VERSION_INTENTS)[number];

/** The messages of a version's form; `of` names what it is a version of ("a service", "an event"). */
export function versionMessages(of: string) {
  return {
    unknownLanguage: `Versions of ${of} are in Luganda or Swahili only.`,
    noVersion: 'There is no version in this language to unpublish.',
    conflict: 'Someone saved this version after you opened it. Reload to see their text, then make your changes again.',
    saved: (name: string) => `${name} version saved as a draft. It is not on the website.`,
    published: (name: string) => `${name} version published.`,
    unpublished: (name: string) => `${name} version unpublished. The website shows the English text in its place.`,
  } as const;
}
