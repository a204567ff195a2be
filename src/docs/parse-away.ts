/**
 * parseDocument off the event loop, for the documents whose reading takes long enough to stall a server
 * that answers other callers meanwhile: AsciiDoc (Asciidoctor.js reads about 0.4 MB a second: a 5 MiB upload
 * took 15 s) and any document over AWAY_BYTES (5 MiB of HTML took 1.9 s). Markdown and text of ordinary size
 * are read in place, where a round trip to the worker would cost more than the reading.
 *
 * Contracts:
 * - the result is parseDocument's, exactly;
 * - one worker thread, started on first use, never keeping the process alive once nothing is pending, its
 *   heap capped (LIMITS.heapMb);
 * - a document is read within LIMITS.baseMs plus LIMITS.perMbMs per MB of it, or the worker is stopped and
 *   that document fails with the reason; so does a document the worker dies on (out of memory). The
 *   documents queued behind it are handed to a new worker: one hostile document fails itself only;
 * - without the compiled worker script (running from the TypeScript sources) documents are read in place.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { parseDocument, type ContentType, type ParsedDocument } from './parse.js';

/** Documents larger than this (in UTF-16 units) are read on the worker whatever their kind. */
export const AWAY_BYTES = 256 * 1024;

/**
 * How long and how large a reading may be. A 5 MiB AsciiDoc manual (the upload cap) reads in 15 s on a
 * 2-core machine, within 55 s here; a 101-byte AsciiDoc table of a million columns would take minutes.
 * Mutable for tests only.
 */
export const LIMITS = { baseMs: 15_000, perMbMs: 8_000, heapMb: 768 };

const SCRIPT = new URL('./parse-worker.js', import.meta.url);
/** Whether SCRIPT exists, looked up once. */
let scriptThere: boolean | undefined;

interface Job {
  content: string;
  type: ContentType;
  resolve: (parsed: ParsedDocument) => void;
  reject: (error: Error) => void;
}

let worker: Worker | undefined;
let nextId = 0;
/** Jobs posted to the worker, in the order it reads them: the first is the one being read. */
const queue = new Map<number, Job>();
let deadline: { id: number; timer: NodeJS.Timeout } | undefined;

function deadlineOf(job: Job): number {
  return LIMITS.baseMs + LIMITS.perMbMs * (job.content.length / 1e6);
}

/** Arms the deadline of the job being read (the first queued), if it is not armed yet. */
function arm(): void {
  const first = queue.entries().next();
  if (first.done) {
    if (deadline) clearTimeout(deadline.timer);
    deadline = undefined;
    worker?.unref();
    return;
  }
  const [id, job] = first.value;
  if (deadline?.id === id) return;
  if (deadline) clearTimeout(deadline.timer);
  const ms = deadlineOf(job);
  deadline = { id, timer: setTimeout(() => fail(id, `it took longer than ${Math.round(ms / 1000)} s to read`), ms) };
}

/** The job being read fails; the worker is replaced and the jobs behind it are read by the new one. */
function fail(id: number, reason: string): void {
  const job = queue.get(id);
  const old = worker;
  worker = undefined;
  if (deadline) clearTimeout(deadline.timer);
  deadline = undefined;
  void old?.terminate();
  if (job) {
    queue.delete(id);
    job.reject(new Error(`the document could not be read: ${reason}`));
  }
  const rest = [...queue.entries()];
  queue.clear();
  for (const [, j] of rest) post(j);
}

function started(): Worker {
  if (worker) return worker;
  const w = new Worker(fileURLToPath(SCRIPT), { resourceLimits: { maxOldGenerationSizeMb: LIMITS.heapMb } });
  w.on('message', (reply: { id: number; parsed?: ParsedDocument; error?: string }) => {
    if (worker !== w) return;
    const job = queue.get(reply.id);
    if (!job) return;
    queue.delete(reply.id);
    if (reply.error !== undefined) job.reject(new Error(reply.error));
    else job.resolve(reply.parsed!);
    arm();
  });
  const died = (reason: string) => {
    if (worker !== w) return;
    const first = queue.keys().next();
    if (first.done) worker = undefined;
    else fail(first.value, reason);
  };
  w.on('error', (error) => died(error.message.replace(/\.$/, '')));
  w.on('exit', (code) => died(`the reader stopped (exit code ${code})`));
  worker = w;
  return w;
}

function post(job: Job): void {
  const w = started();
  const id = nextId++;
  queue.set(id, job);
  // A document in progress keeps the process alive until it is read.
  w.ref();
  w.postMessage({ id, content: job.content, type: job.type });
  arm();
}

/** Whether a document of this kind and size is read on the worker. */
export function readsAway(content: string, type: ContentType): boolean {
  return type === 'asciidoc' || content.length > AWAY_BYTES;
}

/** parseDocument's result, read on the worker when readsAway says so and the worker script is there. */
export async function parseAway(content: string, type: ContentType): Promise<ParsedDocument> {
  if (!readsAway(content, type) || !(scriptThere ??= existsSync(SCRIPT))) return parseDocument(content, type);
  return new Promise<ParsedDocument>((resolve, reject) => post({ content, type, resolve, reject }));
}
