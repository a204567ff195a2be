/**
 * Corpus statistics of one tenant's index, rebuilt from the documents table when it changes: which
 * documents are current (and at which version), how many chunks contain each term (for IDF), every
 * identifier the documentation mentions (for "the documentation has no `rotateFiles`"), and the two
 * per-document fields: the title field, and the link field gathered from the links the other documents make.
 */
import type { DocumentRow } from '../storage/chunks.js';
import { pageKey } from './links.js';

export interface CurrentDocument {
  id: string;
  /** Its document set. */
  library: string;
  title: string;
  url?: string;
  version: string;
  /** Identifiers and code words of the document. */
  idents: Set<string>;
  /** Number of chunks of the document. */
  chunks: number;
  /** Number of the document's chunks that contain a term (body or headings). */
  chunkFrequency(term: string): number;
}

/** A document's term → chunk-count map, parsed on first use (only the documents an answer quotes need it). */
function lazyVocab(json: string | null | undefined): (term: string) => number {
  let vocab: Record<string, number> | undefined;
  return (term) => {
    vocab ??= json ? (JSON.parse(json) as Record<string, number>) : {};
    return Object.hasOwn(vocab, term) ? vocab[term]! : 0;
  };
}

export class CorpusStats {
  readonly docs = new Map<string, CurrentDocument>();
  readonly df = new Map<string, number>();
  readonly idents = new Set<string>();
  /** Number of documents each term occurs in. */
  readonly docFreq = new Map<string, number>();
  /** Number of chunks. */
  chunks = 0;
  /** The title field: each document's path words, title, top heading and description. */
  private readonly titles: DocumentField;
  /** The link field: the words other documents of its set use when they link to it (src/docs/links.ts). */
  private readonly links: DocumentField;

  constructor(rows: DocumentRow[]) {
    const titles = new Map<string, string[]>();
    for (const row of rows) {
      const idents = new Set(row.idents ? row.idents.split(' ') : []);
      this.docs.set(row.doc_id, {
        id: row.doc_id,
        library: row.library,
        title: row.title,
        url: row.url ?? undefined,
        version: row.version,
        idents,
        chunks: row.chunks,
        chunkFrequency: lazyVocab(row.vocab),
      });
      this.chunks += row.chunks;
      if (row.vocab) {
        const vocab = JSON.parse(row.vocab) as Record<string, number>;
        for (const [term, n] of Object.entries(vocab)) {
          this.df.set(term, (this.df.get(term) ?? 0) + n);
          this.docFreq.set(term, (this.docFreq.get(term) ?? 0) + 1);
        }
      }
      for (const id of idents) this.idents.add(id);
      titles.set(row.doc_id, (row.title_terms ?? '').split(' ').filter(Boolean));
    }
    this.titles = new DocumentField(titles);
    const links = new Map<string, string[]>();
    for (const [target, wordings] of inboundLinks(rows)) links.set(target, [...wordings].flatMap((w) => w.split(' ')).filter(Boolean));
    this.links = new DocumentField(links);
  }

  /**
   * BM25 of the title field for each document the query's title terms (src/docs/prepare.ts titleTerms) hit:
   * IDF over documents, term frequency saturated by k1, normalised by the title's length against the mean.
   * `bodyForm` maps a title term to its form in the passages' vocabulary: its IDF then counts the documents
   * that use the word anywhere, not only in their titles. `full` is the score of a title of mean length
   * holding every term once: what naming the whole question in a title would score.
   */
  titleScores(terms: string[], k1: number, b: number, bodyForm?: (term: string) => string): { scores: Map<string, number>; full: number } {
    return this.titles.scores(terms, k1, b, this.docs.size, this.bodyDf(bodyForm));
  }

  /** BM25 of the link field, as titleScores scores the title field. */
  linkScores(terms: string[], k1: number, b: number, bodyForm?: (term: string) => string): Map<string, number> {
    return this.links.scores(terms, k1, b, this.docs.size, this.bodyDf(bodyForm)).scores;
  }

  /** A field term's document frequency in the passages' text, `bodyForm` giving its form there (BM25F's one IDF). */
  private bodyDf(bodyForm?: (term: string) => string): ((term: string) => number) | undefined {
    return bodyForm && ((t) => this.docFreq.get(bodyForm(t)) ?? 0);
  }

  get empty(): boolean {
    return this.docs.size === 0;
  }

  /** BM25 IDF over chunks. */
  idf(term: string): number {
    return this.idfOf(this.df.get(term) ?? 0);
  }

  /** BM25 IDF of a term found in `n` chunks. */
  idfOf(n: number): number {
    return Math.log(1 + (this.chunks - n + 0.5) / (n + 0.5));
  }

  has(term: string): boolean {
    return this.df.has(term);
  }

  isCurrent(docId: string, version: string): boolean {
    return this.docs.get(docId)?.version === version;
  }
}

/** One BM25 field with a text per document (documents without one hold nothing in it). */
class DocumentField {
  readonly tf = new Map<string, Map<string, number>>();
  readonly lengths = new Map<string, number>();
  /** Number of documents whose field holds each term. */
  readonly df = new Map<string, number>();
  private total = 0;

  constructor(fields: Map<string, string[]>) {
    for (const [id, words] of fields) {
      const tf = new Map<string, number>();
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
      for (const w of tf.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
      this.tf.set(id, tf);
      this.lengths.set(id, words.length);
      this.total += words.length;
    }
  }

  /**
   * BM25 for each document the terms hit: IDF over the `n` documents, counting for each term at least the
   * documents `otherDf` says use it (BM25F's one IDF over every field), term frequency saturated by k1,
   * normalised by the field's length against its mean. `full`: a field of mean length holding every term once.
   */
  scores(terms: string[], k1: number, b: number, n: number, otherDf?: (term: string) => number): { scores: Map<string, number>; full: number } {
    const out = new Map<string, number>();
    if (!this.tf.size || !n) return { scores: out, full: 0 };
    const mean = this.total / this.tf.size || 1;
    const idf = new Map(
      [...new Set(terms)].map((t) => {
        const df = Math.max(this.df.get(t) ?? 0, otherDf?.(t) ?? 0);
        return [t, Math.log(1 + (n - df + 0.5) / (df + 0.5))];
      }),
    );
    for (const [doc, tf] of this.tf) {
      let score = 0;
      const norm = 1 - b + (b * this.lengths.get(doc)!) / mean;
      for (const [t, weight] of idf) {
        const f = tf.get(t);
        if (f) score += (weight * f * (k1 + 1)) / (f + k1 * norm);
      }
      if (score > 0) out.set(doc, score);
    }
    return { scores: out, full: [...idf.values()].reduce((a, w) => a + w, 0) };
  }
}

/** Every ending of a page key by path segment, longest first: `docs/reference/config`, `reference/config`, `config`. */
function endings(key: string): string[] {
  const parts = key.split('/');
  return parts.map((_, i) => parts.slice(i).join('/')).filter(Boolean);
}

/**
 * The wordings of the links that point at each document from the other documents of its set, each distinct
 * wording once. A link resolves to the one document whose path (its address's, for a page fetched by URL)
 * ends as the link's target does, by the longest ending that names exactly one (`/docs/reference/config`
 * finds `reference/config.md`), or, for a reference to a label, to the one document that defines it; a
 * target two documents end with or define, or none, credits nothing.
 */
export function inboundLinks(rows: readonly DocumentRow[]): Map<string, Set<string>> {
  const byLibrary = new Map<string, { paths: Map<string, Set<string>>; labels: Map<string, Set<string>> }>();
  const indexOf = (library: string) => {
    let index = byLibrary.get(library);
    if (!index) byLibrary.set(library, (index = { paths: new Map(), labels: new Map() }));
    return index;
  };
  const add = (map: Map<string, Set<string>>, key: string, value: string) => {
    const values = map.get(key) ?? new Set<string>();
    values.add(value);
    map.set(key, values);
  };
  const links = rows.map((row) => parsedLinks(row.links));
  rows.forEach((row, i) => {
    const index = indexOf(row.library);
    for (const ending of endings(pageKey(pathOf(row)))) add(index.paths, ending, row.doc_id);
    // A page's own labels (reStructuredText `.. _label:`), recorded as label keys with no words.
    for (const [key, words] of links[i]!) if (!words && key.startsWith('#')) add(index.labels, key, row.doc_id);
  });
  const out = new Map<string, Set<string>>();
  rows.forEach((row, i) => {
    const index = indexOf(row.library);
    for (const [key, words] of links[i]!) {
      if (!words) continue;
      const found = key.startsWith('#')
        ? index.labels.get(key)
        : endings(key)
            .map((ending) => index.paths.get(ending))
            .find((ids) => ids !== undefined);
      if (found?.size !== 1) continue;
      const [target] = found;
      if (target !== row.doc_id) add(out, target!, words);
    }
  });
  return out;
}

/** A document's path as its links were resolved against: its address's path when fetched by URL, else its title. */
function pathOf(row: DocumentRow): string {
  if (row.url) {
    try {
      return new URL(row.url).pathname;
    } catch {
      // An address that does not parse: the title is the path.
    }
  }
  return row.title;
}

function parsedLinks(json: string | null | undefined): [string, string][] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((l): l is [string, string] => Array.isArray(l) && typeof l[0] === 'string' && typeof l[1] === 'string') : [];
  } catch {
    return [];
  }
}
