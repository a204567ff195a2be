/**
 * The outbound guard end to end against local fixture servers: pinning, redirects, caps, content types,
 * timeouts, and the line between caller URLs and operator-configured endpoints. Every test network has
 * the tripwire: no connection can go anywhere but 127.0.0.1.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logging.js';
import { publicPolicy } from '../../src/net/destination.js';
import { OutboundError } from '../../src/net/errors.js';
import { fetchGuarded, type NetworkOptions } from '../../src/net/fetch.js';
import { Outbound } from '../../src/net/outbound.js';
import { Services } from '../../src/services.js';
import { sendJson, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { startHttpsFixture, tableResolver, testCertificate, tripwire } from './helpers/network.js';

const FEED = publicPolicy('rss_feed');
const XML = ['application/rss+xml'];

let tls: FixtureServer;
let plain: FixtureServer;
beforeAll(async () => {
  [tls, plain] = await Promise.all([startHttpsFixture(), startFixtureServer()]);
});
afterAll(async () => Promise.all([tls.close(), plain.close()]));
afterEach(() => {
  tls.requests.length = 0;
  plain.requests.length = 0;
});

function network(table: Record<string, string | string[]>, extra: Partial<NetworkOptions> = {}) {
  const asked: string[] = [];
  const wire = tripwire();
  const options: NetworkOptions = {
    resolver: tableResolver(table, asked),
    ca: testCertificate().cert,
    allowLoopbackForTests: true,
    beforeConnect: wire.beforeConnect,
    ...extra,
  };
  return { options, asked, attempts: wire.attempts };
}

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

const rss = (res: import('node:http').ServerResponse, body = '<rss version="2.0"><channel><title>t</title></channel></rss>') => {
  res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' });
  res.end(body);
};

describe('pinning', () => {
  it('resolves once, connects to the checked address, and keeps the host name for Host and TLS', async () => {
    tls.handle((_req, res) => rss(res));
    // A rebinding resolver: the first answer is the fixture, any later one a private address.
    let calls = 0;
    const net = network({});
    net.options.resolver = async (host) => {
      net.asked.push(host);
      return [{ address: calls++ === 0 ? '127.0.0.1' : '10.0.0.5', family: 4 }];
    };
    const response = await fetchGuarded(`https://feed.example.test:${tls.port}/feed.xml`, { policy: FEED, accept: XML }, net.options);
    expect(response.status).toBe(200);
    expect(net.asked).toEqual(['feed.example.test']);
    expect(net.attempts).toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(tls.requests).toHaveLength(1);
    expect(tls.requests[0]!.headers.host).toBe(`feed.example.test:${tls.port}`);
  });

  it('treats a trailing dot as the same name for DNS, Host and TLS', async () => {
    tls.handle((_req, res) => rss(res));
    const net = network({ 'feed.example.test': '127.0.0.1' });
    const response = await fetchGuarded(`https://feed.example.test.:${tls.port}/feed.xml`, { policy: FEED, accept: XML }, net.options);
    expect(response.status).toBe(200);
    expect(net.asked).toEqual(['feed.example.test']);
    expect(tls.requests[0]!.headers.host).toBe(`feed.example.test:${tls.port}`);
  });

  it('verifies the certificate against the host name, not the address', async () => {
    tls.handle((_req, res) => rss(res));
    const net = network({ 'other.example.test': '127.0.0.1' });
    const error = await failure(fetchGuarded(`https://other.example.test:${tls.port}/`, { policy: FEED, accept: XML }, net.options));
    expect(error.failure).toBe('tls_failed');
    expect(error.message).toMatch(/TLS connection to other\.example\.test failed/);
    expect(tls.requests).toHaveLength(0);
  });

  it('refuses a name when any of its addresses is private, before connecting', async () => {
    const net = network({ 'mixed.example.test': ['127.0.0.1', '10.0.0.5'] });
    const error = await failure(fetchGuarded(`https://mixed.example.test:${tls.port}/`, { policy: FEED, accept: XML }, net.options));
    expect(error.message).toBe(
      'refused: mixed.example.test resolves to 10.0.0.5, a private address (rss_feed blocks private, loopback, link-local, reserved and IPv6 destinations)',
    );
    expect(error.rule).toBe('private');
    expect(net.attempts).toEqual([]);
  });

  it('skips public IPv6 answers and connects over IPv4; refuses a name with IPv6 only', async () => {
    tls.handle((_req, res) => rss(res));
    const net = network({ 'feed.example.test': ['2606:4700::1111', '127.0.0.1'], 'v6.example.test': ['2606:4700::1111'] });
    expect((await fetchGuarded(`https://feed.example.test:${tls.port}/`, { policy: FEED, accept: XML }, net.options)).status).toBe(200);
    const error = await failure(fetchGuarded(`https://v6.example.test:${tls.port}/`, { policy: FEED, accept: XML }, net.options));
    expect(error.rule).toBe('ipv6');
    expect(error.message).toMatch(/v6\.example\.test resolves only to IPv6 addresses/);
    expect(net.attempts).toEqual([{ address: '127.0.0.1', family: 4 }]);
  });

  it('in the test-only mode still refuses literal loopback and every private range', async () => {
    const net = network({ 'private.example.test': '192.168.0.10' });
    const literal = await failure(fetchGuarded(`https://127.0.0.1:${tls.port}/`, { policy: FEED, accept: XML }, net.options));
    expect(literal.rule).toBe('loopback');
    const priv = await failure(fetchGuarded('https://private.example.test/', { policy: FEED, accept: XML }, net.options));
    expect(priv.rule).toBe('private');
    expect(net.attempts).toEqual([]);
    expect(tls.requests).toHaveLength(0);
  });

  it('the test-only mode cannot be used without an injected resolver', async () => {
    await expect(fetchGuarded('https://example.com/', { policy: FEED, accept: XML }, { allowLoopbackForTests: true })).rejects.toThrow(
      /needs an injected resolver/,
    );
  });

  it('without the test-only mode a name that resolves to loopback is refused', async () => {
    const net = network({ 'feed.example.test': '127.0.0.1' }, { allowLoopbackForTests: false });
    const error = await failure(fetchGuarded(`https://feed.example.test:${tls.port}/`, { policy: FEED, accept: XML }, net.options));
    expect(error.message).toMatch(/^refused: feed\.example\.test resolves to 127\.0\.0\.1, a loopback address/);
    expect(tls.requests).toHaveLength(0);
  });
});

describe('redirects', () => {
  const redirect =
    (to: string, status = 302) =>
    (_req: unknown, res: import('node:http').ServerResponse) => {
      res.writeHead(status, { location: to });
      res.end();
    };

  it('follows a redirect on the same host and reports the final URL', async () => {
    tls.handle((req, res) => (req.url === '/old' ? redirect('/new', 301)(req, res) : rss(res)));
    const net = network({ 'feed.example.test': '127.0.0.1' });
    const response = await fetchGuarded(`https://feed.example.test:${tls.port}/old`, { policy: FEED, accept: XML }, net.options);
    expect(response.url.pathname).toBe('/new');
    expect(response.redirects).toBe(1);
    expect(tls.requests.map((r) => r.url)).toEqual(['/old', '/new']);
  });

  it.each([
    ['https://10.0.0.5/feed.xml', 'private', 'refused: redirect from feed.example.test: 10.0.0.5 is a private address'],
    ['https://169.254.169.254/latest/meta-data/', 'link-local', '169.254.169.254 is a link-local address'],
    ['https://[::1]/', 'ipv6', '[::1] is an IPv6 address and a loopback address'],
    ['https://0x7f000001/', 'loopback', '127.0.0.1 is a loopback address'],
    ['https://internal.example.test/', 'private', 'internal.example.test resolves to 172.20.0.1, a private address'],
    ['http://feed.example.test/feed.xml', 'scheme', 'the http scheme is not allowed'],
    ['https://user:pw@feed.example.test/', 'userinfo', 'user name or password'],
    ['file:///etc/passwd', 'scheme', 'the file scheme is not allowed'],
  ])('checks every redirect like the first URL: %s', async (location, rule, phrase) => {
    tls.handle(redirect(location));
    const net = network({ 'feed.example.test': '127.0.0.1', 'internal.example.test': '172.20.0.1' });
    const error = await failure(fetchGuarded(`https://feed.example.test:${tls.port}/feed.xml`, { policy: FEED, accept: XML }, net.options));
    expect(error.rule).toBe(rule);
    expect(error.message).toContain(phrase);
    expect(error.message).toMatch(/^refused: redirect from feed\.example\.test: /);
    expect(net.attempts).toHaveLength(1);
    expect(tls.requests).toHaveLength(1);
  });

  it('stops after the redirect limit', async () => {
    tls.handle((req, res) => redirect(`/hop${Number(req.url.replace('/hop', '') || 0) + 1}`)(req, res));
    const net = network({ 'feed.example.test': '127.0.0.1' });
    const error = await failure(fetchGuarded(`https://feed.example.test:${tls.port}/hop0`, { policy: FEED, accept: XML }, net.options));
    expect(error.failure).toBe('too_many_redirects');
    expect(error.message).toMatch(/gave up after 5 redirects/);
    expect(tls.requests).toHaveLength(6);
  });

  it('refuses to follow any redirect when the caller says so', async () => {
    tls.handle(redirect('/elsewhere'));
    const net = network({ 'feed.example.test': '127.0.0.1' });
    const error = await failure(fetchGuarded(`https://feed.example.test:${tls.port}/`, { policy: FEED, accept: XML, maxRedirects: 0 }, net.options));
    expect(error.message).toMatch(/answered with a redirect \(302\), and rss_feed does not follow redirects/);
    expect(tls.requests).toHaveLength(1);
  });

  it('drops credentials when a redirect changes origin', async () => {
    tls.handle((req, res) => (req.url === '/start' ? redirect(`https://redirect.example.test:${tls.port}/next`)(req, res) : rss(res)));
    const net = network({ 'feed.example.test': '127.0.0.1', 'redirect.example.test': '127.0.0.1' });
    await fetchGuarded(
      `https://feed.example.test:${tls.port}/start`,
      { policy: FEED, accept: XML, headers: { Authorization: 'Bearer s3cret', 'X-Subscription-Token': 's3cret', 'User-Agent': 'ua' } },
      net.options,
    );
    expect(tls.requests[0]!.headers.authorization).toBe('Bearer s3cret');
    expect(tls.requests[1]!.headers.authorization).toBeUndefined();
    expect(tls.requests[1]!.headers['x-subscription-token']).toBeUndefined();
    expect(tls.requests[1]!.headers['user-agent']).toBe('ua');
    expect(tls.requests[1]!.headers.host).toBe(`redirect.example.test:${tls.port}`);
  });
});

describe('limits', () => {
  const net = () => network({ 'feed.example.test': '127.0.0.1' });
  const url = () => `https://feed.example.test:${tls.port}/feed.xml`;

  it('refuses a declared length over the cap before reading the body', async () => {
    tls.handle((_req, res) => rss(res, 'x'.repeat(5000)));
    const error = await failure(fetchGuarded(url(), { policy: FEED, accept: XML, maxBytes: 1000 }, net().options));
    expect(error.failure).toBe('too_large');
    expect(error.message).toBe('feed.example.test sent more than 1000 bytes, the size cap for this request');
  });

  it('aborts a streamed body once it passes the cap', async () => {
    tls.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      for (let i = 0; i < 50; i++) res.write('y'.repeat(1000));
      res.end();
    });
    const error = await failure(fetchGuarded(url(), { policy: FEED, accept: XML, maxBytes: 10_000 }, net().options));
    expect(error.failure).toBe('too_large');
  });

  it('caps the decoded size of a compressed body (no decompression bombs)', async () => {
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(100_000);
    tls.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml', 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
      res.end(bomb);
    });
    const error = await failure(fetchGuarded(url(), { policy: FEED, accept: XML, maxBytes: 1024 * 1024 }, net().options));
    expect(error.failure).toBe('too_large');
  });

  it('decodes gzip bodies within the cap', async () => {
    const body = '<rss version="2.0"><channel><title>zipped</title></channel></rss>';
    tls.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml', 'content-encoding': 'gzip' });
      res.end(gzipSync(body));
    });
    expect((await fetchGuarded(url(), { policy: FEED, accept: XML }, net().options)).text()).toBe(body);
  });

  it('checks the content type of a success response', async () => {
    tls.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html></html>');
    });
    const error = await failure(fetchGuarded(url(), { policy: FEED, accept: XML }, net().options));
    expect(error.failure).toBe('unexpected_content_type');
    expect(error.message).toBe('feed.example.test answered with content type text/html, expected application/rss+xml');
  });

  it('gives up at the deadline when the server never answers', async () => {
    tls.handle(() => undefined);
    const error = await failure(fetchGuarded(url(), { policy: FEED, accept: XML, timeoutMs: 300 }, net().options));
    expect(error.failure).toBe('timeout');
    expect(error.message).toBe('feed.example.test did not answer within 300 ms (timeout)');
  });

  it('says when the caller cancelled', async () => {
    tls.handle(() => undefined);
    const controller = new AbortController();
    const pending = fetchGuarded(url(), { policy: FEED, accept: XML, signal: controller.signal }, net().options);
    setTimeout(() => controller.abort(), 50);
    expect((await failure(pending)).failure).toBe('cancelled');
  });
});

describe('trusted endpoints versus caller URLs', () => {
  const config = (overrides: Record<string, unknown>) => loadConfig({ env: {}, overrides: { dataDir: '/tmp/unused', ...overrides } });

  it('a configured endpoint may be on loopback; the same URL from a caller is refused', async () => {
    plain.handle((_req, res) => sendJson(res, 200, { ok: true }));
    const outbound = new Outbound(config({ 'services.githubApiUrl': plain.url }), silentLogger(), { beforeConnect: tripwire().beforeConnect });
    const trusted = await outbound.service('github').request(['repos', 'a', 'b']);
    expect(trusted.status).toBe(200);
    expect(plain.requests.map((r) => r.url)).toEqual(['/repos/a/b']);

    const error = await failure(
      outbound.fetch(`${plain.url}/repos/a/b`, { policy: publicPolicy('ingest', { allowHttp: true }), accept: ['application/json'] }),
    );
    expect(error.rule).toBe('loopback');
    // No option smuggled in by a caller turns trust on.
    const smuggled = { policy: publicPolicy('ingest', { allowHttp: true }), accept: ['application/json'], trusted: true, mode: 'trusted' };
    expect((await failure(outbound.fetch(`${plain.url}/`, smuggled))).rule).toBe('loopback');
    expect((await failure(fetchGuarded(`${plain.url}/`, smuggled))).rule).toBe('loopback');
    expect(plain.requests).toHaveLength(1);
  });

  it('the production services accessor has no test mode: a loopback caller URL is refused', async () => {
    const services = new Services(config({}), silentLogger());
    const outbound = await services.outbound();
    const error = await failure(outbound.fetch(`https://127.0.0.1:${tls.port}/`, { policy: FEED, accept: XML }));
    expect(error.rule).toBe('loopback');
    expect(tls.requests).toHaveLength(0);
  });

  it('keeps requests under the configured base: segments are encoded and cannot climb out', async () => {
    const outbound = new Outbound(config({ 'services.npmApiUrl': `${plain.url}/registry/` }), silentLogger());
    const npm = outbound.service('npm');
    expect(npm.url(['downloads', 'point', 'last-week', '@types', 'node']).href).toBe(`${plain.url}/registry/downloads/point/last-week/@types/node`);
    expect(npm.url(['a/b', '?x=1#y', '%2e%2e']).pathname).toBe('/registry/a%2Fb/%3Fx%3D1%23y/%252e%252e');
    expect(npm.url(['//evil.test']).host).toBe(`127.0.0.1:${plain.port}`);
    for (const bad of ['..', '.', '']) expect(() => npm.url(['x', bad])).toThrow(/not a valid path segment/);
  });

  it('fills {lang} only with a short lower-case code', () => {
    const outbound = new Outbound(config({ 'services.wikipediaApiUrl': 'https://{lang}.wikipedia.org/api/rest_v1' }), silentLogger());
    expect(outbound.service('wikipedia', { lang: 'zh-yue' }).base.host).toBe('zh-yue.wikipedia.org');
    for (const lang of ['evil.com/x', 'en.evil', 'EN', '', 'a@b']) {
      expect(() => outbound.service('wikipedia', { lang })).toThrow(/not a valid lang/);
    }
  });

  it('a configured endpoint that redirects to another origin is judged like a caller URL', async () => {
    plain.handle((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${tls.port}/elsewhere` });
      res.end();
    });
    const outbound = new Outbound(config({ 'services.cratesApiUrl': plain.url }), silentLogger(), { beforeConnect: tripwire().beforeConnect });
    const error = await failure(outbound.service('crates').request(['crates', 'serde']));
    expect(error.message).toMatch(/^The crates\.io API: refused: redirect from 127\.0\.0\.1: the http scheme is not allowed/);
    expect(tls.requests).toHaveLength(0);
  });
});
