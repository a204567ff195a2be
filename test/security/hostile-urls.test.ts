/**
 * Hostile URLs against rss_feed and chat_webhook, through a real MCP client. Every one must be refused,
 * before any connection: the fixture servers record no request, and the tripwire (which throws for any
 * address but 127.0.0.1) sees no attempt. Controls prove the fixtures are reachable when a URL is allowed,
 * so "no request" means the guard stopped it.
 */
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { textOf } from '../helpers/harness.js';
import { startHttpsFixture, startNetHarness, type NetHarness } from '../net/helpers/network.js';

let tls: FixtureServer;
let plain: FixtureServer;
beforeAll(async () => {
  [tls, plain] = await Promise.all([startHttpsFixture(), startFixtureServer()]);
  const ok = (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/rss+xml' });
    res.end('<rss version="2.0"><channel><title>fixture</title></channel></rss>');
  };
  tls.handle(ok);
  plain.handle(ok);
});
afterAll(async () => Promise.all([tls.close(), plain.close()]));

/** Host names the hostile URLs use, and where a (broken) guard would send them. */
const TABLE = {
  'feed.example.test': '127.0.0.1',
  'loop.example.test': '127.0.0.1',
  'rebind.example.test': ['93.184.216.34', '10.0.0.5'],
  'metadata.example.test': '169.254.169.254',
  'v6only.example.test': ['2606:4700::1111'],
  'mapped.example.test': ['::ffff:127.0.0.1'],
  'cgnat.example.test': '100.100.100.100',
  'zero.example.test': '0.0.0.0',
  'hooks.chat.test': '127.0.0.1',
  'hooks.chat.test.evil.example.test': '127.0.0.1',
  'x.hooks.chat.test': '127.0.0.1',
  'hooks-chat.test': '127.0.0.1',
  'evil.example.test': '127.0.0.1',
};

describe('rss_feed refuses hostile URLs before connecting', () => {
  let h: NetHarness;
  beforeAll(async () => {
    h = await startNetHarness({ table: TABLE }); // production rules: no test-only loopback mode
  });
  afterAll(async () => h.close());

  const P = () => tls.port;
  const hostile = (): [string, string][] => [
    ['plain http to the fixture', `http://127.0.0.1:${plain.port}/feed.xml`],
    ['loopback literal', `https://127.0.0.1:${P()}/feed.xml`],
    ['localhost', `https://localhost:${P()}/feed.xml`],
    ['localhost with a trailing dot', `https://localhost.:${P()}/feed.xml`],
    ['hex loopback', `https://0x7f000001:${P()}/feed.xml`],
    ['decimal loopback', `https://2130706433:${P()}/feed.xml`],
    ['short loopback', `https://127.1:${P()}/feed.xml`],
    ['octal loopback', `https://0177.0.0.1:${P()}/feed.xml`],
    ['mixed hex loopback', `https://0x7f.1:${P()}/feed.xml`],
    ['percent-encoded loopback', `https://%31%32%37.0.0.1:${P()}/feed.xml`],
    ['full-width loopback digits', `https://１２７.０.０.１:${P()}/feed.xml`],
    ['loopback with a trailing dot', `https://127.0.0.1.:${P()}/feed.xml`],
    ['IPv6 loopback', `https://[::1]:${P()}/feed.xml`],
    ['IPv4-mapped loopback', `https://[::ffff:127.0.0.1]:${P()}/feed.xml`],
    ['IPv4-mapped loopback, hex', `https://[::ffff:7f00:1]:${P()}/feed.xml`],
    ['IPv4-mapped loopback, long form', `https://[0:0:0:0:0:ffff:127.0.0.1]:${P()}/feed.xml`],
    ['NAT64 loopback', `https://[64:ff9b::7f00:1]:${P()}/feed.xml`],
    ['unspecified', `https://0.0.0.0:${P()}/feed.xml`],
    ['unspecified, short', `https://0:${P()}/feed.xml`],
    ['private 10/8', 'https://10.0.0.5/feed.xml'],
    ['private 172.16/12', 'https://172.16.0.1/feed.xml'],
    ['private 192.168/16', 'https://192.168.1.1/feed.xml'],
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data/'],
    ['CGNAT', 'https://100.64.0.1/feed.xml'],
    ['multicast', 'https://224.0.0.1/feed.xml'],
    ['broadcast', 'https://255.255.255.255/feed.xml'],
    ['documentation range', 'https://198.51.100.7/feed.xml'],
    ['reserved range', 'https://240.0.0.1/feed.xml'],
    ['IPv6 link-local', 'https://[fe80::1]/feed.xml'],
    ['IPv6 unique local', 'https://[fd00::1]/feed.xml'],
    ['public IPv6 (IPv6 is blocked)', 'https://[2606:4700::1111]/feed.xml'],
    ['user info', `https://user:pass@feed.example.test:${P()}/feed.xml`],
    ['name resolving to loopback', `https://loop.example.test:${P()}/feed.xml`],
    ['name resolving to public and private (rebinding)', 'https://rebind.example.test/feed.xml'],
    ['name resolving to the metadata address', 'https://metadata.example.test/feed.xml'],
    ['name resolving to IPv6 only', 'https://v6only.example.test/feed.xml'],
    ['name resolving to IPv4-mapped loopback', `https://mapped.example.test:${P()}/feed.xml`],
    ['name resolving to CGNAT', 'https://cgnat.example.test/feed.xml'],
    ['name resolving to 0.0.0.0', `https://zero.example.test:${P()}/feed.xml`],
    ['single-label name', 'https://metadata/computeMetadata/v1/'],
    ['.internal name', 'https://db.internal/feed.xml'],
    ['.local name', 'https://printer.local/feed.xml'],
    ['file scheme', 'file:///etc/passwd'],
    ['ftp scheme', `ftp://127.0.0.1:${P()}/feed.xml`],
    ['gopher scheme', `gopher://127.0.0.1:${P()}/_GET`],
    ['data URL', 'data:application/rss+xml,<rss/>'],
    ['javascript URL', 'javascript:alert(1)'],
    ['relative URL', '/etc/passwd'],
  ];

  it('refuses every one, with the rule that fired, and sends nothing', async () => {
    const list = hostile();
    expect(list.length).toBeGreaterThanOrEqual(30);
    const outcomes: string[] = [];
    for (const [name, url] of list) {
      const result = await h.call('rss_feed', { url });
      outcomes.push(`${name}: ${result.isError ? textOf(result) : 'ACCEPTED'}`);
    }
    for (const line of outcomes) {
      expect(line).toMatch(/^[^:]+: refused: /);
      if (!line.startsWith('relative URL')) expect(line).toMatch(/ \(rss_feed blocks private, loopback, link-local, reserved and IPv6 destinations\)$/);
    }
    expect(tls.requests).toHaveLength(0);
    expect(plain.requests).toHaveLength(0);
    expect(h.attempts).toEqual([]);
  });

  it('names the rule for the classic cases', async () => {
    const cases: [string, string][] = [
      ['https://10.0.0.5/feed.xml', 'refused: 10.0.0.5 is a private address'],
      [`https://0x7f000001:${P()}/`, 'refused: 127.0.0.1 is a loopback address'],
      [`https://[::ffff:127.0.0.1]:${P()}/`, 'refused: [::ffff:7f00:1] is an IPv6 address that maps to 127.0.0.1, a loopback address'],
      ['https://rebind.example.test/', 'refused: rebind.example.test resolves to 10.0.0.5, a private address'],
      ['https://metadata.example.test/', 'refused: metadata.example.test resolves to 169.254.169.254, a link-local address'],
      ['https://v6only.example.test/', 'refused: v6only.example.test resolves only to IPv6 addresses'],
      [`http://127.0.0.1:${plain.port}/`, 'refused: the http scheme is not allowed, only https'],
    ];
    for (const [url, start] of cases) expect(textOf(await h.call('rss_feed', { url }))).toMatch(new RegExp(`^${start.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(h.attempts).toEqual([]);
  });

  it('control: with the test-only mode, the fixture is reachable by name (so "no request" above is meaningful)', async () => {
    const control = await startNetHarness({ table: TABLE, allowLoopbackForTests: true });
    try {
      const result = await control.call('rss_feed', { url: `https://feed.example.test:${P()}/feed.xml` });
      expect(result.isError).toBeFalsy();
      expect(tls.requests).toHaveLength(1);
    } finally {
      tls.requests.length = 0;
      await control.close();
    }
  });
});

describe('chat_webhook refuses hostile webhook URLs before asking or connecting', () => {
  const SECRET = 'B0SECRETPATHxyz';
  let hooks: FixtureServer;
  let h: NetHarness;
  let H: string;
  beforeAll(async () => {
    hooks = await startHttpsFixture((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('ok');
    });
    H = `hooks.chat.test:${hooks.port}`;
    h = await startNetHarness({ table: TABLE, allowLoopbackForTests: true, overrides: { 'services.chatWebhookHost': H } });
  });
  afterAll(async () => Promise.all([h.close(), hooks.close()]));

  const path = `/services/T0001/${SECRET}/abc`;
  const hostile = (): [string, string][] => [
    ['http scheme', `http://${H}${path}`],
    ['user info', `https://user:pass@${H}${path}`],
    ['host as user info', `https://${H}@evil.example.test:${hooks.port}${path}`],
    ['look-alike suffix', `https://hooks.chat.test.evil.example.test:${hooks.port}${path}`],
    ['subdomain', `https://x.hooks.chat.test:${hooks.port}${path}`],
    ['look-alike with a hyphen', `https://hooks-chat.test:${hooks.port}${path}`],
    ['upper case host', `https://HOOKS.CHAT.TEST:${hooks.port}${path}`],
    ['trailing dot', `https://hooks.chat.test.:${hooks.port}${path}`],
    ['other port', `https://hooks.chat.test:1${path}`],
    ['default port instead of the configured one', `https://hooks.chat.test${path}`],
    ['percent-encoded host', `https://hooks%2echat.test:${hooks.port}${path}`],
    ['full-width host', `https://ｈｏｏｋｓ.chat.test:${hooks.port}${path}`],
    ['IDN homograph (Cyrillic o)', `https://h\u043e\u043eks.chat.test:${hooks.port}${path}`],
    ['punycode look-alike', `https://xn--hks-qdda.chat.test:${hooks.port}${path}`],
    ['backslash trick', `https://${H}\\@evil.example.test${path}`],
    ['fragment trick', `https://evil.example.test:${hooks.port}/#@${H}${path}`],
    ['loopback literal', `https://127.0.0.1:${hooks.port}${path}`],
    ['IPv6 literal', `https://[::1]:${hooks.port}${path}`],
    ['not a webhook path', `https://${H}/api/chat.postMessage`],
    ['no path', `https://${H}`],
    ['query string', `${'https://'}${H}${path}?next=https://evil.example.test`],
    ['fragment', `https://${H}${path}#x`],
    ['dot segments', `https://${H}/services/../admin/${SECRET}`],
    ['encoded dot segments', `https://${H}/services/%2e%2e/admin/${SECRET}`],
    ['encoded slash', `https://${H}/services/T0001%2F${SECRET}`],
    ['path case variant', `https://${H}/Services/T0001/${SECRET}`],
    ['double slash', `https://${H}//services/T0001/${SECRET}`],
    ['scheme-relative', `//${H}${path}`],
    ['javascript URL', `javascript:fetch('https://${H}${path}')`],
  ];

  it('refuses every one without confirmation or request, and never repeats the secret', async () => {
    const list = hostile();
    expect(list.length).toBeGreaterThanOrEqual(25);
    for (const [name, webhook_url] of list) {
      const result = await h.call('chat_webhook', { webhook_url, text: 'hello' });
      const text = textOf(result);
      expect(result.isError, name).toBe(true);
      expect(text, name).toMatch(/^refused: /);
      expect(text, name).toMatch(
        new RegExp(`chat_webhook posts only to incoming-webhook URLs of the form https://hooks\\.chat\\.test:${hooks.port}/services/\\.\\.\\.$`),
      );
      expect(text, name).not.toContain(SECRET);
    }
    expect(hooks.requests).toHaveLength(0);
    expect(h.attempts).toEqual([]);
  });

  it('control: the real webhook URL passes validation and waits for confirmation; nothing is sent yet', async () => {
    const result = await h.call('chat_webhook', { webhook_url: `https://${H}${path}`, text: 'hello' });
    expect(textOf(result)).toMatch(/^Confirmation required/);
    expect(textOf(result)).not.toContain(SECRET);
    expect(hooks.requests).toHaveLength(0);
  });

  it('refuses an exact webhook URL whose host resolves to a private address, even after the user said yes', async () => {
    const priv = await startNetHarness({
      table: { 'hooks.chat.test': '10.9.8.7' },
      overrides: { 'services.chatWebhookHost': H },
      capabilities: { elicitation: {} },
    });
    priv.client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { confirm: true } }));
    try {
      const result = await priv.call('chat_webhook', { webhook_url: `https://${H}${path}`, text: 'x' });
      expect(textOf(result)).toBe(
        `refused: hooks.chat.test resolves to 10.9.8.7, a private address (chat_webhook posts only to ${H} on a public IPv4 address)`,
      );
      expect(priv.attempts).toEqual([]);
    } finally {
      await priv.close();
    }
  });
});

describe('chat_webhook with the default host refuses look-alikes of hooks.slack.com', () => {
  let h: NetHarness;
  beforeAll(async () => {
    h = await startNetHarness({ table: {} });
  });
  afterAll(async () => h.close());

  it.each([
    'https://hooks.slack.com.evil.test/services/T000/B000/XXXX',
    'https://hooks-slack.com/services/T000/B000/XXXX',
    'https://x.hooks.slack.com/services/T000/B000/XXXX',
    'https://hooks.slack.com:8443/services/T000/B000/XXXX',
    'https://hooks.slack.com@evil.test/services/T000/B000/XXXX',
    'https://hooks.slack.com%2F@evil.test/services/T000/B000/XXXX',
    'https://hooks.slack.co/services/T000/B000/XXXX',
    'https://hooks.sl\u0430ck.com/services/T000/B000/XXXX',
    'https://HOOKS.SLACK.COM/services/T000/B000/XXXX',
    'https://hooks.slack.com./services/T000/B000/XXXX',
    'http://hooks.slack.com/services/T000/B000/XXXX',
  ])('%s', async (webhook_url) => {
    const result = await h.call('chat_webhook', { webhook_url, text: 'hi' });
    expect(textOf(result)).toMatch(/^refused: .+chat_webhook posts only to incoming-webhook URLs of the form https:\/\/hooks\.slack\.com\/services\/\.\.\.$/);
    expect(textOf(result)).not.toContain('XXXX');
    expect(h.attempts).toEqual([]);
  });
});
