/**
 * The contracts of the documentation index (DESIGN.md): the query result every surface returns (rag_query,
 * POST /v1/query, `docent ask --json`, the client library), documents as listed, and the ingest summary.
 */
import { z } from 'zod';

export const SourceSchema = z.object({
  title: z.string().describe('Document path relative to the ingested folder, or its upload name'),
  library: z.string().describe('The document set (library) the document belongs to'),
  uri: z.string().describe('Resource URI of the whole document (docent://{library}/{path}): read it with MCP resources/read'),
  url: z.string().optional().describe('Link to the document, when known'),
  section: z.string().optional().describe('Heading path of the passage, outermost first, joined by " › "'),
  score: z
    .number()
    .optional()
    .describe('Retrieval score relative to the best source (1 = best); absent on a related document (one naming the code names of the quoted passage)'),
});

export const QueryResultSchema = z.object({
  grounded: z.boolean().describe('True when the documentation answers the question; false means no match'),
  answer: z.string().optional().describe('Quoted passages (or a model answer checked against them); absent when grounded is false'),
  sources: z.array(SourceSchema).describe('Sources of the answer, primary first; when grounded is false, the closest documents (which do not answer)'),
  confidence: z.number().min(0).max(1).describe('Calibrated probability that the documentation answers this and the answer is right'),
  reason: z.string().optional().describe('On a refusal, what was missing'),
});

export type Source = z.infer<typeof SourceSchema>;
export type QueryResult = z.infer<typeof QueryResultSchema>;

export interface DocumentInfo {
  id: string;
  /** The document set; (library, title) is the document's identity. */
  library: string;
  title: string;
  /** Its resource URI (docent://{library}/{path}). */
  uri: string;
  url?: string;
  content_type: string;
  chunks: number;
  chars: number;
  hash: string;
  updated_at: string;
  origin: string;
}

export interface IngestSummary {
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  /** Chunks written (of added and updated documents). */
  chunks: number;
  seconds: number;
  /** The document sets written to, in the order the targets were named. */
  libraries: string[];
  /** Files and URLs skipped (not text, unreadable, empty), with why. */
  skipped: { path: string; reason: string }[];
}

export interface IngestProgress {
  done: number;
  total: number;
  title: string;
}

/** One document to ingest, already read (a file, an upload, a fetched page). */
export interface DocumentInput {
  title: string;
  content: string;
  /** `markdown`, `text`, `rst`, `html`, or a MIME type; guessed from the title's extension when absent. */
  contentType?: string;
  url?: string;
}
