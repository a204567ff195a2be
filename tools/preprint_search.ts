import { z } from 'zod';
import { defineTool } from '../src/catalog/definition.js';
import { rateLimited, upstreamFailure } from '../src/net/upstream.js';

const ATOM = ['application/atom+xml', 'application/xml', 'text/xml'];

const paper = z.object({
  id: z.string().describe('arXiv identifier with version, e.g. 2106.09685v2'),
  title: z.string(),
  summary: z.string().describe('The abstract, whitespace-normalised'),
  date: z.string().describe('First published (RFC 3339)'),
  updated: z.string().nullable().describe('Last revised (RFC 3339)'),
  authors: z.array(z.string()),
  url: z.string().describe('Abstract page'),
  pdf_url: z.string().nullable(),
  primary_category: z.string().nullable(),
  categories: z.array(z.string()),
});

const output = z.object({
  query: z.string(),
  search_query: z.string().describe('The query as sent to arXiv'),
  total_results: z.number().int().min(0).describe('Matches arXiv reports in all'),
  results: z.array(paper),
});

export const preprint_search = defineTool({
  name: 'preprint_search',
  title: 'Preprint search (arXiv)',
  summary: 'arXiv search (keywords or `cat:<category> <keywords>`)',
  description:
    'Searches arXiv for research papers and returns id, title, abstract, publication date, authors and links. ' +
    'Query with keywords ("retrieval augmented generation"), quoted phrases, or a category filter of the form ' +
    '`cat:<category> <keywords>` (e.g. `cat:cs.CL instruction tuning`; `cat:cs.LG` alone lists the newest ' +
    'submissions); `ti:`, `au:` and `abs:` narrow a word to title, author or abstract. Use it for scientific and ' +
    'technical literature. Not for general web content, news or documentation (use web_search).',
  input: z.object({
    query: z.string().trim().min(1).max(300).describe('Keywords, "phrases", or cat:<category> <keywords>'),
    max_results: z.number().int().min(1).max(20).default(5).describe('How many papers to return (1 to 20)'),
  }),
  output,
  side_effects: 'external',
  cost_class: 'free',
  requires_secret: false,
  hints: ['Category codes look like cs.LG, cs.CL, stat.ML, hep-th, math.AG, q-bio.NC.'],
  async handler({ query, max_results }, ctx) {
    const [{ buildArxivQuery, parseArxivFeed }, { truncate }] = await Promise.all([import('../src/net/arxiv.js'), import('../src/net/text.js')]);
    const built = buildArxivQuery(query);
    const arxiv = (await ctx.services.outbound()).service('arxiv');
    const response = await arxiv.request([], {
      query: { search_query: built.searchQuery, start: 0, max_results, sortBy: built.sortBy, sortOrder: 'descending' },
      accept: ATOM,
      maxBytes: 4 * 1024 * 1024,
      signal: ctx.signal,
    });
    if (response.status === 429 || response.status === 503) throw rateLimited('The arXiv API', response);
    if (response.status === 400) {
      parseArxivFeed(response.text()); // throws arXiv's own explanation when it gave one
      throw upstreamFailure('The arXiv API', response);
    }
    if (response.status !== 200) throw upstreamFailure('The arXiv API', response);
    const { total, papers } = parseArxivFeed(response.text());
    const results = papers.slice(0, max_results);
    const value = { query, search_query: built.searchQuery, total_results: total, results };
    const text = results.length
      ? results
          .map((p, i) => `${i + 1}. ${p.title} (${p.id}, ${p.date.slice(0, 10)}) by ${p.authors.join(', ')}\n   ${p.url}\n   ${truncate(p.summary, 300)}`)
          .join('\n')
      : `No arXiv papers match ${built.searchQuery}. Try fewer or broader keywords.`;
    return { value, text };
  },
});
