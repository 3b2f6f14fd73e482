import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { createContext, useContext, type ReactNode } from 'react';
import { DEFAULT_LANGUAGE, pathInLanguage, type Language } from '../languages.ts';
import { formatDate } from '../format.ts';
import { EN, type Catalogue, type MessageId } from './en.ts';
import { LG } from './lg.ts';
import { SW } from './sw.ts';

// Issue 26: the interface's words in the reader's language, formatted by @formatjs/intl (ICU
// MessageFormat; plural rules, numbers and dates from the runtime's Intl). Public pages are rendered on
// the server only (decision 025), so the words are chosen there and the browser runs no i18n code.

export const CATALOGUES: Readonly<Record<Language, Catalogue>> = { en: EN, lg: LG, sw: SW };

const cache = createIntlCache();
const intls = new Map<Language, IntlShape<string>>();
/** Issue 26 item 3: the texts staff corrected (Translations screen), laid over a built-in catalogue. */
const staffTexts = new Map<Language, Readonly<Record<string, string>>>();
/** Counts the changes of any language's staff texts (textsGeneration). */
let generation = 0;

/**
 * The staff texts of `language` (checked ICU with the English placeholders), set by the server before
 * it renders a page (app/server/site/interface-texts.server.ts); its formatter is made again.
 */
export function setStaffTexts(language: Language, texts: Readonly<Record<string, string>>): void {
  if (staffTexts.get(language) === texts) return;
  generation += 1;
  staffTexts.set(language, texts);
  intls.delete(language);
  translators.delete(language);
}

/**
 * Issue 29: a number that changes whenever the words of any language change, for what is kept
 * rendered in those words (app/lib/kept-fragment.tsx).
 */
export function textsGeneration(): number {
  return generation;
}

/** One formatter per language, made once. A key missing from a catalogue falls back to the English source. */
export function intlFor(language: Language): IntlShape<string> {
  let intl = intls.get(language);
  if (!intl) {
    intl = createIntl(
      {
        locale: language,
        defaultLocale: DEFAULT_LANGUAGE,
        messages: { ...EN, ...CATALOGUES[language], ...staffTexts.get(language) },
        onError: () => {},
      },
      cache,
    );
    intls.set(language, intl);
  }
  return intl;
}

export type Values = Record<string, string | number>;
export type Translate = (id: MessageId, values?: Values) => string;

const translators = new Map<Language, Translate>();

/**
 * The words of `language`, as a function of the message's key; one per language, made again when
 * staff correct its texts. Issue 29: a page asks for about a hundred texts, and @formatjs/intl finds
 * each one's compiled message by serialising its arguments, a tenth of a page's rendering. A text
 * without values is formatted once and kept; one with values keeps its compiled message.
 */
export function translator(language: Language): Translate {
  let translate = translators.get(language);
  if (!translate) {
    const intl = intlFor(language);
    const texts = new Map<MessageId, string>();
    const compiled = new Map<MessageId, { format: (values: Values) => unknown }>();
    const slow = (id: MessageId, values?: Values) => intl.formatMessage({ id, defaultMessage: EN[id] }, values);
    translate = (id, values) => {
      if (!values) {
        let text = texts.get(id);
        if (text === undefined) texts.set(id, (text = slow(id)));
        return text;
      }
      let message = compiled.get(id);
      if (!message) {
        const source = intl.messages[id];
        // A missing or broken text goes the library's way: the English text, or the key.
        if (typeof source !== 'string') return slow(id, values);
        try {
          message = intl.formatters.getMessageFormat(source, intl.locale, intl.formats, { formatters: intl.formatters });
        } catch {
          return slow(id, values);
        }
        compiled.set(id, message);
      }
      try {
        return String(message.format(values));
      } catch {
        return slow(id, values);
      }
    };
    translators.set(language, translate);
  }
  return translate;
}

/**
 * A message cut where its value `name` goes, so that value can be wrapped in markup of its own (a
 * link, an English title marked `lang="en"`): the text before it and the text after it.
 */
export function textAround(t: Translate, id: MessageId, name: string, values: Values = {}): [string, string] {
  const [before = '', after = ''] = t(id, { ...values, [name]: '\u0000' }).split('\u0000');
  return [before, after];
}

/** Each English text of the catalogue and its key, to word a message that reached the page as English. */
const KEY_OF_TEXT: ReadonlyMap<string, MessageId> = new Map(
  (Object.entries(EN) as [MessageId, string][]).map(([id, text]) => [text, id] as const),
);

/** The key whose English text is `text`, if the catalogue has one. */
export function keyOfEnglish(text: string): MessageId | undefined {
  return KEY_OF_TEXT.get(text);
}

/**
 * An English text made elsewhere (a schema's field error, a form's answer: app/lib/*.ts words them in
 * English, the spec's wording) in `language`: the catalogue's translation of the key with that English
 * text; a text the catalogue does not know is shown as it came.
 */
export function translateEnglish(language: Language, text: string): string {
  const id = KEY_OF_TEXT.get(text);
  return id === undefined ? text : translator(language)(id);
}

export interface I18n {
  language: Language;
  t: Translate;
  /** A message that reached the page in English (a field error, a form's answer) in the reader's language. */
  tx: (english: string) => string;
  /** `lang` for English words (content, Site settings) on the page: "en" unless the page is English. */
  english: 'en' | undefined;
  /** A date in the reader's language (long or short month, UTC like lib/format.ts). */
  date: (iso: string, month?: 'long' | 'short') => string;
  /** A number in the reader's language. */
  number: (value: number) => string;
  /** An English site path in the reader's language (links inside a language stay in it). */
  path: (path: string) => string;
}

/** spec §9 dates (US English) on English pages; the reader's language's own order and month names otherwise. */
export function formatDateIn(language: Language, iso: string, month: 'long' | 'short' = 'long'): string {
  if (language === DEFAULT_LANGUAGE) return formatDate(iso, month);
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return intlFor(language).formatDate(date, { year: 'numeric', month, day: 'numeric', timeZone: 'UTC' });
}

const I18nContext = createContext<I18n | null>(null);

export function i18nFor(language: Language): I18n {
  const intl = intlFor(language);
  return {
    language,
    t: translator(language),
    tx: (text) => translateEnglish(language, text),
    english: language === DEFAULT_LANGUAGE ? undefined : 'en',
    date: (iso, month = 'long') => formatDateIn(language, iso, month),
    number: (value) => intl.formatNumber(value),
    path: (p) => pathInLanguage(p, language),
  };
}

export function I18nProvider({ language, children }: { language: Language; children: ReactNode }) {
  return <I18nContext.Provider value={i18nFor(language)}>{children}</I18nContext.Provider>;
}

/** The reader's language and words; English outside a provider (the dashboard, tests). */
export function useI18n(): I18n {
  return useContext(I18nContext) ?? i18nFor(DEFAULT_LANGUAGE);
}

/** The words of a page's meta function: the language of the site the layout read (English without it). */
export function metaTranslator(site: { language?: Language | undefined } | undefined): Translate {
  return translator(site?.language ?? DEFAULT_LANGUAGE);
}
