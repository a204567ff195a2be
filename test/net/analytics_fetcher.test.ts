/**
 * analytics_fetcher through a real MCP client against local stand-ins for the GitHub REST API, crates.io
 * and the npm downloads API, answering in their real formats (successes, errors, rate limits, garbage).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { startHarness, textOf, type Harness } from '../helpers/harness.js';

const TOKEN = 'ghp_TESTtoken0123456789abcdefABCDEF0123';

let api: FixtureServer;
let h: Harness;
beforeAll(async () => {
  api = await startFixtureServer();
  h = await startHarness({
    overrides: {
      'services.githubApiUrl': `${api.url}/github`,
      'services.cratesApiUrl': `${api.url}/crates/api/v1`,
      'services.npmApiUrl': `${api.url}/npm`,
      'secrets.githubToken': TOKEN,
    },
  });
});
afterAll(async () => Promise.all([h.close(), api.close()]));
afterEach(() => {
  api.requests.length = 0;
});

/** A trimmed but real-shaped GET /repos/{owner}/{repo} answer. */
const REPO = {
  id: 724712,
  node_id: 'MDEwOlJlcG9zaXRvcnk3MjQ3MTI=',
  name: 'rust',
  full_name: 'rust-lang/rust',
  private: false,
  owner: { login: 'rust-lang', id: 5430905, type: 'Organization' },
  html_url: 'https://github.com/rust-lang/rust',
  description: 'Empowering everyone to build reliable and efficient software.',
  fork: false,
  stargazers_count: 97123,
  watchers_count: 97123,
  forks_count: 12543,
  open_issues_count: 10321,
  subscribers_count: 1480,
  default_branch: 'master',
};

const call = (platform: string, target: string) => h.call('analytics_fetcher', { platform, target });

describe('analytics_fetcher: code_host (GitHub)', () => {
  it('returns stars, forks and open issues, sending the token as a Bearer credential', async () => {
    api.handle((_req, res) => sendJson(res, 200, REPO, { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '4999' }));
    const result = await call('code_host', 'rust-lang/rust');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      platform: 'code_host',
      target: 'rust-lang/rust',
      source: 'GitHub REST API',
      url: 'https://github.com/rust-lang/rust',
      stars: 97123,
      forks: 12543,
      open_issues: 10321,
    });
    expect((result.structuredContent as { fetched_at: string }).fetched_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(textOf(result)).toBe(
      'rust-lang/rust (GitHub REST API): 97123 stars, 12543 forks, 10321 open issues and pull requests. https://github.com/rust-lang/rust',
    );
    const [request] = api.requests;
    expect(request!.url).toBe('/github/repos/rust-lang/rust');
    expect(request!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request!.headers.accept).toBe('application/vnd.github+json');
    expect(request!.headers['x-github-api-version']).toBe('2022-11-28');
    expect(request!.headers['user-agent']).toMatch(/^docent\//);
  });

  it("follows GitHub's redirect for a renamed repository", async () => {
    api.handle((req, res) => {
      if (req.url === '/github/repos/old-owner/old-name') {
        res.writeHead(301, { location: `${api.url}/github/repositories/724712` });
        res.end();
      } else sendJson(res, 200, REPO);
    });
    const result = await call('code_host', 'old-owner/old-name');
    expect((result.structuredContent as { target: string }).target).toBe('rust-lang/rust');
    expect(api.requests.map((r) => [r.url, r.headers.authorization])).toEqual([
      ['/github/repos/old-owner/old-name', `Bearer ${TOKEN}`],
      ['/github/repositories/724712', `Bearer ${TOKEN}`],
    ]);
  });

  it('says a missing repository is not found', async () => {
    api.handle((_req, res) =>
      sendJson(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/repos/repos#get-a-repository', status: '404' }),
    );
    const result = await call('code_host', 'nobody/nothing');
    expect(textOf(result)).toBe('GitHub has no repository nobody/nothing that this token can see. Check the owner/repository spelling.');
  });

  it('reports an exhausted rate limit with the reset time', async () => {
    const reset = Math.floor(Date.now() / 1000) + 600;
    api.handle((_req, res) =>
      sendJson(
        res,
        403,
        { message: 'API rate limit exceeded for user ID 1.', documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api' },
        { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset), 'x-ratelimit-resource': 'core' },
      ),
    );
    const result = await call('code_host', 'rust-lang/rust');
    expect(textOf(result)).toMatch(
      /^The GitHub API rate limit reached \(HTTP 403: API rate limit exceeded for user ID 1\.\)\. Retry after (599|600|601) s \(at .+Z\)\.$/,
    );
    expect(textOf(result)).toContain(new Date(reset * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  });

  it('reports a secondary rate limit (429 with Retry-After)', async () => {
    api.handle((_req, res) => sendJson(res, 429, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': '60' }));
    expect(textOf(await call('code_host', 'rust-lang/rust'))).toMatch(
      /^The GitHub API rate limit reached \(HTTP 429: You have exceeded a secondary rate limit\.\)\. Retry after 60 s/,
    );
  });

  it('says the token was rejected, naming the variable but never the token', async () => {
    api.handle((_req, res) => sendJson(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' }));
    const text = textOf(await call('code_host', 'rust-lang/rust'));
    expect(text).toBe('GitHub rejected the token in GITHUB_TOKEN (bad credentials). Ask the operator to set a valid token.');
    expect(text).not.toContain(TOKEN);
  });

  it('reports a forbidden repository that is not a rate limit', async () => {
    api.handle((_req, res) => sendJson(res, 403, { message: 'Repository access blocked' }, { 'x-ratelimit-remaining': '4000' }));
    expect(textOf(await call('code_host', 'acme/blocked'))).toBe(
      'GitHub refused access to acme/blocked (Repository access blocked). The token may lack access to it.',
    );
  });

  it.each([
    [
      'a body that is not JSON',
      (res: import('node:http').ServerResponse) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"stargazers_count": 1,');
      },
      'The GitHub API returned a malformed response (not valid JSON). Try again later; if it persists, the service may have changed its format.',
    ],
    [
      'a body without the counts',
      (res: import('node:http').ServerResponse) => sendJson(res, 200, { full_name: 'a/b', html_url: 'x' }),
      'The GitHub API returned a malformed response (missing or mistyped fields: stargazers_count, forks_count, open_issues_count). Try again later; if it persists, the service may have changed its format.',
    ],
    [
      'an HTML page',
      (res: import('node:http').ServerResponse) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>unicorn</html>');
      },
      'The GitHub API: 127.0.0.1 answered with content type text/html, expected application/json',
    ],
    [
      'a server error',
      (res: import('node:http').ServerResponse) => sendJson(res, 502, { message: 'Server Error' }),
      'The GitHub API answered HTTP 502: Server Error. The service is failing; try again later.',
    ],
  ])('turns %s into a clear error', async (_name, respond, message) => {
    api.handle((_req, res) => respond(res));
    const result = await call('code_host', 'rust-lang/rust');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(message);
  });

  it('needs GITHUB_TOKEN and says so before any request', async () => {
    const bare = await startHarness({ overrides: { 'services.githubApiUrl': api.url } });
    try {
      const result = await bare.call('analytics_fetcher', { platform: 'code_host', target: 'rust-lang/rust' });
      expect(textOf(result)).toBe(
        'analytics_fetcher (platform code_host) needs a GitHub token, but GITHUB_TOKEN is not set. Ask the operator to set the environment variable GITHUB_TOKEN and restart docent.',
      );
      expect(api.requests).toHaveLength(0);
    } finally {
      await bare.close();
    }
  });
});

describe('analytics_fetcher: rust_registry (crates.io)', () => {
  it('returns total and recent downloads', async () => {
    api.handle((_req, res) =>
      sendJson(res, 200, {
        categories: [{ id: 'encoding', category: 'Encoding' }],
        crate: {
          id: 'serde',
          name: 'serde',
          downloads: 412345678,
          recent_downloads: 61234567,
          max_version: '1.0.197',
          description: 'A generic serialization/deserialization framework',
        },
        keywords: [{ id: 'serde', keyword: 'serde' }],
        versions: [1, 2, 3],
      }),
    );
    const result = await call('rust_registry', 'serde');
    expect(result.structuredContent).toMatchObject({
      platform: 'rust_registry',
      target: 'serde',
      source: 'crates.io API',
      url: 'https://crates.io/crates/serde',
      downloads_total: 412345678,
      downloads_recent: 61234567,
    });
    expect(api.requests[0]!.url).toBe('/crates/api/v1/crates/serde');
    expect(api.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('says a missing crate is not found', async () => {
    api.handle((_req, res) => sendJson(res, 404, { errors: [{ detail: 'crate `nope-nope` does not exist' }] }));
    expect(textOf(await call('rust_registry', 'nope-nope'))).toBe('crates.io has no crate named nope-nope. Check the spelling.');
  });

  it('reports rate limiting', async () => {
    api.handle((_req, res) => sendJson(res, 429, { errors: [{ detail: 'You have been rate limited.' }] }, { 'retry-after': '5' }));
    expect(textOf(await call('rust_registry', 'serde'))).toMatch(
      /^The crates\.io API rate limit reached \(HTTP 429: You have been rate limited\.\)\. Retry after 5 s/,
    );
  });
});

describe('analytics_fetcher: js_registry (npm)', () => {
  it('returns last-week downloads and the period', async () => {
    api.handle((_req, res) => sendJson(res, 200, { downloads: 31415926, start: '2024-03-04', end: '2024-03-10', package: 'express' }));
    const result = await call('js_registry', 'express');
    expect(result.structuredContent).toMatchObject({
      platform: 'js_registry',
      target: 'express',
      url: 'https://www.npmjs.com/package/express',
      downloads_last_week: 31415926,
      period: { start: '2024-03-04', end: '2024-03-10' },
    });
    expect(api.requests[0]!.url).toBe('/npm/downloads/point/last-week/express');
  });

  it('asks for a scoped package as @scope/name, as the API documents', async () => {
    api.handle((_req, res) => sendJson(res, 200, { downloads: 99, start: '2024-03-04', end: '2024-03-10', package: '@types/node' }));
    const result = await call('js_registry', '@types/node');
    expect(api.requests[0]!.url).toBe('/npm/downloads/point/last-week/@types/node');
    expect((result.structuredContent as { url: string }).url).toBe('https://www.npmjs.com/package/@types/node');
  });

  it('says a missing package is not found', async () => {
    api.handle((_req, res) => sendJson(res, 404, { error: 'package no-such-pkg-zz not found' }));
    expect(textOf(await call('js_registry', 'no-such-pkg-zz'))).toBe('npm has no download figures for a package named no-such-pkg-zz. Check the spelling.');
  });
});

describe('analytics_fetcher: targets are validated per platform', () => {
  it.each([
    ['code_host', 'rust-lang', 'owner/repository'],
    ['code_host', 'rust-lang/rust/issues', 'owner/repository'],
    ['code_host', '-bad/repo', 'owner/repository'],
    ['code_host', 'owner/..', 'owner/repository'],
    ['code_host', '../../admin', 'owner/repository'],
    ['rust_registry', '1password', 'a crate name'],
    ['rust_registry', 'serde/../x', 'a crate name'],
    ['js_registry', '.hidden', 'an npm package name'],
    ['js_registry', '@scope/../../x', 'an npm package name'],
    ['js_registry', 'has space', 'an npm package name'],
    ['js_registry', '@Types/node', 'an npm package name'],
  ])('%s refuses %j', async (platform, target, expected) => {
    const result = await call(platform, target);
    expect(textOf(result)).toMatch(/^Invalid arguments for analytics_fetcher: `target`: /);
    expect(textOf(result)).toContain(`for ${platform}, target must be ${expected}`);
    expect(api.requests).toHaveLength(0);
  });

  it('refuses an unknown platform', async () => {
    const result = await call('pypi', 'requests');
    expect(textOf(result)).toMatch(/^Invalid arguments for analytics_fetcher: `platform`/);
  });
});
