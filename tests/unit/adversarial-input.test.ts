import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../support/databases';
import { collectionFromPath, isArticleId, isArticlePathname } from '~/lib/article';
import { safeRedirect, SIGN_IN_MESSAGES, signInSchema } from '~/lib/auth';
import { CONTACT_ERRORS, CONTACT_LIMITS, contactSchema, subjectFromQuery } from '~/lib/contact';
import { CONTENT_MAX_BYTES, CONTENT_MESSAGES, contentSchema, parseTags, textLength } from '~/lib/content-form';
import { newsletterSchema } from '~/lib/newsletter';
import { absoluteUrl } from '~/lib/seo';
import { countWords, readMinutes, truncate } from '~/lib/text';
import { createUserSchema, updateUserSchema, USER_MESSAGES } from '~/lib/users';
import { CAPTIONS_MAX_LINE, CAPTIONS_MESSAGES, checkCaptions, cuePlainText, transcriptFromCues } from '~/lib/webvtt';
import { htmlToText } from '~/server/platform/html.server';
import { sanitizeArticleHtml, storedBody } from '~/server/platform/sanitize.server';
import { searchTerms } from '~/server/content/search.server';
import { fileStem, safeFileName, storeImage } from '~/server/media/storage.server';

// Every validator and sanitiser that user input reaches, fed a megabyte of the input that makes a
// careless parser or pattern quadratic (docs/decisions/202-article-html-sanitising.md). Each call
// runs on ever larger inputs and must finish each within a bound far above what a linear pass
// needs; the quadratic textLength this replaced took 9 s on 60,000 `<` and fails at the first size.

const MB = 1_000_000;
/** Sizes each input is tried at, smallest first, so quadratic code fails in seconds, not hours. */
const SIZES = [31_250, 125_000, 500_000, MB];
/**
 * A bound for plain validators: a linear pass over a megabyte takes tens of milliseconds, so this
 * holds even on a machine busy with other test suites, while the old textLength took 8 s on
 * 125,000 `<` and, quadratic, over two minutes on 500,000.
 */
const VALIDATOR_MS = 10_000;
/** A bound for the HTML sanitiser, which parses the whole body (under a second a megabyte). */
const SANITISER_MS = 30_000;

/** `unit` repeated and cut to exactly `size` characters. */
const fill = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
/** `unit` repeated whole as often as fits in `size` characters. */
const times = (unit: string, size: number) => unit.repeat(Math.floor(size / unit.length));

interface Adversary {
  name: string;
  make: (size: number) => string;
  /** The readable length `textLength` must give for `input`, when it is simple to say. */
  text?: (input: string) => number;
  /** What the content form says about a body made at CONTENT_MAX_BYTES (undefined: accepted). */
  verdict: string | undefined;
}

const all = (input: string) => input.length;
const none = () => 0;

const ADVERSARIES: Adversary[] = [
  { name: '"<" repeated', make: (n) => fill('<', n), text: all, verdict: undefined },
  { name: '"<a" repeated', make: (n) => fill('<a', n), text: all, verdict: undefined },
  { name: '"<a " repeated', make: (n) => times('<a ', n), text: (input) => input.length - 1, verdict: undefined },
  { name: '"<a href=" repeated', make: (n) => fill('<a href="', n), verdict: undefined },
  {
    name: '<b> nested 100,000 deep (a tenth of the size each time)',
    make: (n) => `${'<b>'.repeat(Math.round(n / 10))}x`,
    text: () => 1,
    verdict: CONTENT_MESSAGES.contentTooShort,
  },
  {
    name: '<b> nested to the full size',
    make: (n) => `${times('<b>', n - 1)}x`,
    text: () => 1,
    verdict: CONTENT_MESSAGES.contentTooShort,
  },
  { name: '<b> nested, with words', make: (n) => times('<b>word ', n), verdict: CONTENT_MESSAGES.contentTooDeep },
  { name: '<span style> nested', make: (n) => times('<span style="color:red">x ', n), verdict: CONTENT_MESSAGES.contentTooDeep },
  { name: '<svg> nested', make: (n) => times('<svg>', n), text: none, verdict: CONTENT_MESSAGES.contentRequired },
  { name: '<p> never closed', make: (n) => times('<p>para ', n), verdict: undefined },
  { name: '<li> never closed', make: (n) => `<ul>${times('<li>item ', n - 4)}`, verdict: undefined },
  { name: '"</" repeated', make: (n) => fill('</', n), text: all, verdict: undefined },
  { name: '"<!--" repeated', make: (n) => fill('<!--', n), text: all, verdict: undefined },
  { name: '<script> repeated', make: (n) => times('<script>', n), text: none, verdict: CONTENT_MESSAGES.contentRequired },
  { name: 'one letter', make: (n) => fill('a', n), text: all, verdict: undefined },
  { name: 'spaces', make: (n) => fill(' ', n), text: none, verdict: CONTENT_MESSAGES.contentRequired },
  { name: 'ASCII white space', make: (n) => fill(' \t\n\r\f\v', n), text: none, verdict: CONTENT_MESSAGES.contentRequired },
  // Three bytes a character for most of these, so a megabyte of them is over the limit.
  {
    name: 'Unicode white space',
    make: (n) => fill('\u00a0\u2028\u3000\ufeff', n),
    text: none,
    verdict: CONTENT_MESSAGES.contentTooLong,
  },
  { name: '"&" and letters with no ";"', make: (n) => `&${fill('a', n - 1)}`, text: all, verdict: undefined },
  { name: '"&amp" repeated with no ";"', make: (n) => fill('&amp', n), text: all, verdict: undefined },
  { name: '"&#" and digits with no ";"', make: (n) => `&#${fill('1', n - 2)}`, text: all, verdict: undefined },
  { name: '"&nbsp;" repeated', make: (n) => times('&nbsp;', n), text: none, verdict: CONTENT_MESSAGES.contentRequired },
  { name: '"&" repeated', make: (n) => fill('&', n), text: all, verdict: undefined },
  { name: 'quotes inside a tag', make: (n) => `<a title="${fill('"', n - 10)}`, text: all, verdict: undefined },
  { name: 'attributes without end', make: (n) => `<p ${fill('a=b ', n - 3)}`, verdict: undefined },
  { name: 'slashes', make: (n) => fill('/', n), text: all, verdict: undefined },
  { name: 'dots and commas', make: (n) => fill('.,', n), text: all, verdict: undefined },
  { name: 'emoji', make: (n) => fill('😀', n), verdict: CONTENT_MESSAGES.contentTooLong },
];

/** Calls `call` on `make(size)` for each size, failing at the first call slower than `boundMs`. */
function expectBounded<T>(
  boundMs: number,
  make: (size: number) => string,
  call: (input: string) => T,
  check: (result: T, size: number, input: string) => void = () => undefined,
) {
  for (const size of SIZES) {
    const input = make(size);
    const start = performance.now();
    const result = call(input);
    const took = performance.now() - start;
    expect(took, `${size.toLocaleString('en')} characters took ${Math.round(took)} ms`).toBeLessThan(boundMs);
    check(result, size, input);
  }
}

const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

describe('textLength of adversarial bodies', () => {
  it.each(ADVERSARIES)('measures $name in linear time', { timeout: 120_000 }, ({ make, text }) => {
    expectBounded(VALIDATOR_MS, make, textLength, (length, _size, input) => {
      if (text) expect(length).toBe(text(input));
    });
  });
});

describe.each(['news', 'blogs'] as const)('the %s content form with adversarial input', (type) => {
  const form = (fields: Record<string, string>) => ({
    title: 'A title',
    category: type === 'news' ? 'advocacy' : 'technology',
    tags: 'one, two',
    summary: 'A summary.',
    content: `<p>${'A sentence of the story. '.repeat(4)}</p>`,
    imageUrl: '',
    imageAlt: '',
    ...fields,
  });

  it.each(ADVERSARIES)(
    'answers a body of $name in linear time, with the right message',
    { timeout: 120_000 },
    ({ make, verdict }) => {
      const schema = contentSchema(type);
      expectBounded(
        VALIDATOR_MS,
        make,
        (content) => schema.safeParse(form({ content })),
        (result, size) => {
          if (size !== MB) return;
          expect(issues(result)).toEqual(verdict ? [`content: ${verdict}`] : []);
        },
      );
    },
  );

  it.each(ADVERSARIES)(
    'refuses one byte over the limit of $name as too long, without parsing it',
    { timeout: 120_000 },
    ({ make }) => {
      const schema = contentSchema(type);
      const base = make(CONTENT_MAX_BYTES);
      const body = base + 'x'.repeat(Math.max(1, CONTENT_MAX_BYTES + 1 - base.length));
      const start = performance.now();
      const result = schema.safeParse(form({ content: body }));
      expect(performance.now() - start).toBeLessThan(VALIDATOR_MS);
      expect(issues(result)).toEqual([`content: ${CONTENT_MESSAGES.contentTooLong}`]);
    },
  );

  it('refuses a body of several megabytes at once', () => {
    const start = performance.now();
    const result = contentSchema(type).safeParse(form({ content: fill('<', 6 * MB) }));
    expect(performance.now() - start).toBeLessThan(VALIDATOR_MS);
    expect(issues(result)).toEqual([`content: ${CONTENT_MESSAGES.contentTooLong}`]);
  });

  it.each([
    ['title', CONTENT_MESSAGES.titleTooLong],
    ['summary', type === 'news' ? CONTENT_MESSAGES.summaryTooLong : CONTENT_MESSAGES.excerptTooLong],
    ['imageAlt', CONTENT_MESSAGES.altTooLong],
    ['imageUrl', CONTENT_MESSAGES.imageInvalid],
    ['category', CONTENT_MESSAGES.categoryInvalid],
    ['tags', CONTENT_MESSAGES.tagsTooLong],
  ])('refuses a megabyte in %s, quickly', { timeout: 120_000 }, (field, message) => {
    for (const unit of ['a', ' a', ',', 'a,', '/media/news/a.', '<a ', '&']) {
      expectBounded(
        VALIDATOR_MS,
        (n) => fill(unit, n),
        (value) => contentSchema(type).safeParse(form({ [field]: value })),
        (result, size) => {
          if (size === MB) expect(issues(result)).toContain(`${field}: ${message}`);
        },
      );
    }
  });
});

describe('parseTags with adversarial input', () => {
  it.each([
    [',', () => []],
    ['a,', () => ['a']],
    [' ', () => []],
    ['a', (n: number) => ['a'.repeat(n)]],
    ['a \t', (n: number) => [fill('a \t', n).trim().replace(/\s+/g, ' ')]],
  ] as const)('splits a megabyte of %j in linear time', { timeout: 120_000 }, (unit, expected) => {
    expectBounded(
      VALIDATOR_MS,
      (n) => fill(unit, n),
      parseTags,
      (tags, size) => expect(tags).toEqual(expected(size)),
    );
  });
});

describe('the contact, sign-in, newsletter and user forms with adversarial input', () => {
  const EMAILS = ['a', 'a.', '@', 'a@', '.@', 'a-', '<a ', ' '];

  it("refuses a megabyte in every contact field with that field's message", { timeout: 240_000 }, () => {
    const valid = { name: 'Grace', email: 'grace@example.org', phone: '+256 700 000000', subject: 'Hello', message: 'Hi.' };
    for (const field of ['name', 'email', 'phone', 'subject', 'message'] as const) {
      for (const unit of [...EMAILS, '1 ', '+(']) {
        expectBounded(
          VALIDATOR_MS,
          (n) => fill(unit, n),
          (value) => contactSchema.safeParse({ ...valid, [field]: value }),
          (result, size) => {
            if (size !== MB) return;
            // Spaces are trimmed away: an empty field (and an empty phone is allowed).
            const expected =
              unit !== ' ' ? CONTACT_ERRORS[field].tooLong : field === 'phone' ? undefined : CONTACT_ERRORS[field].required;
            expect(issues(result)[0], `${field} of ${JSON.stringify(unit)}`).toBe(expected && `${field}: ${expected}`);
          },
        );
      }
    }
  });

  it("cuts a subject from the address to the field's length, quickly", { timeout: 120_000 }, () => {
    for (const unit of [' ', '\u0000', '\u200b', 'a']) {
      expectBounded(
        VALIDATOR_MS,
        (n) => fill(unit, n),
        subjectFromQuery,
        (subject) => expect(subject.length).toBeLessThanOrEqual(CONTACT_LIMITS.subject),
      );
    }
  });

  it('refuses a megabyte of email or password at sign-in with its message', { timeout: 240_000 }, () => {
    for (const unit of EMAILS) {
      expectBounded(
        VALIDATOR_MS,
        (n) => fill(unit, n),
        (email) => signInSchema.safeParse({ email, password: 'secret-enough' }),
        (result, size) => {
          if (size === MB)
            expect(issues(result)).toEqual([
              `email: ${unit === ' ' ? SIGN_IN_MESSAGES.emailRequired : SIGN_IN_MESSAGES.emailInvalid}`,
            ]);
        },
      );
      expectBounded(
        VALIDATOR_MS,
        (n) => fill(unit, n),
        (password) => signInSchema.safeParse({ email: 'a@example.org', password }),
        (result, size) => {
          if (size === MB) expect(issues(result)).toEqual([`password: ${SIGN_IN_MESSAGES.invalidCredentials}`]);
        },
      );
      expectBounded(
        VALIDATOR_MS,
        (n) => fill(unit, n),
        (email) => newsletterSchema.safeParse({ email }),
        (result, size) => {
          if (size === MB) expect(result.success).toBe(false);
        },
      );
    }
    expectBounded(
      VALIDATOR_MS,
      (n) => fill('/', n),
      (to) => safeRedirect(`/admin${to}`, '/admin'),
      (to, size) => expect(to.length).toBe(size + 6),
    );
  });

  it('refuses a megabyte in every field of the user forms with its message', { timeout: 240_000 }, () => {
    const valid = {
      name: 'Grace',
      email: 'grace@example.org',
      role: 'AUTHOR',
      bio: '',
      profilePicture: '',
      password: 'long-enough-1',
    };
    const expected: Record<string, string> = {
      name: USER_MESSAGES.nameTooLong,
      email: USER_MESSAGES.invalidEmail,
      bio: USER_MESSAGES.bioTooLong,
      profilePicture: 'Please upload the picture again.',
      password: USER_MESSAGES.commonPassword,
    };
    for (const [field, message] of Object.entries(expected)) {
      for (const unit of ['a', 'a.', '/media/profiles/a.', '@']) {
        expectBounded(
          VALIDATOR_MS,
          (n) => fill(unit, n),
          (value) => createUserSchema.safeParse({ ...valid, [field]: value }),
          (result, size) => {
            if (size === MB) expect(issues(result)).toContain(`${field}: ${message}`);
          },
        );
        if (field === 'password' || field === 'email') continue;
        expectBounded(
          VALIDATOR_MS,
          (n) => fill(unit, n),
          (value) => updateUserSchema.safeParse({ ...valid, [field]: value }),
          (result, size) => {
            if (size === MB) expect(issues(result)).toContain(`${field}: ${message}`);
          },
        );
      }
    }
  });
});

describe('search terms, paths, ids and text helpers with adversarial input', () => {
  it.each(['a', 'a ', '<', '"', '*', 'ａ', '\u0301', 'word1 word2 word3 word4 word5 word6 word7 word8 word9 '])(
    'makes at most 8 short terms of a megabyte of %j',
    { timeout: 120_000 },
    (unit) => {
      expectBounded(
        VALIDATOR_MS,
        (n) => fill(unit, n),
        searchTerms,
        (terms) => {
          expect(terms.length).toBeLessThanOrEqual(8);
          for (const term of terms) expect(term).toMatch(/^[\p{L}\p{N}]{1,400}$/u);
        },
      );
    },
  );

  it('reads a collection from a path of a megabyte of slashes', { timeout: 120_000 }, () => {
    expectBounded(
      VALIDATOR_MS,
      (n) => `/news${fill('/', n)}x`,
      collectionFromPath,
      (collection) => expect(collection).toBe('news'),
    );
    expectBounded(
      VALIDATOR_MS,
      (n) => `${fill('/', n)}x`,
      collectionFromPath,
      (collection) => expect(collection).toBe('blogs'),
    );
    expectBounded(
      VALIDATOR_MS,
      (n) => `/blog/${fill('a', n)}`,
      isArticlePathname,
      (yes) => expect(yes).toBe(true),
    );
    expectBounded(
      VALIDATOR_MS,
      (n) => `/blog/${fill('a/', n)}`,
      isArticlePathname,
      (yes) => expect(yes).toBe(false),
    );
    expectBounded(
      VALIDATOR_MS,
      (n) => fill('a', n),
      isArticleId,
      (yes) => expect(yes).toBe(false),
    );
    expectBounded(
      VALIDATOR_MS,
      (n) => fill('/', n),
      (path) => absoluteUrl(undefined, path),
      (url, size) => expect(url).toHaveLength(size),
    );
  });

  it.each([' ', '.', '.,;:!?- ', 'a ', '\n\n', 'word. '])(
    'truncates and counts a megabyte of %j',
    { timeout: 120_000 },
    (unit) => {
      expectBounded(
        VALIDATOR_MS,
        (n) => `${fill(unit, n)}x`,
        (text) => truncate(text, 120),
        (cut) => {
          expect(cut.length).toBeLessThanOrEqual(120);
        },
      );
      expectBounded(
        VALIDATOR_MS,
        (n) => fill(unit, n),
        (text) => [countWords(text), readMinutes(text)] as const,
        ([words, minutes]) => {
          expect(minutes).toBe(Math.max(1, Math.ceil(words / 200)));
        },
      );
    },
  );
});

describe('captions (WebVTT) with adversarial input', () => {
  /** What a captions file's characters make a careless parser do: tags, timings, settings, entities, line ends. */
  const UNITS = [
    '<',
    '<a ',
    '<v ',
    '<<>',
    '</',
    '<00:00:01.000>',
    '-->',
    '00:00.000 --> ',
    '1',
    '1:',
    ' \t',
    '&amp',
    '&',
    '\r',
    '\n',
    '\r\n',
    '\n\n',
  ];
  const HEADER = 'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n';
  /** The server's whole pass over posted captions: the check, then the transcript made from them. */
  const checkAndTranscribe = (file: string) => {
    const check = checkCaptions(file);
    return { check, transcript: check.ok ? transcriptFromCues(check.cues) : undefined };
  };

  it.each(UNITS)('takes the tags out of a megabyte of %j in linear time', { timeout: 240_000 }, (unit) => {
    expectBounded(
      VALIDATOR_MS,
      (n) => fill(unit, n),
      cuePlainText,
      (text, _size, input) => {
        expect(text.length).toBeLessThanOrEqual(input.length);
      },
    );
  });

  it.each(UNITS)('checks a cue of a megabyte of %j in linear time, naming a line too long', { timeout: 240_000 }, (unit) => {
    expectBounded(
      VALIDATOR_MS,
      (n) => HEADER + fill(unit, n),
      checkAndTranscribe,
      ({ check }) => {
        if (!unit.includes('\n') && !unit.includes('\r'))
          expect(check.ok ? [] : check.problems).toContainEqual({ line: 4, reason: CAPTIONS_MESSAGES.lineTooLong });
      },
    );
  });

  it.each(UNITS)(
    'checks a megabyte of %j in lines of the longest length allowed, in linear time',
    { timeout: 240_000 },
    (unit) => {
      const line = fill(unit.replace(/[\r\n]/g, '') || '<', CAPTIONS_MAX_LINE);
      expectBounded(
        VALIDATOR_MS,
        (n) => HEADER + times(`${line}\n`, n),
        checkAndTranscribe,
        ({ check }) => {
          if (!check.ok) expect(check.problems.map((p) => p.reason)).not.toContain(CAPTIONS_MESSAGES.lineTooLong);
        },
      );
    },
  );
});

describe('sanitising article bodies with adversarial input', () => {
  it.each(ADVERSARIES)('sanitises $name in linear time, to safe HTML', { timeout: 240_000 }, ({ make }) => {
    expectBounded(SANITISER_MS, make, sanitizeArticleHtml, (html) => {
      expect(html).not.toMatch(/<(script|svg|iframe|img)\b|\son\w+=|javascript:/i);
    });
  });

  it.each(ADVERSARIES)('derives the text of $name in linear time', { timeout: 240_000 }, ({ make }) => {
    expectBounded(SANITISER_MS, make, htmlToText, (text) => expect(text).not.toMatch(/<(script|svg|b)>/));
  });

  it('stores a megabyte of deeply nested markup as its text, in linear time', { timeout: 120_000 }, () => {
    expectBounded(
      SANITISER_MS,
      (n) => `${times('<blockquote>', n - 20)}Only the words`,
      storedBody,
      (body) => {
        expect(body.content).toMatch(/^<p>[\s]*Only the words<\/p>$/);
        expect(body.search_text).toBe('Only the words');
      },
    );
  });
});

describe('file names with adversarial input', () => {
  it.each(['.', 'a.', '/', '\\', '..', ' ', 'é', '\u0000', '<a '])(
    'makes a safe short name of a megabyte of %j',
    { timeout: 120_000 },
    (unit) => {
      expectBounded(
        VALIDATOR_MS,
        (n) => fill(unit, n),
        (name) => safeFileName(fileStem(name).slice(0, 80)),
        (safe) => {
          expect(safe).toMatch(/^[A-Za-z0-9._-]{0,80}$/);
        },
      );
    },
  );
});

describe.each(ENGINES)('storing an upload with an adversarial name on %s', (engine) => {
  const database = useTestDatabase(engine, { uploads: true });
  let png: Buffer;
  beforeAll(async () => {
    png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
  });

  it('keeps a safe, short stored name whatever the original name was', { timeout: 240_000 }, async () => {
    for (const unit of ['.', 'a.', '../', 'é ']) {
      const stored = await storeImage(database().db, {
        folder: 'news',
        originalName: `${fill(unit, MB)}.png`,
        bytes: png,
        responsive: false,
      });
      expect(stored.url).toMatch(/^\/media\/news\/[0-9a-f]{32}_[A-Za-z0-9._-]{1,80}\.webp$/);
    }
  });
});
