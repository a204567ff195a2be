/**
 * The parse stage on a worker thread (see parse-away.ts): a message { id, content, type } is answered with
 * { id, parsed } or { id, error }.
 */
import { parentPort } from 'node:worker_threads';
import { parseDocument, type ContentType } from './parse.js';

parentPort?.on('message', (message: { id: number; content: string; type: ContentType }) => {
  try {
    parentPort!.postMessage({ id: message.id, parsed: parseDocument(message.content, message.type) });
  } catch (error) {
    parentPort!.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
