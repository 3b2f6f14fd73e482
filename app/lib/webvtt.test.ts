import { describe, expect, it } from 'vitest';
import {
  CAPTIONS_MAX_LINE,
  CAPTIONS_MESSAGES,
  captionsMessage,
  captionsMissing,
  checkCaptions,
  checkCaptionsBytes,
  cuePlainText,
  transcriptFromCues,
  type CaptionsCheck,
} from './webvtt';

const problems = (check: CaptionsCheck) => (check.ok ? [] : check.problems);

describe('checking WebVTT captions', () => {
  it('accepts a file with a header, notes, identifiers, settings, hours or none, CRLF and a BOM', () => {
    const file = [
      '\uFEFFWEBVTT - Sign language story',
      'Kind: captions',
      '',
      'NOTE made by hand',
      'over two lines',
      '',
      'intro',
      '00:00:00.500 --> 00:00:02.000 line:0 position:50%',
      '<v Sarah>Welcome to our story.',
      '',
      '00:02.000 --> 00:04.250',
      'Deaf youth &amp; their families',
      'meet every Saturday.',
      '',
    ].join('\r\n');
    const check = checkCaptions(file);
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.cues).toEqual([
      { start: 0.5, end: 2, text: '<v Sarah>Welcome to our story.' },
      { start: 2, end: 4.25, text: 'Deaf youth &amp; their families\nmeet every Saturday.' },
    ]);
    // Stored with plain line ends and without the BOM.
    expect(check.text.startsWith('WEBVTT')).toBe(true);
    expect(check.text).not.toContain('\r');
  });

  it('names the line and the reason of each problem', () => {
    expect(problems(checkCaptions('Hello\n\n00:00:01.000 --> 00:00:02.000\nHi'))).toEqual([
      { line: 1, reason: CAPTIONS_MESSAGES.noHeader },
    ]);
    const bad = checkCaptions(
      [
        'WEBVTT',
        '',
        '00:00:05.000 --> 00:00:03.000',
        'Backwards',
        '',
        '00:00:01,000 --> 00:00:02,000',
        'Commas are SubRip, not WebVTT',
        '',
        '00:00:01.000 --> 00:00:02.000',
        'Earlier than the one above',
        '',
        'an-id',
        '00:00:09.000 --> 00:00:10.000',
        '',
        '00:00:11.000 --> 00:00:12.000',
        'two cues',
        '00:00:12.000 --> 00:00:13.000',
      ].join('\n'),
    );
    expect(problems(bad)).toEqual([
      { line: 3, reason: CAPTIONS_MESSAGES.endBeforeStart },
      { line: 6, reason: CAPTIONS_MESSAGES.badTiming },
      { line: 9, reason: CAPTIONS_MESSAGES.outOfOrder },
      { line: 13, reason: CAPTIONS_MESSAGES.noText },
      { line: 17, reason: CAPTIONS_MESSAGES.arrowInText },
    ]);
    expect(captionsMessage(bad as Extract<CaptionsCheck, { ok: false }>).split('\n')[0]).toBe(
      'Line 3: The caption ends before it starts.',
    );
  });

  it('refuses a file without cues, one that is not UTF-8 text, and one that is too large', () => {
    expect(problems(checkCaptions('WEBVTT\n\nNOTE nothing here\n'))).toEqual([{ line: 0, reason: CAPTIONS_MESSAGES.noCues }]);
    expect(problems(checkCaptionsBytes(new Uint8Array([0x57, 0x45, 0xff, 0xfe])))).toEqual([
      { line: 0, reason: CAPTIONS_MESSAGES.notText },
    ]);
    expect(problems(checkCaptionsBytes(new Uint8Array(600_000)))).toEqual([{ line: 0, reason: CAPTIONS_MESSAGES.tooLarge }]);
    expect(problems(checkCaptionsBytes(new TextEncoder().encode('WEBVTT\n\n00:01.000 --> 00:02.000\nHi')))).toEqual([]);
  });

  it('checks a large file in linear time', () => {
    const cues = Array.from({ length: 5000 }, (_, i) => {
      const s = String(i).padStart(2, '0');
      return `${i}\n00:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000 --> 00:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.500\nCue ${s}`;
    });
    const started = performance.now();
    checkCaptions(`WEBVTT\n\n${cues.join('\n\n')}`);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('the transcript made from captions', () => {
  it('keeps the words in order without markup, once each, with a paragraph after a pause', () => {
    expect(cuePlainText('<v Sarah><i>Hello</i> &amp; <00:00:01.000>welcome&nbsp;all</v>')).toBe('Hello & welcome all');
    const transcript = transcriptFromCues([
      { start: 0, end: 1, text: '<v A>Hello.' },
      { start: 1, end: 2, text: 'Hello.' },
      { start: 2, end: 3, text: 'We meet on Saturdays.' },
      { start: 8, end: 9, text: 'Thank you.' },
    ]);
    expect(transcript).toBe('Hello. We meet on Saturdays.\n\nThank you.');
  });
});

describe('captions written to stall a check', () => {
  const cue = (line: string) => `WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n${line}\n`;

  it('names a line longer than any caption, and accepts the longest real ones', () => {
    // A word-timed export (a timestamp before every word) is the longest a real caption line gets.
    const wordTimed = Array.from({ length: 12 }, (_, i) => `<00:00:0${Math.floor(i / 6)}.${100 + i * 50}><c> word</c>`).join('');
    expect(wordTimed.length).toBeGreaterThan(300);
    expect(problems(checkCaptions(cue(wordTimed)))).toEqual([]);
    expect(problems(checkCaptions(cue('a'.repeat(CAPTIONS_MAX_LINE))))).toEqual([]);
    const tooLong = checkCaptions(cue('<'.repeat(CAPTIONS_MAX_LINE + 1)));
    expect(problems(tooLong)).toEqual([{ line: 4, reason: CAPTIONS_MESSAGES.lineTooLong }]);
    expect(captionsMessage(tooLong as Extract<CaptionsCheck, { ok: false }>)).toMatch(
      /^Line 4: This line is too long \(at most 1,000 characters\)/,
    );
    // Whatever the line: a note, a timing line, the header's own lines.
    expect(problems(checkCaptions(`WEBVTT\nKind: ${'x'.repeat(2_000)}\n\nNOTE ${'y'.repeat(2_000)}\n\n${cue('Hi')}`))).toEqual([
      { line: 2, reason: CAPTIONS_MESSAGES.lineTooLong },
      { line: 4, reason: CAPTIONS_MESSAGES.lineTooLong },
    ]);
  });

  it('takes out tags as WebVTT reads them, a "<" without its ">" on the line kept', () => {
    expect(cuePlainText('3 < 4')).toBe('3 < 4');
    expect(cuePlainText('<v Sam <b>Hi</v>')).toBe('Hi');
    expect(cuePlainText('a < b\n<i>c</i>')).toBe('a < b c');
    expect(cuePlainText('<<<x>y')).toBe('y');
    expect(cuePlainText('&lt;b&gt;kept&lt;/b&gt;')).toBe('<b>kept</b>');
    // Every short mix of the characters that matter reads as the first pattern (/<[^>\n]*>/g) read it.
    const alphabet = ['<', '>', '\n', 'a', ' '];
    let mixes = [''];
    for (let length = 1; length <= 6; length++) {
      mixes = mixes.flatMap((mix) => alphabet.map((c) => mix + c));
      for (const mix of mixes)
        expect(cuePlainText(mix), JSON.stringify(mix)).toBe(
          mix
            // eslint-disable-next-line regexp/no-super-linear-move -- the reference pattern, only ever run on six characters
            .replace(/<[^>\n]*>/g, '')
            .replace(/\s+/g, ' ')
            .trim(),
        );
    }
  });

  it.each(['<', '<a ', '<v ', '<<>', '<\n'])('makes the transcript of 100,000 characters of %j in linear time', (unit) => {
    const text = unit.repeat(Math.ceil(100_000 / unit.length));
    const started = performance.now();
    transcriptFromCues([{ start: 0, end: 1, text }]);
    // Tens of milliseconds at most; the pattern this replaced took seconds (and 30 s on 250 KB).
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('captionsMissing, the one captions rule', () => {
  it('asks for captions only when a video goes public without them', () => {
    const cases: [Parameters<typeof captionsMissing>[0], boolean][] = [
      [{ videoId: 'v1', goesPublic: true, hasCaptions: false }, true],
      [{ videoId: 'v1', goesPublic: true, hasCaptions: true }, false],
      [{ videoId: 'v1', goesPublic: false, hasCaptions: false }, false],
      [{ videoId: null, goesPublic: true, hasCaptions: false }, false],
      [{ videoId: '', goesPublic: true, hasCaptions: false }, false],
    ];
    for (const [input, missing] of cases) expect(captionsMissing(input), JSON.stringify(input)).toBe(missing);
  });
});
