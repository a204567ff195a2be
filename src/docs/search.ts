/**
 * Retrieve: LanceDB's full-text index (BM25 over the analysed body and heading fields) proposes a large pool
 * of candidate passages; identical passages (a section copied into many pages) count once, for the page the
 * question names most; each may be re-scored by how much of the question it covers (coverageWeight, 0 by
 * measurement); passages are grouped by document, whose score is its best passage plus a share of the next
 * (secondPassageShare) and, from the title field (BM25 over each document's path words, title, top heading
 * and description, with its own length normalisation) and the link field (the words other pages link to it
 * with, src/docs/links.ts), shares of the best passage's score. With embeddings, vector neighbours join the
 * pool and the two rankings are fused by reciprocal rank; a rewritten question or the caller's keywords are searched beside the question and their
 * BM25 added at a lower weight.
 */
import type { ChunkRow, ChunkStore } from '../storage/chunks.js';
import { analyze, type Stemmer } from './tokens.js';
import type { QueryTerm } from './question.js';
import type { CorpusStats, CurrentDocument } from './stats.js';
import type { Tuning } from './tuning.js';

export interface Candidate {
  chunk: ChunkRow;
  doc: CurrentDocument;
  bm25: number;
  /** Fused rank score when vectors take part. */
  fused?: number;
  /** IDF-weighted share of the question's terms found in this passage (body or headings). */
  coverage: number;
  /** Terms of the question found in this passage. */
  matched: Set<string>;
  /** Other documents that carry the very same passage. */
  copies: string[];
  score: number;
}

export interface RankedDocument {
  doc: CurrentDocument;
  score: number;
  /** Its candidates, best first. */
  chunks: Candidate[];
  /** IDF-weighted share of the question covered by its top passages together. */
  coverage: number;
  /** Its title-field score relative to the best document's (0: the question names nothing of its title). */
  titleMatch: number;
  /** What `score` sums: its best passage, the share of its second that counts, its title-field and link-field bonuses. */
  parts: { passage: number; second: number; title: number; links: number };
}

export interface Retrieval {
  terms: QueryTerm[];
  candidates: Candidate[];
  documents: RankedDocument[];
}

/** Which of the terms a passage holds (body or headings), and the IDF-weighted share of them that is. */
export function matchOf(chunk: ChunkRow, terms: QueryTerm[]): { matched: Set<string>; coverage: number } {
  // Terms are space-separated in both fields; a term is present when it stands between spaces.
  const fields = ` ${chunk.body_terms} ${chunk.head_terms} `;
  const matched = new Set(terms.filter((t) => !t.term.includes(' ') && fields.includes(` ${t.term} `)).map((t) => t.term));
  return { matched, coverage: coverageOf(terms, (t) => matched.has(t)) };
}

/** Weighted share of the question found (`present`); each term weighs its IDF unless `weight` says otherwise. */
export function coverageOf(terms: QueryTerm[], present: (term: string) => boolean, weight: (t: QueryTerm) => number = (t) => t.idf): number {
  let total = 0;
  let covered = 0;
  for (const t of terms) {
    const w = weight(t);
    total += w;
    if (present(t.term)) covered += w;
  }
  return total ? covered / total : 0;
}

export interface VectorHit {
  chunk_id: string;
  doc_id: string;
  version: string;
  distance: number;
}

export interface RetrieveInput {
  terms: QueryTerm[];
  /** The question's words as the title field holds them (src/docs/prepare.ts titleTerms). */
  titleTerms: string[];
  /**
   * The words the link field is searched with, as the title field holds them: the question's and any further
   * wording's (the caller's keywords, a rewrite), since a link names a page in its readers' words.
   */
  linkTerms: string[];
  /** The stemmer of the passages' terms. */
  stemmer: Stemmer;
  /** Further wording searched beside the question (a model's rewrite, the caller's keywords), analysed. */
  extra?: { query: string; weight: number };
  vectorHits?: VectorHit[];
}

export async function retrieve(store: ChunkStore, stats: CorpusStats, input: RetrieveInput, tuning: Tuning): Promise<Retrieval> {
  const { terms, vectorHits } = input;
  const query = terms
    .filter((t) => t.known)
    .map((t) => t.term)
    .join(' ');
  const boosts = [1, tuning.headingBoost];
  const hits = query || input.extra?.query ? await store.search(query, ['body_terms', 'head_terms'], boosts, tuning.pool, input.extra) : [];
  // The copies of a passage in other pages, by page, in the order the index returned them: each copy's own
  // row (its page's heading path) and score, for when the passage is credited to that page.
  type Copy = { chunk: ChunkRow; bm25: number };
  const byId = new Map<string, { chunk: ChunkRow; bm25: number; ftsRank?: number; vecRank?: number; copies: Map<string, Copy> }>();
  // With dedupe, a passage's text is its identity: a copy in another page only notes that page.
  const byText = new Map<string, { copies: Map<string, Copy> }>();
  let rank = 0;
  for (const h of hits) {
    if (!stats.isCurrent(h.doc_id, h.version)) continue;
    const first = tuning.dedupe ? byText.get(h.text) : undefined;
    if (first) {
      if (!first.copies.has(h.doc_id)) first.copies.set(h.doc_id, { chunk: h as ChunkRow, bm25: h.score });
      continue;
    }
    const entry = { chunk: h as ChunkRow, bm25: h.score, ftsRank: rank++, copies: new Map<string, Copy>() };
    if (tuning.dedupe) byText.set(h.text, entry);
    byId.set(h.chunk_id, entry);
  }
  if (vectorHits?.length) {
    const current = vectorHits.filter((v) => stats.isCurrent(v.doc_id, v.version));
    const missing = current.filter((v) => !byId.has(v.chunk_id)).map((v) => v.chunk_id);
    const fetched = new Map((await store.chunksById(missing)).map((c) => [c.chunk_id, c]));
    current.forEach((v, i) => {
      const entry = byId.get(v.chunk_id);
      if (entry) entry.vecRank = i;
      else {
        const chunk = fetched.get(v.chunk_id);
        if (chunk) byId.set(v.chunk_id, { chunk, bm25: 0, vecRank: i, copies: new Map() });
      }
    });
  }
  // The title field: how much the question names each document (BM25F over path, title, description).
  const bodyForm = tuning.titleCorpusIdf ? (t: string) => analyze(t, { stemmer: input.stemmer })[0]?.term ?? t : undefined;
  const title =
    tuning.titleWeight > 0 ? stats.titleScores(input.titleTerms, tuning.titleK1, tuning.titleB, bodyForm) : { scores: new Map<string, number>(), full: 0 };
  const titles = title.scores;
  // The link field: how much the words other pages link to each document with name the question.
  const links = tuning.linkWeight > 0 ? stats.linkScores(input.linkTerms, tuning.titleK1, tuning.titleB, bodyForm) : new Map<string, number>();
  const fusing = Boolean(vectorHits?.length);
  const topBm25 = Math.max(1e-9, ...[...byId.values()].map((e) => e.bm25));
  const candidates: Candidate[] = [];
  for (const entry of byId.values()) {
    // A passage that several pages carry word for word counts for the one the question names most (`cargo
    // test`'s copy of the common options, not `cargo bench`'s), as that page's own passage; the others stay its copies.
    const pages = [...entry.copies.keys()];
    const owner = [entry.chunk.doc_id, ...pages].reduce((best, id) => ((titles.get(id) ?? 0) > (titles.get(best) ?? 0) ? id : best));
    const own = entry.copies.get(owner) ?? entry;
    const doc = stats.docs.get(owner)!;
    const copies = owner === entry.chunk.doc_id ? pages : [entry.chunk.doc_id, ...pages.filter((id) => id !== owner)];
    const { matched, coverage } = matchOf(own.chunk, terms);
    let base = own.bm25;
    let fused: number | undefined;
    if (fusing) {
      // Reciprocal-rank fusion (k = 60), scaled to the BM25 range so coverage weighting applies alike.
      fused = (entry.ftsRank === undefined ? 0 : 1 / (60 + entry.ftsRank)) + (entry.vecRank === undefined ? 0 : 1 / (60 + entry.vecRank));
      base = fused * 60 * topBm25 * 0.5;
    }
    candidates.push({
      chunk: own.chunk,
      doc,
      bm25: own.bm25,
      fused,
      coverage,
      matched,
      copies,
      score: base * (1 + tuning.coverageWeight * coverage),
    });
  }
  // Ties (a section cut into equal chunks) in document order, so that answers do not depend on index order.
  candidates.sort((a, b) => b.score - a.score || (a.chunk.doc_id < b.chunk.doc_id ? -1 : a.chunk.doc_id > b.chunk.doc_id ? 1 : a.chunk.ord - b.chunk.ord));
  const groups = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const list = groups.get(c.doc.id) ?? [];
    list.push(c);
    groups.set(c.doc.id, list);
  }
  // With `secondNovel`, the second passage counts by the share of its matched question words (IDF) that the
  // best passage lacks: a page that answers more of the question across two sections, not the same words twice.
  // One that holds none of the question's words (found by the caller's keywords or by meaning) counts in full.
  const secondNovelty = (best: Candidate, second: Candidate | undefined): number => {
    if (!tuning.secondNovel || !second) return 1;
    const own = terms.filter((t) => second.matched.has(t.term));
    const all = own.reduce((a, t) => a + t.idf, 0);
    const novel = own.filter((t) => !best.matched.has(t.term)).reduce((a, t) => a + t.idf, 0);
    return all ? tuning.secondNovelFloor + (1 - tuning.secondNovelFloor) * (novel / all) : 1;
  };
  // Relative to the best title, but a best title that names only a sliver of the question (the product's
  // name, in every page) is not a full match: the share is of at least titleFloor of the question's whole.
  const bestTitle = Math.max(1e-9, tuning.titleFloor * title.full, ...[...groups.keys()].map((id) => titles.get(id) ?? 0));
  const bestPassage = candidates[0]?.score ?? 0;
  const bestLinks = Math.max(1e-9, ...[...groups.keys()].map((id) => links.get(id) ?? 0));
  const documents: RankedDocument[] = [...groups.values()].map((chunks) => {
    const doc = chunks[0]!.doc;
    const union = new Set(chunks.slice(0, 3).flatMap((c) => [...c.matched]));
    const titleMatch = (titles.get(doc.id) ?? 0) / bestTitle;
    const parts = {
      passage: chunks[0]!.score,
      second: tuning.secondPassageShare * (chunks[1]?.score ?? 0) * secondNovelty(chunks[0]!, chunks[1]),
      title: tuning.titleWeight * titleMatch * bestPassage,
      links: tuning.linkWeight * ((links.get(doc.id) ?? 0) / bestLinks) * bestPassage,
    };
    return {
      doc,
      score: parts.passage + parts.second + parts.title + parts.links,
      chunks,
      coverage: coverageOf(terms, (t) => union.has(t)),
      titleMatch,
      parts,
    };
  });
  documents.sort((a, b) => b.score - a.score || (a.doc.title < b.doc.title ? -1 : 1));
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
  if (options.documents <= 0 || options.identifiers <= 0) return [];
  const asked = new Set(retrieval.terms.map((t) => t.term));
  // Code names: identifiers, and whatever inline code spans hold whole (`pino-pretty` reads as prose elsewhere).
  const spans = [...text.matchAll(/`([^`\n]{2,60})`/g)].map((m) => m[1]!);
  const found = [...analyze(text, { stemmer }).filter((t) => t.identifier), ...spans.flatMap((span) => analyze(span, { stemmer }).slice(0, 1))];
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
    const candidate: Candidate = { chunk: h, doc, bm25: h.score, coverage: 0, matched: new Set(), copies: [], score: 0 };
    out.push({ doc, score: 0, chunks: [candidate], coverage: 0, titleMatch: 0, parts: { passage: 0, second: 0, title: 0, links: 0 } });
    if (out.length >= options.documents) break;
  }
  return out;
}
