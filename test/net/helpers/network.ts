/**
 * Test network for the outbound guard: a self-signed certificate made at test time, an HTTPS fixture
 * server on 127.0.0.1, a resolver that never touches real DNS, a tripwire that makes any connection past
 * loopback impossible, and a harness whose outbound client uses them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../../src/logging.js';
import type { ResolvedAddress, Resolver } from '../../../src/net/destination.js';
import type { NetworkOptions } from '../../../src/net/fetch.js';
import { Outbound } from '../../../src/net/outbound.js';
import { startFixtureServer, type FixtureHandler, type FixtureServer } from '../../helpers/fixture-server.js';
import { startHarness, type Harness, type HarnessOptions } from '../../helpers/harness.js';

/** Names the test certificate is valid for (no IP address: TLS must be checked against the name). */
export const CERT_NAMES = ['feed.example.test', 'redirect.example.test', 'hooks.chat.test'];

let cached: { key: string; cert: string } | undefined;

/** A self-signed certificate (its own CA), generated once per test process with openssl. */
export function testCertificate(): { key: string; cert: string } {
  if (cached) return cached;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docent-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=docent test',
        '-addext',
        `subjectAltName=${CERT_NAMES.map((n) => `DNS:${n}`).join(',')}`,
        '-addext',
        'basicConstraints=critical,CA:TRUE',
      ],
      { stdio: 'ignore' },
    );
    cached = { key: readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
    return cached;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The shared fixture server, over HTTPS with the test certificate. */
export function startHttpsFixture(handler?: FixtureHandler): Promise<FixtureServer> {
  return startFixtureServer(handler, { tls: testCertificate() });
}

/** A resolver from a fixed table; unknown names fail like NXDOMAIN. Records every name asked. */
export function tableResolver(table: Record<string, string | string[]>, asked: string[] = []): Resolver {
  return async (host) => {
    asked.push(host);
    const entry = table[host];
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return (Array.isArray(entry) ? entry : [entry]).map((address): ResolvedAddress => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
  };
}

/** Connections actually attempted; any address other than 127.0.0.1 throws before a packet is sent. */
export function tripwire(): { attempts: ResolvedAddress[]; beforeConnect: NonNullable<NetworkOptions['beforeConnect']> } {
  const attempts: ResolvedAddress[] = [];
  return {
    attempts,
    beforeConnect(target) {
      attempts.push(target);
      if (target.address !== '127.0.0.1') throw new Error(`TRIPWIRE: the guard let a connection to ${target.address} through`);
    },
  };
}

export interface NetHarness extends Harness {
  attempts: ResolvedAddress[];
}

/**
 * A harness whose outbound client resolves through `table` only, trusts the test CA, and has the tripwire.
 * `allowLoopbackForTests` lets names the table maps to 127.0.0.1 be fetched (the test-only mode).
 */
export async function startNetHarness(
  options: HarnessOptions & { table?: Record<string, string | string[]>; allowLoopbackForTests?: boolean } = {},
): Promise<NetHarness> {
  const h = await startHarness(options);
  const wire = tripwire();
  h.services.useOutbound(
    new Outbound(h.config, silentLogger(), {
      resolver: tableResolver(options.table ?? {}),
      ca: testCertificate().cert,
      allowLoopbackForTests: options.allowLoopbackForTests,
      beforeConnect: wire.beforeConnect,
    }),
  );
  return Object.assign(h, { attempts: wire.attempts });
}
