import { readFileSync } from 'node:fs';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import {
  AVAILABILITY,
  APPLICATION_ERRORS,
  APPLICATION_FORM_TEXT,
  APPLICATION_TEXT,
  CONSENT_LABEL,
  SIGN_LANGUAGE_LEVELS,
  VOLUNTEER_SKILLS,
} from '../applications.ts';
import { CATEGORY_LABELS, DEFAULT_CATEGORY_LABEL } from '../categories.ts';
import { COLLECTION_INFO } from '../collections.ts';
import { CONTACT_ERRORS, CONTACT_TEXT } from '../contact.ts';
import { accessFeatures, EVENT_TEXT, formatEventWhen } from '../events.ts';
import { NEWSLETTER_MESSAGES, SUBSCRIPTION_PAGE_TEXT } from '../newsletter.ts';
import { SAVE_DATA_TEXTS } from '../save-data.ts';
import { SERVICE_NOT_FOUND, SERVICES_ERROR } from '../services.ts';
import { VIDEO_TEXTS, localiseVideoMarkup } from '../video.ts';
import { EN, type MessageId } from './en.ts';
import { formatDateIn, intlFor, keyOfEnglish, setStaffTexts, translateEnglish, translator } from './i18n.tsx';
import { LG } from './lg.ts';
import { SW } from './sw.ts';

// Issue 26 item 2: the Luganda and Swahili catalogues against the English source, and the English
// texts other modules word (form answers, field errors, labels) that pages show by their English text.

const ids = Object.keys(EN) as MessageId[];

/** The names of a message's arguments, and whether it uses plural forms, from its ICU syntax tree. */
function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.argument || element.type === TYPE.number || element.type === TYPE.date) names.add(element.value);
      if (element.type === TYPE.plural || element.type === TYPE.select) {
        names.add(`${element.value}:${element.type === TYPE.plural ? 'plural' : 'select'}`);
        for (const option of Object.values(element.options)) walk(option.value);
      }
      if (element.type === TYPE.tag) walk(element.children);
    }
  };
  walk(parse(message));
  return [...names].sort();
}

/** Every string in a nested object of texts (functions and numbers left out). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

describe('the Luganda and Swahili catalogues', () => {
  for (const [name, catalogue] of [
    ['Luganda', LG],
    ['Swahili', SW],
  ] as const) {
    it(`${name} gives every key the English source has, and no other`, () => {
      expect(Object.keys(catalogue).sort()).toEqual([...ids].sort());
    });

    it(`${name} uses only the English message's placeholders and keeps its plural forms`, () => {
      // A translation may leave out a word the English names ("{many} found" reads "Ebizuuliddwa: #"
      // in Luganda, whose nouns agree in class), but never invents one or drops a plural.
      const wrong = ids.filter((id) => {
        const source = argumentsOf(EN[id]);
        const translated = argumentsOf(catalogue[id]);
        return (
          translated.some((arg) => !source.includes(arg)) ||
          source.filter((arg) => arg.endsWith(':plural')).some((arg) => !translated.includes(arg))
        );
      });
      expect(wrong).toEqual([]);
    });

    it(`${name} translates: no message of four letters or more is left as the English one`, () => {
      // Words that are the same in each language: names of brands and the language's own tokens.
      const same = new Set<MessageId>(['about.onLinkedIn']);
      const untranslated = ids.filter((id) => !same.has(id) && /\p{L}{4}/u.test(EN[id]) && catalogue[id] === EN[id]);
      expect(untranslated).toEqual([]);
    });
  }

  it('formats plurals by each language’s rules', () => {
    expect(translator('en')('events.placesLeft', { count: 1 })).toBe('1 place left');
    expect(translator('en')('events.placesLeft', { count: 3 })).toBe('3 places left');
    expect(translator('sw')('events.placesLeft', { count: 1 })).toBe('Imebaki nafasi 1');
    expect(translator('lg')('events.placesLeft', { count: 3 })).toBe('Ebifo 3 bisigaddeyo');
    expect(translator('en')('contact.privacyNotice', { months: 1 })).toBe(
      'We use your message only to answer you, and delete it after 1 month.',
    );
  });

  it('writes dates with each language’s month names (spec §9 US English stays on English pages)', () => {
    expect(formatDateIn('en', '2026-03-05T10:00:00Z')).toBe('March 5, 2026');
    expect(formatDateIn('sw', '2026-03-05T10:00:00Z')).toBe('5 Machi 2026');
    expect(formatDateIn('lg', '2026-03-05T10:00:00Z')).toContain('Marisi');
    expect(formatEventWhen('2026-03-05T07:00:00Z', '2026-03-05T09:00:00Z', 'Africa/Kampala', 'sw')).toContain('Alhamisi');
    expect(formatEventWhen('2026-03-05T07:00:00Z', '2026-03-05T09:00:00Z', 'Africa/Kampala')).toBe(
      'Thursday, March 5, 2026, 10:00–12:00 (East Africa Time)',
    );
  });
});

describe('texts worded in English elsewhere, shown by their English text', () => {
  // Form answers and field errors come from the server in English (the spec's words); the page shows
  // the catalogue's translation of the key whose English text they are. A text missing here would
  // stay English under /lg and /sw.
  const shown: Record<string, unknown> = {
    CONTACT_TEXT,
    CONTACT_ERRORS,
    APPLICATION_TEXT,
    APPLICATION_FORM_TEXT,
    APPLICATION_ERRORS,
    CONSENT_LABEL,
    SIGN_LANGUAGE_LEVELS: SIGN_LANGUAGE_LEVELS.map(([, label]) => label),
    VOLUNTEER_SKILLS: VOLUNTEER_SKILLS.map(([, label]) => label),
    AVAILABILITY: AVAILABILITY.map(([, label]) => label),
    EVENT_TEXT_PUBLIC: Object.entries(EVENT_TEXT)
      .filter(([key]) =>
        /^(register|sending|failed|invalid|rateLimited|automated|tooLarge|closed|name|email|phone|contact|access|confirmed|waiting|cancel|notFound)/.test(
          key,
        ),
      )
      .map(([, value]) => value),
    access: accessFeatures({ signLanguage: true, captioning: true, stepFree: true }),
    NEWSLETTER_MESSAGES,
    SUBSCRIPTION_PAGE_TEXT,
    CATEGORY_LABELS,
    DEFAULT_CATEGORY_LABEL,
    sections: Object.values(COLLECTION_INFO).map((info) => info.label),
    SERVICES_ERROR,
    SERVICE_NOT_FOUND,
    VIDEO_TEXTS,
    SAVE_DATA_TEXTS,
  };
  for (const [name, value] of Object.entries(shown)) {
    it(`${name}: every text has a catalogue key`, () => {
      const missing = stringsOf(value).filter((text) => keyOfEnglish(text) === undefined);
      expect(missing).toEqual([]);
    });
  }

  it('shows a field error in the page’s language and leaves unknown text as it came', () => {
    expect(translateEnglish('sw', CONTACT_ERRORS.email.invalid)).toBe(SW['contact.error.emailInvalid']);
    expect(translateEnglish('lg', CONTACT_TEXT.failed)).toBe(LG['contact.failed']);
    expect(translateEnglish('en', CONTACT_TEXT.failed)).toBe(CONTACT_TEXT.failed);
    expect(translateEnglish('lg', 'Some words from content')).toBe('Some words from content');
  });

  it('words a video’s player in the page’s language and marks its transcript English', () => {
    const markup = {
      link: `<a href="#v"><span aria-hidden="true">▶</span> ${VIDEO_TEXTS.watch} <span>(2 min · 4.1 MB)</span></a>`,
      player: `<summary class="x">${VIDEO_TEXTS.transcript}</summary><div class="mt-3 space-y-3 leading-relaxed"><p>Hello</p></div><legend class="y">${VIDEO_TEXTS.quality}</legend><label>${VIDEO_TEXTS.smaller} (240p, 1 MB)</label>`,
    };
    const sw = localiseVideoMarkup(markup, (text) => translateEnglish('sw', text), 'en');
    expect(sw.link).toContain(SW['video.watch']);
    expect(sw.player).toContain(`>${SW['video.transcript']}</summary>`);
    expect(sw.player).toContain(`>${SW['video.quality']}</legend>`);
    expect(sw.player).toContain(`>${SW['video.smaller']} (240p`);
    expect(sw.player).toContain('<div lang="en" class="mt-3 space-y-3 leading-relaxed"><p>Hello</p>');
    expect(localiseVideoMarkup(markup, (text) => translateEnglish('en', text), undefined)).toEqual(markup);
  });
});

describe('the service worker’s offline page', () => {
  it('carries the catalogues’ offline words of each language (it imports nothing, so it holds a copy)', () => {
    const script = readFileSync(new URL('../../client/service-worker.ts', import.meta.url), 'utf8');
    const offline = ids.filter((id) => id.startsWith('offline.'));
    expect(offline.length).toBe(5);
    const quoted = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
    const missing = [EN, LG, SW].flatMap((catalogue) => offline.filter((id) => !script.includes(quoted(catalogue[id]))));
    expect(missing).toEqual([]);
  });
});

describe('the translator’s kept texts (issue 29)', () => {
  it('answers every key in every language as @formatjs/intl does, with and without values, again and again', () => {
    const differ: string[] = [];
    for (const language of ['en', 'lg', 'sw'] as const) {
      const t = translator(language);
      const intl = intlFor(language);
      for (const id of ids) {
        const names = argumentsOf(EN[id]).map((name) => name.split(':')[0]!);
        const samples = names.length
          ? [1, 5].map((n) =>
              Object.fromEntries(names.map((name) => [name, name === 'count' || name === 'months' ? n : `${name}${n}`])),
            )
          : [undefined];
        for (const values of samples) {
          const expected = intl.formatMessage({ id, defaultMessage: EN[id] }, values);
          if (t(id, values) !== expected || t(id, values) !== expected) differ.push(`${language} ${id}`);
        }
      }
    }
    expect(differ).toEqual([]);
  });

  it('forgets what it kept when staff correct a language’s texts', () => {
    const before = translator('sw')('nav.home');
    setStaffTexts('sw', { 'nav.home': 'Ukurasa wa kwanza' });
    expect(translator('sw')('nav.home')).toBe('Ukurasa wa kwanza');
    setStaffTexts('sw', {});
    expect(translator('sw')('nav.home')).toBe(before);
  });
});
