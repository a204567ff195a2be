/**
 * Web search providers behind one interface (DOCENT_WEB_SEARCH_PROVIDER):
 * - `brave` (default): Brave Search API, `GET {url}?q=&count=` with the key in `X-Subscription-Token`.
 *   Brave ranks results but gives no relevance figure, so `score` is the reciprocal rank (1, 1/2, 1/3...).
 * - `tavily`: Tavily Search API, `POST {url}` with a JSON body and the key as a Bearer token; `score` is
 *   Tavily's own relevance in [0, 1].
 * Both endpoints are operator settings (DOCENT_WEB_SEARCH_API_URL), reached in trusted mode.
 */
import { z } from 'zod';
import { ToolError } from '../errors.js';
import type { FetchedResponse } from './fetch.js';
import type { ServiceEndpoint } from './outbound.js';
import { htmlToPlainText } from './text.js';
import { jsonMessage, malformed, parseJson, rateLimited, upstreamFailure } from './upstream.js';

export type WebSearchProviderName = 'brave' | 'tavily';

export interface SearchHit {
  rank: number;
  title: string;
  url: string;
  snippet: string;
  score: number;
}

interface Provider {
  title: string;
  send(endpoint: ServiceEndpoint, key: string, query: string, count: number, signal: AbortSignal): Promise<FetchedResponse>;
  /** The message of an error body. */
  detail(response: FetchedResponse): string | undefined;
  /** Results best first; `score` only when the provider gives one. */
  hits(body: unknown): (Omit<SearchHit, 'rank' | 'score'> & { score?: number })[] | undefined;
}

const SNIPPET_MAX = 400;
const round = (n: number) => Math.round(n * 1000) / 1000;

const BRAVE_BODY = z.looseObject({
  web: z.looseObject({ results: z.array(z.looseObject({ title: z.string(), url: z.string(), description: z.string().optional() })) }).optional(),
});

const TAVILY_BODY = z.looseObject({
  results: z.array(z.looseObject({ title: z.string(), url: z.string(), content: z.string().optional(), score: z.number().optional() })),
});

const PROVIDERS: Record<WebSearchProviderName, Provider> = {
  brave: {
    title: 'The Brave Search API',
    send: (endpoint, key, query, count, signal) => endpoint.request([], { query: { q: query, count }, headers: { 'x-subscription-token': key }, signal }),
    detail: (response) => jsonMessage(response, (b) => (b.error as { detail?: string } | undefined)?.detail),
    hits(body) {
      const parsed = BRAVE_BODY.safeParse(body);
      if (!parsed.success) return undefined;
      return (parsed.data.web?.results ?? []).map((r) => ({
        title: htmlToPlainText(r.title, 300),
        url: r.url,
        snippet: htmlToPlainText(r.description ?? '', SNIPPET_MAX),
      }));
    },
  },
  tavily: {
    title: 'The Tavily Search API',
    send: (endpoint, key, query, count, signal) =>
      endpoint.request([], {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query, max_results: count, search_depth: 'basic' }),
        signal,
      }),
    detail: (response) =>
      jsonMessage(response, (b) => {
        const d = b.detail as { error?: string } | string | undefined;
        return typeof d === 'string' ? d : d?.error;
      }),
    hits(body) {
      const parsed = TAVILY_BODY.safeParse(body);
      if (!parsed.success) return undefined;
      return parsed.data.results
        .map((r) => ({ title: htmlToPlainText(r.title, 300), url: r.url, snippet: htmlToPlainText(r.content ?? '', SNIPPET_MAX), score: round(r.score ?? 0) }))
        .sort((a, b) => b.score - a.score);
    },
  },
};

/** Runs one search and returns ranked hits, or throws a ToolError that says what to do. */
export async function searchWeb(
  provider: WebSearchProviderName,
  endpoint: ServiceEndpoint,
  key: string,
  query: string,
  count: number,
  signal: AbortSignal,
): Promise<SearchHit[]> {
  const p = PROVIDERS[provider];
  const response = await p.send(endpoint, key, query, count, signal);
  if (response.status === 429) throw rateLimited(p.title, response, p.detail(response));
  if (response.status === 401 || response.status === 403) {
    throw new ToolError(
      `${p.title} rejected the key in DOCENT_WEB_SEARCH_API_KEY (HTTP ${response.status}${p.detail(response) ? `: ${p.detail(response)}` : ''}). Ask the operator to check the key and plan.`,
      'upstream_auth',
    );
  }
  if (response.status !== 200) throw upstreamFailure(p.title, response, p.detail(response));
  const hits = p.hits(parseJson(p.title, response));
  if (!hits) throw malformed(p.title, 'not a search result list');
  return hits
    .filter((h) => /^https?:\/\//.test(h.url))
    .slice(0, count)
    .map((h, i) => ({ rank: i + 1, title: h.title, url: h.url, snippet: h.snippet, score: h.score ?? round(1 / (i + 1)) }));
}
