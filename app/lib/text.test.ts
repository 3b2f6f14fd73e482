import { describe, expect, it } from 'vitest';
import { countWords, isSpaceCode, readMinutes, readTimeLabel, truncate } from './text';

describe('truncate (spec §9)', () => {
  it('leaves text within the limit as it is, with its spaces tidied', () => {
    expect(truncate('Short title', 60)).toBe('Short title');
    expect(truncate('  Two\n\nlines   here ', 60)).toBe('Two lines here');
    const exactly = 'x'.repeat(120);
    expect(truncate(exactly, 120)).toBe(exactly);
  });

  it('cuts longer text to at most the limit, ending with an ellipsis', () => {
    const summary =
      'Nineteen-year-old Brian Kato tells us what learning looks like when your teacher talks, your interpreter signs, and every single lesson depends on being able to see.';
    for (const max of [60, 80, 120, 140, 250, 280]) {
      const cut = truncate(summary.repeat(3), max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut.endsWith('…')).toBe(true);
    }
  });

  it('cuts at a word boundary when one is near, without trailing punctuation', () => {
    expect(truncate('Learning sign language in Wakiso, together', 30)).toBe('Learning sign language in…');
    expect(truncate('One, two, three, four, five, six', 17)).toBe('One, two, three…');
  });

  it('cuts inside a very long word rather than losing everything', () => {
    expect(truncate('Supercalifragilisticexpialidocious', 10)).toBe('Supercali…');
  });

  it('never splits a character made of two code units', () => {
    const cut = truncate(`${'a'.repeat(8)}😀😀😀`, 10);
    expect(cut).toBe(`${'a'.repeat(8)}…`);
    expect(cut.isWellFormed()).toBe(true);
  });

  it('handles empty text and tiny limits', () => {
    expect(truncate('', 10)).toBe('');
    expect(truncate('Hello world', 1)).toBe('…');
    expect(truncate('Hello world', 0)).toBe('');
  });

  it('gives what tidying every space and cutting the whole text would give, for any text and limit', () => {
    // The rule written out plainly: all spaces tidied first, then the same cut.
    const plainly = (text: string, max: number) => {
      const clean = text.split(/\s+/).filter(Boolean).join(' ');
      if (clean.length <= max) return clean;
      if (max < 1) return '';
      let cut = clean.slice(0, max - 1);
      if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
      const spaceAt = cut.lastIndexOf(' ');
      const base = spaceAt > max * 0.6 ? cut.slice(0, spaceAt) : cut;
      let end = base.length;
      while (end > 0 && ' .,;:!?-'.includes(base[end - 1]!)) end--;
      return `${base.slice(0, end)}…`;
    };
    const pieces = ['a', 'word', 'Kato', ' ', '  ', '\n\n', '\u00a0', '\u3000', '.', ', ', '-', '😀', 'ŋŋ'];
    // A fixed-seed linear congruential generator in 32-bit integers (a product in doubles loses bits).
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
    for (let run = 0; run < 3_000; run++) {
      const text = Array.from({ length: Math.floor(next() * 30) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      const max = Math.floor(next() * 40);
      expect(truncate(text, max), JSON.stringify({ text, max })).toBe(plainly(text, max));
    }
  });
});

describe('readMinutes (spec §9: 200 words per minute, rounded up)', () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

  it('rounds up to whole minutes', () => {
    expect(readMinutes(words(200))).toBe(1);
    expect(readMinutes(words(201))).toBe(2);
    expect(readMinutes(words(400))).toBe(2);
    expect(readMinutes(words(1001))).toBe(6);
  });

  it('counts at least one minute and ignores extra spaces', () => {
    expect(readMinutes('')).toBe(1);
    expect(readMinutes('   \n\t ')).toBe(1);
    expect(readMinutes(`  ${words(300).replace(/ /g, ' \n\n ')}  `)).toBe(2);
  });

  it('labels the time as "N min read"', () => {
    expect(readTimeLabel(words(450))).toBe('3 min read');
  });
});

describe('the text helpers read every character once', () => {
  it('treats as spaces exactly what \\s does', () => {
    for (let code = 0; code <= 0xffff; code++) {
      expect(isSpaceCode(code), code.toString(16)).toBe(/\s/.test(String.fromCharCode(code)));
    }
  });

  it('counts words as runs of characters between spaces', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('  one\u00a0two\n\nthree  ')).toBe(3);
  });

  it('truncates text made of long runs of spaces and punctuation without slowing down', () => {
    const start = performance.now();
    expect(truncate(`${' '.repeat(500_000)}Hello${'.'.repeat(500_000)}x`, 20)).toBe('Hello…');
    expect(truncate('.'.repeat(1_000_000), 10)).toBe('…');
    expect(performance.now() - start).toBeLessThan(5_000);
  });
});
