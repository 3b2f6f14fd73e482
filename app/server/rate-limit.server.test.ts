import { describe, expect, it } from 'vitest';
import { createRateLimiter, getRateLimiter, visitorKey } from './rate-limit.server';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('createRateLimiter', () => {
  it('allows up to the limit inside the window, then refuses with the wait in seconds', () => {
    const time = clock();
    const limiter = createRateLimiter({ limit: 3, windowMs: 60_000, now: time.now });
    expect(limiter.attempt('1.2.3.4')).toEqual({ allowed: true, remaining: 2, retryAfterSeconds: 0 });
    time.advance(10_000);
    expect(limiter.attempt('1.2.3.4').remaining).toBe(1);
    expect(limiter.attempt('1.2.3.4').remaining).toBe(0);
    expect(limiter.attempt('1.2.3.4')).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 50 });
  });

  it('slides: an attempt leaves the count once it is older than the window', () => {
    const time = clock();
    const limiter = createRateLimiter({ limit: 2, windowMs: 60_000, now: time.now });
    limiter.attempt('a');
    time.advance(30_000);
    limiter.attempt('a');
    expect(limiter.attempt('a').allowed).toBe(false);
    time.advance(30_001);
    expect(limiter.attempt('a').allowed).toBe(true);
    expect(limiter.attempt('a').allowed).toBe(false);
  });

  it('does not count refused attempts, so waiting out the window is enough', () => {
    const time = clock();
    const limiter = createRateLimiter({ limit: 1, windowMs: 1000, now: time.now });
    limiter.attempt('a');
    for (let i = 0; i < 10; i++) {
      time.advance(50);
      expect(limiter.attempt('a').allowed).toBe(false);
    }
    time.advance(501);
    expect(limiter.attempt('a').allowed).toBe(true);
  });

  it('keeps visitors apart', () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 1000 });
    expect(limiter.attempt('a').allowed).toBe(true);
    expect(limiter.attempt('b').allowed).toBe(true);
    expect(limiter.attempt('a').allowed).toBe(false);
  });

  it('tracks a bounded number of visitors, forgetting the longest idle first', () => {
    const time = clock();
    const limiter = createRateLimiter({ limit: 1, windowMs: 60_000, maxKeys: 100, now: time.now });
    for (let i = 0; i < 1000; i++) limiter.attempt(`10.0.${Math.floor(i / 256)}.${i % 256}`);
    expect(limiter.size()).toBeLessThanOrEqual(100);
    // The newest visitor is still limited; the oldest has been forgotten.
    expect(limiter.attempt('10.0.3.231').allowed).toBe(false);
    expect(limiter.attempt('10.0.0.0').allowed).toBe(true);
  });
});

describe('getRateLimiter', () => {
  it('returns the one limiter of that name for the whole process', () => {
    const a = getRateLimiter('test-shared', { limit: 1, windowMs: 1000 });
    const b = getRateLimiter('test-shared', { limit: 99, windowMs: 1000 });
    expect(b).toBe(a);
    a.attempt('x');
    expect(b.attempt('x').allowed).toBe(false);
  });
});

describe('visitorKey', () => {
  it('uses IPv4 addresses as they are, including IPv4-mapped IPv6', () => {
    expect(visitorKey('203.0.113.9')).toBe('203.0.113.9');
    expect(visitorKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('knows one address however it is spelt (a proxy may forward any spelling)', () => {
    expect(visitorKey('::FFFF:cb00:7109')).toBe('203.0.113.9');
    expect(visitorKey('0:0:0:0:0:ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(visitorKey('2001:0DB8:0000:0012:0:0:0:1')).toBe('2001:db8:0:12::/64');
    expect(visitorKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('groups IPv6 addresses by their /64 network', () => {
    expect(visitorKey('2001:db8:abcd:12:1:2:3:4')).toBe('2001:db8:abcd:12::/64');
    expect(visitorKey('2001:db8:abcd:12::99')).toBe('2001:db8:abcd:12::/64');
    expect(visitorKey('2001:DB8::1')).toBe('2001:db8:0:0::/64');
    expect(visitorKey('::1')).toBe('0:0:0:0::/64');
  });

  it('puts unknown or malformed addresses in one shared bucket', () => {
    expect(visitorKey('')).toBe('unknown');
    expect(visitorKey('not an ip')).toBe('unknown');
  });
});
