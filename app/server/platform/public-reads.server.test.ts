import { describe, expect, it } from 'vitest';
import { publicContentChanged } from './public-changes.server';
import { keepPublicReads, PUBLIC_READS_TTL_MS, publicRead } from './public-reads.server';

/** A read that counts its calls and answers what `next` says. */
function counter(next: () => Promise<number> = async () => 0) {
  let calls = 0;
  return {
    read: () => {
      calls += 1;
      return next();
    },
    calls: () => calls,
  };
}

describe('public reads', () => {
  it('reads afresh every time for a database the site does not serve from', async () => {
    const db = {};
    const reads = counter();
    await publicRead(db, 'k', reads.read);
    await publicRead(db, 'k', reads.read);
    expect(reads.calls()).toBe(2);
  });

  it('keeps an answer per key until public content changes, in every process that hears of it', async () => {
    const db = {};
    const stop = keepPublicReads(db);
    let value = 1;
    const reads = counter(async () => value);
    expect(await publicRead(db, 'a', reads.read)).toBe(1);
    value = 2;
    expect(await publicRead(db, 'a', reads.read)).toBe(1);
    expect(await publicRead(db, 'b', reads.read)).toBe(2);
    expect(reads.calls()).toBe(2);
    publicContentChanged();
    expect(await publicRead(db, 'a', reads.read)).toBe(2);
    expect(reads.calls()).toBe(3);
    stop();
    expect(await publicRead(db, 'a', reads.read)).toBe(2);
    expect(reads.calls()).toBe(4);
  });

  it('shares one read among requests at once, and keeps no failure', async () => {
    const db = {};
    const stop = keepPublicReads(db);
    let fail = true;
    const reads = counter(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (fail) throw new Error('database busy');
      return 7;
    });
    const answers = await Promise.allSettled(Array.from({ length: 25 }, () => publicRead(db, 'k', reads.read)));
    expect(answers.every((answer) => answer.status === 'rejected')).toBe(true);
    expect(reads.calls()).toBe(1);
    fail = false;
    expect(await publicRead(db, 'k', reads.read)).toBe(7);
    expect(await publicRead(db, 'k', reads.read)).toBe(7);
    expect(reads.calls()).toBe(2);
    stop();
  });

  it('never keeps a read that began before a change past it', async () => {
    const db = {};
    const stop = keepPublicReads(db);
    let release: (value: number) => void = () => undefined;
    const slow = publicRead(db, 'k', () => new Promise<number>((resolve) => (release = resolve)));
    publicContentChanged();
    release(1);
    expect(await slow).toBe(1);
    expect(await publicRead(db, 'k', async () => 2)).toBe(2);
    stop();
  });

  it('reads again after the page cache’s five minutes', async () => {
    const db = {};
    const stop = keepPublicReads(db);
    let now = 1_000_000;
    const clock = () => now;
    const reads = counter(async () => now);
    expect(await publicRead(db, 'k', reads.read, clock)).toBe(1_000_000);
    now += PUBLIC_READS_TTL_MS - 1;
    expect(await publicRead(db, 'k', reads.read, clock)).toBe(1_000_000);
    now += 1;
    expect(await publicRead(db, 'k', reads.read, clock)).toBe(now);
    expect(reads.calls()).toBe(2);
    stop();
  });

  it('holds a bounded number of answers, however many keys a visitor makes up', async () => {
    const db = {};
    const stop = keepPublicReads(db);
    const reads = counter();
    for (let i = 0; i < 2_000; i++) await publicRead(db, `count:blogs:made-up-${i}`, reads.read);
    await publicRead(db, 'count:blogs:made-up-1999', reads.read);
    await publicRead(db, 'count:blogs:made-up-0', reads.read);
    // The newest is still kept; the oldest went with an emptying.
    expect(reads.calls()).toBe(2_001);
    stop();
  });
});
