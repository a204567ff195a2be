/**
 * Reading a JSON request body with a size cap. Every failure is an HttpError the caller can act on:
 * 413 over the cap, 415 for a non-JSON content type or a compressed body, 400 for malformed JSON.
 * An empty body is `undefined`.
 */
import type { IncomingMessage } from 'node:http';
import { HttpError } from './route.js';

/** Largest JSON body accepted (4 MiB: a 512 KB file write, JSON-escaped, fits with room to spare). */
export const MAX_JSON_BODY_BYTES = 4 * 1024 * 1024;

function tooLarge(limit: number): HttpError {
  return new HttpError(
    413,
    'payload_too_large',
    `The request body is larger than ${limit} bytes. Send less data per request.`,
    { limit_bytes: limit },
    { connection: 'close' },
  );
}

function isJsonType(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

export async function readJsonBody(req: IncomingMessage, limit = MAX_JSON_BODY_BYTES): Promise<unknown> {
  const contentType = req.headers['content-type'];
  if (contentType !== undefined && !isJsonType(contentType)) {
    throw new HttpError(415, 'unsupported_media_type', `Send the body as JSON with "Content-Type: application/json" (got "${contentType.slice(0, 100)}").`);
  }
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
    throw new HttpError(415, 'unsupported_encoding', 'Compressed request bodies are not accepted; send the JSON uncompressed.');
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);

  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      if (error) {
        req.resume(); // discard the rest instead of leaving the socket stalled
        reject(error);
      } else resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish(tooLarge(limit));
      else chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => finish());
    req.once('error', () => finish(new HttpError(400, 'bad_request', 'The request body could not be read.')));
    req.once('aborted', () => finish(new HttpError(400, 'bad_request', 'The request was aborted while its body was being read.')));
  });

  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, 'invalid_json', `The request body is not valid JSON: ${(error as Error).message}.`);
  }
}
