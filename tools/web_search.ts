import { z } from 'zod';
import { defineTool } from '../src/catalog/definition.js';
import { missingSecret } from '../src/net/upstream.js';

/** The most results one call returns, whatever max_results asks for. */
export const WEB_SEARCH_RESULT_CAP = 10;

const PROVIDER_TITLES = { brave: 'Brave Search', tavily: 'Tavily' } as const;

const output = z.object({
  query: z.string(),
  provider: z.enum(['brave', 'tavily']),
  results: z.array(
    z.object({
      rank: z.number().int().min(1),
      title: z.string(),
      url: z.string(),
      snippet: z.string().describe('Plain text'),
      score: z.number().min(0).max(1).describe('Relevance in [0, 1]; with Brave, which gives none, the reciprocal rank'),
    }),
  ),
  note: z.string().optional(),
});

export const web_search = defineTool({
  name: 'web_search',
  title: 'Web search',
  summary: 'Ranked web results (Brave Search API, or Tavily)',
  description:
    'Searches the web (Brave Search or Tavily, as the operator configured) and returns ranked results with title, ' +
    `URL, plain-text snippet and score; at most ${WEB_SEARCH_RESULT_CAP} per call. Use it when you have keywords or a ` +
    'question but no URL: current events, finding the right page or title, facts outside the uploaded documentation. ' +
    "Each call is a paid API request: confirmed automatically for agents within the operator's budget, otherwise " +
    'explicitly. When the URL is already known, do not search: fetch it with a crawler tool if one is available ' +
    '(rss_feed for feeds). For papers use preprint_search; for encyclopedic background, encyclopedia.',
  input: z.object({
    query: z.string().trim().min(1).max(400).describe('Search query, at most 400 characters'),
    max_results: z.number().int().min(1).max(20).default(5).describe(`How many results (1 to 20; at most ${WEB_SEARCH_RESULT_CAP} are returned)`),
  }),
  output,
  side_effects: 'external_paid',
  cost_class: 'metered',
  requires_secret: true,
  hints: [`At most ${WEB_SEARCH_RESULT_CAP} results are returned per call.`, 'Needs DOCENT_WEB_SEARCH_API_KEY (set by the operator).'],
  async handler({ query, max_results }, ctx) {
    const provider = ctx.config.services.webSearchProvider;
    const key = ctx.config.secrets.webSearchApiKey;
    if (!key) throw missingSecret('DOCENT_WEB_SEARCH_API_KEY', 'web_search', `a ${PROVIDER_TITLES[provider]} API key`);
    const count = Math.min(max_results, WEB_SEARCH_RESULT_CAP);
    await ctx.confirm({ kind: 'paid', summary: `Run a paid ${PROVIDER_TITLES[provider]} web search for "${query}" (up to ${count} results)` });
    const [{ searchWeb }, outbound] = await Promise.all([import('../src/net/web-search.js'), ctx.services.outbound()]);
    const results = await searchWeb(provider, outbound.service('webSearch'), key, query, count, ctx.signal);
    const value = {
      query,
      provider,
      results,
      ...(max_results > WEB_SEARCH_RESULT_CAP ? { note: `max_results ${max_results} was capped at ${WEB_SEARCH_RESULT_CAP}.` } : {}),
    };
    const text = results.length
      ? results.map((r) => `${r.rank}. ${r.title}\n   ${r.url}\n   ${r.snippet}`).join('\n')
      : `No web results for "${query}". Try other keywords.`;
    return { value, text };
  },
});
