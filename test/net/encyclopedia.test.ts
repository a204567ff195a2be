/** encyclopedia through a real MCP client against a stand-in for the Wikipedia REST API (page summaries). */
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { startHarness, textOf, type Harness } from '../helpers/harness.js';

let wiki: FixtureServer;
let h: Harness;
beforeAll(async () => {
  wiki = await startFixtureServer();
  // {lang} is part of the path here, so the tests see it filled in.
  h = await startHarness({ overrides: { 'services.wikipediaApiUrl': `${wiki.url}/{lang}/api/rest_v1` } });
});
afterAll(async () => Promise.all([h.close(), wiki.close()]));
afterEach(() => {
  wiki.requests.length = 0;
});

const SUMMARY_TYPE = 'application/json; charset=utf-8; profile="https://www.mediawiki.org/wiki/Specs/Summary/1.4.0"';

function summary(overrides: Record<string, unknown> = {}) {
  return {
    type: 'standard',
    title: 'Ada Lovelace',
    displaytitle: '<span class="mw-page-title-main">Ada Lovelace</span>',
    namespace: { id: 0, text: '' },
    wikibase_item: 'Q7259',
    titles: { canonical: 'Ada_Lovelace', normalized: 'Ada Lovelace', display: '<span class="mw-page-title-main">Ada Lovelace</span>' },
    pageid: 974,
    lang: 'en',
    dir: 'ltr',
    revision: '1213000000',
    tid: 'e9c1d5a0-0000-11ee-0000-000000000000',
    timestamp: '2024-03-10T12:00:00Z',
    description: 'English mathematician (1815–1852)',
    description_source: 'local',
    content_urls: {
      desktop: { page: 'https://en.wikipedia.org/wiki/Ada_Lovelace', revisions: 'https://en.wikipedia.org/wiki/Ada_Lovelace?action=history' },
      mobile: { page: 'https://en.m.wikipedia.org/wiki/Ada_Lovelace' },
    },
    extract: 'Augusta Ada King, Countess of Lovelace was an English mathematician and writer.',
    extract_html: '<p><b>Augusta Ada King, Countess of Lovelace</b> was an English mathematician and writer.</p>',
    ...overrides,
  };
}

const json =
  (status: number, body: unknown, type = SUMMARY_TYPE) =>
  (_req: unknown, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': type });
    res.end(JSON.stringify(body));
  };

describe('encyclopedia', () => {
  it('returns title, extract, description and URL of a page summary', async () => {
    wiki.handle(json(200, summary()));
    const result = await h.call('encyclopedia', { title: 'Ada Lovelace' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      title: 'Ada Lovelace',
      extract: 'Augusta Ada King, Countess of Lovelace was an English mathematician and writer.',
      description: 'English mathematician (1815–1852)',
      url: 'https://en.wikipedia.org/wiki/Ada_Lovelace',
      lang: 'en',
      disambiguation: false,
    });
    expect(wiki.requests[0]!.url).toBe('/en/api/rest_v1/page/summary/Ada_Lovelace');
  });

  it('fills in the language edition and encodes the title as one path segment', async () => {
    wiki.handle(json(200, summary({ title: 'AC/DC', lang: 'de', description: undefined })));
    const result = await h.call('encyclopedia', { title: 'AC/DC', lang: 'de' });
    expect(wiki.requests[0]!.url).toBe('/de/api/rest_v1/page/summary/AC%2FDC');
    expect((result.structuredContent as { description: unknown }).description).toBeNull();
    await h.call('encyclopedia', { title: 'Rust (programming language)', lang: 'zh-yue' });
    expect(wiki.requests[1]!.url).toBe('/zh-yue/api/rest_v1/page/summary/Rust_(programming_language)');
  });

  it('follows the redirect of a redirect page', async () => {
    wiki.handle((req, res) => {
      if (req.url.endsWith('/Lovelace')) {
        res.writeHead(302, { location: 'Ada_Lovelace', 'content-type': 'application/json' });
        res.end();
      } else json(200, summary())(req, res);
    });
    const result = await h.call('encyclopedia', { title: 'Lovelace' });
    expect((result.structuredContent as { title: string }).title).toBe('Ada Lovelace');
    expect(wiki.requests.map((r) => r.url)).toEqual(['/en/api/rest_v1/page/summary/Lovelace', '/en/api/rest_v1/page/summary/Ada_Lovelace']);
  });

  it('flags a disambiguation page', async () => {
    wiki.handle(
      json(
        200,
        summary({
          type: 'disambiguation',
          title: 'Mercury',
          description: undefined,
          extract: 'Mercury commonly refers to:',
          content_urls: { desktop: { page: 'https://en.wikipedia.org/wiki/Mercury' } },
        }),
      ),
    );
    const result = await h.call('encyclopedia', { title: 'Mercury' });
    expect((result.structuredContent as { disambiguation: boolean }).disambiguation).toBe(true);
    expect(textOf(result)).toMatch(/^"Mercury" is a disambiguation page: it names several things\. Call again with a more precise title\./);
  });

  it('says a missing page is not found and points to web_search', async () => {
    wiki.handle(
      json(
        404,
        {
          type: 'https://mediawiki.org/wiki/HyperSwitch/errors/not_found',
          title: 'Not found.',
          method: 'get',
          detail: 'Page or revision not found.',
          uri: '/en.wikipedia.org/v1/page/summary/Qwxzy',
        },
        'application/problem+json',
      ),
    );
    const result = await h.call('encyclopedia', { title: 'Qwxzy' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Wikipedia (en) has no page titled "Qwxzy". encyclopedia needs a near-exact title: use web_search to find the right one, or for topics without a page.',
    );
  });

  it('explains a title Wikipedia cannot use', async () => {
    wiki.handle(
      json(
        400,
        { type: 'https://mediawiki.org/wiki/HyperSwitch/errors/bad_request', title: 'Bad Request', method: 'get', detail: 'title-invalid-characters' },
        'application/problem+json',
      ),
    );
    expect(textOf(await h.call('encyclopedia', { title: 'a|b' }))).toBe(
      'Wikipedia cannot use "a|b" as a page title (title-invalid-characters). Give a plain page title.',
    );
  });

  it('reports rate limiting and failures', async () => {
    wiki.handle((_req, res) => sendJson(res, 429, { title: 'Too many requests' }, { 'retry-after': '10' }));
    expect(textOf(await h.call('encyclopedia', { title: 'Ada Lovelace' }))).toMatch(
      /^The Wikipedia API rate limit reached \(HTTP 429: Too many requests\)\. Retry after 10 s/,
    );
    wiki.handle((_req, res) => sendJson(res, 503, { detail: 'upstream connect error' }));
    expect(textOf(await h.call('encyclopedia', { title: 'Ada Lovelace' }))).toBe(
      'The Wikipedia API answered HTTP 503: upstream connect error. The service is failing; try again later.',
    );
  });

  it.each([
    [
      'a body that is not JSON',
      (_r: unknown, res: ServerResponse) => {
        res.writeHead(200, { 'content-type': SUMMARY_TYPE });
        res.end('<html>');
      },
      'The Wikipedia API returned a malformed response (not valid JSON). Try again later; if it persists, the service may have changed its format.',
    ],
    [
      'JSON that is not a summary',
      json(200, { items: [] }),
      'The Wikipedia API returned a malformed response (not a page summary). Try again later; if it persists, the service may have changed its format.',
    ],
  ])('reports %s clearly', async (_name, handler, message) => {
    wiki.handle(handler);
    expect(textOf(await h.call('encyclopedia', { title: 'Ada Lovelace' }))).toBe(message);
  });

  it.each(['EN', 'en.evil.test', 'en/../../x', 'e', 'english', 'en_GB', '127.0.0.1'])('refuses lang %j before any request', async (lang) => {
    const result = await h.call('encyclopedia', { title: 'Ada Lovelace', lang });
    expect(textOf(result)).toMatch(/^Invalid arguments for encyclopedia: `lang`: a Wikipedia language code/);
    expect(wiki.requests).toHaveLength(0);
  });
});
