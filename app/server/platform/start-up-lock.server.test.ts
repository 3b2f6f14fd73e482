import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { StartUpLockTimeout, withStartUpLock } from './start-up-lock.server';

describe.each(ENGINES)('the start-up lock on %s', (engine) => {
  const database = useTestDatabase(engine);

  it('lets one holder in at a time; the others wait their turn', async () => {
    const events: string[] = [];
    const holder = (name: string) => async () => {
      events.push(`${name} in`);
      await sleep(30);
      events.push(`${name} out`);
      return name;
    };
    const results = await Promise.all(
      ['a', 'b', 'c'].map((name) => withStartUpLock(database(), database().dataDir, holder(name))),
    );
    expect(results).toEqual(['a', 'b', 'c']);
    // Never two inside at once: every "in" is followed by its own "out".
    for (let i = 0; i < events.length; i += 2) expect(events[i + 1]).toBe(events[i]!.replace(' in', ' out'));
  });

  it('is free again after a holder failed', async () => {
    await expect(
      withStartUpLock(database(), database().dataDir, () => Promise.reject(new Error('migration failed'))),
    ).rejects.toThrow('migration failed');
    expect(await withStartUpLock(database(), database().dataDir, () => Promise.resolve('next'))).toBe('next');
  });

  it('gives up with a clear message when another process holds it too long', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const first = withStartUpLock(database(), database().dataDir, async () => {
      entered();
      await held;
    });
    await inside;
    const waiting = withStartUpLock(database(), database().dataDir, () => Promise.resolve(), 300);
    await expect(waiting).rejects.toThrow(StartUpLockTimeout);
    await expect(waiting).rejects.toThrow(/Another process has been starting the site on this database/);
    release();
    await first;
  });
});
