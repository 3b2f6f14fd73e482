import { describe, expect, it } from 'vitest';
import { visitorKey } from '../platform/limits.server';

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
