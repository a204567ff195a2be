/**
 * Corpus statistics of one tenant's index, rebuilt from the documents table when it changes: which
 * documents are current (and at which version), how many chunks contain each term (for IDF), and every
 * identifier the documentation mentions (for "the documentation has no `rotateFiles`").
 */
import type { DocumentRow } from '../storage/chunks.js';
import { titleWords } from './prepare.js';
import { absenceWeight } from './everyday.js';
import { analyze, type Stemmer } from './tokens.js';

export interface CurrentDocument {
  id: string;
  title: string;
  url?: string;
  version: string;
  /** Analysed words of the title (folder and file name), as the heading field holds them. */
  titleTerms: Set<string>;
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
  readonly names = new Set<string>();
  /** Number of documents each term occurs in. */
  readonly docFreq = new Map<string, number>();
  /** Number of chunks. */
  chunks = 0;

  constructor(rows: DocumentRow[], private readonly stemmer: Stemmer) {
    for (const row of rows) {
      const titleTerms = new Set(analyze(titleWords(row.title), { stemmer }).map((t) => t.term));
      const idents = new Set(row.idents ? row.idents.split(' ') : []);
      this.docs.set(row.doc_id, {
        id: row.doc_id, title: row.title, url: row.url ?? undefined, version: row.version, titleTerms, idents,
        chunks: row.chunks, chunkFrequency: lazyVocab(row.vocab),
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
      if (row.names) for (const n of row.names.split(' ')) this.names.add(n);
    }
  }

  private corpusNameSet?: Set<string>;
  /**
   * The names of what the whole documentation set is about: terms found in at least 80% of a set of three
   * or more documents that are not everyday English (`pino` across the pino docs, not `log`). A question
   * naming one names every document's subject, as naming a title does.
   */
  get corpusNames(): Set<string> {
    if (!this.corpusNameSet) {
      this.corpusNameSet = new Set();
      const n = this.docs.size;
      if (n >= 3) {
        for (const [term, docs] of this.docFreq) {
          if (docs >= Math.max(3, 0.8 * n) && term.length >= 3 && !/^\d/.test(term) && absenceWeight(term, this.stemmer) === 1) this.corpusNameSet.add(term);
        }
      }
    }
    return this.corpusNameSet;
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
