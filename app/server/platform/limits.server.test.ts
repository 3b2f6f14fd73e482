import { describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { attemptsInWindow, pruneLimits, releaseAttempt, reserveAttempt, takeSlot } from './limits.server';

const WINDOW = 15 * 60 * 1000;
const T0 = Date.parse('2026-11-24T10:00:00.000Z');

describe.each(ENGINES)('database rate limits on %s', (engine) => {
  const database = useTestDatabase(engine);

  it('gives simultaneous attempts different counts, so only `limit` of them are allowed', async () => {
    const decisions = await Promise.all(Array.from({ length: 25 }, () => reserveAttempt('burst', 5, WINDOW)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    expect(decisions.map((d) => d.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('refuses until the window ends, then starts a new one', async () => {
    for (let i = 0; i < 3; i++) expect((await reserveAttempt('window', 3, WINDOW, T0 + i * 1000)).allowed).toBe(true);
    const refused = await reserveAttempt('window', 3, WINDOW, T0 + 60_000);
    expect(refused).toMatchObject({ allowed: false, hits: 4, retryAfterSeconds: 14 * 60 });
    expect(await attemptsInWindow('window', WINDOW, T0 + 60_000)).toBe(4);
    const next = await reserveAttempt('window', 3, WINDOW, T0 + WINDOW);
    expect(next).toMatchObject({ allowed: true, hits: 1, windowStartedAt: new Date(T0 + WINDOW).toISOString() });
  });

  it('gives an attempt back only inside the window it was counted in', async () => {
    const first = await reserveAttempt('release', 2, WINDOW, T0);
    await reserveAttempt('release', 2, WINDOW, T0 + 1000);
    await releaseAttempt('release', first.windowStartedAt);
    expect(await attemptsInWindow('release', WINDOW, T0 + 2000)).toBe(1);

    // The window rolls over while a reservation from the old one is still out: giving that one back
    // must not make room in the new window.
    const old = await reserveAttempt('release', 2, WINDOW, T0 + 3000);
    await reserveAttempt('release', 2, WINDOW, T0 + WINDOW);
    await reserveAttempt('release', 2, WINDOW, T0 + WINDOW + 1000);
    await releaseAttempt('release', old.windowStartedAt);
    expect(await attemptsInWindow('release', WINDOW, T0 + WINDOW + 2000)).toBe(2);
    expect((await reserveAttempt('release', 2, WINDOW, T0 + WINDOW + 3000)).allowed).toBe(false);
  });

  it('never counts below zero', async () => {
    const only = await reserveAttempt('floor', 2, WINDOW, T0);
    await releaseAttempt('floor', only.windowStartedAt);
    await releaseAttempt('floor', only.windowStartedAt);
    expect(await attemptsInWindow('floor', WINDOW, T0)).toBe(0);
    expect((await reserveAttempt('floor', 2, WINDOW, T0 + 1000)).hits).toBe(1);
  });

  it('prunes counters whose window started long ago and keeps the rest', async () => {
    const now = T0 + 3 * 86_400_000;
    await reserveAttempt('stale', 5, WINDOW, T0);
    await reserveAttempt('fresh', 5, WINDOW, now - 60_000);
    await pruneLimits(86_400_000, now);
    const keys = await database().db.selectFrom('rate_limits').select('key').where('key', 'in', ['stale', 'fresh']).execute();
    expect(keys.map((k) => k.key)).toEqual(['fresh']);
  });

  it('lets at most `slots` holders at once, however many ask together, and frees a place when it is given back', async () => {
    const tries = await Promise.all(Array.from({ length: 10 }, () => takeSlot('at-once', 2, 60_000, T0)));
    const held = tries.filter((release) => release !== undefined);
    expect(held).toHaveLength(2);
    expect(await takeSlot('at-once', 2, 60_000, T0 + 1000)).toBeUndefined();
    await held[0]!();
    const next = await takeSlot('at-once', 2, 60_000, T0 + 2000);
    expect(next).toBeDefined();
    expect(await takeSlot('at-once', 2, 60_000, T0 + 3000)).toBeUndefined();
  });

  it('frees a place never given back once its lease ends, and a late give-back leaves the new holder its place', async () => {
    const lost = await takeSlot('lease', 1, 60_000, T0);
    expect(lost).toBeDefined();
    expect(await takeSlot('lease', 1, 60_000, T0 + 59_000)).toBeUndefined();
    const after = await takeSlot('lease', 1, 60_000, T0 + 60_000);
    expect(after).toBeDefined();
    await lost!();
    expect(await takeSlot('lease', 1, 60_000, T0 + 61_000)).toBeUndefined();
  });
});
