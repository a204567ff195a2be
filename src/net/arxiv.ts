/**
 * The arXiv query API: from a caller's query to `search_query` syntax, and from the Atom answer to papers.
 *
 * Query forms: plain keywords (each becomes `all:<word>`, joined with AND), "quoted phrases", and fielded
 * terms `cat:<category>`, `ti:`, `au:`, `abs:`; `cat:cs.LG transformers` is `cat:cs.LG AND all:transformers`.
 * A query of categories only lists the newest submissions in them.
 */
import { ToolError } from '../errors.js';
import { parseXml, textOf, toRfc3339 } from './feed.js';
import { normaliseWhitespace } from './text.js';

export interface ArxivQuery {
  searchQuery: string;
  /** Category-only queries sort by submission date; the rest by relevance. */
  sortBy: 'relevance' | 'submittedDate';
}

const FIELDS = new Set(['all', 'ti', 'au', 'abs', 'cat']);
const CATEGORY = /^[a-z][a-z-]*(\.[A-Za-z][A-Za-z-]*)?$/;
// Characters with meaning in arXiv query syntax are dropped from free text; letters and digits of any script stay.
const term = (text: string) =>
  text
    .replace(/[^\p{L}\p{N}\s.'+-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

export function buildArxivQuery(raw: string): ArxivQuery {
  const parts: string[] = [];
  let categoriesOnly = true;
  const tokens = raw.match(/(?:[A-Za-z]+:)?"[^"]*"|\S+/g) ?? [];
  for (const token of tokens) {
    const fielded = /^([A-Za-z]+):(.+)$/.exec(token);
    const named = fielded && FIELDS.has(fielded[1]!.toLowerCase());
    const field = named ? fielded[1]!.toLowerCase() : 'all';
    let value = named ? fielded[2]! : token;
    const phrase = value.startsWith('"');
    value = phrase ? term(value.replace(/"/g, '')) : term(value);
    if (!value) continue;
    if (field === 'cat') {
      if (!CATEGORY.test(value)) {
        throw new ToolError(`"${value}" is not an arXiv category. Use a code such as cs.LG, hep-th or math.AG after cat:.`, 'invalid_arguments');
      }
      parts.push(`cat:${value}`);
      continue;
    }
    categoriesOnly = false;
    if (phrase || value.includes(' ')) parts.push(`${field}:"${value}"`);
    else parts.push(`${field}:${value}`);
  }
  if (parts.length === 0) {
    throw new ToolError('The query has no searchable words. Give keywords, a "phrase", or cat:<category> <keywords>.', 'invalid_arguments');
  }
  return { searchQuery: parts.join(' AND '), sortBy: categoriesOnly ? 'submittedDate' : 'relevance' };
}

export interface Paper {
  id: string;
  title: string;
  summary: string;
  date: string;
  updated: string | null;
  authors: string[];
  url: string;
  pdf_url: string | null;
  primary_category: string | null;
  categories: string[];
}

const asList = (node: unknown): unknown[] => (node === undefined || node === null ? [] : Array.isArray(node) ? node : [node]);
const attr = (node: unknown, name: string): string | undefined => {
  const value = node && typeof node === 'object' ? (node as Record<string, unknown>)[`@_${name}`] : undefined;
  return typeof value === 'string' ? value : undefined;
};
const child = (node: unknown, name: string): unknown => (node && typeof node === 'object' ? (node as Record<string, unknown>)[name] : undefined);
const https = (url: string) => url.replace(/^http:\/\/arxiv\.org\//, 'https://arxiv.org/');

/** Papers of an arXiv Atom answer; an API error entry becomes a ToolError carrying arXiv's explanation. */
export function parseArxivFeed(xml: string): { total: number; papers: Paper[] } {
  const doc = parseXml(xml, 'The arXiv answer');
  const feed = child(doc, 'feed');
  if (feed === undefined) throw new ToolError('The arXiv API returned XML that is not an Atom feed. Try again later.', 'bad_upstream_response');
  const entries = asList(child(feed, 'entry'));
  const error = entries.find((e) => textOf(child(e, 'id')).includes('arxiv.org/api/errors'));
  if (error) {
    throw new ToolError(`arXiv rejected the query: ${normaliseWhitespace(textOf(child(error, 'summary')))}. Rephrase it.`, 'invalid_arguments');
  }
  const papers = entries.map((entry): Paper => {
    const idUrl = textOf(child(entry, 'id'));
    const links = asList(child(entry, 'link'));
    const published = toRfc3339(textOf(child(entry, 'published')));
    if (!idUrl || !published) throw new ToolError('The arXiv API returned an entry without an id or a date. Try again later.', 'bad_upstream_response');
    const alternate = links.find((l) => attr(l, 'rel') === 'alternate');
    const pdf = links.find((l) => attr(l, 'title') === 'pdf');
    return {
      id: idUrl.replace(/^https?:\/\/arxiv\.org\/abs\//, ''),
      title: normaliseWhitespace(textOf(child(entry, 'title'))),
      summary: normaliseWhitespace(textOf(child(entry, 'summary'))),
      date: published,
      updated: toRfc3339(textOf(child(entry, 'updated'))),
      authors: asList(child(entry, 'author'))
        .map((a) => normaliseWhitespace(textOf(child(a, 'name'))))
        .filter(Boolean),
      url: https(attr(alternate, 'href') ?? idUrl),
      pdf_url: pdf && attr(pdf, 'href') ? https(attr(pdf, 'href')!) : null,
      primary_category: attr(child(entry, 'arxiv:primary_category'), 'term') ?? null,
      categories: asList(child(entry, 'category'))
        .map((c) => attr(c, 'term'))
        .filter((c): c is string => Boolean(c)),
    };
  });
  const total = Number(textOf(child(feed, 'opensearch:totalResults')));
  return { total: Number.isFinite(total) ? total : papers.length, papers };
}
