import { describe, expect, it } from 'vitest';
import {
  EASY_READ_MAX_CHARS,
  EASY_READ_MAX_WORDS,
  EASY_READ_MESSAGES,
  EASY_READ_TARGET,
  easyReadBlocks,
  easyReadProblem,
  fleschVerdict,
  readabilityOf,
  readabilitySummary,
  sentencesOf,
} from './easy-read';
import { easyReadSchema } from './easy-read-schema';
import { contentSchema, draftSchema } from './content-form';
import { serviceSchema } from './service-schema';

const words = (n: number) => Array.from({ length: n }, () => 'word').join(' ');

describe('the easy read word cap', () => {
  it('takes 400 words and refuses 401 with a message that counts them', () => {
    expect(EASY_READ_MAX_WORDS).toBe(400);
    expect(easyReadProblem(words(400))).toBeUndefined();
    expect(easyReadProblem(words(401))).toBe(EASY_READ_MESSAGES.tooManyWords(401));
    expect(EASY_READ_MESSAGES.tooManyWords(401)).toBe(
      'Easy read must be at most 400 words. It has 401 words now: please shorten it.',
    );
  });

  it('refuses an oversized text before counting it', () => {
    expect(easyReadProblem('a'.repeat(EASY_READ_MAX_CHARS + 1))).toBe(EASY_READ_MESSAGES.tooLong);
    expect(easyReadProblem('a'.repeat(EASY_READ_MAX_CHARS))).toBeUndefined();
  });

  it('is checked by the content form for drafts and publishing, and by the service form', () => {
    const story = { title: 'T', category: 'education', summary: 'S', content: `<p>${'x'.repeat(60)}</p>` };
    for (const schema of [contentSchema('news'), draftSchema('news')]) {
      const refused = schema.safeParse({ ...story, easyRead: words(450) });
      expect(refused.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
        ['easyRead', EASY_READ_MESSAGES.tooManyWords(450)],
      ]);
      expect(schema.parse({ ...story, easyRead: ' One.\r\nTwo. ' }).easyRead).toBe('One.\nTwo.');
      expect(schema.parse(story).easyRead).toBe('');
    }
    const service = serviceSchema.safeParse({ title: 'S', description: 'D', features: '', easyRead: words(401) });
    expect(service.error?.issues.map((i) => i.path.join('.'))).toEqual(['easyRead']);
  });

  it('normalises what it keeps', () => {
    expect(easyReadSchema.parse('\n\n Hello.\r\n\r\n- one\r\n')).toBe('Hello.\n\n- one');
  });
});

describe('easy read blocks', () => {
  it('makes paragraphs of lines and lists of "- " lines, as plain text', () => {
    expect(easyReadBlocks('First line\nsame paragraph.\n\nItems:\n- one\n- <b>two</b>\n\nLast.')).toEqual([
      { kind: 'paragraph', text: 'First line same paragraph.' },
      { kind: 'paragraph', text: 'Items:' },
      { kind: 'list', items: ['one', '<b>two</b>'] },
      { kind: 'paragraph', text: 'Last.' },
    ]);
    expect(easyReadBlocks('  \n ')).toEqual([]);
  });

  it('counts a list item and a paragraph end as the end of a sentence', () => {
    expect(sentencesOf('One. Two! Three?\n\n- four\n- five')).toEqual(['One.', 'Two!', 'Three?', 'four', 'five']);
  });
});

describe('the readability score', () => {
  it('scores plain short sentences high and dense prose low (Flesch reading ease)', () => {
    const easy = readabilityOf('We help Deaf children learn. We teach signs. Come and see us.');
    expect(easy).toMatchObject({ words: 12, sentences: 3, averageSentenceLength: 4 });
    expect(easy.score).toBeGreaterThanOrEqual(EASY_READ_TARGET);
    expect(easy.meetsTarget).toBe(true);
    const hard = readabilityOf(
      'Organisational implementation of comprehensive accessibility considerations necessitates institutional commitment.',
    );
    expect(hard.score).toBeLessThan(30);
    expect(hard).toMatchObject({ verdict: 'Very difficult to read', meetsTarget: false });
  });

  it('gives the known Flesch value for a counted text', () => {
    // 206.835 − 1.015 × (8 / 2) − 84.6 × (8 / 8): every word one syllable, four words a sentence.
    expect(readabilityOf('The cat sat down. The dog ran off.').score).toBe(100);
    // One sentence of 5 words and 9 syllables (teach·ers wel·come ev·ery stu·dent here).
    expect(readabilityOf('Teachers welcome every student here.').score).toBe(Math.round(206.835 - 1.015 * 5 - 84.6 * (9 / 5)));
  });

  it('names the bands in words', () => {
    expect([95, 85, 75, 65, 55, 35, 10].map(fleschVerdict)).toEqual([
      'Very easy to read',
      'Easy to read',
      'Fairly easy to read',
      'Plain English',
      'Fairly difficult to read',
      'Difficult to read',
      'Very difficult to read',
    ]);
  });

  it('gives only counts for Luganda and Swahili', () => {
    const lg = readabilityOf('Tuyamba abaana Bakiggala okuyiga. Tubayigiriza obubonero.', 'lg');
    expect(lg).toEqual({ words: 6, sentences: 2, averageSentenceLength: 3, score: null, verdict: null, meetsTarget: null });
    expect(readabilitySummary(lg)).toBe('6 words, 2 sentences, 3 words per sentence on average');
    expect(readabilityOf('', 'en').score).toBeNull();
  });
});
