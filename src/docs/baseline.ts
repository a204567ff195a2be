/**
 * The naive baseline the evaluation compares against (what most documentation MCP servers do): fixed
 * 1,500-character windows stepping 1,200 characters, LanceDB's full-text search with its default settings over
 * the raw text, and it always answers, with its three best windows (4,500 characters). Used by scripts/eval.ts
 * only.
 */
import { createHash } from 'node:crypto';
import type { ChunkStore, ChunkRow } from '../storage/chunks.js';
import { findSource, readText } from './ingest.js';
import { DEFAULT_LIBRARY, resourceUri } from './library.js';
import { documentId } from './prepare.js';
import type { QueryResult } from './types.js';

export const BASELINE_WINDOW = 1500;
export const BASELINE_STEP = 1200;
/** Windows the baseline answers with. */
export const BASELINE_ANSWER_WINDOWS = 3;

export class BaselineIndex {
  constructor(private readonly store: ChunkStore) {}

  async ingestFolder(folder: string, exclude: string[] = []): Promise<{ documents: number; chunks: number }> {
    const found = await findSource(folder, exclude);
    let chunks = 0;
    const writes = [];
    for (const file of found.files) {
      const content = await readText(file.file);
      const docId = documentId(file.title, DEFAULT_LIBRARY);
      const version = 'v1';
      const rows: ChunkRow[] = [];
      for (let start = 0, ord = 0; start === 0 || start + BASELINE_WINDOW - BASELINE_STEP < content.length; start += BASELINE_STEP, ord++) {
        const text = content.slice(start, start + BASELINE_WINDOW);
        rows.push({
          chunk_id: `${docId}:${version}:${ord}`,
          doc_id: docId,
          library: DEFAULT_LIBRARY,
          version,
          ord,
          section: '',
          text,
          body_terms: '',
          head_terms: '',
        });
      }
      chunks += rows.length;
      writes.push({
        doc: {
          doc_id: docId,
          library: DEFAULT_LIBRARY,
          title: file.title,
          url: null,
          origin: found.origin,
          content_type: file.contentType,
          hash: createHash('sha256').update(content).digest('hex'),
          version,
          chunks: rows.length,
          chars: content.length,
          updated_at: new Date().toISOString(),
          vocab: '{}',
          idents: '',
          names: '',
          title_terms: '',
          content,
          links: '',
        },
        chunks: rows,
      });
    }
    await this.store.commit(writes);
    await this.store.refreshIndexes();
    return { documents: found.files.length, chunks };
  }

  async query(question: string, topK = 5): Promise<QueryResult> {
    // Plain text query: strip characters the query parser would treat as syntax.
    const hits = await this.store.search(question.replace(/[^\p{L}\p{N}\s]/gu, ' '), ['text'], [1], topK * 6);
    const titles = new Map((await this.store.summaries()).map((d) => [d.doc_id, d.title]));
    const sources: QueryResult['sources'] = [];
    for (const h of hits) {
      const title = titles.get(h.doc_id)!;
      if (!sources.some((s) => s.title === title)) sources.push({ title, library: DEFAULT_LIBRARY, uri: resourceUri(DEFAULT_LIBRARY, title), score: h.score });
      if (sources.length >= topK) break;
    }
    const best = hits[0];
    const answer = hits
      .slice(0, BASELINE_ANSWER_WINDOWS)
      .map((h) => h.text)
      .join('\n');
    return { grounded: Boolean(best), answer: best ? answer : undefined, sources, confidence: best ? 1 : 0 };
  }
}
