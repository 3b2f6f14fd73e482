import { describe, expect, it } from 'vitest';
import { loadConfig } from '../app/server/platform/config.server.ts';
import { parseWebConcurrency, restartDelay, WEB_CONCURRENCY_PROBLEM } from './web-concurrency.ts';

describe('WEB_CONCURRENCY', () => {
  it('is one worker per core when unset or empty, and what it says otherwise', () => {
    expect(parseWebConcurrency(undefined, 4)).toBe(4);
    expect(parseWebConcurrency('  ', 2)).toBe(2);
    expect(parseWebConcurrency('1', 8)).toBe(1);
    expect(parseWebConcurrency(' 3 ', 8)).toBe(3);
    expect(parseWebConcurrency(undefined, 500)).toBe(64);
  });

  it.each(['0', '-1', '2.5', 'two', '65', 'auto'])(
    'refuses %s with one clear line, at start-up with the other settings',
    (raw) => {
      expect(() => parseWebConcurrency(raw, 2)).toThrow(WEB_CONCURRENCY_PROBLEM);
      expect(() => loadConfig({ WEB_CONCURRENCY: raw })).toThrow(WEB_CONCURRENCY_PROBLEM);
    },
  );

  it('is part of the settings', () => {
    expect(loadConfig({ WEB_CONCURRENCY: '3' }).webConcurrency).toBe(3);
    expect(loadConfig({ WEB_CONCURRENCY: '' }).webConcurrency).toBeGreaterThanOrEqual(1);
  });
});

describe('restarting a crashed worker', () => {
  const now = 1_000_000;
  it('starts it again at once after a lone crash, then waits longer and longer, at most 30 s', () => {
    expect(restartDelay([now], now)).toBe(0);
    expect(restartDelay([now - 1000, now], now)).toBe(1000);
    expect(restartDelay([now - 2000, now - 1000, now], now)).toBe(2000);
    expect(
      restartDelay(
        Array.from({ length: 20 }, (_, i) => now - i),
        now,
      ),
    ).toBe(30_000);
  });

  it('forgets crashes older than a minute', () => {
    expect(restartDelay([now - 120_000, now - 61_000, now], now)).toBe(0);
  });
});
