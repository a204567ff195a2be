/**
 * The documentation index of one tenant: ingest, list, remove, query. The one API behind the rag_query
 * tool, the CLI, the HTTP routes, sub-agents and the evaluation. Reached through `services.docs()`, which
 * loads this module (and LanceDB) on first use: `(await services.docs()).forTenant(tenant)`.
 *
 * The pipeline, one module per stage:
 *   parse (parse.ts: any format → markdown-like text)
 *   → chunk (chunk.ts: sections → passages with heading paths)
 *   → index (prepare.ts: analysed terms, the title field, identifiers; links.ts: each page's links;
 *     tokens.ts is the one analyser, and the one sentence splitter; storage/chunks.ts writes LanceDB)
 *   → retrieve (question.ts reads the question; stats.ts: corpus statistics, the title and link fields;
 *     search.ts: BM25 pool, coverage, documents)
 *   → evidence (evidence.ts: features that mean the same in any corpus)
 *   → decide and calibrate (evidence.ts CALIBRATION: refuse, or answer with a confidence)
 *   → compose (units.ts: quotable units; answer.ts: what to quote and how it cites).
 * Every tuned value lives in tuning.ts with the measurement behind it; `trace()` below reads as these steps.
 */
import { ToolError } from '../errors.js';
import type { Logger } from '../logging.js';
import type { ChunkStore, DocumentRow, DocumentSummary, DocumentWrite, VectorRow } from '../storage/chunks.js';
import { renderQuotes, selectQuotes, specificCoverage, weightsFor, DEFAULT_ANSWER_OPTIONS, type AnswerOptions, type Citation, type Quote } from './answer.js';
import type { Embedder } from '../model/embeddings.js';
import { answersProbability, CALIBRATION, decisionOf, gatherEvidence, modelAnsweredConfidence, type Decision, type Evidence } from './evidence.js';
import { generateAnswer, renumberCitations, type Complete, type Passage } from './generate.js';
import { findSource, readText, urlFor } from './ingest.js';
import { DEFAULT_LIBRARY, defaultLibraryFor, libraryProblem, resourceMimeType, resourceUri } from './library.js';
import { CONTENT_TYPES, listed, parseDocument, type ContentType, type ParsedDocument } from './parse.js';
import { parseAway } from './parse-away.js';
import { textProblem } from './text.js';
import { documentId, hashOf, prepareDocument, resolveContentType, type AnalysisOptions, type PreparedDocument } from './prepare.js';
import { asideTerms, namesAsked, questionIdentifiers, queryTerms, type QueryTerm } from './question.js';
import { matchOf, relatedDocuments, retrieve, type Candidate, type RankedDocument, type Retrieval } from './search.js';
import { tagQuestion } from './pos.js';
import { englishRank, specificity } from './commonness.js';
import { analyze, titleTerms } from './tokens.js';
import { tuningWithout, type Tuning } from './tuning.js';
import { CorpusStats, type CurrentDocument } from './stats.js';
import type { DocumentInfo, DocumentInput, IngestProgress, IngestSummary, QueryResult, Source } from './types.js';

export type { DocumentInfo, DocumentInput, IngestProgress, IngestSummary, QueryResult, Source } from './types.js';

/** Chunks written per commit during ingest (one LanceDB commit per table per batch). */
const COMMIT_CHUNKS = 4000;
/** Chunks embedded per round when backfilling vectors (the embedder batches requests further). */
const EMBED_BATCH = 256;
/**
 * Confidence reported when a model found no answer in the passages: an upper bound, not a measurement (no
 * model runs where the calibration is fitted).
 */
const MODEL_NO_ANSWER_CONFIDENCE = 0.1;

export interface DocIndexOptions {
  analysis?: AnalysisOptions;
  tuning?: Tuning;
  /** Components switched off (src/docs/tuning.ts ABLATIONS), for the evaluation's ablations. */
  ablate?: string[];
  answer?: AnswerOptions;
  calibration?: typeof CALIBRATION;
  /** Loads the embedder when embeddings are configured. */
  embedder?: () => Promise<Embedder>;
  logger?: Logger;
}

export interface IngestOptions {
  /**
   * The document set every target goes to; by default each target's own (src/docs/library.ts
   * defaultLibraryFor: a folder's name, a file's folder's name, a URL's host).
   */
  library?: string;
  /** Base URL that sources link to: `<urlBase>/<title>`. */
  urlBase?: string;
  onProgress?: (progress: IngestProgress) => void;
  /**
   * Paths to leave out of a folder, as .gitignore patterns (src/docs/ingest.ts excludeMatcher). A document
   * of the set that a pattern now leaves out is removed on re-ingest, as one deleted from the folder.
   */
  exclude?: string[];
  /** Fetches a URL given instead of a path (through the outbound guard). */
  fetchUrl?: (url: string, signal?: AbortSignal) => Promise<DocumentInput>;
  signal?: AbortSignal;
}

export interface QueryOptions {
  topK?: number;
  /** Also compute the extractive answer of a refused question (the evaluation fits calibration on it). */
  draft?: boolean;
  /** A model to write the answer from the passages (checked; the extractive answer is the fallback). */
  complete?: Complete;
  /**
   * Other wordings searched beside the question and fused with it at a lower weight: the caller's keywords
   * (the terms the documentation would use) and a model's rewrite of the question. They widen what is found;
   * the refusal evidence still reads the question itself.
   */
  alternatives?: string[];
  /** Only this document set is searched (a ToolError `not_found` when the tenant has no such set). */
  library?: string;
  signal?: AbortSignal;
}

/** A query result with what led to it (for the evaluation and diagnostics). */
export interface QueryTrace {
  result: QueryResult;
  evidence?: Evidence;
  retrieval?: Retrieval;
  /** Titles of the ranked documents, best first (also when the answer was refused). */
  ranked: string[];
  /** Why a generated answer was not used, when one was attempted. */
  generation?: string;
  /** With `draft: true`: the extractive answer the best documents give, also when it was refused. */
  draft?: string;
  /** How the question was decided (absent when it had no searchable words or the tenant no documents). */
  decision?: Decision;
  /** Question terms used only in asides (an example, a sentence that does not ask): they weigh less in the evidence. */
  asides?: string[];
  /** The other wordings searched beside the question (QueryOptions.alternatives), as given. */
  alternatives?: string[];
  /**
   * The units the extractive answer quotes (the lead's passage first, then by rank), each with why; absent when
   * the question was refused or a language model wrote the answer.
   */
  quotes?: Quote[];
}

/** A refusal: no answer; `sources` are the closest documents (which do not answer), for the reader to check. */
function noMatch(confidence: number, reason: string, sources: Source[] = []): QueryResult {
  return { grounded: false, sources, confidence: round(confidence), reason };
}

/** A summary before any work, for the document sets it will write to. */
function emptySummary(libraries: string[]): IngestSummary {
  return { added: 0, updated: 0, unchanged: 0, removed: 0, chunks: 0, seconds: 0, libraries, skipped: [] };
}

function round(x: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function describe(candidate: Candidate): string {
  return candidate.chunk.section ? `${candidate.doc.title} › ${candidate.chunk.section}` : candidate.doc.title;
}

export class DocIndex {
  private stats?: CorpusStats;
  /** The document rows `stats` was built from. */
  private rows: DocumentRow[] = [];
  /** Statistics of each document set asked about since the documents last changed. */
  private readonly scopedStats = new Map<string, CorpusStats>();
  private statsGeneration = -1;
  private readonly analysis: AnalysisOptions;
  private readonly tuning: Tuning;
  private readonly answerOptions: AnswerOptions;
  private readonly calibration: typeof CALIBRATION;

  constructor(
    readonly tenant: string,
    private readonly store: ChunkStore,
    private readonly options: DocIndexOptions = {},
  ) {
    this.tuning = options.tuning ?? tuningWithout(options.ablate ?? []);
    this.analysis = options.analysis ?? { chunk: { maxChars: this.tuning.passageChars, pack: this.tuning.pack }, stemmer: 'porter' };
    this.answerOptions = { ...(options.answer ?? DEFAULT_ANSWER_OPTIONS), stemmer: this.analysis.stemmer };
    this.calibration = options.calibration ?? CALIBRATION;
  }

  // ---------------------------------------------------------------- ingest

  /** Ingests files, folders and URLs into document sets. A re-ingested folder drops, from its set, the documents that left it. */
  async ingestPath(targets: string[], options: IngestOptions = {}): Promise<IngestSummary> {
    const started = performance.now();
    const summary = emptySummary([]);
    if (options.library !== undefined) checkLibrary(options.library);
    const sources: { library: string; url?: string; found?: Awaited<ReturnType<typeof findSource>> }[] = [];
    for (const target of targets) {
      if (/^https?:\/\//i.test(target)) {
        if (!options.fetchUrl) {
          throw new ToolError(`Cannot ingest ${target}: fetching URLs needs the outbound network client, which this caller did not provide.`, 'unavailable');
        }
        sources.push({ library: options.library ?? defaultLibraryFor(target, false), url: target });
      } else {
        const found = await findSource(target, options.exclude);
        sources.push({ library: options.library ?? defaultLibraryFor(target, found.isFolder), found });
      }
    }
    summary.libraries = [...new Set(sources.map((s) => s.library))];
    const total = sources.reduce((n, s) => n + (s.found ? s.found.files.length : 1), 0);
    let done = 0;
    await this.store.exclusive(async () => {
      await this.store.sweep();
      const existing = new Map((await this.store.summaries()).map((d) => [d.doc_id, d]));
      const legacy = new Set(await this.store.legacyDocuments());
      const writer = this.writer(summary);
      /**
       * Documents stored before sets existed read as the set `default`; when the folder, file or URL they came
       * from is ingested again into its own set, they are that set's documents now, and the old copies go.
       */
      const dropLegacy = async (origin: string, library: string) => {
        if (library === DEFAULT_LIBRARY) return;
        const old = [...existing.values()].filter((d) => d.library === DEFAULT_LIBRARY && d.origin === origin && legacy.has(d.doc_id)).map((d) => d.doc_id);
        if (!old.length) return;
        await writer.flush();
        await this.store.remove(old);
        summary.removed += old.length;
        for (const id of old) existing.delete(id);
      };
      for (const source of sources) {
        if (source.url) {
          let input: DocumentInput;
          try {
            input = await options.fetchUrl!(source.url, options.signal);
          } catch (error) {
            // A page that is not text is skipped like such a file; other failures (unreachable, 404) stop the ingest.
            if (!(error instanceof ToolError && error.code === 'unsupported_document_type')) throw error;
            summary.skipped.push({ path: source.url, reason: error.message });
            options.onProgress?.({ done: ++done, total, title: source.url });
            continue;
          }
          await writer.put(input, source.url, source.library, existing);
          await dropLegacy(source.url, source.library);
          options.onProgress?.({ done: ++done, total, title: input.title });
          continue;
        }
        const found = source.found!;
        summary.skipped.push(...found.skipped);
        const seen = new Set<string>();
        for (const file of found.files) {
          options.signal?.throwIfAborted();
          seen.add(documentId(file.title, source.library));
          let content: string;
          try {
            content = await readText(file.file);
          } catch (error) {
            summary.skipped.push({ path: file.file, reason: (error as Error).message });
            continue;
          }
          await writer.put(
            { title: file.title, content, contentType: file.contentType, url: urlFor(options.urlBase, file.title) },
            found.origin,
            source.library,
            existing,
          );
          options.onProgress?.({ done: ++done, total, title: file.title });
        }
        if (found.isFolder) {
          // Only this set's documents from this folder: the same folder ingested as another set is another set.
          const gone = [...existing.values()]
            .filter((d) => d.origin === found.origin && d.library === source.library && !seen.has(d.doc_id))
            .map((d) => d.doc_id);
          await writer.flush();
          await this.store.remove(gone);
          summary.removed += gone.length;
          for (const id of gone) existing.delete(id);
        }
        await dropLegacy(found.origin, source.library);
      }
      await writer.flush();
      await this.finishIngest(options.onProgress);
    });
    summary.seconds = round((performance.now() - started) / 1000, 2);
    return summary;
  }

  /** Ingests one document (an upload or a fetched page). Same set and title = same document: it is replaced. */
  async ingestDocument(
    input: DocumentInput,
    origin = 'upload',
    library = DEFAULT_LIBRARY,
  ): Promise<{ id: string; status: 'added' | 'updated' | 'unchanged'; chunks: number }> {
    checkLibrary(library);
    const summary = emptySummary([library]);
    return this.store.exclusive(async () => {
      const existing = new Map((await this.store.summaries()).map((d) => [d.doc_id, d]));
      const writer = this.writer(summary);
      await writer.put(input, origin, library, existing, true);
      await writer.flush();
      await this.finishIngest();
      const status = summary.added ? 'added' : summary.updated ? 'updated' : 'unchanged';
      const id = documentId(input.title.trim(), library);
      return { id, status, chunks: status === 'unchanged' ? (existing.get(id)?.chunks ?? 0) : summary.chunks };
    });
  }

  /**
   * Ingests several documents (a multi-file upload) in one exclusive step, with one index refresh. A document
   * that cannot be ingested throws before anything is written (unless the upload spans several commit
   * batches of COMMIT_CHUNKS). Results in input order.
   */
  async ingestDocuments(
    inputs: DocumentInput[],
    origin = 'upload',
    library = DEFAULT_LIBRARY,
  ): Promise<{ id: string; status: 'added' | 'updated' | 'unchanged'; chunks: number }[]> {
    checkLibrary(library);
    const summary = emptySummary([library]);
    return this.store.exclusive(async () => {
      const existing = new Map((await this.store.summaries()).map((d) => [d.doc_id, d]));
      const writer = this.writer(summary);
      const results: { id: string; status: 'added' | 'updated' | 'unchanged'; chunks: number }[] = [];
      for (const input of inputs) {
        const { added, updated } = summary;
        await writer.put(input, origin, library, existing, true);
        const id = documentId(input.title.trim(), library);
        const status = summary.added > added ? 'added' : summary.updated > updated ? 'updated' : 'unchanged';
        results.push({ id, status, chunks: existing.get(id)?.chunks ?? 0 });
      }
      await writer.flush();
      if (summary.added || summary.updated) await this.finishIngest();
      return results;
    });
  }

  /** Batches prepared documents into commits; decides added / updated / unchanged by content hash. */
  private writer(summary: IngestSummary) {
    let pending: PreparedDocument[] = [];
    let pendingChunks = 0;
    const flush = async () => {
      if (!pending.length) return;
      const batch = pending;
      pending = [];
      pendingChunks = 0;
      const writes: DocumentWrite[] = batch.map((p) => ({ doc: p.doc, chunks: p.chunks }));
      const embedder = await this.embedderChecked('write');
      if (embedder) {
        const texts = batch.flatMap((p) => p.chunks.map((c) => `${p.doc.title}${c.section ? ` › ${c.section}` : ''}\n${c.text}`));
        const vectors = await embedder.embed(texts);
        let k = 0;
        for (const w of writes)
          w.vectors = w.chunks.map((c): VectorRow => ({
            chunk_id: c.chunk_id,
            doc_id: c.doc_id,
            library: c.library,
            version: c.version,
            vector: vectors[k++]!,
          }));
      }
      await this.store.commit(writes);
      this.invalidate();
    };
    const put = async (input: DocumentInput, origin: string, library: string, existing: Map<string, { hash: string }>, strictType = false) => {
      const title = input.title.trim();
      if (!title) throw new ToolError('A document needs a non-empty title.', 'invalid_arguments');
      const contentType = resolveContentType(title, input.contentType);
      if (!contentType) {
        const reason = `unsupported content type ${input.contentType}; use ${listed(CONTENT_TYPES, 'or')}`;
        if (strictType) throw new ToolError(`Cannot ingest ${title}: ${reason}.`, 'invalid_arguments');
        summary.skipped.push({ path: title, reason });
        return;
      }
      // The text check of every way in (src/docs/text.ts): callers that hand over a string (uploads, tools) too.
      const notText = textProblem(input.content);
      if (notText) {
        if (strictType) throw new ToolError(`Cannot ingest ${title}: ${notText}.`, 'unsupported_document_type');
        summary.skipped.push({ path: title, reason: notText });
        return;
      }
      const prepareInput = { title, content: input.content, contentType, url: input.url, origin, library };
      const hash = hashOf(prepareInput, this.analysis);
      const previous = existing.get(documentId(title, library));
      if (previous?.hash === hash) {
        summary.unchanged++;
        return;
      }
      let parsed: ParsedDocument;
      try {
        parsed = await parseAway(input.content, contentType);
      } catch (error) {
        const reason = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
        if (strictType) throw new ToolError(`Cannot ingest ${title}: ${reason}.`, 'invalid_arguments');
        summary.skipped.push({ path: title, reason });
        return;
      }
      const prepared = prepareDocument(prepareInput, this.analysis, hash, parsed);
      if (!prepared.chunks.length) {
        if (strictType) throw new ToolError(`Cannot ingest ${title}: it has no text.`, 'invalid_arguments');
        summary.skipped.push({ path: title, reason: 'no text' });
        return;
      }
      if (previous) summary.updated++;
      else summary.added++;
      summary.chunks += prepared.chunks.length;
      existing.set(prepared.doc.doc_id, { ...prepared.doc });
      pending.push(prepared);
      pendingChunks += prepared.chunks.length;
      if (pendingChunks >= COMMIT_CHUNKS) await flush();
    };
    return { put, flush };
  }

  private async finishIngest(onProgress?: (progress: IngestProgress) => void): Promise<void> {
    await this.store.refreshIndexes();
    const embedder = await this.embedderChecked('write');
    if (embedder) await this.backfillVectors(embedder, onProgress);
    this.invalidate();
  }

  /**
   * Gives vectors to current chunks that have none: after embeddings were switched on over a lexical index,
   * or after the embedding model changed (every chunk again), in batches, reporting progress.
   */
  private async backfillVectors(embedder: Embedder, onProgress?: (progress: IngestProgress) => void): Promise<void> {
    const stats = await this.currentStats();
    const refs = (await this.store.allChunkRefs()).filter((r) => stats.isCurrent(r.doc_id, r.version));
    const missing = await this.store.missingVectors(refs.map((r) => r.chunk_id));
    if (!missing.size) return;
    const ids = [...missing];
    this.options.logger?.info({ chunks: ids.length, model: embedder.model }, 'embedding chunks that have no vector');
    for (let i = 0; i < ids.length; i += EMBED_BATCH) {
      const chunks = await this.store.chunksById(ids.slice(i, i + EMBED_BATCH));
      const vectors = await embedder.embed(chunks.map((c) => `${stats.docs.get(c.doc_id)?.title ?? ''}${c.section ? ` › ${c.section}` : ''}\n${c.text}`));
      await this.store.addVectors(
        chunks.map((c, k) => ({ chunk_id: c.chunk_id, doc_id: c.doc_id, library: c.library, version: c.version, vector: vectors[k]! })),
      );
      onProgress?.({ done: Math.min(ids.length, i + EMBED_BATCH), total: ids.length, title: `(embeddings, ${embedder.model})` });
    }
  }

  private embedderPromise?: Promise<Embedder | undefined>;
  private staleWarned = false;

  /**
   * The embedder when embeddings are configured and the index holds vectors of the same model and dimension.
   * Vectors of different models are never mixed: when the configured model differs from the one the index
   * was built with, queries search lexically (with a warning) until the next ingest, which (`write`) drops the
   * old vectors, records the new model and dimension, and embeds every chunk again.
   */
  private async embedderChecked(purpose: 'read' | 'write' = 'read'): Promise<Embedder | undefined> {
    if (!this.options.embedder) return undefined;
    // Once checked against the stored model, every later query reuses the result (no meta read per query).
    if (this.embedderPromise) return this.embedderPromise;
    const storedModel = await this.store.getMeta('embedding_model');
    if (storedModel) {
      const configured = (await this.loadEmbedder()).model;
      if (storedModel !== configured) {
        if (purpose === 'read') {
          if (!this.staleWarned) {
            this.staleWarned = true;
            this.options.logger?.warn(
              { stored: storedModel, configured },
              `The documentation index of tenant "${this.tenant}" holds vectors of embedding model "${storedModel}", but DOCENT_EMBEDDINGS_MODEL is "${configured}": searching lexically until the next ingest re-embeds it (or set DOCENT_EMBEDDINGS_MODEL back).`,
            );
          }
          return undefined;
        }
        const storedDim = Number(await this.store.getMeta('embedding_dimension'));
        if (storedDim) await this.store.clearVectors(storedDim);
        await this.store.setMeta('embedding_model', '');
        await this.store.setMeta('embedding_dimension', '');
      }
    }
    this.embedderPromise ??= (async () => {
      const embedder = await this.loadEmbedder();
      const storedDim = await this.store.getMeta('embedding_dimension');
      let dimension = storedDim ? Number(storedDim) : undefined;
      if (!dimension || !(await this.store.getMeta('embedding_model'))) {
        const [probe] = await embedder.embed(['dimension probe']);
        dimension = probe!.length;
        await this.store.setMeta('embedding_model', embedder.model);
        await this.store.setMeta('embedding_dimension', String(dimension));
      }
      await this.store.openVectors(dimension);
      const expected = dimension;
      return {
        model: embedder.model,
        async embed(texts, signal) {
          const vectors = await embedder.embed(texts, signal);
          for (const v of vectors) {
            if (v.length !== expected) {
              throw new ToolError(
                `The embeddings endpoint returned vectors of dimension ${v.length}, but this index holds dimension ${expected} ` +
                  `(model "${embedder.model}"). Check DOCENT_EMBEDDINGS_MODEL.`,
                'embedding_model_mismatch',
              );
            }
          }
          return vectors;
        },
      } satisfies Embedder;
    })();
    this.embedderPromise.catch(() => (this.embedderPromise = undefined));
    return this.embedderPromise;
  }

  private loadedEmbedder?: Promise<Embedder>;
  private loadEmbedder(): Promise<Embedder> {
    this.loadedEmbedder ??= this.options.embedder!();
    this.loadedEmbedder.catch(() => (this.loadedEmbedder = undefined));
    return this.loadedEmbedder;
  }

  // ---------------------------------------------------------------- documents

  /** The documents (of one set when `library` is given), ordered by set, then title. */
  async listDocuments(library?: string): Promise<DocumentInfo[]> {
    const rows = (await this.store.summaries()).filter((r) => library === undefined || r.library === library);
    return rows.map(documentInfo).sort((a, b) => compare(a.library, b.library) || compare(a.title, b.title));
  }

  /**
   * Removes a document by id, or by title (within `library` when given). Returns what was removed, or
   * undefined when nothing matched; a title found in several sets and no `library` is a ToolError.
   */
  async removeDocument(idOrTitle: string, library?: string): Promise<DocumentInfo | undefined> {
    return this.store.exclusive(async () => {
      const docs = await this.listDocuments(library);
      const byTitle = docs.filter((d) => d.title === idOrTitle);
      if (!docs.some((d) => d.id === idOrTitle) && byTitle.length > 1) {
        throw new ToolError(
          `"${idOrTitle}" is in several document sets (${byTitle.map((d) => d.library).join(', ')}): name the set, or remove it by id.`,
          'invalid_arguments',
          { libraries: byTitle.map((d) => d.library) },
        );
      }
      const doc = docs.find((d) => d.id === idOrTitle) ?? byTitle[0];
      if (!doc) return undefined;
      await this.store.remove([doc.id]);
      this.invalidate();
      return doc;
    });
  }

  /** Removes every document of a set. Returns what was removed (empty when the set does not exist). */
  async removeLibrary(library: string): Promise<DocumentInfo[]> {
    return this.store.exclusive(async () => {
      const docs = await this.listDocuments(library);
      await this.store.remove(docs.map((d) => d.id));
      if (docs.length) this.invalidate();
      return docs;
    });
  }

  /**
   * One document's whole text, as an MCP resource serves it: the text as ingested (HTML as parsed, which is
   * what was indexed from it), or for documents stored before their text was kept, their passages in order.
   */
  async readDocument(library: string, title: string): Promise<{ doc: DocumentInfo; text: string; mimeType: string } | undefined> {
    const row = (await this.store.summaries()).find((r) => r.library === library && r.title === title);
    if (!row) return undefined;
    const doc = documentInfo(row);
    const stored = (await this.store.content(doc.id)) ?? '';
    const kind = doc.content_type as ContentType;
    if (!stored) {
      const chunks = await this.store.chunksOf(doc.id, row.version);
      const text = chunks
        .map((c, i) => (c.section && (i === 0 || c.section !== chunks[i - 1]!.section) ? `## ${c.section}\n\n${c.text}` : c.text))
        .join('\n\n');
      return { doc, text, mimeType: 'text/markdown' };
    }
    return { doc, text: kind === 'html' ? parseDocument(stored, 'html').body : stored, mimeType: resourceMimeType(kind) };
  }

  // ---------------------------------------------------------------- query

  private invalidate(): void {
    this.statsGeneration = -1;
  }

  /**
   * Corpus statistics (of one document set when `library` is given: a scoped question reads that set as its
   * corpus), rebuilt when the documents table changed (here or in another process).
   */
  private async currentStats(library?: string): Promise<CorpusStats> {
    const generation = await this.store.generation();
    if (!this.stats || generation !== this.statsGeneration) {
      this.rows = await this.store.documents();
      this.stats = new CorpusStats(this.rows);
      this.scopedStats.clear();
      this.statsGeneration = generation;
    }
    if (library === undefined) return this.stats;
    let scoped = this.scopedStats.get(library);
    if (!scoped) {
      // From the rows the whole corpus was read from: the same generation, no second read.
      scoped = new CorpusStats(this.rows.filter((r) => r.library === library));
      this.scopedStats.set(library, scoped);
    }
    return scoped;
  }

  async query(question: string, options: QueryOptions = {}): Promise<QueryResult> {
    return (await this.trace(question, options)).result;
  }

  /**
   * Answers a question and reports the evidence behind the answer. The pipeline: read the question (terms,
   * identifiers) → retrieve passages and rank documents → gather evidence → decide (refuse or answer, with a
   * calibrated confidence) → compose the answer from the best passages and cite what it quotes.
   */
  async trace(question: string, options: QueryOptions = {}): Promise<QueryTrace> {
    const topK = Math.max(1, Math.min(20, options.topK ?? 5));
    const scope = options.library;
    if (scope !== undefined) checkLibrary(scope);
    const stats = await this.currentStats(scope);
    if (stats.empty && scope !== undefined) {
      const sets = [...new Set([...(await this.currentStats()).docs.values()].map((d) => d.library))].sort(compare);
      throw new ToolError(
        `Tenant "${this.tenant}" has no document set "${scope}". ${sets.length ? `Its sets: ${sets.join(', ')}.` : 'It has no documentation yet.'} Ask without a library to search them all.`,
        'not_found',
        { libraries: sets },
      );
    }
    if (stats.empty) {
      return { result: noMatch(0, `No documentation has been ingested for tenant "${this.tenant}" yet.`), ranked: [] };
    }
    // A scoped question searches its set's chunks only (filtered in LanceDB, not after the pool is cut).
    const store = scope === undefined ? this.store : this.store.scoped(scope);
    // 1. Read the question.
    const stemmer = this.analysis.stemmer;
    const identifiers = questionIdentifiers(question, stemmer);
    const terms = queryTerms(question, stats, stemmer, { spelling: this.tuning.spelling });
    if (!terms.length) return { result: noMatch(0, 'The question has no searchable words.'), ranked: [] };

    // 2. Retrieve. The pool does not depend on top_k: top_k widens the sources, never the answer.
    const embedder = await this.embedderChecked();
    const vectorHits = embedder ? await store.nearest((await embedder.embed([question], options.signal))[0]!, this.tuning.pool) : undefined;
    const retrieval = await retrieve(
      store,
      stats,
      {
        terms,
        titleTerms: titleTerms(question).split(' '),
        linkTerms: titleTerms([question, ...(options.alternatives ?? [])].join(' \n ')).split(' '),
        stemmer,
        extra: this.alternativeQuery(options.alternatives, terms, stats),
        vectorHits,
      },
      this.tuning,
    );
    const ranked = retrieval.documents.map((d) => d.doc.title);

    // 3. Evidence, and 4. the decision.
    // The tagger tells what kind of word a missing one is (with no question word missing it has nothing to
    // say) and, when the question says "like", whether it gives an example with it.
    const useAsides = this.tuning.asideWeight < 1;
    const tagged = terms.some((t) => !t.known) || (useAsides && /\blike\b/i.test(question)) ? await tagQuestion(question) : undefined;
    const asides = useAsides ? asideTerms(question, stemmer, tagged?.likeIsPreposition ?? [], { context: this.tuning.asideContext }) : undefined;
    const words = {
      nonNouns: tagged?.nonNouns,
      asides,
      asideWeight: this.tuning.asideWeight,
      specificity: this.tuning.wordSpecificity ? specificity(this.tuning.everydayFloor) : undefined,
      englishRank,
    };
    // Names are read for asides with "like" only after a comma: "a setting like `storeAutoPruneInterval`"
    // asks for the name it gives.
    const asked = this.tuning.asideNames
      ? namesAsked(identifiers, asideTerms(question, stemmer, [], { context: this.tuning.asideContext }), stemmer)
      : identifiers;
    let evidence = gatherEvidence(question, retrieval, asked, stats, words);
    let moved = 0;
    const top = retrieval.documents[0];
    // The alternative wordings (the caller's keywords, a model's rewrite) as analysed question terms, read
    // by the evidence and by the choice of quoted units.
    const wording = options.alternatives?.join('\n') ?? '';
    const altTerms = wording ? queryTerms(wording, stats, stemmer, { spelling: this.tuning.spelling }) : [];
    // Alternative wordings that found the passages: the evidence is also read with their words, and a
    // stronger reading moves it (never against a missing identifier).
    if (altTerms.length && !evidence.missingStrong.length) {
      // Every word of the alternatives, found or not: a name the model gives that the documentation lacks
      // ("justify-content" for a CSS question put to a web framework's manual) is evidence against it.
      const alt = gatherEvidence(wording, readWith(retrieval, altTerms), [], stats, { specificity: words.specificity });
      // A model that writes the answer reads the passages and may still find no answer in them: the
      // stronger reading may then decide. Quoted answers have no such check: it moves the question's own
      // evidence part of the way (tuning.alternativeEvidence), as a model names the product's vocabulary
      // for questions the documentation does not answer too.
      const share = options.complete ? 1 : this.tuning.alternativeEvidence;
      if (share > 0 && answersProbability(alt.values, this.calibration) > answersProbability(evidence.values, this.calibration)) {
        evidence = { ...evidence, values: evidence.values.map((v, i) => v + share * (alt.values[i]! - v)) };
        moved = share;
      }
    }
    const decision = decisionOf(evidence, Boolean(top), this.calibration, moved);
    const { confidence } = decision;
    const explained = {
      evidence,
      retrieval,
      ranked,
      decision,
      asides: asides?.size ? [...asides] : undefined,
      alternatives: options.alternatives?.length ? [...options.alternatives] : undefined,
    };
    if (decision.by === 'missing-name') {
      const names = evidence.missingStrong.join(', ');
      return {
        result: noMatch(
          Math.min(confidence, this.calibration.missingIdentifier),
          `The documentation has no ${names}: it is not mentioned anywhere in the ingested documents.`,
          this.sourcesOf(retrieval, topK),
        ),
        ...explained,
      };
    }
    // With a model writing the answer, a refusal the evidence alone would make is the model's to judge
    // (tuning.modelJudges): it reads the passages, and answers from them or says that they do not answer.
    const judged = Boolean(options.complete) && this.tuning.modelJudges && decision.by === 'model';
    // The words the quotes are chosen by: the question's, and those of its alternative wordings.
    const unitTerms = this.unitTerms(retrieval, altTerms);
    // `draft`: the extractive answer, when already composed.
    const refusal = (generation?: string, draft?: string): QueryTrace => ({
      result: noMatch(confidence, this.refusalReason(retrieval, evidence), this.sourcesOf(retrieval, topK)),
      ...explained,
      draft: options.draft && top ? (draft ?? this.compose(retrieval, unitTerms).text) : undefined,
      generation,
    });
    if (decision.refused && !judged) return refusal();

    // 5. Compose: quote the best passages, cite each (document, section) quoted, then the other documents.
    const composed = this.compose(retrieval, unitTerms);
    const related = await relatedDocuments(store, stats, retrieval, composed.primaryText, stemmer, {
      identifiers: this.tuning.relatedIdentifiers,
      documents: this.tuning.relatedDocuments,
    });
    let generation: string | undefined;
    if (options.complete) {
      const given = this.modelPassages(retrieval, composed.passages);
      try {
        const generated = await generateAnswer(options.complete, question, given.passages, stemmer, options.signal);
        if (generated.ok) {
          // [n] as the model cited the passages, renumbered so that sources[n-1] is what [n] marks.
          const { text, order } = renumberCitations(generated.answer, new Set(given.cited.keys()));
          return {
            result: {
              grounded: true,
              answer: text,
              sources: this.sourcesOf(
                retrieval,
                topK,
                order.map((n) => given.cited.get(n)!),
                related,
              ),
              confidence: round(modelAnsweredConfidence(confidence, this.calibration)),
            },
            ...explained,
            ...(decision.refused ? { decision: { ...decision, by: 'model-answered', refused: false } } : {}),
          };
        }
        if (generated.noAnswer) {
          // The model read the passages and found no answer in them: say so.
          return {
            result: noMatch(
              Math.min(confidence, MODEL_NO_ANSWER_CONFIDENCE),
              `Nothing in the documentation answers this question: the model that read the closest passages (${given.passages[0]!.label} and ${given.passages.length - 1} more) found no answer in them.`,
              this.sourcesOf(retrieval, topK, composed.cited, related),
            ),
            ...explained,
            decision: { ...decision, by: 'model-no-answer', refused: true },
            generation: generated.reason,
            draft: options.draft ? composed.text : undefined,
          };
        }
        generation = generated.reason;
      } catch (error) {
        generation = `the model failed: ${(error as Error).message}`;
        this.options.logger?.warn({ err: error }, 'generative answer failed; using the extractive answer');
      }
      // No usable model answer: what the evidence alone decided stands.
      if (decision.refused) return refusal(generation, composed.text);
    }
    return {
      result: { grounded: true, answer: composed.text, sources: this.sourcesOf(retrieval, topK, composed.cited, related), confidence: round(confidence) },
      ...explained,
      generation,
      quotes: composed.quotes,
    };
  }

  /**
   * What a model writing the answer reads (tuning.modelDocuments, modelPassagesPerDocument, modelChars): the
   * passages the quotes are drawn from, then each source document's next best passages while they fit. Each (document,
   * section) is numbered once, as the sources cite them; `cited` maps that number to what it cites.
   */
  private modelPassages(retrieval: Retrieval, quoted: { candidate: Candidate }[]): { passages: Passage[]; cited: Map<number, Citation> } {
    const chosen = quoted.map((p) => p.candidate);
    const ids = new Set(chosen.map((c) => c.chunk.chunk_id));
    let chars = chosen.reduce((n, c) => n + c.chunk.text.length, 0);
    // Round by round, each document's next best passage, until it has modelPassagesPerDocument.
    const docs = this.sourceDocuments(retrieval, this.tuning.modelDocuments);
    for (let round = 0; round < this.tuning.modelPassagesPerDocument; round++) {
      for (const d of docs) {
        if (chosen.filter((c) => c.doc.id === d.doc.id).length > round) continue;
        const next = d.chunks.find((c) => !ids.has(c.chunk.chunk_id));
        if (!next || chars + next.chunk.text.length > this.tuning.modelChars) continue;
        chosen.push(next);
        ids.add(next.chunk.chunk_id);
        chars += next.chunk.text.length;
      }
    }
    const numbers = new Map<string, number>();
    const cited = new Map<number, Citation>();
    const passages = chosen.map((c) => {
      const key = `${c.doc.id}\u0000${c.chunk.section}`;
      let n = numbers.get(key);
      if (n === undefined) {
        numbers.set(key, (n = numbers.size + 1));
        cited.set(n, { candidate: c, section: c.chunk.section });
      }
      return { source: n, label: describe(c), text: c.chunk.text };
    });
    return { passages, cited };
  }

  /**
   * The terms an extractive answer's units are scored by: the question's, then those of its alternative
   * wordings (`altTerms`: the caller's keywords, a model's rewrite) that the documentation has and the
   * question does not use, at tuning.alternativeUnits of their IDF. The keywords name what the documentation
   * calls the thing asked about ("maxSatisfying" for "the newest version that fits a range"): the sentence
   * that answers is more often the one that uses the documentation's word than the one that repeats the
   * asker's.
   */
  private unitTerms(retrieval: Retrieval, altTerms: QueryTerm[]): QueryTerm[] {
    const share = this.tuning.alternativeUnits;
    if (!share || !altTerms.length) return retrieval.terms;
    const asked = new Set(retrieval.terms.map((t) => t.term));
    const extra = altTerms.filter((t) => t.known && !asked.has(t.term)).map((t) => ({ ...t, idf: t.idf * share }));
    return [...retrieval.terms, ...extra];
  }

  /** The alternatives' words the documentation has and the question does not use, as one extra query. */
  private alternativeQuery(alternatives: string[] | undefined, terms: QueryTerm[], stats: CorpusStats): { query: string; weight: number } | undefined {
    if (!alternatives?.length) return undefined;
    const asked = new Set(terms.map((t) => t.term));
    const words = [...new Set(analyze(alternatives.join('\n'), { stemmer: this.analysis.stemmer }).map((t) => t.term))].filter(
      (t) => !asked.has(t) && stats.has(t),
    );
    return words.length ? { query: words.join(' '), weight: this.tuning.alternativeWeight } : undefined;
  }

  /** Why nothing answers, in the question's own words. */
  private refusalReason(retrieval: Retrieval, evidence: Evidence): string {
    const top = retrieval.documents[0];
    const absent = evidence.absentWords;
    const near = top ? ` The closest passage (${describe(top.chunks[0]!)}) covers ${Math.round(top.chunks[0]!.coverage * 100)}% of the question.` : '';
    const missing = evidence.missingWeak.length
      ? ` The documentation never mentions ${evidence.missingWeak.join(', ')}.`
      : absent.length
        ? ` Not found anywhere in the documentation: ${absent
            .slice(0, 5)
            .map((t) => `"${t}"`)
            .join(', ')}.`
        : '';
    return `Nothing in the documentation answers this question.${missing}${near}`;
  }

  /** The extractive answer from the best documents' passages, with what it cites. */
  private compose(
    retrieval: Retrieval,
    unitTerms: QueryTerm[],
  ): { text: string; cited: Citation[]; passages: ReturnType<DocIndex['passages']>; primaryText: string; quotes: Quote[] } {
    const docs = this.sourceDocuments(retrieval, retrieval.documents.length);
    const passages = this.passages(docs, retrieval.terms);
    const quotes = selectQuotes(passages, unitTerms, { ...this.answerOptions, tuning: this.tuning });
    const { text, cited } = renderQuotes(quotes, (c) => c.doc.title);
    const first = cited[0]?.candidate.doc.id;
    const primaryText =
      quotes
        .filter((q) => q.candidate.doc.id === first)
        .map((q) => q.unit.text)
        .join('\n') || docs[0]!.chunks[0]!.chunk.text;
    return { text, cited, passages, primaryText, quotes };
  }

  /** The best documents, best first; those scoring under a fifth of the best are noise, not sources. */
  private sourceDocuments(retrieval: Retrieval, topK: number): Retrieval['documents'] {
    const best = retrieval.documents[0]?.score ?? 0;
    return retrieval.documents.slice(0, topK).filter((d) => d.score >= best * this.tuning.sourceShare);
  }

  /**
   * The sources: first every (document, section) the answer cites, in the order of its [n]; then the other
   * ranked documents, and the `related` ones (which carry no score), up to topK documents in all.
   */
  private sourcesOf(retrieval: Retrieval, topK: number, cited: Citation[] = [], related: RankedDocument[] = []): Source[] {
    const best = retrieval.documents[0]?.score ?? 1;
    const scoreOf = (id: string) => retrieval.documents.find((d) => d.doc.id === id)?.score ?? 0;
    const out: Source[] = cited.map((c) => ({
      ...sourceDocument(c.candidate.doc),
      ...(c.candidate.doc.url ? { url: c.candidate.doc.url } : {}),
      ...(c.section ? { section: c.section } : {}),
      score: round(scoreOf(c.candidate.doc.id) / best),
    }));
    const listed = new Set(cited.map((c) => c.candidate.doc.id));
    const room = () => topK - listed.size;
    const rest = this.sourceDocuments(retrieval, retrieval.documents.length).filter((d) => !listed.has(d.doc.id));
    const extra = related.filter((r) => !listed.has(r.doc.id) && !rest.slice(0, 1).some((d) => d.doc.id === r.doc.id));
    for (const d of [...rest.slice(0, 1), ...extra, ...rest.slice(1)]) {
      if (room() <= 0) break;
      if (listed.has(d.doc.id)) continue;
      listed.add(d.doc.id);
      out.push({
        ...sourceDocument(d.doc),
        ...(d.doc.url ? { url: d.doc.url } : {}),
        ...(d.chunks[0]!.chunk.section ? { section: d.chunks[0]!.chunk.section } : {}),
        ...(related.includes(d) ? {} : { score: round(d.score / best) }),
      });
    }
    return out;
  }

  /**
   * The passages answers are drawn from: the best document's best passage and primaryPassages - 1 more of
   * its passages, and close runners-up of the next documents. The best document's further passages are
   * chosen by specificCoverage (the question words that set a passage apart within its document) times the
   * square root of their search score, not by search score alone, which favours short passages that repeat
   * the package name.
   */
  private passages(docs: Retrieval['documents'], terms: QueryTerm[]): { candidate: Candidate; source: number; weight: number }[] {
    const top = docs[0]!;
    const best = top.chunks[0]!.score;
    const weights = weightsFor(top.doc, terms, this.tuning);
    const others = top.chunks
      .slice(1)
      .map((c) => ({ c, worth: Math.sqrt(c.score / best) * specificCoverage(c, terms, weights) }))
      .sort((a, b) => b.worth - a.worth)
      .map((x) => x.c);
    const out: { candidate: Candidate; source: number; weight: number }[] = [{ candidate: top.chunks[0]!, source: 1, weight: 1 }];
    for (const c of others.slice(0, this.tuning.primaryPassages - 1)) out.push({ candidate: c, source: 1, weight: c.score / best });
    docs.slice(1, 1 + this.tuning.runnerUps).forEach((d, i) => {
      const c = d.chunks[0]!;
      if (c.score >= best * this.tuning.runnerUpShare) out.push({ candidate: c, source: i + 2, weight: (c.score / best) * this.tuning.runnerUpWeight });
    });
    return out;
  }
}

/** What the index tells of a stored document. */
function documentInfo(r: DocumentSummary): DocumentInfo {
  return {
    id: r.doc_id,
    library: r.library,
    title: r.title,
    uri: resourceUri(r.library, r.title),
    ...(r.url ? { url: r.url } : {}),
    content_type: r.content_type,
    chunks: r.chunks,
    chars: r.chars,
    hash: r.hash,
    updated_at: r.updated_at,
    origin: r.origin,
  };
}

/** A source's document: its path, its set and the resource URI of its whole text. */
function sourceDocument(doc: CurrentDocument): Pick<Source, 'title' | 'library' | 'uri'> {
  return { title: doc.title, library: doc.library, uri: resourceUri(doc.library, doc.title) };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function checkLibrary(library: string): void {
  const problem = libraryProblem(library);
  if (problem) throw new ToolError(`The document set name "${library.slice(0, 120)}" ${problem}.`, 'invalid_arguments', { field: 'library' });
}

/** The same retrieval read with other terms: which of them each passage matches, and their coverage. */
function readWith(retrieval: Retrieval, terms: QueryTerm[]): Retrieval {
  const read = (c: Candidate): Candidate => ({ ...c, ...matchOf(c.chunk, terms) });
  const candidates = retrieval.candidates.map(read);
  const byChunk = new Map(candidates.map((c) => [c.chunk.chunk_id, c]));
  const documents = retrieval.documents.map((d) => ({ ...d, chunks: d.chunks.map((c) => byChunk.get(c.chunk.chunk_id) ?? read(c)) }));
  return { terms, candidates, documents };
}

/** Per-tenant document indexes of one process (one DocIndex per tenant, sharing the Store). */
export class DocService {
  private readonly indexes = new Map<string, Promise<DocIndex>>();

  constructor(
    private readonly openStore: (tenant: string) => Promise<ChunkStore>,
    private readonly options: DocIndexOptions = {},
  ) {}

  forTenant(tenant: string): Promise<DocIndex> {
    let index = this.indexes.get(tenant);
    if (!index) {
      index = this.openStore(tenant).then((store) => new DocIndex(tenant, store, this.options));
      this.indexes.set(tenant, index);
      index.catch(() => this.indexes.delete(tenant));
    }
    return index;
  }
}
