/**
 * `docent/client`: a typed client of docent's HTTP API for programs (Node 20+, browsers, any runtime with
 * `fetch`; no dependencies).
 *
 *   const docent = new DocentClient({ baseUrl: 'http://127.0.0.1:8787', apiKey: process.env.DOCENT_API_KEY });
 *   const result = await docent.ragQuery('How do I rotate log files?');
 *   if (result.grounded) console.log(result.answer, result.sources[0]?.title);
 *   else console.log('No match:', result.reason);
 *
 * Every failure throws a DocentError (status, code, message); 401/403 a DocentAuthError, 429 a
 * DocentRateLimitError with `retryAfter` in seconds. The client never retries on its own. The API key is
 * held privately and never appears in an error, a log line or `util.inspect` of the client.
 */
import { DocentAuthError, DocentConfirmationRequiredError, DocentError, DocentRateLimitError } from './errors.js';
import type {
  AgentManifest,
  DocumentListResponse,
  LibraryRemovedResponse,
  DocumentRecord,
  ErrorBody,
  QueryRequest,
  QueryResult,
  ToolCallResponse,
  UploadedDocument,
  UploadRequest,
  UploadResponse,
} from './types.js';

export { DocentAuthError, DocentConfirmationRequiredError, DocentError, DocentRateLimitError } from './errors.js';
export type * from './types.js';

export interface DocentClientOptions {
  /** Where docent serves HTTP, e.g. `http://127.0.0.1:8787` (a path prefix is kept; trailing slashes do not matter). */
  baseUrl: string | URL;
  /** The API key (`docent keys create`), sent as `Authorization: Bearer <key>`. Omit only for `--auth none` servers. */
  apiKey?: string;
  /** A fetch implementation; default the global one. */
  fetch?: typeof globalThis.fetch;
  /** Time limit of one request, response body included, in milliseconds (default 30 000). */
  timeoutMs?: number;
  /** User-Agent header (default `docent-client`). An agent host sets its own, e.g. `ClaudeCode/1.0`. */
  userAgent?: string;
  /** Extra headers on every request (e.g. `X-Agent-Client`); cannot replace Authorization. */
  headers?: Record<string, string>;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's timeoutMs for this call. */
  timeoutMs?: number;
}

/** A file for `uploadFiles`: its name (the document's title, with a supported extension) and content. */
export interface UploadFile {
  name: string;
  content: string | Blob | ArrayBuffer | Uint8Array;
  /** MIME type; matters only for names without an extension. */
  type?: string;
}

const DEFAULT_TIMEOUT_MS = 30_000;

interface Request extends CallOptions {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
}

export class DocentClient {
  /** The normalised base URL (no trailing slash). */
  readonly baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #fetch: typeof globalThis.fetch;
  readonly #timeoutMs: number;
  readonly #headers: Record<string, string>;

  constructor(options: DocentClientOptions) {
    let url: URL;
    try {
      url = new URL(String(options.baseUrl));
    } catch {
      throw new TypeError('DocentClient: baseUrl must be an absolute http(s) URL, e.g. http://127.0.0.1:8787');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`DocentClient: baseUrl must use http or https, not ${url.protocol}`);
    if (url.username || url.password) throw new TypeError('DocentClient: baseUrl must not contain credentials; pass the API key as `apiKey`.');
    if (url.search || url.hash) throw new TypeError('DocentClient: baseUrl must not have a query or fragment.');
    this.baseUrl = `${url.origin}${url.pathname.replace(/(?<!\/)\/+$/, '')}`;

    if (options.apiKey !== undefined && (typeof options.apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(options.apiKey))) {
      throw new TypeError('DocentClient: apiKey must be a non-empty key without spaces or control characters (as printed by `docent keys create`).');
    }
    this.#apiKey = options.apiKey;
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') throw new TypeError('DocentClient: no fetch available; pass `fetch` (Node 18+ has one built in).');
    this.#fetch = fetchImpl;
    this.#timeoutMs = checkTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (name.toLowerCase() !== 'authorization') headers[name.toLowerCase()] = value;
    }
    headers['user-agent'] = options.userAgent ?? headers['user-agent'] ?? 'docent-client';
    this.#headers = headers;
  }

  /** Asks the documentation (the key's tenant's). A `grounded: false` result is an answer too: no match. */
  ragQuery(question: string, options: CallOptions & { topK?: number; library?: string } = {}): Promise<QueryResult> {
    const body: QueryRequest = {
      question,
      ...(options.topK === undefined ? {} : { top_k: options.topK }),
      ...(options.library === undefined ? {} : { library: options.library }),
    };
    return this.#request<QueryResult>({ ...options, method: 'POST', path: '/v1/query', json: body });
  }

  /** Adds or replaces one document (same set and title = same document). `status` says added, updated or unchanged. */
  async uploadDocument(
    document: { title: string; content: string; contentType?: string; url?: string; library?: string },
    options: CallOptions = {},
  ): Promise<UploadedDocument> {
    const body: UploadRequest = {
      title: document.title,
      content: document.content,
      ...(document.contentType === undefined ? {} : { content_type: document.contentType }),
      ...(document.url === undefined ? {} : { url: document.url }),
      ...(document.library === undefined ? {} : { library: document.library }),
    };
    const response = await this.#request<UploadResponse>({ ...options, method: 'POST', path: '/v1/documents', json: body });
    return onlyDocument(response);
  }

  /**
   * Uploads files as multipart/form-data; each becomes the document titled by its name, in the set
   * `options.library` (`default` when absent). All or nothing.
   */
  async uploadFiles(files: UploadFile[], options: CallOptions & { library?: string } = {}): Promise<UploadedDocument[]> {
    const form = new FormData();
    if (options.library !== undefined) form.append('library', options.library);
    for (const file of files) {
      const blob = file.content instanceof Blob ? file.content : new Blob([file.content], file.type ? { type: file.type } : {});
      form.append('file', blob, file.name);
    }
    return (await this.#request<UploadResponse>({ ...options, method: 'POST', path: '/v1/documents', form })).documents;
  }

  /** The tenant's documents (of one set with `library`), ordered by set, then title. */
  async listDocuments(options: CallOptions & { library?: string } = {}): Promise<DocumentRecord[]> {
    const path = options.library === undefined ? '/v1/documents' : `/v1/documents?library=${encodeURIComponent(options.library)}`;
    return (await this.#request<DocumentListResponse>({ ...options, method: 'GET', path })).documents;
  }

  /** The tenant's document sets, ordered by name, with their sizes. */
  async listLibraries(options: CallOptions = {}): Promise<DocumentListResponse['libraries']> {
    return (await this.#request<DocumentListResponse>({ ...options, method: 'GET', path: '/v1/documents' })).libraries;
  }

  /**
   * Removes a whole document set (404 DocentError when the tenant has none of that name); returns how many
   * documents it held. Agent requests need a confirmation, as for `deleteDocument`.
   */
  async deleteLibrary(library: string, options: CallOptions & { confirmationToken?: string } = {}): Promise<number> {
    const response = await this.#request<LibraryRemovedResponse>({
      ...options,
      method: 'DELETE',
      path: `/v1/documents?library=${encodeURIComponent(library)}`,
      ...(options.confirmationToken ? { headers: { 'x-confirmation-token': options.confirmationToken } } : {}),
    });
    return response.removed;
  }

  /**
   * Removes a document by id (404 DocentError when the tenant has none with that id). Requests marked as an
   * agent's (X-Agent-Client, agent User-Agent) need an explicit confirmation: the first call throws a
   * DocentConfirmationRequiredError whose `confirmationToken` a second call passes after the person agreed.
   */
  async deleteDocument(id: string, options: CallOptions & { confirmationToken?: string } = {}): Promise<void> {
    await this.#request<void>({
      ...options,
      method: 'DELETE',
      path: `/v1/documents/${encodeURIComponent(id)}`,
      ...(options.confirmationToken ? { headers: { 'x-confirmation-token': options.confirmationToken } } : {}),
    });
  }

  /** Calls a catalog tool through `POST /v1/tools/:name`; a tool's failure throws a DocentError with its code. */
  callTool<T = unknown>(name: string, args: Record<string, unknown> = {}, options: CallOptions = {}): Promise<ToolCallResponse<T>> {
    return this.#request<ToolCallResponse<T>>({ ...options, method: 'POST', path: `/v1/tools/${encodeURIComponent(name)}`, json: args });
  }

  /** The agent manifest (tools with their JSON Schemas, presets, agent-mode rules); no key needed. */
  manifest(options: CallOptions = {}): Promise<AgentManifest> {
    return this.#request<AgentManifest>({ ...options, method: 'GET', path: '/.well-known/agent-manifest.json' });
  }

  async #request<T>(request: Request): Promise<T> {
    const timeoutMs = checkTimeout(request.timeoutMs ?? this.#timeoutMs);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const headers: Record<string, string> = { accept: 'application/json', ...this.#headers, ...request.headers };
    if (this.#apiKey !== undefined) headers.authorization = `Bearer ${this.#apiKey}`;
    let body: string | FormData | undefined;
    if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    } else if (request.form) body = request.form;
    const what = `${request.method} ${request.path}`;

    const failed = (error: unknown): never => {
      if (timeout.aborted) throw new DocentError(`${what} timed out after ${timeoutMs} ms.`, 0, 'timeout', {}, undefined, { cause: error });
      if (request.signal?.aborted) throw new DocentError(`${what} was aborted.`, 0, 'aborted', {}, undefined, { cause: error });
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const reason = cause?.code ?? cause?.message ?? (error as Error).message;
      throw new DocentError(`${what} could not reach docent at ${this.baseUrl}: ${reason}.`, 0, 'network_error', {}, undefined, { cause: error });
    };

    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(`${this.baseUrl}${request.path}`, { method: request.method, headers, body, signal });
      text = await response.text();
    } catch (error) {
      return failed(error);
    }
    const requestId = response.headers.get('x-request-id') ?? undefined;
    if (!response.ok) throw errorOf(response, text, what, requestId);
    if (response.status === 204 || text === '') return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new DocentError(`${what} answered ${response.status} with a body that is not JSON.`, response.status, 'bad_response', {}, requestId);
    }
  }
}

function checkTimeout(ms: number): number {
  if (!Number.isFinite(ms) || ms <= 0) throw new TypeError('DocentClient: timeoutMs must be a positive number of milliseconds.');
  return ms;
}

function onlyDocument(response: UploadResponse): UploadedDocument {
  const [document] = response.documents;
  if (!document) throw new DocentError('POST /v1/documents answered without the document.', 200, 'bad_response');
  return document;
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date). */
function retryAfterSeconds(header: string | null, fallback: unknown): number {
  if (header !== null) {
    if (/^\d+$/.test(header.trim())) return Number(header.trim());
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - Date.now()) / 1000));
  }
  return typeof fallback === 'number' && fallback >= 0 ? fallback : 1;
}

/** The typed error for a non-2xx response: the server's `{ error: { code, message, ... } }`, or the status. */
function errorOf(response: Response, text: string, what: string, requestId: string | undefined): DocentError {
  let code = 'http_error';
  let message = `${what} failed with HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`;
  let details: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(text) as Partial<ErrorBody>;
    const error = parsed?.error;
    if (error && typeof error.code === 'string' && typeof error.message === 'string') {
      ({ code, message, ...details } = error);
    }
  } catch {
    // not JSON (a proxy's error page): keep the status line
  }
  const status = response.status;
  if (status === 401 || status === 403) return new DocentAuthError(message, status, code, details, requestId);
  if (status === 429)
    return new DocentRateLimitError(
      message,
      status,
      code,
      details,
      requestId,
      retryAfterSeconds(response.headers.get('retry-after'), details.retry_after_seconds),
    );
  if (code === 'confirmation_required' && typeof details.confirmation_token === 'string') {
    return new DocentConfirmationRequiredError(message, status, code, details, requestId, details.confirmation_token);
  }
  return new DocentError(message, status, code, details, requestId);
}
