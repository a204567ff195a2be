/**
 * Document sets. Every document belongs to one named set, its library (a version, when wanted, is part of the
 * name: `react@18`); the pair (library, path) is the document's identity, so equal paths in two sets never
 * collide. Documents are also MCP resources, addressed `docent://{library}/{path}` with each part
 * percent-encoded (the path segment by segment, so its slashes stay).
 *
 * Pure (no I/O, no LanceDB): the HTTP routes, the CLI, the MCP server and the storage seam all read it.
 */
import path from 'node:path';
import type { DocumentInfo } from './types.js';

/** The set of uploads that name none, and of every document stored before sets existed. */
export const DEFAULT_LIBRARY = 'default';

export const LIBRARY_MAX_CHARS = 100;

export const RESOURCE_SCHEME = 'docent:';
export const RESOURCE_TEMPLATE = 'docent://{library}/{path}';

/** What is wrong with a library name, or undefined when it is usable. */
export function libraryProblem(name: string): string | undefined {
  if (!name.trim()) return 'is empty';
  if (name !== name.trim()) return 'has leading or trailing spaces';
  if (name.length > LIBRARY_MAX_CHARS) return `is longer than ${LIBRARY_MAX_CHARS} characters`;
  if (/\p{Cc}/u.test(name)) return 'contains control characters';
  if (/[/\\]/.test(name)) return 'contains a slash; name a set like "react" or "react@18"';
  return undefined;
}

/**
 * The set an ingest goes to when none is named: a folder's own name, a single file's folder's name, a URL's
 * host (`default` when there is no name to take, as for `/`).
 */
export function defaultLibraryFor(target: string, isFolder: boolean): string {
  if (/^https?:\/\//i.test(target)) {
    try {
      return new URL(target).host || DEFAULT_LIBRARY;
    } catch {
      return DEFAULT_LIBRARY;
    }
  }
  const abs = path.resolve(target);
  const name = path.basename(isFolder ? abs : path.dirname(abs));
  return name && !libraryProblem(name) ? name : DEFAULT_LIBRARY;
}

/** The media types of the kinds served as stored; markdown, and HTML as parsed, are text/markdown. */
const STORED_MEDIA_TYPES: ReadonlyMap<string, string> = new Map([
  ['text', 'text/plain'],
  ['rst', 'text/x-rst'],
  ['asciidoc', 'text/asciidoc'],
]);

/**
 * The media type a document is served as by resources/read: its stored text for markdown, text, rst and
 * AsciiDoc; HTML is served as parsed (markdown-like), which is what was indexed from it.
 */
export function resourceMimeType(contentType: string): string {
  return STORED_MEDIA_TYPES.get(contentType) ?? 'text/markdown';
}

/** `docent://react%4018/guides/setup.md` for the document `guides/setup.md` of the set `react@18`. */
export function resourceUri(library: string, title: string): string {
  return `docent://${encodeURIComponent(library)}/${title.split('/').map(encodeURIComponent).join('/')}`;
}

/** The (library, path) a resource URI names, or undefined when it is not a document URI. */
export function parseResourceUri(uri: string): { library: string; title: string } | undefined {
  const match = /^docent:\/\/([^/?#]+)\/([^?#]+)$/i.exec(uri);
  if (!match) return undefined;
  try {
    const library = decodeURIComponent(match[1]!);
    const title = match[2]!.split('/').map(decodeURIComponent).join('/');
    return library && title ? { library, title } : undefined;
  } catch {
    return undefined;
  }
}

/** The document sets among `docs`, ordered by name, with their sizes. */
export function librariesOf(docs: DocumentInfo[]): { library: string; documents: number; chunks: number; chars: number }[] {
  const sets = new Map<string, { library: string; documents: number; chunks: number; chars: number }>();
  for (const d of docs) {
    const set = sets.get(d.library) ?? { library: d.library, documents: 0, chunks: 0, chars: 0 };
    set.documents++;
    set.chunks += d.chunks;
    set.chars += d.chars;
    sets.set(d.library, set);
  }
  return [...sets.values()].sort((a, b) => (a.library < b.library ? -1 : a.library > b.library ? 1 : 0));
}
