// Issue 26: the languages of the public site. English is the default and has no prefix; Luganda and
// Swahili live under /lg/… and /sw/…, so every page has one address per language, stays cacheable and
// needs no cookie (docs/decisions/030-languages.md). A language other than English is offered only
// while the Super Admin has it turned on in Site settings.

export const LANGUAGES = ['en', 'lg', 'sw'] as const;
export type Language = (typeof LANGUAGES)[number];
export type PrefixedLanguage = Exclude<Language, 'en'>;
export const PREFIXED_LANGUAGES: readonly PrefixedLanguage[] = ['lg', 'sw'];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language in its own name, as the language chooser shows it. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = { en: 'English', lg: 'Oluganda', sw: 'Kiswahili' };

/** Each language's name in English, as the dashboard shows it. */
export const STAFF_LANGUAGE_NAMES: Readonly<Record<Language, string>> = { en: 'English', lg: 'Luganda', sw: 'Swahili' };

/** For staff: that a visitor wrote from the pages in another language than English, or nothing. */
export function writtenFromLine(language: string | null | undefined): string | undefined {
  if (!isPrefixedLanguage(language)) return undefined;
  const name = STAFF_LANGUAGE_NAMES[language];
  return `Sent from the ${name} pages of the website: a reply in ${name} may suit them best.`;
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function isPrefixedLanguage(value: unknown): value is PrefixedLanguage {
  return typeof value === 'string' && (PREFIXED_LANGUAGES as readonly string[]).includes(value);
}

/** The language an address is in: its first segment when that is a language prefix, else English. */
export function languageOfPath(pathname: string): Language {
  const first = pathname.split('/', 2)[1] ?? '';
  return isPrefixedLanguage(first) ? first : DEFAULT_LANGUAGE;
}

/** The address without its language prefix: /lg/blog → /blog, /lg → /. */
export function pathWithoutLanguage(pathname: string): string {
  const language = languageOfPath(pathname);
  if (language === DEFAULT_LANGUAGE) return pathname;
  const rest = pathname.slice(language.length + 1);
  return rest === '' ? '/' : rest;
}

/** An English site path in a language: (/blog, lg) → /lg/blog, (/, sw) → /sw. Query and fragment are kept. */
export function pathInLanguage(path: string, language: Language): string {
  if (language === DEFAULT_LANGUAGE) return path;
  if (path === '/' || path === '') return `/${language}`;
  if (path.startsWith('/?') || path.startsWith('/#')) return `/${language}${path.slice(1)}`;
  return `/${language}${path}`;
}
