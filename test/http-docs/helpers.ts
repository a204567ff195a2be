/**
 * Requests for the documents and query API with full control of the bytes: hand-built multipart bodies
 * (hostile file names and broken framing included) and chunked bodies without a Content-Length.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = fileURLToPath(new URL('../fixtures/docs/product', import.meta.url));

export function fixture(name: string): Promise<string> {
  return readFile(path.join(FIXTURES, name), 'utf8');
}

export interface Part {
  /** Form field name (default `file`). */
  name?: string;
  /** Omitted: a plain form field. */
  filename?: string;
  type?: string;
  content: string | Buffer;
}

/** A multipart/form-data body exactly as given (file names are not cleaned up). */
export function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----docent-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name ?? 'file'}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`;
    chunks.push(Buffer.from(head, 'utf8'), Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content, 'utf8'), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

/**
 * One request. `chunked` sends the body in pieces with Transfer-Encoding: chunked (no Content-Length), as a
 * streaming client does.
 */
export function send(
  url: string,
  options: { method?: string; key?: string; headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    const body = options.body === undefined ? undefined : Buffer.isBuffer(options.body) ? options.body : Buffer.from(options.body, 'utf8');
    if (body && options.chunked) {
      const half = Math.floor(body.length / 2);
      req.write(body.subarray(0, half));
      req.end(body.subarray(half));
    } else {
      req.end(body);
    }
  });
}

/** POST /v1/documents with a JSON body. */
export function uploadJson(url: string, key: string, document: Record<string, unknown>): Promise<Reply> {
  return send(`${url}/v1/documents`, { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(document) });
}

/** POST /v1/documents with files. */
export function uploadFiles(url: string, key: string, parts: Part[], options: { chunked?: boolean } = {}): Promise<Reply> {
  const { body, contentType } = multipart(parts);
  return send(`${url}/v1/documents`, { method: 'POST', key, headers: { 'content-type': contentType }, body, chunked: options.chunked });
}

/** POST /v1/query. */
export function query(url: string, key: string, body: Record<string, unknown>): Promise<Reply> {
  return send(`${url}/v1/query`, { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

export function listDocuments(url: string, key: string): Promise<Reply> {
  return send(`${url}/v1/documents`, { key });
}

export async function titles(url: string, key: string): Promise<string[]> {
  const reply = await listDocuments(url, key);
  if (reply.status !== 200) throw new Error(`GET /v1/documents answered ${reply.status}: ${reply.text}`);
  return (reply.body.documents as { title: string }[]).map((d) => d.title);
}
