/**
 * Fetching one documentation page by URL for ingest, through the outbound guard (src/net): https only,
 * public addresses only, size-capped. The page becomes a DocumentInput titled by its host and path.
 */
import { ToolError } from '../errors.js';
import { publicPolicy } from '../net/destination.js';
import type { Outbound } from '../net/outbound.js';
import { contentTypeFromMime } from './parse.js';
import type { DocumentInput } from './types.js';

const ACCEPT = ['text/html', 'application/xhtml+xml', 'text/markdown', 'text/x-markdown', 'text/plain', 'text/x-rst'];
const MAX_BYTES = 5 * 1024 * 1024;

/** `https://docs.example.com/guide/intro.html` → `docs.example.com/guide/intro.html`. */
export function titleForUrl(url: URL): string {
  const path = url.pathname.replace(/\/+$/, '') || '';
  return `${url.host}${path}`;
}

export async function fetchDocument(outbound: Outbound, url: string, signal?: AbortSignal): Promise<DocumentInput> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ToolError(`Cannot ingest ${url}: not a valid URL.`, 'invalid_arguments');
  }
  const response = await outbound.fetch(parsed, { policy: publicPolicy('docent ingest'), accept: ACCEPT, maxBytes: MAX_BYTES, signal });
  const declared = contentTypeFromMime(response.mediaType);
  const contentType = declared === 'text' && /\.(md|mdx|markdown)$/i.test(response.url.pathname) ? 'markdown' : (declared ?? 'html');
  return { title: titleForUrl(response.url), content: response.text(), contentType, url: response.url.toString() };
}
