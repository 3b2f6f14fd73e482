import { describe, expect, it } from 'vitest';
import {
  CONTENT_MAX_BYTES,
  CONTENT_MAX_NESTING,
  CONTENT_MESSAGES,
  contentProblem,
  isContentTooLong,
  measureHtml,
  textLength,
  utf8Length,
} from './content-form';

/** What textLength meant when it was chained patterns; fine for the short strings below only. */
function textLengthByPatterns(html: string): number {
  return (
    html
      // eslint-disable-next-line regexp/no-super-linear-move -- the definition itself, only ever run on these short strings
      .replace(/<[^>]*>/g, ' ')
      .replace(/&nbsp;|&#160;/g, ' ')
      .replace(/&[a-z]+;|&#\d+;/gi, 'x')
      .replace(/\s+/g, ' ')
      .trim().length
  );
}

describe('textLength', () => {
  it('agrees with the pattern definition on every short mix of the characters that matter', () => {
    const pieces = ['<', '>', '&', ';', '#', '1', '6', '0', 'a', 'n', 'b', 's', 'p', 'A', ' ', '\n', '\u00a0', '\u3000', '/'];
    const pieces2 = ['&nbsp;', '&#160;', '&NBSP;', '&#0160;', '<b>', '</b>', '&amp;', '😀', 'word', '<br/>', '<!-- x -->'];
    // A fixed pseudo-random walk, so a failure names a string that can be replayed.
    let seed = 42;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const alphabet = [...pieces, ...pieces2];
    for (let round = 0; round < 20_000; round++) {
      let html = '';
      for (let i = next(16); i > 0; i--) html += alphabet[next(alphabet.length)];
      expect(textLength(html), JSON.stringify(html)).toBe(textLengthByPatterns(html));
    }
  });

  it('counts what a reader sees', () => {
    expect(textLength('<p>Hello <strong>world</strong></p>')).toBe('Hello world'.length);
    expect(textLength('<p>&nbsp;&nbsp;Hi&amp;bye&nbsp;</p>')).toBe('Hi&bye'.length);
    expect(textLength('  <br>  ')).toBe(0);
    expect(textLength('5 < 6')).toBe(5);
  });
});

describe('measureHtml nesting', () => {
  it('counts elements open at once, as the parser keeps them', () => {
    expect(measureHtml('<blockquote><ul><li><p><strong><em>x</em></strong></p></li></ul></blockquote>').nesting).toBe(6);
    expect(measureHtml('<p>a</p><p>b</p><br><img src=x><hr>').nesting).toBe(1);
    // Elements a new start tag ends by itself, and end tags that close what is inside them.
    expect(measureHtml('<ul><li>a<li>b<li>c</ul>').nesting).toBe(2);
    expect(measureHtml('<p>a<p>b<p>c<div>d</div>').nesting).toBe(1);
    expect(measureHtml('<div><b><i><u>x</div><div>y</div>').nesting).toBe(4);
    expect(measureHtml('</b></i><b>x').nesting).toBe(1);
    expect(measureHtml('<B>x</b><b>y</B>').nesting).toBe(1);
  });

  it('finds deep nesting in a big body quickly', () => {
    const start = performance.now();
    expect(measureHtml('<span>'.repeat(150_000)).nesting).toBe(150_000);
    expect(measureHtml(`${'<b>'.repeat(100_000)}${'</i>'.repeat(100_000)}`).nesting).toBe(100_000);
    expect(performance.now() - start).toBeLessThan(5_000);
  });
});

describe('the size of a body', () => {
  it('counts UTF-8 bytes as the encoder does', () => {
    for (const text of ['', 'abc', 'é', '€', '😀', 'a😀b', '\ud800', 'x\udc00y', '\ud800\ud800']) {
      expect(utf8Length(text), JSON.stringify(text)).toBe(new TextEncoder().encode(text).length);
    }
  });

  it('is too long only past CONTENT_MAX_BYTES', () => {
    expect(isContentTooLong('a'.repeat(CONTENT_MAX_BYTES))).toBe(false);
    expect(isContentTooLong('a'.repeat(CONTENT_MAX_BYTES + 1))).toBe(true);
    expect(isContentTooLong('€'.repeat(CONTENT_MAX_BYTES / 4))).toBe(false);
    expect(isContentTooLong('€'.repeat(CONTENT_MAX_BYTES / 2))).toBe(true);
  });
});

describe('contentProblem', () => {
  const words = `<p>${'A sentence of the story. '.repeat(3)}</p>`;

  it('gives the size first, then what the text and the nesting say', () => {
    expect(contentProblem(`${words}${'<'.repeat(CONTENT_MAX_BYTES)}`)).toBe(CONTENT_MESSAGES.contentTooLong);
    expect(contentProblem('<p> </p>')).toBe(CONTENT_MESSAGES.contentRequired);
    expect(contentProblem('<p>Too short</p>')).toBe(CONTENT_MESSAGES.contentTooShort);
    // The paragraph inside is one level more.
    expect(contentProblem(`${'<span>'.repeat(CONTENT_MAX_NESTING - 1)}${words}`)).toBeUndefined();
    expect(contentProblem(`${'<span>'.repeat(CONTENT_MAX_NESTING)}${words}`)).toBe(CONTENT_MESSAGES.contentTooDeep);
    expect(contentProblem(words)).toBeUndefined();
  });
});
