/**
 * The HTTP route contract. Every route module (src/http/routes/<area>.ts) exports `routes: Route[]`;
 * src/http/routes/index.ts lists the modules in order and the app serves them. Handlers return a result
 * (or throw HttpError); they never write to the response themselves unless `raw` is set.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Runtime } from '../runtime.js';

export interface Caller {
  tenant: string;
  /** Id of the API key that authenticated the request; undefined when auth is `none`. */
  keyId?: string;
  /** Plan of that key (`free` | `pro`), for limits. */
  plan?: string;
  agentMode: boolean;
}

export interface RouteContext {
  runtime: Runtime;
  req: IncomingMessage;
  res: ServerResponse;
  /** Path parameters, e.g. { id } for /v1/documents/:id (already URL-decoded). */
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body when the route's `body` is `json` (size-capped); undefined otherwise. */
  body: unknown;
  /** Present on every route whose `auth` is `key`. */
  caller: Caller;
  /**
   * The public base URL (no trailing slash): `baseUrl` from config, or the actual listening address when
   * no base URL was set and the port was 0.
   */
  baseUrl: string;
}

export interface HttpResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path pattern with `:name` segments, e.g. `/v1/documents/:id`. */
  path: string;
  /** `public`: no key needed (manifest, health). `key`: Bearer API key required (unless auth is `none`). */
  auth: 'public' | 'key';
  /** `json`: the app parses a JSON body (capped); `raw`: the handler reads `req` itself (multipart uploads). */
  body?: 'json' | 'raw' | 'none';
  /** When true the handler has written the response itself (streaming, MCP transport). */
  raw?: boolean;
  handle(ctx: RouteContext): Promise<HttpResult | void>;
}

/** A route module (src/http/routes/<area>.ts), listed in order in src/http/routes/index.ts. */
export interface RouteModule {
  routes: Route[];
  /** Releases what the module holds for this runtime (sessions, timers); called once on shutdown. */
  close?(runtime: Runtime): Promise<void>;
}

/** An expected HTTP failure; rendered as `{ "error": { "code", "message", ...details } }`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}
