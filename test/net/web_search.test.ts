/**
 * web_search through a real MCP client against stand-ins for the Brave Search API and the Tavily API,
 * including the paid-call confirmation policy (agent budget, explicit token outside agent mode).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { startHarness, textOf, type Harness } from '../helpers/harness.js';

const KEY = 'BSAtestKEY0123456789abcdef';
let brave: FixtureServer;
beforeAll(async () => {
  brave = await startFixtureServer();
});
afterAll(async () => brave.close());
afterEach(() => {
  brave.requests.length = 0;
});

function braveResults(n: number) {
  return {
    type: 'search',
    query: { original: 'rust async runtime', show_strict_warning: false, is_navigational: false, country: 'us', more_results_available: true },
    mixed: { type: 'mixed', main: [{ type: 'web', index: 0, all: false }] },
    web: {
      type: 'search',
      family_friendly: true,
      results: Array.from({ length: n }, (_, i) => ({
        type: 'search_result',
        title: i === 0 ? 'Tokio - An asynchronous <strong>Rust</strong> runtime' : `Result ${i + 1}`,
        url: i === 0 ? 'https://tokio.rs/' : `https://example.org/${i + 1}`,
        is_source_local: false,
        is_source_both: false,
        description: i === 0 ? 'Tokio is an <strong>asynchronous runtime</strong> for the <strong>Rust</strong> programming language.' : `Snippet ${i + 1}`,
        profile: { name: 'Tokio', url: 'https://tokio.rs/', long_name: 'tokio.rs' },
        language: 'en',
        family_friendly: true,
        meta_url: { scheme: 'https', netloc: 'tokio.rs', hostname: 'tokio.rs', path: '' },
      })),
    },
  };
}

const harness = (overrides: Record<string, unknown> = {}, agentMode = true) =>
  startHarness({
    overrides: { 'services.webSearchApiUrl': `${brave.url}/res/v1/web/search`, 'secrets.webSearchApiKey': KEY, ...overrides },
    identity: { agentMode },
  });

describe('web_search with Brave', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => h.close());

  it('returns ranked results with plain-text snippets, sending the key in X-Subscription-Token', async () => {
    brave.handle((_req, res) => sendJson(res, 200, braveResults(3)));
    const result = await h.call('web_search', { query: 'rust async runtime', max_results: 3 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      query: 'rust async runtime',
      provider: 'brave',
      results: [
        {
          rank: 1,
          title: 'Tokio - An asynchronous Rust runtime',
          url: 'https://tokio.rs/',
          snippet: 'Tokio is an asynchronous runtime for the Rust programming language.',
          score: 1,
        },
        { rank: 2, title: 'Result 2', url: 'https://example.org/2', snippet: 'Snippet 2', score: 0.5 },
        { rank: 3, title: 'Result 3', url: 'https://example.org/3', snippet: 'Snippet 3', score: 0.333 },
      ],
    });
    const [request] = brave.requests;
    expect(request!.method).toBe('GET');
    expect(Object.fromEntries(new URL(request!.url, 'http://x').searchParams)).toEqual({ q: 'rust async runtime', count: '3' });
    expect(new URL(request!.url, 'http://x').pathname).toBe('/res/v1/web/search');
    expect(request!.headers['x-subscription-token']).toBe(KEY);
    expect(textOf(result)).not.toContain(KEY);
  });

  it('defaults to 5 results and returns at most 10 whatever max_results says', async () => {
    brave.handle((req, res) => sendJson(res, 200, braveResults(Number(new URL(req.url, 'http://x').searchParams.get('count')))));
    const five = await h.call('web_search', { query: 'q' });
    expect((five.structuredContent as { results: unknown[] }).results).toHaveLength(5);
    const twenty = await h.call('web_search', { query: 'q', max_results: 20 });
    expect((twenty.structuredContent as { results: unknown[] }).results).toHaveLength(10);
    expect((twenty.structuredContent as { note: string }).note).toBe('max_results 20 was capped at 10.');
    expect(brave.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('count'))).toEqual(['5', '10']);
  });

  it('returns no results as an empty list', async () => {
    brave.handle((_req, res) => sendJson(res, 200, { type: 'search', query: { original: 'zzqx' } }));
    const result = await h.call('web_search', { query: 'zzqx' });
    expect((result.structuredContent as { results: unknown[] }).results).toEqual([]);
    expect(textOf(result)).toBe('No web results for "zzqx". Try other keywords.');
  });

  it('says the key was rejected, naming the variable and never the key', async () => {
    brave.handle((_req, res) =>
      sendJson(res, 401, {
        type: 'ErrorResponse',
        error: {
          id: 'c6a3c0a4',
          status: 401,
          code: 'SUBSCRIPTION_TOKEN_INVALID',
          detail: 'The provided subscription token is invalid.',
          meta: { component: 'authentication' },
        },
        time: 1710000000,
      }),
    );
    const text = textOf(await h.call('web_search', { query: 'q' }));
    expect(text).toBe(
      'The Brave Search API rejected the key in DOCENT_WEB_SEARCH_API_KEY (HTTP 401: The provided subscription token is invalid.). Ask the operator to check the key and plan.',
    );
    expect(text).not.toContain(KEY);
  });

  it('says when to retry after a rate limit', async () => {
    brave.handle((_req, res) =>
      sendJson(
        res,
        429,
        {
          type: 'ErrorResponse',
          error: {
            id: 'x',
            status: 429,
            code: 'RATE_LIMITED',
            detail: 'Request rate limit exceeded for plan.',
            meta: { plan: 'Free', rate_limit: 1, quota_limit: 2000 },
          },
          time: 1,
        },
        { 'x-ratelimit-limit': '1, 2000', 'x-ratelimit-remaining': '0, 1500', 'x-ratelimit-reset': '1, 1419704' },
      ),
    );
    expect(textOf(await h.call('web_search', { query: 'q' }))).toMatch(
      /^The Brave Search API rate limit reached \(HTTP 429: Request rate limit exceeded for plan\.\)\. Retry after 1 s \(at .+Z\)\.$/,
    );
  });

  it.each([
    [
      'a body that is not JSON',
      (res: import('node:http').ServerResponse) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"web": ');
      },
      'The Brave Search API returned a malformed response (not valid JSON). Try again later; if it persists, the service may have changed its format.',
    ],
    [
      'results of the wrong shape',
      (res: import('node:http').ServerResponse) => sendJson(res, 200, { web: { results: [{ title: 1 }] } }),
      'The Brave Search API returned a malformed response (not a search result list). Try again later; if it persists, the service may have changed its format.',
    ],
    [
      'a server error',
      (res: import('node:http').ServerResponse) => sendJson(res, 500, { type: 'ErrorResponse', error: { detail: 'Internal error' } }),
      'The Brave Search API answered HTTP 500: Internal error. The service is failing; try again later.',
    ],
  ])('turns %s into a clear error', async (_name, respond, message) => {
    brave.handle((_req, res) => respond(res));
    expect(textOf(await h.call('web_search', { query: 'q' }))).toBe(message);
  });

  it.each([
    ['max_results 0', { query: 'q', max_results: 0 }, /max_results/],
    ['max_results 21', { query: 'q', max_results: 21 }, /max_results/],
    ['an empty query', { query: '' }, /query/],
    ['a query over 400 characters', { query: 'q'.repeat(401) }, /query/],
  ])('validates arguments: %s', async (_name, args, field) => {
    const result = await h.call('web_search', args);
    expect(textOf(result)).toMatch(/^Invalid arguments for web_search/);
    expect(textOf(result)).toMatch(field);
    expect(brave.requests).toHaveLength(0);
  });
});

describe('web_search: paid-call confirmation and the missing key', () => {
  it('is auto-confirmed in agent mode until the budget is spent, then asks', async () => {
    brave.handle((_req, res) => sendJson(res, 200, braveResults(1)));
    const h = await harness({ 'policy.paidCallBudget': 2 });
    try {
      expect((await h.call('web_search', { query: 'a' })).isError).toBeFalsy();
      expect((await h.call('web_search', { query: 'b' })).isError).toBeFalsy();
      const third = await h.call('web_search', { query: 'c' });
      expect(textOf(third)).toMatch(
        /^Confirmation required \(paid-call budget of 2 is spent \(DOCENT_PAID_CALL_BUDGET\)\): Run a paid Brave Search web search for "c"/,
      );
      expect(brave.requests).toHaveLength(2);
    } finally {
      await h.close();
    }
  });

  it('outside agent mode asks first, and the token runs exactly that search once', async () => {
    brave.handle((_req, res) => sendJson(res, 200, braveResults(1)));
    const h = await harness({}, false);
    try {
      const first = await h.call('web_search', { query: 'tokio' });
      expect(textOf(first)).toMatch(
        /^Confirmation required \(paid call outside agent mode\): Run a paid Brave Search web search for "tokio" \(up to 5 results\)\./,
      );
      expect(brave.requests).toHaveLength(0);
      const token = /"confirmation_token": "([^"]+)"/.exec(textOf(first))![1]!;
      const other = await h.call('web_search', { query: 'something else', confirmation_token: token });
      expect(textOf(other)).toMatch(/^Confirmation required/);
      const confirmed = await h.call('web_search', { query: 'tokio', confirmation_token: token });
      expect(confirmed.isError).toBeFalsy();
      expect(brave.requests).toHaveLength(1);
    } finally {
      await h.close();
    }
  });

  it('without DOCENT_WEB_SEARCH_API_KEY says which variable to set, before confirming or calling', async () => {
    const h = await startHarness({ overrides: { 'services.webSearchApiUrl': brave.url }, identity: { agentMode: false } });
    try {
      const result = await h.call('web_search', { query: 'q' });
      expect(textOf(result)).toBe(
        'web_search needs a Brave Search API key, but DOCENT_WEB_SEARCH_API_KEY is not set. Ask the operator to set the environment variable DOCENT_WEB_SEARCH_API_KEY and restart docent.',
      );
      expect(brave.requests).toHaveLength(0);
    } finally {
      await h.close();
    }
  });
});

describe('web_search with Tavily', () => {
  it("posts the query with a Bearer key and ranks by Tavily's score", async () => {
    const tavily = await startFixtureServer((_req, res) =>
      sendJson(res, 200, {
        query: 'vector databases',
        follow_up_questions: null,
        answer: null,
        images: [],
        results: [
          { title: 'LanceDB', url: 'https://lancedb.com/', content: 'Developer-friendly, <b>serverless</b> vector database.', score: 0.61, raw_content: null },
          {
            title: 'What is a vector database?',
            url: 'https://example.org/vdb',
            content: 'A vector database indexes embeddings.',
            score: 0.93,
            raw_content: null,
          },
        ],
        response_time: 1.02,
      }),
    );
    const h = await startHarness({
      overrides: { 'services.webSearchProvider': 'tavily', 'services.webSearchApiUrl': `${tavily.url}/search`, 'secrets.webSearchApiKey': 'tvly-KEY123' },
      identity: { agentMode: true },
    });
    try {
      const result = await h.call('web_search', { query: 'vector databases', max_results: 2 });
      expect(result.structuredContent).toEqual({
        query: 'vector databases',
        provider: 'tavily',
        results: [
          { rank: 1, title: 'What is a vector database?', url: 'https://example.org/vdb', snippet: 'A vector database indexes embeddings.', score: 0.93 },
          { rank: 2, title: 'LanceDB', url: 'https://lancedb.com/', snippet: 'Developer-friendly, serverless vector database.', score: 0.61 },
        ],
      });
      const [request] = tavily.requests;
      expect(request!.method).toBe('POST');
      expect(request!.url).toBe('/search');
      expect(request!.headers.authorization).toBe('Bearer tvly-KEY123');
      expect(JSON.parse(request!.body)).toEqual({ query: 'vector databases', max_results: 2, search_depth: 'basic' });
      tavily.handle((_req, res) => sendJson(res, 401, { detail: { error: 'Unauthorized: missing or invalid API key.' } }));
      expect(textOf(await h.call('web_search', { query: 'x' }))).toBe(
        'The Tavily Search API rejected the key in DOCENT_WEB_SEARCH_API_KEY (HTTP 401: Unauthorized: missing or invalid API key.). Ask the operator to check the key and plan.',
      );
    } finally {
      await h.close();
      await tavily.close();
    }
  });
});
