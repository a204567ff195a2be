/**
 * The tenant's documents as MCP resources: `resources/list` (paged: RESOURCES_PAGE per page, an opaque cursor
 * for the next), `resources/read` (the whole document, src/docs/index.ts readDocument) and one template,
 * `docent://{library}/{path}`. The URIs are those the sources of query results carry. A URI names a document
 * of the caller's tenant only: another tenant's document is simply not found.
 */
import { ErrorCode, McpError, type ListResourcesResult, type ReadResourceResult, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { DocIndex } from '../docs/index.js';
import { parseResourceUri, resourceMimeType, RESOURCE_TEMPLATE } from '../docs/library.js';

/** Resources per resources/list page. */
export const RESOURCES_PAGE = 100;

/** JSON-RPC error of a resource that does not exist (the MCP specification's "Resource not found"). */
export const RESOURCE_NOT_FOUND = -32002;

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: RESOURCE_TEMPLATE,
    name: 'document',
    title: 'A documentation page',
    description:
      'One ingested document, whole: {library} is its document set, {path} its path within the set (each ' +
      'percent-encoded; the path keeps its slashes). The sources of rag_query answers carry these URIs.',
  },
];

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

function decodeCursor(cursor: string): number {
  try {
    const offset = (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown }).o;
    if (typeof offset === 'number' && Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    // reported below
  }
  throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor: pass the nextCursor of the previous resources/list page unchanged, or none for the first page.');
}

export async function listDocumentResources(index: DocIndex, cursor: string | undefined): Promise<ListResourcesResult> {
  const offset = cursor === undefined ? 0 : decodeCursor(cursor);
  const docs = await index.listDocuments();
  const page = docs.slice(offset, offset + RESOURCES_PAGE);
  return {
    resources: page.map((d) => ({
      uri: d.uri,
      name: d.title,
      title: `${d.title} (${d.library})`,
      description: `Document of the set "${d.library}": ${d.chunks} passages, ${d.chars} characters${d.url ? `; published at ${d.url}` : ''}.`,
      mimeType: resourceMimeType(d.content_type),
      size: d.chars,
    })),
    ...(offset + RESOURCES_PAGE < docs.length ? { nextCursor: encodeCursor(offset + RESOURCES_PAGE) } : {}),
  };
}

export async function readDocumentResource(index: DocIndex, uri: string): Promise<ReadResourceResult> {
  const named = parseResourceUri(uri);
  if (!named) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Not a document URI: "${uri.slice(0, 200)}". Documents are docent://{library}/{path}; resources/list lists them.`,
    );
  }
  const found = await index.readDocument(named.library, named.title);
  if (!found) {
    throw new McpError(
      RESOURCE_NOT_FOUND,
      `Resource not found: no document "${named.title.slice(0, 200)}" in the set "${named.library.slice(0, 100)}". resources/list lists the documents.`,
      { uri },
    );
  }
  return { contents: [{ uri: found.doc.uri, mimeType: found.mimeType, text: found.text }] };
}
