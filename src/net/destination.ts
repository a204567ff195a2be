/**
 * The destination guard for caller-supplied URLs (feeds, webhooks, documentation ingest): which URLs may be
 * fetched at all, and which one resolved address the connection is pinned to. Every check happens before
 * any connection is opened, and again for every redirect.
 *
 * Rules, in order:
 * - the URL parses (WHATWG, so `0x7f000001`, `2130706433`, `127.1` and `0177.0.0.1` all become 127.0.0.1
 *   before anything is judged), its scheme is one the policy allows, it carries no user name or password,
 *   and its port is allowed;
 * - an IPv6 literal is refused outright; an IPv4 literal must be public (see address.ts);
 * - a name must be fully qualified and not a special-use name (`localhost`, `*.local`, `*.internal`, ...);
 * - the name is resolved, and EVERY address it resolves to must be public: one private answer refuses the
 *   name (a mixed answer is how DNS rebinding starts). Public IPv6 answers are skipped, never connected to;
 *   a name with no public IPv4 address is refused.
 */
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { RULE_PHRASES, classifyAddress, type AddressVerdict } from './address.js';
import { OutboundError } from './errors.js';

export interface DestinationPolicy {
  /** Who is asking, named in refusals, e.g. `rss_feed`. */
  label: string;
  schemes: readonly ('http:' | 'https:')[];
  /** Ports allowed; absent: any. */
  ports?: readonly number[];
  /** The rule as a refusal states it, e.g. "rss_feed blocks private and IPv6 destinations". */
  rule: string;
}

/** A policy for public destinations: https only unless `http` is allowed. */
export function publicPolicy(label: string, options: { allowHttp?: boolean; ports?: readonly number[] } = {}): DestinationPolicy {
  return {
    label,
    schemes: options.allowHttp ? ['https:', 'http:'] : ['https:'],
    ports: options.ports,
    rule: `${label} blocks private, loopback, link-local, reserved and IPv6 destinations`,
  };
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all of its addresses. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.lookup(hostname, { all: true, verbatim: true });
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

const refuse = (reason: string, policy: DestinationPolicy, rule: string) => new OutboundError(`refused: ${reason} (${policy.rule})`, 'refused', rule);

/** The URL's host without IPv6 brackets or a trailing dot: what is resolved and connected to. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
}

const SPECIAL_USE = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain|corp|private)$/;

/** "a private address", or for IPv6 that carries IPv4: "an IPv6 address that maps to 127.0.0.1, a loopback address". */
function describeVerdict(verdict: Exclude<AddressVerdict, { public: true }>): string {
  const phrase = RULE_PHRASES[verdict.rule];
  if (verdict.embedded) return `an IPv6 address that maps to ${verdict.embedded}, ${phrase}`;
  return verdict.family === 6 ? `an IPv6 address and ${phrase}` : phrase;
}

/** Checks everything about a caller URL that needs no DNS; returns the parsed URL. */
export function checkCallerUrl(raw: string | URL, policy: DestinationPolicy): URL {
  let url: URL;
  try {
    url = raw instanceof URL ? raw : new URL(raw);
  } catch {
    throw new OutboundError(`refused: not a valid absolute URL (${policy.label} needs one like https://example.com/feed.xml)`, 'refused', 'invalid_url');
  }
  if (!(policy.schemes as readonly string[]).includes(url.protocol)) {
    throw refuse(
      `the ${url.protocol.replace(/:$/, '')} scheme is not allowed, only ${policy.schemes.map((s) => s.replace(/:$/, '')).join(' or ')}`,
      policy,
      'scheme',
    );
  }
  if (url.username || url.password) throw refuse('URLs with a user name or password are not allowed', policy, 'userinfo');
  const host = bareHost(url);
  if (!host) throw refuse('the URL has no host', policy, 'invalid_url');
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  if (policy.ports && !policy.ports.includes(port)) throw refuse(`port ${port} is not allowed (allowed: ${policy.ports.join(', ')})`, policy, 'port');
  const family = isIP(host);
  if (family === 6) {
    const verdict = classifyAddress(host);
    throw refuse(`${url.hostname} is ${verdict.public ? 'an IPv6 address' : describeVerdict(verdict)}`, policy, 'ipv6');
  }
  if (family === 4) {
    const verdict = classifyAddress(host);
    if (!verdict.public) throw refuse(`${host} is ${describeVerdict(verdict)}`, policy, verdict.rule);
    return url;
  }
  if (!host.includes('.') || SPECIAL_USE.test(host)) {
    throw refuse(`${host} is not a public host name`, policy, 'internal_name');
  }
  return url;
}

export interface PinOptions {
  resolver?: Resolver;
  /** Tests only: names the injected resolver maps to loopback may be reached. Never set from input. */
  allowLoopbackNames?: boolean;
}

/** Resolves a checked caller URL and returns the one address the connection must use. */
export async function pinCallerDestination(url: URL, policy: DestinationPolicy, options: PinOptions = {}): Promise<ResolvedAddress> {
  const host = bareHost(url);
  const family = isIP(host);
  if (family === 4) return { address: host, family: 4 };
  if (family === 6) throw refuse(`${url.hostname} is an IPv6 address`, policy, 'ipv6');
  const addresses = await resolve(host, options.resolver);
  for (const { address } of addresses) {
    const verdict = isIP(address) ? classifyAddress(address) : undefined;
    if (!verdict) throw refuse(`${host} resolved to something that is not an IP address`, policy, 'invalid_address');
    if (verdict.public) continue;
    if (options.allowLoopbackNames && verdict.rule === 'loopback' && verdict.family === 4) continue;
    throw refuse(`${host} resolves to ${address}, ${describeVerdict(verdict)}`, policy, verdict.family === 6 ? 'ipv6' : verdict.rule);
  }
  const ipv4 = addresses.find((a) => isIP(a.address) === 4);
  if (!ipv4) throw refuse(`${host} resolves only to IPv6 addresses`, policy, 'ipv6');
  return { address: ipv4.address, family: 4 };
}

/** Resolves an operator-configured host: any address is allowed; the first answer is used. */
export async function pinTrustedDestination(url: URL, resolver?: Resolver): Promise<ResolvedAddress> {
  const host = bareHost(url);
  const family = isIP(host);
  if (family) return { address: host, family: family as 4 | 6 };
  const [first] = await resolve(host, resolver);
  return first!;
}

async function resolve(host: string, resolver: Resolver = systemResolver): Promise<ResolvedAddress[]> {
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolver(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new OutboundError(`could not resolve ${host} (${code}): check the host name`, 'dns_failed', 'dns');
  }
  if (addresses.length === 0) throw new OutboundError(`could not resolve ${host} (no addresses): check the host name`, 'dns_failed', 'dns');
  return addresses;
}
