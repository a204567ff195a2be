/** preprint_search through a real MCP client against a stand-in for the arXiv query API (Atom answers). */
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer, type RecordedRequest } from '../helpers/fixture-server.js';
import { startHarness, textOf, type Harness } from '../helpers/harness.js';
import { ARXIV_ERROR, LORA, OLD_PAPER, arxivFeed } from './fixtures/arxiv.js';

let arxiv: FixtureServer;
let h: Harness;
beforeAll(async () => {
  arxiv = await startFixtureServer();
  h = await startHarness({ overrides: { 'services.arxivApiUrl': `${arxiv.url}/api/query` } });
});
afterAll(async () => Promise.all([h.close(), arxiv.close()]));
afterEach(() => {
  arxiv.requests.length = 0;
});

const atom =
  (body: string, status = 200, headers: Record<string, string> = {}) =>
  (_req: unknown, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/atom+xml; charset=utf-8', ...headers });
    res.end(body);
  };
const params = (request: RecordedRequest) => Object.fromEntries(new URL(request.url, 'http://x').searchParams);

describe('preprint_search', () => {
  it('searches keywords and returns normalised papers', async () => {
    arxiv.handle(atom(arxivFeed([LORA, OLD_PAPER], 1234)));
    const result = await h.call('preprint_search', { query: 'low-rank adaptation', max_results: 2 });
    expect(result.isError).toBeFalsy();
    expect(params(arxiv.requests[0]!)).toEqual({
      search_query: 'all:low-rank AND all:adaptation',
      start: '0',
      max_results: '2',
      sortBy: 'relevance',
      sortOrder: 'descending',
    });
    expect(arxiv.requests[0]!.url.startsWith('/api/query?')).toBe(true);
    expect(result.structuredContent).toEqual({
      query: 'low-rank adaptation',
      search_query: 'all:low-rank AND all:adaptation',
      total_results: 1234,
      results: [
        {
          id: '2106.09685v2',
          title: 'LoRA: Low-Rank Adaptation of Large Language Models',
          summary:
            'An important paradigm of natural language processing consists of large-scale pre-training on general domain data and adaptation to particular tasks or domains. We propose Low-Rank Adaptation, or LoRA.',
          date: '2021-06-17T17:37:18Z',
          updated: '2021-10-16T18:40:34Z',
          authors: ['Edward J. Hu', 'Yelong Shen'],
          url: 'https://arxiv.org/abs/2106.09685v2',
          pdf_url: 'https://arxiv.org/pdf/2106.09685v2',
          primary_category: 'cs.CL',
          categories: ['cs.CL', 'cs.AI', 'cs.LG'],
        },
        {
          id: 'hep-ex/0307015v1',
          title: 'Multi-Electron Production at High Transverse Momenta in ep Collisions at HERA',
          summary: 'Multi-electron production is studied at high electron transverse momentum.',
          date: '2003-07-07T17:46:39Z',
          updated: '2003-07-07T17:46:39Z',
          authors: ['H1 Collaboration'],
          url: 'https://arxiv.org/abs/hep-ex/0307015v1',
          pdf_url: null,
          primary_category: 'hep-ex',
          categories: ['hep-ex'],
        },
      ],
    });
    expect(textOf(result)).toMatch(/^1\. LoRA: Low-Rank Adaptation of Large Language Models \(2106\.09685v2, 2021-06-17\) by Edward J\. Hu, Yelong Shen/);
  });

  it.each([
    ['cat:cs.CL instruction tuning', 'cat:cs.CL AND all:instruction AND all:tuning', 'relevance'],
    ['cat:cs.LG', 'cat:cs.LG', 'submittedDate'],
    ['"retrieval augmented generation" survey', 'all:"retrieval augmented generation" AND all:survey', 'relevance'],
    ['au:Hinton ti:capsule', 'au:Hinton AND ti:capsule', 'relevance'],
    ['ti:"attention is all you need"', 'ti:"attention is all you need"', 'relevance'],
    ['graph (neural) networks: survey', 'all:graph AND all:neural AND all:networks AND all:survey', 'relevance'],
    ['cat:hep-th cat:math-ph duality', 'cat:hep-th AND cat:math-ph AND all:duality', 'relevance'],
  ])('turns %j into search_query %j', async (query, searchQuery, sortBy) => {
    arxiv.handle(atom(arxivFeed([])));
    const result = await h.call('preprint_search', { query });
    expect(params(arxiv.requests[0]!)).toMatchObject({ search_query: searchQuery, max_results: '5', sortBy });
    expect(textOf(result)).toBe(`No arXiv papers match ${searchQuery}. Try fewer or broader keywords.`);
  });

  it('refuses a malformed category before asking arXiv', async () => {
    const result = await h.call('preprint_search', { query: 'cat:CS/LG transformers' });
    expect(textOf(result)).toBe('"CS LG" is not an arXiv category. Use a code such as cs.LG, hep-th or math.AG after cat:.');
    expect(arxiv.requests).toHaveLength(0);
  });

  it.each([
    ['max_results 0', { query: 'x', max_results: 0 }, /max_results/],
    ['max_results 21', { query: 'x', max_results: 21 }, /max_results/],
    ['a blank query', { query: '   ' }, /query/],
  ])('validates arguments: %s', async (_name, args, field) => {
    const result = await h.call('preprint_search', args);
    expect(textOf(result)).toMatch(/^Invalid arguments for preprint_search/);
    expect(textOf(result)).toMatch(field);
  });

  it("passes on arXiv's own explanation of a rejected query", async () => {
    arxiv.handle(atom(ARXIV_ERROR, 400));
    const result = await h.call('preprint_search', { query: 'lora' });
    expect(textOf(result)).toBe('arXiv rejected the query: max_results must be non-negative. Rephrase it.');
  });

  it('reports malformed XML clearly', async () => {
    arxiv.handle(atom('<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>oops</entry></feed>'));
    const result = await h.call('preprint_search', { query: 'lora' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The arXiv answer is not well-formed XML \(.+\)\.$/);
  });

  it('reports an answer that is not an Atom feed', async () => {
    arxiv.handle(atom('<?xml version="1.0"?><html/>'));
    expect(textOf(await h.call('preprint_search', { query: 'lora' }))).toBe('The arXiv API returned XML that is not an Atom feed. Try again later.');
  });

  it('says when to retry when arXiv is busy', async () => {
    arxiv.handle((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '3' });
      res.end('Rate exceeded.');
    });
    expect(textOf(await h.call('preprint_search', { query: 'lora' }))).toMatch(/^The arXiv API rate limit reached \(HTTP 503\)\. Retry after 3 s/);
  });

  it('reports other failures with their status', async () => {
    arxiv.handle((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('internal');
    });
    expect(textOf(await h.call('preprint_search', { query: 'lora' }))).toBe('The arXiv API answered HTTP 500. The service is failing; try again later.');
  });
});
