/**
 * rss_feed through a real MCP client against an HTTPS fixture on 127.0.0.1. The feed host name resolves
 * to the fixture only through the test resolver, in the test-only mode; the certificate is made at test time.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureServer } from '../helpers/fixture-server.js';
import { textOf } from '../helpers/harness.js';
import { ATOM, ENTITY_BOMB, RDF, RSS_2 } from './fixtures/feeds.js';
import { startHttpsFixture, startNetHarness, type NetHarness } from './helpers/network.js';

let feeds: FixtureServer;
let h: NetHarness;
let base: string;

beforeAll(async () => {
  feeds = await startHttpsFixture();
  base = `https://feed.example.test:${feeds.port}`;
  h = await startNetHarness({
    table: { 'feed.example.test': '127.0.0.1', 'private.example.test': '10.1.2.3' },
    allowLoopbackForTests: true,
  });
});
afterAll(async () => Promise.all([h.close(), feeds.close()]));
afterEach(() => {
  feeds.requests.length = 0;
});

const serve =
  (body: string, type = 'application/rss+xml; charset=utf-8', status = 200) =>
  (_req: unknown, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  };

interface Items {
  url: string;
  feed: { title: string; link: string | null; format: string };
  items: { title: string; link: string | null; published: string | null; summary: string }[];
}

describe('rss_feed', () => {
  it('reads RSS 2.0: newest first, RFC 3339 dates, plain-text summaries, resolved links', async () => {
    feeds.handle(serve(RSS_2));
    const result = await h.call('rss_feed', { url: `${base}/en/feed/blog.xml` });
    expect(result.isError).toBeFalsy();
    const value = result.structuredContent as unknown as Items;
    expect(value.feed).toEqual({ title: 'Node.js Blog', link: 'https://nodejs.org/en/blog', format: 'rss' });
    expect(value.items).toEqual([
      {
        title: 'Security releases & updates',
        link: `${base}/en/blog/vulnerability/february-2024`,
        published: '2024-02-14T09:00:00Z',
        summary: 'Fixes for 8 CVEs.',
      },
      {
        title: 'Node v20.11.0 (LTS)',
        link: 'https://nodejs.org/en/blog/release/v20.11.0',
        published: '2024-01-09T16:25:31Z',
        summary: 'This release brings permission model updates & more. * esm: loader hooks',
      },
      {
        title: 'Node v18.19.0 (LTS)',
        link: 'https://nodejs.org/en/blog/release/v18.19.0',
        published: '2023-11-29T14:00:00Z',
        summary: 'Notable changes npm updated to 10.',
      },
      { title: 'An item without a date', link: null, published: null, summary: 'No date here.' },
    ]);
    expect(feeds.requests[0]!.headers.host).toBe(`feed.example.test:${feeds.port}`);
    expect(feeds.requests[0]!.headers.accept).toContain('application/rss+xml');
  });

  it('reads Atom (published, else updated; HTML content to text)', async () => {
    feeds.handle(serve(ATOM, 'application/atom+xml'));
    const value = (await h.call('rss_feed', { url: `${base}/releases.atom` })).structuredContent as unknown as Items;
    expect(value.feed).toEqual({ title: 'Release notes from node', link: 'https://github.com/nodejs/node/releases', format: 'atom' });
    expect(value.items).toEqual([
      {
        title: '2024-02-14, Version 21.6.2 (Current), @RafaelGSS',
        link: 'https://github.com/nodejs/node/releases/tag/v21.6.2',
        published: '2024-02-14T12:00:00Z',
        summary: 'This is a security release.',
      },
      {
        title: '2024-01-22, Version 21.6.1 (Current)',
        link: 'https://github.com/nodejs/node/releases/tag/v21.6.1',
        published: '2024-01-22T17:30:00Z',
        summary: 'Fixes a regression.',
      },
    ]);
  });

  it('reads RSS 1.0 (RDF)', async () => {
    feeds.handle(serve(RDF, 'application/rdf+xml'));
    const value = (await h.call('rss_feed', { url: `${base}/rss` })).structuredContent as unknown as Items;
    expect(value.feed.format).toBe('rdf');
    expect(value.items).toEqual([{ title: 'First', link: 'https://example.org/a', published: '2024-03-01T08:00:00Z', summary: 'Alpha' }]);
  });

  it('returns max_items items (default 10) and caps long summaries', async () => {
    const many = Array.from(
      { length: 30 },
      (_, i) =>
        `<item><title>Item ${i}</title><pubDate>${new Date(Date.UTC(2024, 0, 1 + i)).toUTCString()}</pubDate><description>${'word '.repeat(200)}</description></item>`,
    );
    feeds.handle(serve(`<rss version="2.0"><channel><title>Many</title>${many.join('')}</channel></rss>`));
    const byDefault = (await h.call('rss_feed', { url: `${base}/many.xml` })).structuredContent as unknown as Items;
    expect(byDefault.items.map((i) => i.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Item ${29 - i}`));
    expect(byDefault.items[0]!.summary.length).toBeLessThanOrEqual(500);
    expect(byDefault.items[0]!.summary.endsWith('…')).toBe(true);
    const three = (await h.call('rss_feed', { url: `${base}/many.xml`, max_items: 3 })).structuredContent as unknown as Items;
    expect(three.items).toHaveLength(3);
  });

  it.each([
    ['max_items 0', { url: `https://feed.example.test/x`, max_items: 0 }, /max_items/],
    ['max_items 51', { url: `https://feed.example.test/x`, max_items: 51 }, /max_items/],
    ['an empty url', { url: '' }, /url/],
    ['a url over 2048 characters', { url: `https://feed.example.test/${'a'.repeat(2100)}` }, /url/],
  ])('validates its arguments: %s', async (_name, args, field) => {
    const result = await h.call('rss_feed', args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Invalid arguments for rss_feed/);
    expect(textOf(result)).toMatch(field);
  });

  it('says a web page is not a feed', async () => {
    feeds.handle(serve('<!doctype html><html><body>blog</body></html>', 'text/html; charset=utf-8'));
    const result = await h.call('rss_feed', { url: `${base}/blog` });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "feed.example.test answered with content type text/html, expected application/rss+xml or application/atom+xml or application/rdf+xml or application/xml or text/xml or application/x-rss+xml. That is not a feed: look for the page's RSS or Atom link and pass that URL.",
    );
  });

  it('says XML that is not a feed is not a feed', async () => {
    feeds.handle(serve('<?xml version="1.0"?><html><body/></html>', 'application/xml'));
    const result = await h.call('rss_feed', { url: `${base}/page.xml` });
    expect(textOf(result)).toBe('The URL returned XML that is not an RSS or Atom feed (its root element is <html>). Check the feed URL.');
  });

  it('reports malformed XML clearly', async () => {
    feeds.handle(serve('<rss version="2.0"><channel><title>Broken</channel></rss>'));
    const result = await h.call('rss_feed', { url: `${base}/broken.xml` });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The feed is not well-formed XML \(.+\)\.$/);
  });

  it('does not expand nested entities (billion laughs): the answer stays small', async () => {
    feeds.handle(serve(ENTITY_BOMB));
    const result = await h.call('rss_feed', { url: `${base}/bomb.xml` });
    expect(result.isError).toBeFalsy();
    const value = result.structuredContent as unknown as Items;
    expect(value.items).toHaveLength(1);
    expect(value.items[0]!.title.length).toBeLessThan(100);
    expect(JSON.stringify(value).length).toBeLessThan(1000);
  });

  it.each([
    [404, 'The feed server answered 404: there is no feed at that URL. Check it.'],
    [410, 'The feed server answered 410: there is no feed at that URL. Check it.'],
    [503, 'The feed server answered HTTP 503. The service is failing; try again later.'],
  ])('turns HTTP %i into a clear error', async (status, message) => {
    feeds.handle(serve('nope', 'text/plain', status));
    const result = await h.call('rss_feed', { url: `${base}/gone.xml` });
    expect(textOf(result)).toBe(message);
  });

  it('says when a rate-limited feed may be retried', async () => {
    feeds.handle((_req, res) => {
      res.writeHead(429, { 'retry-after': '120', 'content-type': 'text/plain' });
      res.end('slow down');
    });
    const result = await h.call('rss_feed', { url: `${base}/busy.xml` });
    expect(textOf(result)).toMatch(/^The feed server rate limit reached \(HTTP 429\)\. Retry after 120 s \(at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)\.$/);
  });

  it('refuses a redirect to a private address, after the first hop only', async () => {
    feeds.handle((_req, res) => {
      res.writeHead(301, { location: 'https://private.example.test/feed.xml' });
      res.end();
    });
    const result = await h.call('rss_feed', { url: `${base}/moved.xml` });
    expect(textOf(result)).toBe(
      'refused: redirect from feed.example.test: private.example.test resolves to 10.1.2.3, a private address (rss_feed blocks private, loopback, link-local, reserved and IPv6 destinations)',
    );
    expect(feeds.requests).toHaveLength(1);
    expect(h.attempts.every((a) => a.address === '127.0.0.1')).toBe(true);
  });

  it('refuses a feed larger than the cap', async () => {
    feeds.handle(serve(`<rss version="2.0"><channel>${'<item><title>x</title></item>'.repeat(200_000)}</channel></rss>`));
    const result = await h.call('rss_feed', { url: `${base}/huge.xml` });
    expect(textOf(result)).toBe('feed.example.test sent more than 5242880 bytes, the size cap for this request');
  });
});
