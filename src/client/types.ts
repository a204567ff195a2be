/**
 * The published HTTP contract of docent, as the client library and the server's REST routes both use it.
 * Plain types (no runtime, no dependencies), so `docent/client` type-checks without the server's packages.
 * src/client/contract.ts proves at build time that they match the server's own definitions.
 */

/** One source of an answer. `title` is the document's path relative to the ingested folder, or its upload name. */
export interface Source {
  title: string;
  /** The document set (library) the document belongs to. */
  library: string;
  /** Resource URI of the whole document, `docent://{library}/{path}` (MCP `resources/read`). */
  uri: string;
  url?: string;
  /** Heading path of the passage, outermost first, joined by " › ". */
  section?: string;
  /** Retrieval score relative to the best source (1 = best). */
  score?: number;
}

/**
 * The query result of rag_query, `POST /v1/query`, `docent ask --json` and `DocentClient.ragQuery`.
 * `grounded: false` means the documentation does not answer: there is no `answer`, and `reason` says what
 * was missing; show a no-match message rather than guessing.
 */
export interface QueryResult {
  grounded: boolean;
  answer?: string;
  /** Primary source first. When `grounded` is false, the closest documents (which do not answer). */
  sources: Source[];
  /** Calibrated probability in [0, 1] that the documentation answers this and the answer is right. */
  confidence: number;
  reason?: string;
}

/** The document kinds the index accepts (`content_type` of an upload may also be a MIME type). */
export type DocumentContentType = 'markdown' | 'text' | 'rst' | 'html' | 'asciidoc';

/** A stored document, as `GET /v1/documents` lists it. */
export interface DocumentRecord {
  /** Stable id derived from the set and the title; the same set and title is the same document. */
  id: string;
  /** The document set (library); `default` for uploads that name none. */
  library: string;
  title: string;
  /** Resource URI of the document, `docent://{library}/{path}` (MCP `resources/read`). */
  uri: string;
  url?: string;
  content_type: DocumentContentType;
  chunks: number;
  /** Size of the document's text as the documentation quota counts it. */
  chars: number;
  /** ISO 8601 time of the last change. */
  updated_at: string;
}

export type UploadStatus = 'added' | 'updated' | 'unchanged';

/** A document after an upload: `added` (new title), `updated` (new content) or `unchanged` (same content). */
export interface UploadedDocument extends DocumentRecord {
  status: UploadStatus;
}

/** `POST /v1/documents` response body (201 when any document was added, else 200). */
export interface UploadResponse {
  documents: UploadedDocument[];
}

/** `GET /v1/documents` response body: the key's tenant's documents (of one set with `?library=`), ordered by set, then title. */
export interface DocumentListResponse {
  documents: DocumentRecord[];
  /** Every document set of the tenant (whatever the filter), ordered by name, with its size. */
  libraries: { library: string; documents: number; chars: number }[];
  /** Documentation stored by the tenant against its plan's quota (`limit` null: no limit applies). */
  usage: { document_bytes: number; limit: number | null };
}

/** `DELETE /v1/documents?library=L` response body. */
export interface LibraryRemovedResponse {
  library: string;
  /** How many documents were removed. */
  removed: number;
}

/** `GET /v1/me` response body: who the API key is, its plan's limits, and what it has used. */
export interface MeResponse {
  tenant: string;
  /** The key's public id; null when the server runs without keys (`--auth none`). */
  key_id: string | null;
  /** null without a key: no plan limits apply. */
  plan: 'free' | 'pro' | null;
  /** The plan's limits; null where none applies (0 in the configuration, or no key). */
  limits: {
    requests_per_minute: number | null;
    requests_per_month: number | null;
    document_bytes: number | null;
  };
  usage: {
    /** Calendar month (UTC) of `requests_this_month`, `YYYY-MM`. */
    month: string;
    /** Requests made with this key this month, this one included; null when requests are not counted (no key). */
    requests_this_month: number | null;
    /** ISO 8601 time the monthly count starts again. */
    month_resets_at: string;
    /**
     * Share of the per-minute allowance in use now: the limit minus the requests that could be sent at once
     * (the allowance refills evenly over a minute). null without a per-minute limit.
     */
    requests_this_minute: number | null;
    /** Documentation the tenant stores, as the documentation quota counts it. */
    document_bytes: number;
  };
}

/** `POST /v1/query` request body. */
export interface QueryRequest {
  question: string;
  /** How many sources to return, 1..20 (default 5). */
  top_k?: number;
  /** Only this document set is searched (404 `not_found` when the tenant has none of that name); all sets when absent. */
  library?: string;
}

/** `POST /v1/documents` JSON request body. */
export interface UploadRequest {
  title: string;
  content: string;
  /** `markdown`, `text`, `rst`, `html` or a MIME type; from the title's extension when absent (else text). */
  content_type?: string;
  url?: string;
  /** The document set; `default` when absent. */
  library?: string;
}

/** Every failure: `{ "error": { "code", "message", ...details } }`. */
export interface ErrorBody {
  error: { code: string; message: string; [detail: string]: unknown };
}

/** `POST /v1/tools/:name` success body. */
export interface ToolCallResponse<T = unknown> {
  ok: true;
  result: T;
  /** The text the tool shows a model next to the structured result. */
  text: string;
}

/** The agent manifest served at `/.well-known/agent-manifest.json`. */
export interface AgentManifest {
  schema_version: string;
  provider: string;
  manifest_url: string;
  tools: {
    name: string;
    description: string;
    /** JSON Schema of the tool's arguments (the same as MCP tools/list). */
    input_schema: { type: 'object'; properties: Record<string, unknown>; required: string[]; [key: string]: unknown };
    side_effects: 'none' | 'external' | 'external_paid' | 'mutating';
    cost_class: 'free' | 'metered';
    requires_secret: boolean;
    hints: string[];
  }[];
  presets: { name: string; description: string }[];
  agent_mode: { header: string; user_agent_prefixes: string[]; env_vars_detected: string[]; auto_confirm_safe_ops: boolean };
}
