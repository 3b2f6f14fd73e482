import { describe, expect, it } from 'vitest';
import { COUNTER_DURATION_MS, COUNTER_STEP_MS, counterSteps, formatStat, STATS } from './stats';

describe('counterSteps', () => {
  it('takes 2000 / 16 = 125 steps and ends exactly at the target', () => {
    for (const target of [500, 50, 25, 100, 7, 1]) {
      const steps = counterSteps(target);
      expect(steps).toHaveLength(125);
      expect(steps.at(-1)).toBe(target);
    }
    expect(COUNTER_DURATION_MS / COUNTER_STEP_MS).toBe(125);
  });

  it('rises evenly from near zero, never going down or past the target', () => {
    const steps = counterSteps(500);
    expect(steps[0]).toBe(4);
    expect(steps[61]).toBe(248);
    for (let i = 1; i < steps.length; i++) {
      expect(steps[i]!).toBeGreaterThanOrEqual(steps[i - 1]!);
      expect(steps[i]!).toBeLessThanOrEqual(500);
    }
    expect(steps.every(Number.isInteger)).toBe(true);
  });

  it('counts to the largest figure Site settings allows, and stays at zero for zero', () => {
    const steps = counterSteps(1_000_000);
    expect(steps).toHaveLength(125);
    expect(steps[0]).toBe(8000);
    expect(steps.at(-1)).toBe(1_000_000);
    expect(counterSteps(0).every((step) => step === 0)).toBe(true);
  });

  it('copes with other timings', () => {
    expect(counterSteps(10, 100, 16)).toEqual([1, 3, 4, 6, 7, 9, 10]);
    expect(counterSteps(3, 10, 16)).toEqual([3]);
  });
});

describe('STATS', () => {
  it('are the four figures of spec §9, in order', () => {
    expect(STATS.map((s) => `${formatStat(s.number, s.suffix)} ${s.label}`)).toEqual([
      '500+ Lives Impacted',
      '50+ Workshops Conducted',
      '25+ Partner Organizations',
      '100% Commitment to Change',
    ]);
  });

  it('show large figures with thousands separated', () => {
    expect(formatStat(1_000_000, '+')).toBe('1,000,000+');
    expect(formatStat(12500, '')).toBe('12,500');
    expect(formatStat(0, '%')).toBe('0%');
  });
});
