/**
 * The documentation index on disk: per tenant, a `documents` table (one row per document, the current
 * version), a `chunks` table with two full-text indexed columns (`body_terms`, `head_terms`), optionally a
 * `vectors` table, and a `meta` table (embedding model and dimension). Separate tables per tenant: a tenant's
 * search can never return another tenant's chunks, whatever the query.
 *
 * Write order (what makes an interrupted ingest harmless): new chunks are written under a fresh version id,
 * then the document rows are switched to that version in one merge-insert commit, then superseded chunks
 * are deleted. Readers only trust chunks whose version is the document's current version, so a crash at
 * any point leaves each document either wholly at its old version or wholly at its new one; leftovers are
 * swept by `sweep()`.
 *
 * The term columns hold text already analysed by src/docs/tokens.ts; the full-text index splits them on
 * whitespace only, so indexing and querying agree exactly.
 *
 * Document sets (src/docs/library.ts): each document row, chunk and vector carries its `library`, so a search
 * scoped to one set filters in LanceDB (`scoped()`); `doc_id` is derived from (library, title). Tables of
 * earlier versions gain the new columns on open (ADDED_COLUMNS), their rows reading as the set `default`.
 */
import * as lancedb from '@lancedb/lancedb';
import { MultiMatchQuery, MatchQuery } from '@lancedb/lancedb';
import { Field, FixedSizeList, Float32, Float64, Schema, Utf8, type Table as ArrowTable } from 'apache-arrow';
import { DEFAULT_LIBRARY } from '../docs/library.js';
import { retryRead, sqlLiteral, type Store } from './store.js';

export interface DocumentRow {
  /** Derived from (library, title), the document's identity (src/docs/prepare.ts documentId). */
  doc_id: string;
  /** The document set it belongs to; rows written before sets existed read as `default`. */
  library: string;
  title: string;
  url: string | null;
  /** Where it came from: the ingested folder or file (absolute), `upload`, or the URL. */
  origin: string;
  content_type: string;
  hash: string;
  version: string;
  chunks: number;
  chars: number;
  updated_at: string;
  /** Distinct analysed terms of the document, space-separated (corpus statistics). */
  vocab: string;
  /** Distinct identifiers and code words of the document, space-separated (the identifier check). */
  idents: string;
  /** No longer written (empty): kept so that tables written before stay readable and writable. */
  names: string;
  /** The title field: path words, title, top heading and description, analysed (src/docs/prepare.ts titleTerms). */
  title_terms: string;
  /** The document's text as ingested (decoded); empty in rows written before it was stored. */
  content: string;
  /**
   * Its links to other pages of the documentation: JSON `[[target page key, link words], …]` (src/docs/links.ts);
   * empty in rows written before links were kept.
   */
  links: string;
}

export type DocumentSummary = Omit<DocumentRow, 'vocab' | 'idents' | 'names' | 'title_terms' | 'content' | 'links'>;

export interface ChunkRow {
  chunk_id: string;
  doc_id: string;
  /** Its document's set (a copy, so that a search scoped to one set filters chunks directly). */
  library: string;
  version: string;
  ord: number;
  section: string;
  text: string;
  body_terms: string;
  head_terms: string;
}

export interface ChunkHit extends ChunkRow {
  score: number;
}

export interface VectorRow {
  chunk_id: string;
  doc_id: string;
  library: string;
  version: string;
  vector: number[];
}

export interface DocumentWrite {
  doc: DocumentRow;
  chunks: ChunkRow[];
  vectors?: VectorRow[];
}

export type FtsColumn = 'body_terms' | 'head_terms' | 'text';

const DOC_SCHEMA = new Schema([
  new Field('doc_id', new Utf8(), false),
  new Field('title', new Utf8(), false),
  new Field('url', new Utf8(), true),
  new Field('origin', new Utf8(), false),
  new Field('content_type', new Utf8(), false),
  new Field('hash', new Utf8(), false),
  new Field('version', new Utf8(), false),
  new Field('chunks', new Float64(), false),
  new Field('chars', new Float64(), false),
  new Field('updated_at', new Utf8(), false),
  new Field('vocab', new Utf8(), false),
  new Field('idents', new Utf8(), false),
  new Field('names', new Utf8(), false),
  new Field('title_terms', new Utf8(), true),
  new Field('library', new Utf8(), true),
  new Field('content', new Utf8(), true),
  new Field('links', new Utf8(), true),
]);

const CHUNK_SCHEMA = new Schema([
  new Field('chunk_id', new Utf8(), false),
  new Field('doc_id', new Utf8(), false),
  new Field('version', new Utf8(), false),
  new Field('ord', new Float64(), false),
  new Field('section', new Utf8(), false),
  new Field('text', new Utf8(), false),
  new Field('body_terms', new Utf8(), false),
  new Field('head_terms', new Utf8(), false),
  new Field('library', new Utf8(), true),
]);

const META_SCHEMA = new Schema([new Field('key', new Utf8(), false), new Field('value', new Utf8(), false)]);

function vectorSchema(dimension: number): Schema {
  return new Schema([
    new Field('chunk_id', new Utf8(), false),
    new Field('doc_id', new Utf8(), false),
    new Field('version', new Utf8(), false),
    new Field('vector', new FixedSizeList(dimension, new Field('item', new Float32(), true)), false),
    new Field('library', new Utf8(), true),
  ]);
}

/** Table-name-safe and injective: `_` doubles, other non-alphanumerics become `_<hex>_`. */
export function tenantKey(tenant: string): string {
  return tenant.replace(/[^A-Za-z0-9]/g, (c) => (c === '_' ? '__' : `_${c.charCodeAt(0).toString(16)}_`));
}

const SUMMARY_COLUMNS = ['doc_id', 'library', 'title', 'url', 'origin', 'content_type', 'hash', 'version', 'chunks', 'chars', 'updated_at'];
/** Every document column but the (large) content, which only `content()` reads. */
const ROW_COLUMNS = DOC_SCHEMA.fields.map((f) => f.name).filter((n) => n !== 'content');
const CHUNK_COLUMNS = ['chunk_id', 'doc_id', 'library', 'version', 'ord', 'section', 'text', 'body_terms', 'head_terms'];

/** The set of rows written before document sets existed. */
const LEGACY_LIBRARY = DEFAULT_LIBRARY;

/**
 * Columns added since a table was first written, with the value its old rows read as. Added on open (once,
 * under the tenant's write lock), so data directories of earlier versions keep working without a re-ingest.
 */
const ADDED_COLUMNS: Record<'documents' | 'chunks' | 'vectors', { name: string; valueSql: string }[]> = {
  documents: [
    { name: 'title_terms', valueSql: "CAST('' AS STRING)" },
    { name: 'library', valueSql: `CAST('${LEGACY_LIBRARY}' AS STRING)` },
    { name: 'content', valueSql: "CAST('' AS STRING)" },
    { name: 'links', valueSql: "CAST('' AS STRING)" },
  ],
  chunks: [{ name: 'library', valueSql: `CAST('${LEGACY_LIBRARY}' AS STRING)` }],
  vectors: [{ name: 'library', valueSql: `CAST('${LEGACY_LIBRARY}' AS STRING)` }],
};

async function addMissingColumns(store: Store, table: lancedb.Table, lock: string, columns: { name: string; valueSql: string }[]): Promise<void> {
  const missing = async () => {
    const have = new Set((await retryRead(() => table.schema())).fields.map((f) => f.name));
    return columns.filter((c) => !have.has(c.name));
  };
  if (!(await missing()).length) return;
  await store.commit(lock, async () => {
    const add = await missing();
    if (!add.length) return;
    try {
      await table.addColumns(add);
    } catch (error) {
      // Another process (a CLI beside the server) may have added them first: only a column still missing is a failure.
      if ((await missing()).length) throw error;
    }
  });
}

/** Whitespace tokens as analysed by src/docs; lower-casing and stemming already happened there. */
const termIndex = () =>
  lancedb.Index.fts({
    baseTokenizer: 'whitespace',
    lowercase: false,
    stem: false,
    removeStopWords: false,
    asciiFolding: false,
    withPosition: false,
    maxTokenLength: 64,
  });

/** The naive baseline's full-text index over raw text, with LanceDB's default settings (scripts/eval.ts). */
const plainIndex = () => lancedb.Index.fts();

const inList = (values: string[]) => values.map((v) => sqlLiteral(v)).join(', ');

export class ChunkStore {
  private constructor(
    private readonly store: Store,
    readonly tenant: string,
    private readonly prefix: string,
    private readonly docs: lancedb.Table,
    private readonly chunks: lancedb.Table,
    private readonly meta: lancedb.Table,
    private readonly ftsColumns: FtsColumn[],
    /** The vectors table, shared by this store and its scoped views. */
    private readonly shared: { vectors?: lancedb.Table } = {},
    /** When set, search and nearest only return chunks of this document set. */
    readonly scope?: string,
  ) {}

  private get vectorsTable(): lancedb.Table | undefined {
    return this.shared.vectors;
  }

  private set vectorsTable(table: lancedb.Table | undefined) {
    this.shared.vectors = table;
  }

  /** The same index, its searches (`search`, `nearest`) limited to one document set. */
  scoped(library: string): ChunkStore {
    return new ChunkStore(this.store, this.tenant, this.prefix, this.docs, this.chunks, this.meta, this.ftsColumns, this.shared, library);
  }

  private scopeFilter(): string | undefined {
    return this.scope === undefined ? undefined : `library = ${sqlLiteral(this.scope)}`;
  }

  /** Opens (creating when missing) the tenant's tables. `ftsColumns` are the columns given a full-text index. */
  static async open(store: Store, tenant: string, options: { ftsColumns?: FtsColumn[]; namespace?: string } = {}): Promise<ChunkStore> {
    const prefix = `${options.namespace ?? 'docs'}_${tenantKey(tenant)}`;
    const [docs, chunks, meta] = await Promise.all([
      store.openTable(`${prefix}_documents`, DOC_SCHEMA),
      store.openTable(`${prefix}_chunks`, CHUNK_SCHEMA),
      store.openTable(`${prefix}_meta`, META_SCHEMA),
    ]);
    // Tables of earlier versions gain the columns added since (ADDED_COLUMNS): an empty title field (the
    // analyzer version re-ingests those documents), the set `default`, no stored content.
    await addMissingColumns(store, docs, `docs:${prefix}`, ADDED_COLUMNS.documents);
    await addMissingColumns(store, chunks, `docs:${prefix}`, ADDED_COLUMNS.chunks);
    return new ChunkStore(store, tenant, prefix, docs, chunks, meta, options.ftsColumns ?? ['body_terms', 'head_terms']);
  }

  /** Serialises writers of this tenant's index (every process sharing the store's locks); reentrant. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.store.exclusive(this.lock, fn);
  }

  /** One commit to the tenant's tables, under their write lock with its fence checked first. */
  private write<T>(op: () => Promise<T>): Promise<T> {
    return this.store.commit(this.lock, op);
  }

  private get lock(): string {
    return `docs:${this.prefix}`;
  }

  /**
   * A number that changes whenever the documents table changes, also by another process (the Store reads
   * with strong consistency, so every read sees the latest commit).
   */
  async generation(): Promise<number> {
    return retryRead(() => this.docs.version());
  }

  /** Every document row, without its content (see `content`). */
  async documents(): Promise<DocumentRow[]> {
    return (await retryRead(() => this.docs.query().select(ROW_COLUMNS).toArray())).map(plainDoc);
  }

  /** Ids of the documents written before their text was stored (before document sets existed). */
  async legacyDocuments(): Promise<string[]> {
    const rows = await retryRead(() => this.docs.query().where("content IS NULL OR content = ''").select(['doc_id']).toArray());
    return rows.map((r) => String(r.doc_id));
  }

  /** The stored text of one document (empty when it was written before content was stored). */
  async content(docId: string): Promise<string | undefined> {
    const rows = await retryRead(() =>
      this.docs
        .query()
        .where(`doc_id = ${sqlLiteral(docId)}`)
        .select(['content'])
        .limit(1)
        .toArray(),
    );
    return rows[0] ? String(rows[0].content ?? '') : undefined;
  }

  async summaries(): Promise<DocumentSummary[]> {
    const rows = await retryRead(() => this.docs.query().select(SUMMARY_COLUMNS).toArray());
    return rows
      .map((r) => plainDoc({ ...r, vocab: '', idents: '', names: '', links: '' }))
      .map(({ vocab: _v, idents: _i, names: _n, title_terms: _t, content: _c, links: _l, ...rest }) => rest);
  }

  async documentCount(): Promise<number> {
    return retryRead(() => this.docs.countRows());
  }

  async chunkCount(): Promise<number> {
    return retryRead(() => this.chunks.countRows());
  }

  /**
   * Makes each document's new version current, in three steps whose order is the crash-safety argument:
   * new chunks (and vectors) first, then the document rows in one commit, then the superseded chunks.
   */
  async commit(writes: DocumentWrite[]): Promise<void> {
    if (!writes.length) return;
    await this.writeVersions(writes);
    await this.switchVersions(writes);
    await this.dropSuperseded(writes);
  }

  /** Step 1: the new versions' chunks and vectors, invisible to readers until their documents switch. */
  async writeVersions(writes: DocumentWrite[]): Promise<void> {
    const chunks = writes.flatMap((w) => w.chunks);
    if (chunks.length) await this.write(() => this.chunks.add(chunks as unknown as Record<string, unknown>[]));
    const vectors = writes.flatMap((w) => w.vectors ?? []);
    if (vectors.length) {
      if (!this.vectorsTable) throw new Error('vectors table not open: call openVectors(dimension) first');
      const table = this.vectorsTable;
      await this.write(() => table.add(vectors as unknown as Record<string, unknown>[]));
    }
  }

  /** Step 2: one merge-insert commit points every document at its new version. */
  async switchVersions(writes: DocumentWrite[]): Promise<void> {
    await this.write(() =>
      this.docs
        .mergeInsert('doc_id')
        .whenMatchedUpdateAll()
        .whenNotMatchedInsertAll()
        .execute(writes.map((w) => w.doc) as unknown as Record<string, unknown>[]),
    );
  }

  /** Step 3: chunks and vectors of the versions just replaced. */
  async dropSuperseded(writes: DocumentWrite[]): Promise<void> {
    const ids = inList(writes.map((w) => w.doc.doc_id));
    const versions = inList(writes.map((w) => w.doc.version));
    const stale = `doc_id IN (${ids}) AND version NOT IN (${versions})`;
    await this.write(() => this.chunks.delete(stale));
    const vectors = this.vectorsTable;
    if (vectors) await this.write(() => vectors.delete(stale));
  }

  /** Removes documents: their rows first (readers stop seeing them at once), then their chunks. */
  async remove(docIds: string[]): Promise<void> {
    if (!docIds.length) return;
    const where = `doc_id IN (${inList(docIds)})`;
    await this.write(() => this.docs.delete(where));
    await this.write(() => this.chunks.delete(where));
    const vectors = this.vectorsTable;
    if (vectors) await this.write(() => vectors.delete(where));
  }

  /** Deletes chunks and vectors that belong to no current document version (left by an interrupted ingest). */
  async sweep(): Promise<number> {
    const current = new Map(
      (await retryRead(() => this.docs.query().select(['doc_id', 'version']).toArray())).map((r) => [String(r.doc_id), String(r.version)]),
    );
    const rows = await retryRead(() => this.chunks.query().select(['doc_id', 'version']).toArray());
    const stale = new Set<string>();
    for (const r of rows) {
      if (current.get(String(r.doc_id)) !== String(r.version)) stale.add(`${r.doc_id}\u0000${r.version}`);
    }
    if (!stale.size) return 0;
    const clauses = [...stale].map((key) => {
      const [doc, version] = key.split('\u0000') as [string, string];
      return `(doc_id = ${sqlLiteral(doc)} AND version = ${sqlLiteral(version)})`;
    });
    for (let i = 0; i < clauses.length; i += 200) {
      const where = clauses.slice(i, i + 200).join(' OR ');
      await this.write(() => this.chunks.delete(where));
      const vectors = this.vectorsTable;
      if (vectors) await this.write(() => vectors.delete(where));
    }
    return stale.size;
  }

  /** Builds missing full-text indexes, and folds newly written rows into existing ones. */
  async refreshIndexes(): Promise<void> {
    if ((await retryRead(() => this.chunks.countRows())) === 0) return;
    const existing = new Set((await retryRead(() => this.chunks.listIndices())).map((i) => i.columns.join(',')));
    let created = false;
    for (const column of this.ftsColumns) {
      if (!existing.has(column)) {
        await this.write(() => this.chunks.createIndex(column, { config: column === 'text' ? plainIndex() : termIndex(), replace: true }));
        created = true;
      }
    }
    const cleanupOlderThan = () => new Date(Date.now() - 60_000);
    if (!created) await this.write(() => this.chunks.optimize({ cleanupOlderThan: cleanupOlderThan() }));
    await this.write(() => this.docs.optimize({ cleanupOlderThan: cleanupOlderThan() }));
    const vectors = this.vectorsTable;
    if (vectors) await this.write(() => vectors.optimize({ cleanupOlderThan: cleanupOlderThan() }));
  }

  /**
   * Full-text search over the term columns (BM25 in LanceDB, summed over columns with the given boosts).
   * `related` terms (weaker alternatives of the query's words) add their BM25 scaled by their weight
   * (summed over the best `limit` chunks of each).
   * Returns chunks of any version; the caller keeps only current ones.
   */
  async search(query: string, columns: FtsColumn[], boosts: number[], limit: number, related?: { query: string; weight: number }): Promise<ChunkHit[]> {
    const run = async (q: string, weight: number): Promise<ChunkHit[]> => {
      if (!q.trim() || weight <= 0) return [];
      const fts = columns.length === 1 ? new MatchQuery(q, columns[0]!) : new MultiMatchQuery(q, columns, { boosts });
      let query = this.chunks.query().fullTextSearch(fts);
      const scope = this.scopeFilter();
      if (scope) query = query.where(scope);
      const rows = await readRows(() => query.select([...CHUNK_COLUMNS, '_score']).limit(limit));
      return rows.map((r) => ({ ...plainChunk(r), score: Number(r._score) * weight }));
    };
    // Two queries side by side, scores summed per chunk (a should-clause BooleanQuery ranks the same but
    // costs three times as long at 100k chunks).
    const [main, extra] = await Promise.all([run(query, 1), related ? run(related.query, related.weight) : Promise.resolve([])]);
    if (!extra.length) return main;
    const byId = new Map(main.map((h) => [h.chunk_id, { ...h }]));
    for (const h of extra) {
      const hit = byId.get(h.chunk_id);
      if (hit) hit.score += h.score;
      else byId.set(h.chunk_id, h);
    }
    return [...byId.values()].sort((a, b) => b.score - a.score).slice(0, limit);
  }

  /** Chunks by id (any version). */
  async chunksById(ids: string[]): Promise<ChunkRow[]> {
    if (!ids.length) return [];
    const rows = await readRows(() =>
      this.chunks
        .query()
        .where(`chunk_id IN (${inList(ids)})`)
        .select(CHUNK_COLUMNS),
    );
    return rows.map(plainChunk);
  }

  /** Every chunk of one document version, in order. */
  async chunksOf(docId: string, version: string): Promise<ChunkRow[]> {
    const rows = await readRows(() =>
      this.chunks
        .query()
        .where(`doc_id = ${sqlLiteral(docId)} AND version = ${sqlLiteral(version)}`)
        .select(CHUNK_COLUMNS),
    );
    return rows.map(plainChunk).sort((a, b) => a.ord - b.ord);
  }

  async getMeta(key: string): Promise<string | undefined> {
    const rows = await retryRead(() =>
      this.meta
        .query()
        .where(`key = ${sqlLiteral(key)}`)
        .toArray(),
    );
    return rows[0] ? String(rows[0].value) : undefined;
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.write(() => this.meta.mergeInsert('key').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute([{ key, value }]));
  }

  /** Opens (creating when missing) the vectors table of the given dimension. */
  async openVectors(dimension: number): Promise<void> {
    if (this.vectorsTable) return;
    const table = await this.store.openTable(`${this.prefix}_vectors_${dimension}`, vectorSchema(dimension));
    await addMissingColumns(this.store, table, this.lock, ADDED_COLUMNS.vectors);
    this.vectorsTable ??= table;
  }

  /** Deletes every vector of the given dimension's table (the embedding model changed). */
  async clearVectors(dimension: number): Promise<void> {
    const table = await this.store.openTable(`${this.prefix}_vectors_${dimension}`, vectorSchema(dimension));
    await this.write(() => table.delete('true'));
    if (this.vectorsTable === table) this.vectorsTable = undefined;
  }

  get hasVectors(): boolean {
    return this.vectorsTable !== undefined;
  }

  /** Chunk ids (of any version) among the given ones that have no vector yet. */
  async missingVectors(chunkIds: string[]): Promise<Set<string>> {
    const missing = new Set(chunkIds);
    const vectors = this.vectorsTable;
    if (!vectors || !chunkIds.length) return missing;
    for (let i = 0; i < chunkIds.length; i += 500) {
      const rows = await retryRead(() =>
        vectors
          .query()
          .where(`chunk_id IN (${inList(chunkIds.slice(i, i + 500))})`)
          .select(['chunk_id'])
          .toArray(),
      );
      for (const r of rows) missing.delete(String(r.chunk_id));
    }
    return missing;
  }

  async addVectors(rows: VectorRow[]): Promise<void> {
    if (!this.vectorsTable) throw new Error('vectors table not open');
    const table = this.vectorsTable;
    if (rows.length) await this.write(() => table.add(rows as unknown as Record<string, unknown>[]));
  }

  /** Nearest chunks by cosine distance (exhaustive search; any version). */
  async nearest(vector: number[], limit: number): Promise<{ chunk_id: string; doc_id: string; version: string; distance: number }[]> {
    const vectors = this.vectorsTable;
    if (!vectors) return [];
    let query = vectors.query().nearestTo(vector).distanceType('cosine');
    const scope = this.scopeFilter();
    if (scope) query = query.where(scope);
    const rows = await retryRead(() => query.select(['chunk_id', 'doc_id', 'version', '_distance']).limit(limit).toArray());
    return rows.map((r) => ({ chunk_id: String(r.chunk_id), doc_id: String(r.doc_id), version: String(r.version), distance: Number(r._distance) }));
  }

  /** Every current chunk id with its document and version (for backfilling vectors). */
  async allChunkRefs(): Promise<{ chunk_id: string; doc_id: string; version: string }[]> {
    const rows = await retryRead(() => this.chunks.query().select(['chunk_id', 'doc_id', 'version']).toArray());
    return rows.map((r) => ({ chunk_id: String(r.chunk_id), doc_id: String(r.doc_id), version: String(r.version) }));
  }
}

function plainDoc(r: Record<string, unknown>): DocumentRow {
  return {
    doc_id: String(r.doc_id),
    library: String(r.library ?? LEGACY_LIBRARY),
    title: String(r.title),
    url: r.url === null || r.url === undefined ? null : String(r.url),
    origin: String(r.origin),
    content_type: String(r.content_type),
    hash: String(r.hash),
    version: String(r.version),
    chunks: Number(r.chunks),
    chars: Number(r.chars),
    updated_at: String(r.updated_at),
    vocab: String(r.vocab ?? ''),
    idents: String(r.idents ?? ''),
    names: String(r.names ?? ''),
    title_terms: String(r.title_terms ?? ''),
    content: String(r.content ?? ''),
    links: String(r.links ?? ''),
  };
}

/** The rows a query (built afresh on each attempt) returns, read as retryRead reads, as plain objects. */
async function readRows(query: () => { toArrow(): Promise<ArrowTable> }): Promise<Record<string, unknown>[]> {
  return plainRows(await retryRead(() => query().toArrow()));
}

/**
 * A result's rows as plain objects, read a column at a time: the same values `toArray()` gives, without a
 * proxy per row (reading 200 passages that way took about a tenth of a query's time).
 */
function plainRows(table: ArrowTable): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = Array.from({ length: table.numRows }, () => ({}));
  for (const field of table.schema.fields) {
    const values = table.getChild(field.name)?.toArray() ?? [];
    for (let i = 0; i < rows.length; i++) rows[i]![field.name] = values[i];
  }
  return rows;
}

function plainChunk(r: Record<string, unknown>): ChunkRow {
  return {
    chunk_id: String(r.chunk_id),
    doc_id: String(r.doc_id),
    library: String(r.library ?? LEGACY_LIBRARY),
    version: String(r.version),
    ord: Number(r.ord),
    section: String(r.section),
    text: String(r.text),
    body_terms: String(r.body_terms),
    head_terms: String(r.head_terms),
  };
}

export async function openChunkStore(store: Store, tenant: string, options?: { ftsColumns?: FtsColumn[]; namespace?: string }): Promise<ChunkStore> {
  return ChunkStore.open(store, tenant, options);
}
