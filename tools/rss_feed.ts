import { z } from 'zod';
import { defineTool } from '../src/catalog/definition.js';
import { ToolError } from '../src/errors.js';
import { publicPolicy } from '../src/net/destination.js';
import { OutboundError } from '../src/net/errors.js';
import { rateLimited, upstreamFailure } from '../src/net/upstream.js';

/** Feeds are fetched over https from public IPv4 addresses only (the specification's rule). */
export const FEED_POLICY = publicPolicy('rss_feed');
export const FEED_MAX_BYTES = 5 * 1024 * 1024;
const FEED_TYPES = ['application/rss+xml', 'application/atom+xml', 'application/rdf+xml', 'application/xml', 'text/xml', 'application/x-rss+xml'];

const output = z.object({
  url: z.string().describe('The URL the feed was read from, after redirects'),
  feed: z.object({ title: z.string(), link: z.string().nullable(), format: z.enum(['rss', 'atom', 'rdf']) }),
  items: z.array(
    z.object({
      title: z.string(),
      link: z.string().nullable(),
      published: z.string().nullable().describe('RFC 3339, UTC; null when the feed gives no readable date'),
      summary: z.string().describe('Plain text, at most 500 characters'),
    }),
  ),
});

export const rss_feed = defineTool({
  name: 'rss_feed',
  title: 'RSS/Atom feed reader',
  summary: 'Recent items of an RSS/Atom feed (https only, guarded)',
  description:
    'Fetches an RSS or Atom feed from an https URL and returns its most recent items, newest first: title, link, ' +
    'published time (RFC 3339) and a plain-text summary. Use it to follow a blog, release notes, a changelog or a ' +
    'news source whose feed URL you know. Requests to private, loopback or link-local addresses and to IPv6 are ' +
    'blocked, as are plain http URLs. Not for web pages (a page is not a feed) or for searching (use web_search).',
  input: z.object({
    url: z.string().trim().min(1).max(2048).describe('Feed URL, https only'),
    max_items: z.number().int().min(1).max(50).default(10).describe('How many items to return (1 to 50)'),
  }),
  output,
  side_effects: 'external',
  cost_class: 'free',
  requires_secret: false,
  hints: ['https only; private, loopback, link-local and IPv6 destinations are refused.'],
  async handler({ url, max_items }, ctx) {
    const outbound = await ctx.services.outbound();
    const response = await outbound
      .fetch(url, { policy: FEED_POLICY, accept: FEED_TYPES, maxBytes: FEED_MAX_BYTES, signal: ctx.signal })
      .catch((error: unknown) => {
        if (error instanceof OutboundError && error.rule === 'content_type') {
          throw new OutboundError(`${error.message}. That is not a feed: look for the page's RSS or Atom link and pass that URL.`, error.failure, error.rule);
        }
        throw error;
      });
    if (response.status === 404 || response.status === 410) {
      throw new ToolError(`The feed server answered ${response.status}: there is no feed at that URL. Check it.`, 'not_found');
    }
    if (response.status === 429) throw rateLimited('The feed server', response);
    if (response.status !== 200) throw upstreamFailure('The feed server', response);
    const { parseFeed } = await import('../src/net/feed.js');
    const feed = parseFeed(response.text(), response.url, max_items);
    const value = { url: response.url.href, feed: { title: feed.title, link: feed.link, format: feed.format }, items: feed.items };
    const text = feed.items.length
      ? `${feed.title || 'Feed'} (${feed.items.length} items)\n` +
        feed.items.map((it, i) => `${i + 1}. ${it.title}${it.published ? ` (${it.published})` : ''}\n   ${it.link ?? ''}\n   ${it.summary}`).join('\n')
      : `${feed.title || 'The feed'} has no items.`;
    return { value, text };
  },
});
