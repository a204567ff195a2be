/**
 * parseDocument off the event loop, for the documents whose reading takes long enough to stall a server
 * that answers other callers meanwhile: AsciiDoc (Asciidoctor.js reads about 0.4 MB a second: a 5 MiB upload
 * took 15 s) and any document over AWAY_BYTES (5 MiB of HTML took 1.9 s). Markdown and text of ordinary size
 * are read in place, where a round trip to the worker would cost more than the reading.
 *
 * Contracts: the result is parseDocument's, exactly; one worker thread, started on first use and not keeping
 * the process alive; a worker that fails or dies (a document too large for its memory) fails the documents
 * it held with an error naming the cause, and the next call starts a new one. Without the compiled worker
 * script (running from the TypeScript sources) the document is read in place.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { parseDocument, type ContentType, type ParsedDocument } from './parse.js';

/** Documents larger than this (in UTF-16 units) are read on the worker whatever their kind. */
export const AWAY_BYTES = 256 * 1024;

const SCRIPT = new URL('./parse-worker.js', import.meta.url);

interface Pending {
  resolve: (parsed: ParsedDocument) => void;
  reject: (error: Error) => void;
}

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();

function failAll(error: Error): void {
  for (const p of pending.values()) p.reject(error);
  pending.clear();
  worker = undefined;
}

function started(): Worker {
  if (worker) return worker;
  const w = new Worker(fileURLToPath(SCRIPT));
  w.unref();
  w.on('message', (reply: { id: number; parsed?: ParsedDocument; error?: string }) => {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if (reply.error !== undefined) p.reject(new Error(reply.error));
    else p.resolve(reply.parsed!);
    if (!pending.size) w.unref();
  });
  w.on('error', (error) => {
    if (worker === w) failAll(new Error(`the document could not be read: ${error.message}`));
  });
  w.on('exit', (code) => {
    if (worker === w) failAll(new Error(`the document could not be read: the reader stopped (exit code ${code})`));
  });
  worker = w;
  return w;
}

/** Whether a document of this kind and size is read on the worker. */
export function readsAway(content: string, type: ContentType): boolean {
  return type === 'asciidoc' || content.length > AWAY_BYTES;
}

/** parseDocument's result, read on the worker when readsAway says so and the worker script is there. */
export async function parseAway(content: string, type: ContentType): Promise<ParsedDocument> {
  if (!readsAway(content, type) || !existsSync(SCRIPT)) return parseDocument(content, type);
  const w = started();
  const id = nextId++;
  return new Promise<ParsedDocument>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    // A document in progress keeps the process alive until it is read.
    w.ref();
    w.postMessage({ id, content, type });
  });
}
