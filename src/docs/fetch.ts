/**
 * Fetching one documentation page by URL for ingest, through the outbound guard (src/net): https only,
 * public addresses only, size-capped. The page becomes a DocumentInput titled by its host and path.
 */
import { ToolError } from '../errors.js';
import { bareHost, publicPolicy } from '../net/destination.js';
import type { Outbound } from '../net/outbound.js';
import { rateLimited } from '../net/upstream.js';
import { CONTENT_TYPES, contentTypeFromMime, contentTypeOf } from './parse.js';
import { declaredCharset, decodeText } from './text.js';
import type { DocumentInput } from './types.js';

const ACCEPT = ['text/html', 'application/xhtml+xml', 'text/markdown', 'text/x-markdown', 'text/plain', 'text/x-rst', 'text/asciidoc'];
const MAX_BYTES = 5 * 1024 * 1024;

/**
 * `https://docs.example.com/guide/intro.html` → `docs.example.com/guide/intro.html`; a query string is kept
 * (`?page=2` is another page than `?page=1`), a fragment is not.
 */
export function titleForUrl(url: URL): string {
  const path = url.pathname.replace(/(?<!\/)\/+$/, '') || '';
  return `${url.host}${path}${url.search}`;
}

export async function fetchDocument(outbound: Outbound, url: string, signal?: AbortSignal): Promise<DocumentInput> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ToolError(`Cannot ingest ${url}: not a valid URL.`, 'invalid_arguments');
  }
  const response = await outbound.fetch(parsed, { policy: publicPolicy('docent ingest'), accept: ACCEPT, maxBytes: MAX_BYTES, signal });
  // An error page is not documentation: refuse it rather than index (or replace a page with) its text.
  if (response.status < 200 || response.status >= 300) {
    const host = bareHost(response.url);
    if (response.status === 429) throw rateLimited(`Cannot ingest ${url}: ${host}`, response);
    const missing = response.status === 404 || response.status === 410;
    const advice = missing
      ? 'there is no page at that URL. Check the URL.'
      : response.status >= 500
        ? 'the site is failing. Try again later.'
        : 'check the URL and that the page is public.';
    throw new ToolError(`Cannot ingest ${url}: ${host} answered HTTP ${response.status}: ${advice}`, missing ? 'not_found' : 'upstream_error', {
      status: response.status,
    });
  }
  const declared = contentTypeFromMime(response.mediaType);
  // Markdown and AsciiDoc are often served as text/plain (raw files on a code host): the file name tells.
  const named = declared === 'text' ? contentTypeOf(response.url.pathname) : undefined;
  const contentType = named === 'markdown' || named === 'asciidoc' ? named : (declared ?? 'html');
  const checked = decodeText(response.body, declaredCharset(response.headers['content-type'] as string | undefined));
  if (!checked.ok) {
    throw new ToolError(
      `Cannot ingest ${url}: ${checked.reason}. Only text documentation (${CONTENT_TYPES.join(', ')}) is indexed.`,
      'unsupported_document_type',
      { url },
    );
  }
  return { title: titleForUrl(response.url), content: checked.text, contentType, url: response.url.toString() };
}
