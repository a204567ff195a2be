/**
 * One document in, the rows that represent it out: parsed, chunked, analysed, hashed. Pure (no I/O), so
 * ingest can prepare a document completely before anything of it is written.
 */
import { createHash, randomUUID } from 'node:crypto';
import { CHUNKER_VERSION, chunkMarkdown, type ChunkOptions, DEFAULT_CHUNK_OPTIONS } from './chunk.js';
import { closingRun, fenceOpening, runCloses } from './fence.js';
import { contentTypeFromMime, contentTypeOf, parseDocument, type ContentType, type ParsedDocument } from './parse.js';
import { DEFAULT_LIBRARY } from './library.js';
import { analyze, titleTerms, type Stemmer } from './tokens.js';
import { LINKS_VERSION, linksOf } from './links.js';
import type { ChunkRow, DocumentRow } from '../storage/chunks.js';

/** Bumped when analysis changes, so re-ingesting refreshes every document. */
export const ANALYZER_VERSION = 'a14';

export interface AnalysisOptions {
  chunk: ChunkOptions;
  stemmer: Stemmer;
}

export const DEFAULT_ANALYSIS: AnalysisOptions = { chunk: DEFAULT_CHUNK_OPTIONS, stemmer: 'porter' };

export interface PreparedDocument {
  doc: DocumentRow;
  chunks: ChunkRow[];
}

/**
 * A document's id, from its identity (library, title). Ids of the set `default` are those of the documents
 * stored before sets existed (the title alone), so re-ingesting them into `default` updates them in place.
 */
export function documentId(title: string, library: string): string {
  const key = library === DEFAULT_LIBRARY ? title : `${library}\u0000${title}`;
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

export function contentHash(parts: string[]): string {
  const hash = createHash('sha256');
  for (const p of parts) hash.update(p).update('\u0000');
  return hash.digest('hex');
}

/** Words of a document's path, for its title field: `commands/npm-ci.md` → `commands npm-ci`. */
export function titleWords(title: string): string {
  return title.replace(/\.(md|mdx|markdown|txt|rst|html?)$/i, '').replace(/[\\/]+/g, ' ');
}

const CODE_SPAN = /`([^`\n]+)`/g;
const CODE_WORD = /[A-Za-z_$][\w$]*/g;

/**
 * The bodies of the fenced code blocks of a passage (src/docs/fence.ts). A fence never closed opens nothing
 * (a passage may hold half a block). Linear: whether a close follows is known from the longest closing run
 * below each line.
 */
function fencedCode(text: string): string[] {
  const lines = text.split('\n');
  const closer = lines.map(closingRun);
  const longest = { '`': new Array<number>(lines.length + 1).fill(0), '~': new Array<number>(lines.length + 1).fill(0) };
  for (let i = lines.length - 1; i >= 0; i--) {
    for (const c of ['`', '~'] as const) longest[c][i] = Math.max(longest[c][i + 1]!, closer[i]?.[0] === c ? closer[i]!.length : 0);
  }
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = fenceOpening(lines[i]!);
    if (!fence || longest[fence.marker[0] as '`' | '~'][i + 1]! < fence.marker.length) continue;
    let j = i + 1;
    while (!runCloses(closer[j], fence)) j++;
    out.push(lines.slice(i + 1, j).join('\n'));
    i = j;
  }
  return out;
}

/**
 * Identifiers the document mentions: every identifier-shaped term, plus every word that appears in inline
 * code or a code block (so `inc` counts, but "bump" in prose does not make `semver.bump()` exist).
 */
export function identifiersOf(text: string, stemmer: Stemmer): Set<string> {
  const out = new Set<string>();
  for (const t of analyze(text, { stemmer })) if (t.identifier) out.add(t.term);
  const code: string[] = [];
  for (const m of text.matchAll(CODE_SPAN)) code.push(m[1]!);
  code.push(...fencedCode(text));
  for (const span of code) {
    for (const w of span.matchAll(CODE_WORD)) out.add(w[0].replace(/^[_$]+/, '').toLowerCase());
    for (const t of analyze(span, { stemmer })) if (t.identifier) out.add(t.term);
  }
  out.delete('');
  return out;
}

export interface PrepareInput {
  title: string;
  content: string;
  contentType: ContentType;
  url?: string;
  origin: string;
  /** The document set (src/docs/library.ts). */
  library: string;
}

export function resolveContentType(title: string, declared?: string): ContentType | undefined {
  return contentTypeFromMime(declared) ?? contentTypeOf(title) ?? (declared ? undefined : 'text');
}

export function hashOf(input: PrepareInput, options: AnalysisOptions): string {
  return contentHash([
    CHUNKER_VERSION,
    ANALYZER_VERSION,
    LINKS_VERSION,
    String(options.chunk.maxChars),
    String(options.chunk.pack === true),
    options.stemmer,
    input.contentType,
    input.url ?? '',
    input.content,
  ]);
}

/** `parsed` is the document as parseDocument reads it, when the caller read it already (src/docs/parse-away.ts). */
export function prepareDocument(
  input: PrepareInput,
  options: AnalysisOptions = DEFAULT_ANALYSIS,
  hash = hashOf(input, options),
  parsed: ParsedDocument = parseDocument(input.content, input.contentType),
): PreparedDocument {
  const docId = documentId(input.title, input.library);
  const version = randomUUID().replace(/-/g, '').slice(0, 16);
  const pieces = chunkMarkdown(parsed.body, options.chunk, parsed.description);
  // The heading every section sits under (a page's one top heading) names the document, as its title does:
  // it belongs to the title field, once per document, not to every passage's heading field.
  const firsts = new Set(pieces.flatMap((p) => p.headings.map((h) => h[0] ?? '')));
  const root = firsts.size === 1 ? [...firsts][0]! : '';
  const vocab = new Map<string, number>();
  const idents = new Set<string>();
  const chunks: ChunkRow[] = pieces.map((piece, ord) => {
    const body = analyze(piece.text, { stemmer: options.stemmer });
    const titles = new Set(piece.headings.flatMap((h) => (root && h[0] === root ? h.slice(1) : h)));
    const head = analyze([...titles].join(' \n '), { stemmer: options.stemmer });
    const seen = new Set<string>();
    for (const t of [...body, ...head]) {
      if (seen.has(t.term)) continue;
      seen.add(t.term);
      vocab.set(t.term, (vocab.get(t.term) ?? 0) + 1);
    }
    for (const id of identifiersOf(`${piece.section}\n${piece.text}`, options.stemmer)) idents.add(id);
    return {
      chunk_id: `${docId}:${version}:${ord}`,
      doc_id: docId,
      library: input.library,
      version,
      ord,
      section: piece.section,
      text: piece.text,
      body_terms: body.map((t) => t.term).join(' '),
      head_terms: head.map((t) => t.term).join(' '),
    };
  });
  // Words only the title field holds (a page's title, top heading, description or other front matter) are still the
  // documentation's words: counted in no passage, but known, so a question using them is not told they are missing.
  const heading = [titleWords(input.title), parsed.title ?? '', root, parsed.description ?? '', parsed.metadata ?? ''].join(' \n ');
  for (const t of analyze(heading, { stemmer: options.stemmer })) if (!vocab.has(t.term)) vocab.set(t.term, 0);
  return {
    doc: {
      doc_id: docId,
      library: input.library,
      title: input.title,
      url: input.url ?? null,
      origin: input.origin,
      content_type: input.contentType,
      hash,
      version,
      chunks: chunks.length,
      chars: input.content.length,
      updated_at: new Date().toISOString(),
      vocab: JSON.stringify(Object.fromEntries(vocab)),
      idents: [...idents].join(' '),
      names: '',
      title_terms: titleTerms(heading),
      content: input.content,
      links: JSON.stringify(linksOf(parsed.body, input.title, input.url, parsed.links, input.contentType === 'rst' ? input.content : undefined)),
    },
    chunks,
  };
}
