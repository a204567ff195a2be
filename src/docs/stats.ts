/**
 * Corpus statistics of one tenant's index, rebuilt from the documents table when it changes: which
 * documents are current (and at which version), how many chunks contain each term (for IDF), and every
 * identifier the documentation mentions (for "the documentation has no `rotateFiles`").
 */
import type { DocumentRow } from '../storage/chunks.js';

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
  /** The title field: per document its terms' frequencies and length; per term the documents it titles. */
  private readonly titles = new Map<string, { tf: Map<string, number>; length: number }>();
  private readonly titleDf = new Map<string, number>();
  private titleLength = 0;

  constructor(rows: DocumentRow[]) {
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
      const words = (row.title_terms ?? '').split(' ').filter(Boolean);
      const tf = new Map<string, number>();
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
      for (const w of tf.keys()) this.titleDf.set(w, (this.titleDf.get(w) ?? 0) + 1);
      this.titles.set(row.doc_id, { tf, length: words.length });
      this.titleLength += words.length;
    }
  }

  /**
   * BM25 of the title field for each document the query's title terms (src/docs/prepare.ts titleTerms) hit:
   * IDF over documents, term frequency saturated by k1, normalised by the title's length against the mean.
   * `bodyForm` maps a title term to its form in the passages' vocabulary: its IDF then counts the documents
   * that use the word anywhere, not only in their titles. `full` is the score of a title of mean length
   * holding every term once: what naming the whole question in a title would score.
   */
  titleScores(terms: string[], k1: number, b: number, bodyForm?: (term: string) => string): { scores: Map<string, number>; full: number } {
    const out = new Map<string, number>();
    const n = this.titles.size;
    if (!n) return { scores: out, full: 0 };
    const mean = this.titleLength / n || 1;
    // With `bodyForm` (BM25F's one IDF over every field), a word most documents use in their text says little
    // about which one the question means, however few titles hold it ("MkDocs", "install").
    const idf = new Map(
      [...new Set(terms)].map((t) => {
        const df = Math.max(this.titleDf.get(t) ?? 0, bodyForm ? (this.docFreq.get(bodyForm(t)) ?? 0) : 0);
        return [t, Math.log(1 + (n - df + 0.5) / (df + 0.5))];
      }),
    );
    for (const [doc, title] of this.titles) {
      let score = 0;
      for (const [t, weight] of idf) {
        const tf = title.tf.get(t);
        if (!tf) continue;
        score += (weight * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * title.length) / mean));
      }
      if (score > 0) out.set(doc, score);
    }
    return { scores: out, full: [...idf.values()].reduce((a, w) => a + w, 0) };
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
