/**
 * Retrieval: LanceDB's full-text index (BM25 over the analysed body and heading fields, plus the question
 * words' related words at a lower weight) proposes candidate chunks; they are re-scored by how much of the
 * question they cover (IDF-weighted, heading matches included, related words at RELATED_WEIGHT) and grouped
 * by document. With embeddings, vector neighbours join the candidates and the two
 * rankings are fused by reciprocal rank.
 */
import type { ChunkRow, ChunkStore } from '../storage/chunks.js';
import { analyze, type Stemmer } from './tokens.js';
import type { QueryTerm } from './question.js';
import type { CorpusStats, CurrentDocument } from './stats.js';

export interface RetrievalTuning {
  /** Weight of the heading field (document title + section path) against the body in BM25. */
  headBoost: number;
  /** Candidates fetched from the full-text index. */
  candidates: number;
  /** How much coverage of the question multiplies the BM25 score: score = bm25 * (1 + coverageWeight * coverage). */
  coverageWeight: number;
  /** Share of a document's second-best chunk added to its score. */
  secondChunkWeight: number;
  /**
   * How much naming a document's title (its folder or file name: usually the package or topic) in the
   * question multiplies that document's score: score · (1 + titleWeight · r), r = IDF of the rarest title word
   * found in the question relative to the question's rarest word.
   */
  titleWeight: number;
}

/** Chosen by measurement on the evaluation set (see the README's retrieval notes). */
export const DEFAULT_TUNING: RetrievalTuning = { headBoost: 2, candidates: 40, coverageWeight: 2, secondChunkWeight: 0.15, titleWeight: 2 };

export interface Candidate {
  chunk: ChunkRow;
  doc: CurrentDocument;
  bm25: number;
  /** Fused rank score when vectors take part. */
  fused?: number;
  /** IDF-weighted share of the question's terms found in this chunk (body or headings). */
  coverage: number;
  /** Terms of the question found in this chunk. */
  matched: Set<string>;
  /** Terms of the question not found in this chunk but matched by a related word (src/docs/vocabulary.ts). */
  related: Set<string>;
  score: number;
}

export interface RankedDocument {
  doc: CurrentDocument;
  score: number;
  /** Its candidates, best first. */
  chunks: Candidate[];
  /** IDF-weighted share of the question covered by its top chunks together. */
  coverage: number;
  /** IDF of the rarest title word the question names, relative to the question's rarest word (0: none). */
  titleMatch: number;
}

export interface Retrieval {
  terms: QueryTerm[];
  candidates: Candidate[];
  documents: RankedDocument[];
}

function termSet(chunk: ChunkRow): Set<string> {
  return new Set(`${chunk.body_terms} ${chunk.head_terms}`.split(' '));
}

/**
 * A question term matched only through a related word (src/docs/vocabulary.ts) counts this share of its
 * weight in coverage and in choosing what to quote. Measured (`npm run eval -- --holdout`, answer match eval /
 * holdout): 0.3 → 0.80 / 0.80, 0.5 → 0.82 / 0.82, 0.7 → 0.80 / 0.82.
 */
export const RELATED_WEIGHT = 0.5;
/**
 * The same in the full-text search (BM25 of related words scaled by this): a related word must not outweigh
 * the question's own words when ranking. Measured (hit@1 eval, answer match eval / holdout): 0 → 0.95, 0.82 /
 * 0.79; 0.15 → 0.95, 0.82 / 0.82; 0.3 → 0.93, 0.80 / 0.82; 0.5 → 0.93, 0.83 / 0.82.
 */
const RELATED_SEARCH_WEIGHT = 0.15;

/**
 * Weighted share of the question found (`present`), or found through a related word (`related`, at
 * RELATED_WEIGHT); each term weighs its IDF unless `weight` says otherwise.
 */
export function coverageOf(
  terms: QueryTerm[],
  present: (term: string) => boolean,
  related?: (term: string) => boolean,
  weight: (t: QueryTerm) => number = (t) => t.idf,
): number {
  let total = 0;
  let covered = 0;
  for (const t of terms) {
    const w = weight(t);
    total += w;
    if (present(t.term)) covered += w;
    else if (related?.(t.term)) covered += RELATED_WEIGHT * w;
  }
  return total ? covered / total : 0;
}

/**
 * A question naming what the whole documentation set is about (CorpusStats.corpusNames: `pino` across the
 * pino docs alone) names every document's subject, as a package title does in a set of several packages;
 * it counts as a title match of this share. Measured on the pino docs alone (false refusal / answer match):
 * off → 0.192 / 0.731; 0.2 → 0.115 / 0.808; 0.4 → 0.000 / 0.923 (0.6 and 1 the same, ECE 0.034 at 0.4,
 * 0.050 at 0.6). The shared and blind sets do not change.
 */
const CORPUS_NAME_SHARE = 0.4;

export interface VectorHit {
  chunk_id: string;
  doc_id: string;
  version: string;
  distance: number;
}

export async function retrieve(
  store: ChunkStore,
  stats: CorpusStats,
  terms: QueryTerm[],
  tuning: RetrievalTuning,
  vectorHits?: VectorHit[],
): Promise<Retrieval> {
  const known = terms.filter((t) => t.known);
  const query = known.map((t) => t.term).join(' ');
  const relatedQuery = [...new Set(terms.flatMap((t) => t.related))].join(' ');
  const hits =
    query || relatedQuery
      ? await store.search(query, ['body_terms', 'head_terms'], [1, tuning.headBoost], tuning.candidates, { query: relatedQuery, weight: RELATED_SEARCH_WEIGHT })
      : [];
  const byId = new Map<string, { chunk: ChunkRow; bm25: number; ftsRank?: number; vecRank?: number }>();
  hits.forEach((h, i) => {
    if (stats.isCurrent(h.doc_id, h.version)) byId.set(h.chunk_id, { chunk: h, bm25: h.score, ftsRank: i });
  });
  if (vectorHits?.length) {
    const current = vectorHits.filter((v) => stats.isCurrent(v.doc_id, v.version));
    const missing = current.filter((v) => !byId.has(v.chunk_id)).map((v) => v.chunk_id);
    const fetched = new Map((await store.chunksById(missing)).map((c) => [c.chunk_id, c]));
    current.forEach((v, i) => {
      const entry = byId.get(v.chunk_id);
      if (entry) entry.vecRank = i;
      else {
        const chunk = fetched.get(v.chunk_id);
        if (chunk) byId.set(v.chunk_id, { chunk, bm25: 0, vecRank: i });
      }
    });
  }
  const fusing = Boolean(vectorHits?.length);
  const topBm25 = Math.max(1e-9, ...[...byId.values()].map((e) => e.bm25));
  const candidates: Candidate[] = [];
  for (const entry of byId.values()) {
    const doc = stats.docs.get(entry.chunk.doc_id)!;
    const present = termSet(entry.chunk);
    const matched = new Set(terms.filter((t) => present.has(t.term)).map((t) => t.term));
    const related = new Set(terms.filter((t) => !matched.has(t.term) && t.related.some((r) => present.has(r))).map((t) => t.term));
    const coverage = coverageOf(terms, (t) => matched.has(t), (t) => related.has(t));
    let base = entry.bm25;
    let fused: number | undefined;
    if (fusing) {
      // Reciprocal-rank fusion (k = 60), scaled to the BM25 range so coverage weighting applies alike.
      fused = (entry.ftsRank === undefined ? 0 : 1 / (60 + entry.ftsRank)) + (entry.vecRank === undefined ? 0 : 1 / (60 + entry.vecRank));
      base = fused * 60 * topBm25 * 0.5;
    }
    candidates.push({ chunk: entry.chunk, doc, bm25: entry.bm25, fused, coverage, matched, related, score: base * (1 + tuning.coverageWeight * coverage) });
  }
  // Ties (a section cut into equal chunks) in document order, so that answers do not depend on index order.
  candidates.sort((a, b) => b.score - a.score || (a.chunk.doc_id < b.chunk.doc_id ? -1 : a.chunk.doc_id > b.chunk.doc_id ? 1 : a.chunk.ord - b.chunk.ord));
  const maxIdf = Math.max(1e-9, ...terms.map((t) => t.idf));
  const namesCorpus = terms.some((t) => stats.corpusNames.has(t.term)) ? CORPUS_NAME_SHARE : 0;
  const groups = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const list = groups.get(c.doc.id) ?? [];
    list.push(c);
    groups.set(c.doc.id, list);
  }
  const documents: RankedDocument[] = [...groups.values()].map((chunks) => {
    const top = chunks.slice(0, 3);
    const union = new Set(top.flatMap((c) => [...c.matched]));
    const unionRelated = new Set(top.flatMap((c) => [...c.related]));
    const doc = chunks[0]!.doc;
    const titleShare = Math.max(namesCorpus, ...terms.filter((t) => doc.titleTerms.has(t.term)).map((t) => t.idf / maxIdf));
    return {
      doc,
      score: (chunks[0]!.score + tuning.secondChunkWeight * (chunks[1]?.score ?? 0)) * (1 + tuning.titleWeight * titleShare),
      chunks,
      coverage: coverageOf(terms, (t) => union.has(t), (t) => unionRelated.has(t)),
      titleMatch: titleShare,
    };
  });
  documents.sort((a, b) => b.score - a.score);
  return { terms, candidates, documents };
}

/**
 * Documents related to an answer: those that name the rarest code identifiers of its primary passage which
 * the question did not use (`See pino-test.` leads to the page that lists pino-test). They widen the source
 * list beyond documents that merely share the question's words; they never change which document answers.
 */
export async function relatedDocuments(
  store: ChunkStore,
  stats: CorpusStats,
  retrieval: Retrieval,
  text: string,
  stemmer: Stemmer,
  options: { identifiers: number; documents: number },
): Promise<RankedDocument[]> {
  const asked = new Set(retrieval.terms.map((t) => t.term));
  // Code names: identifiers, and whatever inline code spans hold whole (`pino-pretty` reads as prose elsewhere).
  const spans = [...text.matchAll(/`([^`\n]{2,60})`/g)].map((m) => m[1]!);
  const found = [
    ...analyze(text, { stemmer }).filter((t) => t.identifier),
    ...spans.flatMap((span) => analyze(span, { stemmer }).slice(0, 1)),
  ];
  const names = [...new Set(found.map((t) => t.term).filter((t) => !asked.has(t) && (stats.df.get(t) ?? 0) >= 2))]
    .sort((a, b) => stats.idf(b) - stats.idf(a))
    .slice(0, options.identifiers);
  if (!names.length) return [];
  const listed = new Set(retrieval.documents.slice(0, 1).map((d) => d.doc.id));
  const hits = await store.search(names.join(' '), ['body_terms', 'head_terms'], [1, 1], 20);
  const out: RankedDocument[] = [];
  for (const h of hits) {
    if (!stats.isCurrent(h.doc_id, h.version) || listed.has(h.doc_id)) continue;
    listed.add(h.doc_id);
    const doc = stats.docs.get(h.doc_id)!;
    const candidate: Candidate = { chunk: h, doc, bm25: h.score, coverage: 0, matched: new Set(), related: new Set(), score: 0 };
    out.push({ doc, score: 0, chunks: [candidate], coverage: 0, titleMatch: 0 });
    if (out.length >= options.documents) break;
  }
  return out;
}
