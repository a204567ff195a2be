import { describe, expect, it } from 'vitest';
import { classifyAddress, embeddedIpv4 } from '../../src/net/address.js';
import { checkCallerUrl, publicPolicy } from '../../src/net/destination.js';
import { OutboundError } from '../../src/net/errors.js';

describe('address classification', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['192.0.0.8', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:c0a8:0101::1', 'private'],
    ['::7f00:1', 'reserved'],
    ['fe80::1', 'link-local'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001:0:4136:e378::1', 'reserved'],
  ])('%s is %s', (address, rule) => {
    const verdict = classifyAddress(address);
    expect(verdict.public).toBe(false);
    expect(verdict.public === false && verdict.rule).toBe(rule);
  });

  it.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(classifyAddress(address).public).toBe(true);
  });

  it('finds the IPv4 address inside mapped, NAT64 and 6to4 addresses', () => {
    expect(embeddedIpv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embeddedIpv4('[::ffff:127.0.0.1]')).toBe('127.0.0.1');
    expect(embeddedIpv4('64:ff9b::0a00:0005')).toBe('10.0.0.5');
    expect(embeddedIpv4('2002:a9fe:a9fe::')).toBe('169.254.169.254');
    expect(embeddedIpv4('2606:4700::1111')).toBeUndefined();
  });
});

describe('caller URL checks (no DNS, no connection)', () => {
  const policy = publicPolicy('rss_feed');
  const refusal = (url: string) => {
    try {
      checkCallerUrl(url, policy);
    } catch (error) {
      expect(error).toBeInstanceOf(OutboundError);
      return error as OutboundError;
    }
    throw new Error(`${url} was accepted`);
  };

  it.each([
    ['https://0x7f000001/', 'loopback', '127.0.0.1 is a loopback address'],
    ['https://2130706433/', 'loopback', '127.0.0.1 is a loopback address'],
    ['https://127.1/', 'loopback', '127.0.0.1'],
    ['https://0177.0.0.1/', 'loopback', '127.0.0.1'],
    ['https://127.0.0.1./', 'loopback', '127.0.0.1'],
    ['https://10.0.0.5/feed', 'private', '10.0.0.5 is a private address (rss_feed blocks private, loopback, link-local, reserved and IPv6 destinations)'],
    ['https://[::ffff:127.0.0.1]/', 'ipv6', '[::ffff:7f00:1] is an IPv6 address that maps to 127.0.0.1, a loopback address'],
    ['https://[2606:4700::1111]/', 'ipv6', 'is an IPv6 address'],
    ['http://example.com/feed', 'scheme', 'the http scheme is not allowed, only https'],
    ['https://user:pw@example.com/', 'userinfo', 'user name or password'],
    ['https://localhost./', 'internal_name', 'localhost is not a public host name'],
    ['https://intranet/', 'internal_name', 'not a public host name'],
    ['not a url', 'invalid_url', 'not a valid absolute URL'],
  ])('%s is refused by rule %s', (url, rule, phrase) => {
    const error = refusal(url);
    expect(error.rule).toBe(rule);
    expect(error.code).toBe('refused');
    expect(error.message).toMatch(/^refused: /);
    expect(error.message).toContain(phrase);
  });

  it('accepts a public https URL and keeps it as parsed', () => {
    expect(checkCallerUrl('https://Example.COM./feed.xml', policy).hostname).toBe('example.com.');
  });

  it('checks ports when the policy lists them', () => {
    const error = (() => {
      try {
        checkCallerUrl('https://example.com:8443/', { ...policy, ports: [443] });
      } catch (e) {
        return e as OutboundError;
      }
    })();
    expect(error?.rule).toBe('port');
  });
});
