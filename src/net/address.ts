/**
 * Which IP addresses a caller-supplied URL may reach. An address is public, or it falls in a named range
 * that is refused (the rule is named in the refusal). IPv6 addresses that embed an IPv4 address (mapped,
 * NAT64, 6to4) are judged by the embedded address as well, so `::ffff:127.0.0.1` is loopback.
 */
import { BlockList, isIP } from 'node:net';

export type AddressRule = 'loopback' | 'private' | 'link-local' | 'cgnat' | 'multicast' | 'broadcast' | 'unspecified' | 'reserved' | 'documentation';

/** How each rule is named in a refusal: "10.0.0.5 is a private address". */
export const RULE_PHRASES: Readonly<Record<AddressRule, string>> = {
  loopback: 'a loopback address',
  private: 'a private address',
  'link-local': 'a link-local address',
  cgnat: 'a carrier-grade NAT (100.64.0.0/10) address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  unspecified: 'an unspecified ("this network") address',
  reserved: 'a reserved address',
  documentation: 'a documentation-only address',
};

export type AddressVerdict =
  | { public: true; family: 4 | 6 }
  | { public: false; family: 4 | 6; rule: AddressRule; /** The embedded IPv4 address that decided it, if any. */ embedded?: string };

type Range = readonly [network: string, prefix: number, rule: AddressRule];

// Order matters only where ranges nest: the first match names the rule.
const IPV4_RANGES: readonly Range[] = [
  ['255.255.255.255', 32, 'broadcast'],
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const IPV6_RANGES: readonly Range[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'reserved'], // IPv4-compatible (deprecated)
  ['64:ff9b:1::', 48, 'reserved'], // local-use NAT64
  ['100::', 64, 'reserved'], // discard-only
  ['2001:db8::', 32, 'documentation'],
  ['2001::', 23, 'reserved'], // IETF protocol assignments, Teredo
  ['fc00::', 7, 'private'], // unique local
  ['fec0::', 10, 'private'], // site-local (deprecated)
  ['fe80::', 10, 'link-local'],
  ['ff00::', 8, 'multicast'],
];

function compile(ranges: readonly Range[], family: 'ipv4' | 'ipv6') {
  return ranges.map(([network, prefix, rule]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return { list, rule };
  });
}

const V4 = compile(IPV4_RANGES, 'ipv4');
const V6 = compile(IPV6_RANGES, 'ipv6');

/** The 16 bytes of an IPv6 address (with or without brackets, dotted IPv4 tail allowed). */
export function ipv6Bytes(address: string): Uint8Array {
  const text = address.replace(/^\[|\]$/g, '').replace(/%.*$/s, '');
  const [head, tail] = text.includes('::') ? (text.split('::') as [string, string]) : [text, undefined];
  const groups = (part: string | undefined): number[] => {
    if (!part) return [];
    const out: number[] = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const [a, b, c, d] = piece.split('.').map(Number) as [number, number, number, number];
        out.push((a << 8) | b, (c << 8) | d);
      } else out.push(parseInt(piece, 16));
    }
    return out;
  };
  const h = groups(head);
  const t = groups(tail);
  const all = tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  return bytes;
}

const dotted = (b: Uint8Array, at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;

/** The IPv4 address an IPv6 address carries: IPv4-mapped (::ffff:0:0/96), NAT64 (64:ff9b::/96) or 6to4 (2002::/16). */
export function embeddedIpv4(address: string): string | undefined {
  const b = ipv6Bytes(address);
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return dotted(b, 12);
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12)) return dotted(b, 12);
  if (b[0] === 0x20 && b[1] === 0x02) return dotted(b, 2);
  return undefined;
}

/** Classifies an IP address (a bare literal, as `net.isIP` accepts, or bracketed IPv6). */
export function classifyAddress(raw: string): AddressVerdict {
  const address = raw.replace(/^\[|\]$/g, '');
  const family = isIP(address);
  if (family === 4) {
    const hit = V4.find(({ list }) => list.check(address, 'ipv4'));
    return hit ? { public: false, family: 4, rule: hit.rule } : { public: true, family: 4 };
  }
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner) {
      const verdict = classifyAddress(inner);
      if (!verdict.public) return { public: false, family: 6, rule: verdict.rule, embedded: inner };
    }
    const hit = V6.find(({ list }) => list.check(address, 'ipv6'));
    return hit ? { public: false, family: 6, rule: hit.rule } : { public: true, family: 6 };
  }
  throw new TypeError(`not an IP address: ${raw}`);
}
