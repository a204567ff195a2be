/**
 * Documentation management for the key's tenant:
 *
 * - `POST /v1/documents`: JSON `{ title, content, content_type?, url?, library? }`, or `multipart/form-data`
 *   with one or more files, each stored under its file name, and optionally one `library` field. Every
 *   document goes to that document set (`default` when none is named); (library, title) is its identity.
 *   All or nothing: names, kinds, text, sizes and the documentation quota are checked for every file, then
 *   the index ingests them in one step (DocIndex.ingestDocuments). 201 when a document was added, else 200;
 *   the body lists each document with `status` (`added` | `updated` | `unchanged`).
 * - `GET /v1/documents[?library=L]`: the tenant's documents (of one set), ordered by set then title, its
 *   sets with their sizes, and the quota usage.
 * - `DELETE /v1/documents/:id`: 204; 404 when the tenant has no such document (another tenant's id
 *   included: ids never reach across tenants). `DELETE /v1/documents?library=L`: removes the whole set,
 *   200 `{ library, removed }`; 404 when the tenant has no such set.
 *
 * Titles follow the index's rule (a document's title is its relative path, or its upload name) and must be
 * a clean relative path: no `..` or `.` segments, no leading `/`, no backslashes or control characters.
 *
 * Limits: `uploads.maxFileBytes` per document and `uploads.maxRequestBytes` per request (413); the plan's
 * documentation quota is checked before the body is read by the plan-limits check (its declared size), and
 * again here with the exact sizes once the body is parsed (429), so a chunked upload cannot slip past it.
 */
import type { IncomingMessage } from 'node:http';
import type { DocumentInfo, DocIndex } from '../../docs/index.js';
import { DEFAULT_LIBRARY, librariesOf, libraryProblem, resourceUri } from '../../docs/library.js';
import type { ContentType } from '../../docs/parse.js';
import type {
  DocumentContentType,
  DocumentListResponse,
  DocumentRecord,
  LibraryRemovedResponse,
  UploadedDocument,
  UploadResponse,
} from '../../client/types.js';
import { ToolError } from '../../errors.js';
import type { Runtime } from '../../runtime.js';
import { readJsonBody } from '../body.js';
import { DOCUMENT_QUOTA_RETRY_MS, planLimitsOf, tooMany } from '../limits.js';
import { HttpError, type Route, type RouteContext } from '../route.js';
import { statusForToolError } from './tools.js';

/** One document ready to ingest. */
interface Upload {
  title: string;
  content: string;
  contentType: ContentType;
  url?: string;
}

const TITLE_MAX_CHARS = 300;
const URL_MAX_CHARS = 2048;
/** Files per multipart request. */
const MAX_FILES = 100;
const JSON_FIELDS = ['title', 'content', 'content_type', 'url', 'library'] as const;
/** Header that carries the confirmation token of an agent's DELETE. */
const CONFIRMATION_HEADER = 'x-confirmation-token';

const parse = () => import('../../docs/parse.js');
const textCheck = () => import('../../docs/text.js');

async function indexOf(ctx: RouteContext): Promise<DocIndex> {
  return (await ctx.runtime.services.docs()).forTenant(ctx.caller.tenant);
}

function record(doc: DocumentInfo): DocumentRecord {
  return {
    id: doc.id,
    library: doc.library,
    title: doc.title,
    uri: doc.uri,
    ...(doc.url ? { url: doc.url } : {}),
    content_type: doc.content_type as DocumentContentType,
    chunks: doc.chunks,
    chars: doc.chars,
    updated_at: doc.updated_at,
  };
}

function invalid(field: string, message: string, extra: Record<string, unknown> = {}): HttpError {
  return new HttpError(400, 'invalid_arguments', message, { field, ...extra });
}

async function supportedKinds(): Promise<string[]> {
  return Object.keys((await parse()).EXTENSIONS);
}

async function unsupported(what: string, extra: Record<string, unknown> = {}): Promise<HttpError> {
  const supported = await supportedKinds();
  const { CONTENT_TYPES, listed } = await parse();
  return new HttpError(
    415,
    'unsupported_document_type',
    `${what} is not a supported document type. Supported: ${supported.join(', ')} files, or content_type ${listed(CONTENT_TYPES, 'or')} (text/markdown, text/plain, text/x-rst, text/html, text/asciidoc).`,
    { supported, ...extra },
  );
}

function tooLarge(what: string, limit: number, setting: string): HttpError {
  return new HttpError(
    413,
    'payload_too_large',
    `${what} is larger than ${limit} bytes, the limit of this server (${setting}). Split it into smaller documents.`,
    { limit_bytes: limit },
    { connection: 'close' },
  );
}

/** The document set named by a request (`library`), checked; undefined when none is named. */
async function libraryOf(value: unknown, where: string): Promise<string | undefined> {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid('library', `"library" (${where}) must be a string.`);
  const problem = libraryProblem(value);
  if (problem) throw invalid('library', `"library" ${problem}.`);
  return value;
}

/** What is wrong with a title, or undefined when it is a clean relative name. */
function titleProblem(title: string): string | undefined {
  if (!title) return 'is empty';
  if (title.length > TITLE_MAX_CHARS) return `is longer than ${TITLE_MAX_CHARS} characters`;
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u001f\u007f]/.test(title)) return 'contains control characters';
  if (title.includes('\\')) return 'contains a backslash; separate folders with "/"';
  if (title.startsWith('/')) return 'is an absolute path; use a relative name such as guides/setup.md';
  const segments = title.split('/');
  if (segments.some((s) => s === '.' || s === '..')) return 'contains a "." or ".." path segment';
  if (segments.some((s) => s.trim() === '')) return 'has an empty path segment';
  return undefined;
}

// ------------------------------------------------------------------ JSON uploads

async function readJsonUpload(ctx: RouteContext): Promise<{ uploads: Upload[]; library?: string }> {
  const { maxFileBytes, maxRequestBytes } = ctx.runtime.config.uploads;
  const body = await readJsonBody(ctx.req, maxRequestBytes);
  if (body === undefined) throw invalid('body', 'Send a JSON body { "title", "content", "content_type"?, "url"?, "library"? } (or multipart/form-data files).');
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid('body', 'The JSON body must be an object { "title", "content", "content_type"?, "url"?, "library"? }.');
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((k) => !(JSON_FIELDS as readonly string[]).includes(k));
  if (unknown.length)
    throw invalid(
      unknown[0]!,
      `Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k.slice(0, 50)}"`).join(', ')}; accepted: ${JSON_FIELDS.join(', ')}.`,
    );

  const text = (name: string, required: boolean): string | undefined => {
    const value = fields[name];
    if (value === undefined || value === null) {
      if (required) throw invalid(name, `"${name}" is required.`);
      return undefined;
    }
    if (typeof value !== 'string') throw invalid(name, `"${name}" must be a string.`);
    return value;
  };
  const title = text('title', true)!.trim();
  const problem = titleProblem(title);
  if (problem) throw invalid('title', `"title" ${problem}.`);
  const content = text('content', true)!;
  if (Buffer.byteLength(content, 'utf8') > maxFileBytes) throw tooLarge(`The content of "${title}"`, maxFileBytes, 'DOCENT_UPLOAD_MAX_FILE_BYTES');
  if (content.trim() === '') throw invalid('content', `"content" of "${title}" is empty.`);
  const notText = (await textCheck()).textProblem(content);
  if (notText) throw await unsupported(`"content" of "${title}": ${notText}, so it`, { field: 'content' });

  const declared = text('content_type', false)?.trim();
  const { contentTypeFromMime, contentTypeOf } = await parse();
  let contentType: ContentType;
  if (declared) {
    const resolved = contentTypeFromMime(declared);
    if (!resolved) throw await unsupported(`content_type "${declared.slice(0, 100)}"`, { field: 'content_type' });
    contentType = resolved;
  } else {
    // The index's rule: the title's extension, else plain text.
    contentType = contentTypeOf(title) ?? 'text';
  }

  const url = text('url', false)?.trim();
  if (url !== undefined) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || url.length > URL_MAX_CHARS) {
      throw invalid('url', `"url" must be an absolute http(s) link to the document, at most ${URL_MAX_CHARS} characters.`);
    }
  }
  const library = await libraryOf(fields.library, 'the JSON field');
  return { uploads: [{ title, content, contentType, ...(url ? { url } : {}) }], ...(library === undefined ? {} : { library }) };
}

// ------------------------------------------------------------------ multipart uploads

interface ReceivedFile {
  filename: string | undefined;
  mimeType: string;
  data: Buffer;
}

/** Reads every file part (and the `library` field) into memory within the caps; any problem rejects with an HttpError. */
async function readParts(req: IncomingMessage, runtime: Runtime): Promise<{ files: ReceivedFile[]; library?: string }> {
  const { maxFileBytes, maxRequestBytes } = runtime.config.uploads;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxRequestBytes) throw tooLarge('The upload', maxRequestBytes, 'DOCENT_UPLOAD_MAX_REQUEST_BYTES');
  const { default: busboy } = await import('busboy');
  let parser: ReturnType<typeof busboy>;
  try {
    parser = busboy({
      headers: req.headers,
      // Keep the whole name: it is validated as a relative title rather than silently cut to its base name.
      preservePath: true,
      defParamCharset: 'utf8',
      limits: { fileSize: maxFileBytes, files: MAX_FILES, fields: 20, parts: MAX_FILES + 20, headerPairs: 20 },
    });
  } catch (error) {
    throw new HttpError(
      400,
      'malformed_multipart',
      `The multipart body cannot be read: ${(error as Error).message}. Send multipart/form-data with a boundary.`,
    );
  }

  return new Promise<{ files: ReceivedFile[]; library?: string }>((resolve, reject) => {
    const files: ReceivedFile[] = [];
    let library: string | undefined;
    let total = 0;
    let done = false;
    const fail = (error: HttpError) => {
      if (done) return;
      done = true;
      req.unpipe(parser);
      req.resume(); // discard the rest instead of leaving the socket stalled
      reject(error);
    };
    parser.on('file', (_field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > maxRequestBytes) fail(tooLarge('The upload', maxRequestBytes, 'DOCENT_UPLOAD_MAX_REQUEST_BYTES'));
        else if (!done) chunks.push(chunk);
      });
      stream.on('limit', () => fail(tooLarge(`The file "${(info.filename ?? '').slice(0, 100)}"`, maxFileBytes, 'DOCENT_UPLOAD_MAX_FILE_BYTES')));
      stream.on('error', () => fail(new HttpError(400, 'malformed_multipart', 'The multipart body ended in the middle of a file.')));
      stream.on('end', () => {
        if (!done) files.push({ filename: info.filename, mimeType: info.mimeType, data: Buffer.concat(chunks) });
      });
    });
    parser.on('field', (name, value) => {
      if (name === 'library' && library === undefined) library = value;
      else if (name === 'library') fail(invalid('library', 'The form field "library" appears twice: one document set per upload.'));
      else
        fail(
          invalid(
            name,
            `Unexpected form field "${name.slice(0, 50)}": multipart uploads take files, each stored under its file name, and optionally "library". To set a title or url, send JSON instead.`,
          ),
        );
    });
    parser.on('filesLimit', () =>
      fail(new HttpError(413, 'payload_too_large', `At most ${MAX_FILES} files per request.`, { limit_files: MAX_FILES }, { connection: 'close' })),
    );
    parser.on('partsLimit', () => fail(new HttpError(413, 'payload_too_large', 'Too many parts in the multipart body.', undefined, { connection: 'close' })));
    parser.on('fieldsLimit', () => fail(invalid('body', 'Too many form fields: multipart uploads take files only.')));
    parser.on('error', (error: Error) => fail(new HttpError(400, 'malformed_multipart', `The multipart body is malformed: ${error.message}.`)));
    parser.on('close', () => {
      if (done) return;
      done = true;
      resolve({ files, ...(library === undefined ? {} : { library }) });
    });
    req.on('aborted', () => fail(new HttpError(400, 'bad_request', 'The request was aborted while its body was being read.')));
    req.on('error', () => fail(new HttpError(400, 'bad_request', 'The request body could not be read.')));
    req.pipe(parser);
  });
}

/** The kind of an uploaded file: its extension decides; a name without one goes by the part's MIME type. */
function kindOf(name: string, mimeType: string, m: Awaited<ReturnType<typeof parse>>): ContentType | undefined {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const ext = /\.[A-Za-z0-9]{1,12}$/.exec(base)?.[0];
  return ext ? m.EXTENSIONS[ext.toLowerCase()] : m.contentTypeFromMime(mimeType);
}

async function readMultipartUpload(ctx: RouteContext): Promise<{ uploads: Upload[]; library?: string }> {
  const { files, library: named } = await readParts(ctx.req, ctx.runtime);
  const library = await libraryOf(named, 'the form field');
  if (!files.length) throw invalid('file', 'The multipart body has no files. Send each document as a file part, e.g. curl -F "file=@guide.md".');
  const m = await parse();
  const seen = new Set<string>();
  const uploads: Upload[] = [];
  for (const file of files) {
    if (file.filename === undefined)
      throw invalid('file', "Every file part needs a file name (Content-Disposition filename): it becomes the document's title.");
    const title = file.filename.trim();
    const problem = titleProblem(title);
    if (problem) throw invalid('filename', `The file name "${title.slice(0, 100)}" ${problem}.`, { filename: title.slice(0, 300) });
    if (seen.has(title)) throw invalid('filename', `The file name "${title}" appears twice in this upload.`, { filename: title });
    seen.add(title);
    const contentType = kindOf(title, file.mimeType, m);
    if (!contentType) throw await unsupported(`"${title}" (${file.mimeType})`, { filename: title });
    // The index's one text check (src/docs/text.ts), as for files and URLs ingested by the CLI.
    const checked = (await textCheck()).decodeText(file.data);
    if (!checked.ok) throw await unsupported(`"${title}": ${checked.reason}, so it`, { filename: title });
    const content = checked.text;
    if (content.trim() === '') throw invalid('file', `The file "${title}" is empty.`, { filename: title });
    uploads.push({ title, content, contentType });
  }
  return { uploads, ...(library === undefined ? {} : { library }) };
}

// ------------------------------------------------------------------ quota

/** The plan's documentation limit for this caller; undefined when none applies (`--auth none`, limit 0). */
function documentLimit(ctx: RouteContext): { plan: string; limit: number } | undefined {
  if (!ctx.caller.keyId) return undefined;
  const { plan, limits } = planLimitsOf(ctx.runtime.config, ctx.caller.plan);
  return limits.documentBytes > 0 ? { plan, limit: limits.documentBytes } : undefined;
}

/**
 * Refuses uploads that would take the tenant past its documentation quota, measured as the index measures
 * it (the characters of each document's text; a replaced document's old size no longer counts).
 */
async function checkQuota(ctx: RouteContext, stored: DocumentInfo[], uploads: Upload[], library: string): Promise<void> {
  const quota = documentLimit(ctx);
  if (!quota) return;
  const { documentId } = await import('../../docs/prepare.js');
  const sizes = new Map(stored.map((d) => [d.id, d.chars]));
  const used = stored.reduce((sum, d) => sum + d.chars, 0);
  const growth = uploads.reduce((sum, u) => sum + u.content.length - (sizes.get(documentId(u.title, library)) ?? 0), 0);
  if (growth > 0 && used + growth > quota.limit) {
    throw tooMany(
      'quota_exceeded',
      `Tenant "${ctx.caller.tenant}" stores ${used} bytes of documentation; the ${quota.plan} plan allows ${quota.limit} and this upload adds ${growth}. ` +
        'Remove documents (DELETE /v1/documents/:id) or move the key to a larger plan.',
      DOCUMENT_QUOTA_RETRY_MS,
      { limit: quota.limit, used, quota: 'document_bytes', plan: quota.plan },
    );
  }
}

// ------------------------------------------------------------------ routes

function isMultipart(ctx: RouteContext): boolean {
  return (ctx.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === 'multipart/form-data';
}

/** The optional `library` query parameter (the only one these routes take), checked. */
async function libraryParameter(ctx: RouteContext): Promise<string | undefined> {
  const unknown = [...ctx.query.keys()].filter((k) => k !== 'library');
  if (unknown.length) throw invalid(unknown[0]!.slice(0, 50), `Unknown query parameter "${unknown[0]!.slice(0, 50)}"; accepted: library.`);
  return libraryOf(ctx.query.get('library') ?? undefined, 'the query parameter');
}

export const routes: Route[] = [
  {
    method: 'POST',
    path: '/v1/documents',
    auth: 'key',
    body: 'raw',
    async handle(ctx) {
      const type = ctx.req.headers['content-type'];
      if (type !== undefined && !isMultipart(ctx) && !/^application\/([\w.+-]*\+)?json\s*(;|$)/i.test(type)) {
        throw new HttpError(
          415,
          'unsupported_media_type',
          `Send the documents as JSON ("Content-Type: application/json") or as files in multipart/form-data (got "${type.slice(0, 100)}").`,
        );
      }
      const encoding = ctx.req.headers['content-encoding'];
      if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
        throw new HttpError(415, 'unsupported_encoding', 'Compressed request bodies are not accepted; send the upload uncompressed.');
      }
      const read = isMultipart(ctx) ? await readMultipartUpload(ctx) : await readJsonUpload(ctx);
      const { uploads } = read;
      const library = read.library ?? DEFAULT_LIBRARY;
      const index = await indexOf(ctx);
      await checkQuota(ctx, await index.listDocuments(), uploads, library);

      let results: Awaited<ReturnType<DocIndex['ingestDocuments']>>;
      try {
        // One step for the whole upload: a document the index refuses leaves every document as it was.
        results = await index.ingestDocuments(uploads, 'upload', library);
      } catch (error) {
        if (!(error instanceof ToolError)) throw error;
        throw new HttpError(statusForToolError(error.code), error.code, error.message, error.details);
      }
      const listed = new Map((await index.listDocuments(library)).map((d) => [d.id, d]));
      const documents = results.map((r, i): UploadedDocument => {
        const doc = listed.get(r.id);
        // Removed again by a concurrent DELETE: report what was written.
        if (!doc)
          return {
            id: r.id,
            library,
            title: uploads[i]!.title,
            uri: resourceUri(library, uploads[i]!.title),
            content_type: uploads[i]!.contentType,
            chunks: r.chunks,
            chars: uploads[i]!.content.length,
            updated_at: new Date().toISOString(),
            status: r.status,
          };
        return { ...record(doc), status: r.status };
      });
      const body: UploadResponse = { documents };
      return { status: results.some((r) => r.status === 'added') ? 201 : 200, body };
    },
  },
  {
    method: 'GET',
    path: '/v1/documents',
    auth: 'key',
    async handle(ctx) {
      const library = await libraryParameter(ctx);
      const all = await (await indexOf(ctx)).listDocuments();
      const sets = librariesOf(all);
      const docs = library === undefined ? all : all.filter((d) => d.library === library);
      const body: DocumentListResponse = {
        documents: docs.map(record),
        libraries: sets.map(({ library: name, documents, chars }) => ({ library: name, documents, chars })),
        // The quota counts the whole tenant, whatever the filter.
        usage: { document_bytes: sets.reduce((sum, s) => sum + s.chars, 0), limit: documentLimit(ctx)?.limit ?? null },
      };
      return { status: 200, body };
    },
  },
  {
    method: 'DELETE',
    path: '/v1/documents',
    auth: 'key',
    async handle(ctx) {
      const library = await libraryParameter(ctx);
      if (library === undefined) {
        throw invalid('library', 'Name the document set to remove: DELETE /v1/documents?library=NAME (or one document: DELETE /v1/documents/:id).');
      }
      const index = await indexOf(ctx);
      const docs = await index.listDocuments(library);
      const notFound = () => new HttpError(404, 'not_found', `No document set "${library.slice(0, 100)}" in this tenant. GET /v1/documents lists the sets.`);
      if (!docs.length) throw notFound();
      if (ctx.caller.agentMode) {
        const chunks = docs.reduce((n, d) => n + d.chunks, 0);
        await requireConfirmation(
          ctx,
          { library },
          `remove the document set "${library}" (${docs.length} documents, ${chunks} chunks) from the documentation of tenant "${ctx.caller.tenant}"`,
          { library, documents: docs.length },
        );
      }
      const removed = await index.removeLibrary(library);
      if (!removed.length) throw notFound();
      const body: LibraryRemovedResponse = { library, removed: removed.length };
      return { status: 200, body };
    },
  },
  {
    method: 'DELETE',
    path: '/v1/documents/:id',
    auth: 'key',
    async handle(ctx) {
      const id = ctx.params.id!;
      const index = await indexOf(ctx);
      // By id only, within the key's tenant: another tenant's id is simply not found here.
      const doc = (await index.listDocuments()).find((d) => d.id === id);
      const notFound = () =>
        new HttpError(404, 'not_found', `No document with id "${id.slice(0, 100)}" in this tenant. GET /v1/documents lists the documents and their ids.`);
      if (!doc) throw notFound();
      // Confirmation: a DELETE from a program is itself the explicit request for this one document, so it runs.
      // A request marked as an agent's (X-Agent-Client, agent User-Agent) follows the policy for destructive
      // operations like any tool call: never auto-confirmed, so it needs the token of a first, refused call.
      if (ctx.caller.agentMode) {
        await requireConfirmation(
          ctx,
          { id: doc.id },
          `remove "${doc.title}" of the set "${doc.library}" (${doc.chunks} chunks) from the documentation of tenant "${ctx.caller.tenant}"`,
          { document: record(doc) },
        );
      }
      if (!(await index.removeDocument(doc.id))) throw notFound();
      return { status: 204 };
    },
  },
];

async function requireConfirmation(
  ctx: RouteContext,
  args: { id: string } | { library: string },
  summary: string,
  extra: Record<string, unknown>,
): Promise<void> {
  const ledger = ctx.runtime.services.confirmations;
  const subject = { tenant: ctx.caller.tenant, tool: 'id' in args ? 'DELETE /v1/documents/:id' : 'DELETE /v1/documents', args };
  const given = ctx.req.headers[CONFIRMATION_HEADER];
  const check = await ledger.check(subject, 'destructive', true, typeof given === 'string' ? given.trim() : undefined);
  if (check.allowed) return;
  const token = await ledger.issue(subject);
  throw new HttpError(
    409,
    'confirmation_required',
    `Confirmation required (${check.reason}): ${summary}. Nothing has been done yet. Show this to the user; if they agree, ` +
      `repeat the request with the header "X-Confirmation-Token: ${token}" (valid ${ledger.settings.confirmationTtlSeconds} s, once).`,
    { confirmation_token: token, summary, ...extra },
  );
}
