/**
 * RSS 2.0 (and 0.9x), Atom 1.0 and RSS 1.0 (RDF) feeds to plain items: title, link, published (RFC 3339)
 * and a plain-text summary. XML that is not well formed, or well formed but not a feed, is a clear error.
 * Entity expansion is bounded (fast-xml-parser limits), so a hostile feed cannot blow up memory.
 */
import { XMLParser } from 'fast-xml-parser';
import { ToolError } from '../errors.js';
import { htmlToPlainText, normaliseWhitespace } from './text.js';

export const SUMMARY_MAX_CHARS = 500;

export type FeedFormat = 'rss' | 'atom' | 'rdf';

export interface FeedItem {
  title: string;
  link: string | null;
  published: string | null;
  summary: string;
}

export interface Feed {
  format: FeedFormat;
  title: string;
  link: string | null;
  items: FeedItem[];
}

const ARRAYS = new Set(['item', 'entry', 'link', 'author', 'category']);

export function xmlParser(): XMLParser {
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    htmlEntities: true,
    processEntities: { enabled: true, maxEntityCount: 50, maxEntitySize: 1000, maxTotalExpansions: 2000, maxExpandedLength: 200_000 },
    isArray: (name) => ARRAYS.has(name),
  });
}

/** Parses XML, turning every parser complaint into a ToolError that says what is wrong. */
export function parseXml(xml: string, what: string): Record<string, unknown> {
  try {
    return xmlParser().parse(xml, true) as Record<string, unknown>;
  } catch (error) {
    const detail = normaliseWhitespace(String((error as Error).message ?? error)).slice(0, 200);
    throw new ToolError(`${what} is not well-formed XML (${detail}).`, 'bad_upstream_response');
  }
}

type Node = unknown;

/** Text content of an element that may carry attributes (then its text is under `#text`). */
export function textOf(node: Node): string {
  if (node === undefined || node === null) return '';
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean') return String(node);
  if (Array.isArray(node)) return textOf(node[0]);
  if (typeof node === 'object') return textOf((node as Record<string, unknown>)['#text']);
  return '';
}

const list = (node: Node): Node[] => (node === undefined || node === null ? [] : Array.isArray(node) ? node : [node]);
const field = (node: Node, name: string): Node => (node && typeof node === 'object' ? (node as Record<string, unknown>)[name] : undefined);

/** An RFC 3339 UTC timestamp, or null when the feed's date cannot be read. */
export function toRfc3339(raw: string): string | null {
  const text = raw.trim();
  if (!text) return null;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return null;
  return new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
}

/** An absolute http(s) link, resolved against the feed's URL; anything else (javascript:, data:) is dropped. */
function absoluteLink(raw: string, base: URL): string | null {
  if (!raw.trim()) return null;
  try {
    const url = new URL(raw.trim(), base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

function atomLink(links: Node, base: URL): string | null {
  const all = list(links);
  const chosen = all.find((l) => (field(l, '@_rel') ?? 'alternate') === 'alternate' && field(l, '@_href')) ?? all.find((l) => field(l, '@_href'));
  return chosen ? absoluteLink(String(field(chosen, '@_href')), base) : null;
}

function item(title: Node, link: string | null, date: Node, summary: Node): FeedItem {
  return {
    title: htmlToPlainText(textOf(title), 300) || '(untitled)',
    link,
    published: toRfc3339(textOf(date)),
    summary: htmlToPlainText(textOf(summary), SUMMARY_MAX_CHARS),
  };
}

/** Newest first where items carry dates (undated items keep their order, after the dated ones). */
function newestFirst(items: FeedItem[]): FeedItem[] {
  return items
    .map((it, index) => ({ it, index }))
    .sort((a, b) => {
      const x = a.it.published;
      const y = b.it.published;
      if (x && y) return x < y ? 1 : x > y ? -1 : a.index - b.index;
      if (x) return -1;
      if (y) return 1;
      return a.index - b.index;
    })
    .map(({ it }) => it);
}

export function parseFeed(xml: string, base: URL, maxItems: number): Feed {
  const doc = parseXml(xml, 'The feed');
  let feed: Feed;
  if (doc.rss !== undefined) {
    const channel = field(doc.rss, 'channel');
    feed = {
      format: 'rss',
      title: htmlToPlainText(textOf(field(channel, 'title')), 300),
      link: absoluteLink(textOf(field(channel, 'link')), base),
      items: list(field(channel, 'item')).map((it) =>
        item(
          field(it, 'title'),
          absoluteLink(textOf(field(it, 'link')), base) ?? permalink(field(it, 'guid'), base),
          field(it, 'pubDate') ?? field(it, 'dc:date'),
          field(it, 'description') ?? field(it, 'content:encoded'),
        ),
      ),
    };
  } else if (doc.feed !== undefined) {
    feed = {
      format: 'atom',
      title: htmlToPlainText(textOf(field(doc.feed, 'title')), 300),
      link: atomLink(field(doc.feed, 'link'), base),
      items: list(field(doc.feed, 'entry')).map((entry) =>
        item(
          field(entry, 'title'),
          atomLink(field(entry, 'link'), base),
          field(entry, 'published') ?? field(entry, 'updated'),
          field(entry, 'summary') ?? field(entry, 'content'),
        ),
      ),
    };
  } else if (doc['rdf:RDF'] !== undefined) {
    const rdf = doc['rdf:RDF'];
    const channel = field(rdf, 'channel');
    feed = {
      format: 'rdf',
      title: htmlToPlainText(textOf(field(channel, 'title')), 300),
      link: absoluteLink(textOf(field(channel, 'link')), base),
      items: list(field(rdf, 'item')).map((it) =>
        item(field(it, 'title'), absoluteLink(textOf(field(it, 'link')), base), field(it, 'dc:date'), field(it, 'description')),
      ),
    };
  } else {
    const root = Object.keys(doc).find((k) => !k.startsWith('?')) ?? 'nothing';
    throw new ToolError(`The URL returned XML that is not an RSS or Atom feed (its root element is <${root}>). Check the feed URL.`, 'not_a_feed');
  }
  return { ...feed, items: newestFirst(feed.items).slice(0, maxItems) };
}

/** An RSS guid is a link only when it says so (isPermaLink defaults to true). */
function permalink(guid: Node, base: URL): string | null {
  if (guid === undefined || field(guid, '@_isPermaLink') === 'false') return null;
  return absoluteLink(textOf(guid), base);
}
