import { describe, expect, it } from 'vitest';
import { niceMax } from './visits-chart';

describe('niceMax', () => {
  it('gives a scale of four equal whole steps that holds the highest count', () => {
    for (let value = 0; value <= 100_000; value += value < 200 ? 1 : 997) {
      const top = niceMax(value);
      expect(top, String(value)).toBeGreaterThanOrEqual(Math.max(value, 4));
      expect(Number.isInteger(top / 4), String(value)).toBe(true);
      // Never more than about two and a half times the count: the lines keep most of the height.
      if (value >= 4) expect(top / value, String(value)).toBeLessThanOrEqual(2.5);
    }
    expect([0, 3, 5, 9, 100, 101].map(niceMax)).toEqual([4, 4, 8, 20, 100, 200]);
  });
});
