import { describe, expect, it } from 'vitest';
import {
  answerCells,
  applicationKindFromPath,
  applicationPrivacyNotice,
  applicationSubject,
  kampalaToday,
  readAnswers,
  storedAnswers,
} from './applications';

describe('applications (issue 27)', () => {
  it('knows each form by its address', () => {
    expect(applicationKindFromPath('/volunteer')).toBe('volunteer');
    expect(applicationKindFromPath('/partner/')).toBe('partner');
    expect(applicationKindFromPath('/book-speaker')).toBe('speaker');
    expect(applicationKindFromPath('/design-help')).toBe('design');
    expect(applicationKindFromPath('/contact')).toBeUndefined();
    // The same forms in Luganda and Swahili.
    expect(applicationKindFromPath('/lg/partner')).toBe('partner');
    expect(applicationKindFromPath('/sw/book-speaker/')).toBe('speaker');
    expect(applicationKindFromPath('/sw/design-help')).toBe('design');
    expect(applicationKindFromPath('/lg/volunteer')).toBe('volunteer');
  });

  it('reads stored answers only when they pass the schema of the row’s kind', () => {
    const json = storedAnswers({ kind: 'partner', organisation: 'Wakiso Parents' });
    expect(readAnswers('partner', json)).toEqual({ kind: 'partner', organisation: 'Wakiso Parents' });
    expect(readAnswers('volunteer', json)).toBeUndefined();
    expect(readAnswers('message', json)).toBeUndefined();
    expect(readAnswers('partner', '{not json')).toBeUndefined();
    expect(readAnswers('partner', JSON.stringify({ kind: 'partner', organisation: '' }))).toBeUndefined();
    expect(readAnswers('volunteer', JSON.stringify({ kind: 'volunteer', signLanguage: 'x', skills: [], availability: [] }))).toBe(
      undefined,
    );
    expect(() => storedAnswers({ kind: 'volunteer', signLanguage: 'fluent', skills: [], availability: [] })).toThrow();
  });

  it('makes a one-line subject, CSV cells and the privacy note', () => {
    expect(
      applicationSubject({
        name: 'Ann\nB',
        answers: { kind: 'volunteer', signLanguage: 'none', skills: [], availability: ['online'] },
      }),
    ).toBe('Volunteer: Ann B');
    expect(answerCells({ kind: 'design', organisation: 'Org', date: null, audience: 'Parents' })).toEqual([
      'Org',
      '',
      'Parents',
      '',
      '',
      '',
    ]);
    expect(answerCells(undefined)).toEqual(['', '', '', '', '', '']);
    expect(applicationPrivacyNotice('partner', 1)).toContain('partnership request');
    expect(applicationPrivacyNotice('partner', 1)).toContain('after 1 month,');
    expect(applicationPrivacyNotice('volunteer', 24)).toContain('after 24 months,');
  });

  it('gives today in Kampala (UTC+3)', () => {
    expect(kampalaToday(new Date('2026-11-26T21:30:00Z'))).toBe('2026-11-27');
    expect(kampalaToday(new Date('2026-11-26T20:59:00Z'))).toBe('2026-11-26');
  });
});
