import { describe, expect, it } from 'vitest';
import { formatDate } from './format.ts';

describe('formatDate', () => {
  it('writes a date in US English, in UTC, with a long or short month', () => {
    expect(formatDate('2026-03-05T23:30:00.000Z')).toBe('March 5, 2026');
    expect(formatDate('2026-03-05T23:30:00.000Z', 'short')).toBe('Mar 5, 2026');
    expect(formatDate('2026-03-05T23:30:00+03:00')).toBe('March 5, 2026');
  });

  it('gives the same words the second time, for each style', () => {
    const iso = '2025-12-31T00:00:00.000Z';
    expect([formatDate(iso), formatDate(iso), formatDate(iso, 'short'), formatDate(iso, 'short')]).toEqual([
      'December 31, 2025',
      'December 31, 2025',
      'Dec 31, 2025',
      'Dec 31, 2025',
    ]);
  });

  it('writes nothing for what is not a date, however long', () => {
    expect(formatDate('not a date')).toBe('');
    expect(formatDate('x'.repeat(10_000))).toBe('');
  });
});
