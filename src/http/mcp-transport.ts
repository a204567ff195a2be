/**
 * The server side of MCP's streamable HTTP transport (2025-03-26 onwards), written on node:http.
 *
 * Why not the SDK's StreamableHTTPServerTransport: since SDK 1.2x it wraps a web-standard transport behind an
 * adapter that turns every node request into a `Request` and every answer into a `ReadableStream`; on a small
 * tool call that conversion cost more than docent's own work (issue 11's profile: ~36% of CPU). This transport
 * writes the same wire format straight to the `ServerResponse`. It is what the SDK's client and the MCP
 * conformance suite speak to in the tests (test/integration), so the two cannot drift apart unnoticed.
 *
 * Contract, per request (the caller has authenticated, parsed the JSON body and routed by session id):
 * - POST one JSON-RPC message (batches are refused before this, see mcp-endpoint.ts). Requests are answered on
 *   an SSE stream (`text/event-stream`) that carries the request's notifications (progress, logs), the server's
 *   own requests made while handling it (elicitation, sampling), and ends with the response; notifications and
 *   responses from the client get 202. The client must accept both `application/json` and `text/event-stream`
 *   (406 otherwise). A request under an id still in flight in the session is refused (409): ids route answers.
 * - GET opens the session's one standalone stream (409 if open already) for messages not tied to a request.
 * - DELETE ends the session.
 * - `initialize` opens the session (its id in `Mcp-Session-Id`); everything else must carry that id (400 without,
 *   404 with another) and, when it sends `Mcp-Protocol-Version`, a version the SDK supports (400 otherwise).
 * - Stateless (no `sessionId`): one POST per transport, no id checks, GET and DELETE are the endpoint's to refuse.
 * Open streams get an SSE comment every `keepAliveMs` so that proxies do not cut them. No resumability
 * (Last-Event-ID): a client that loses a stream re-sends its request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { sendJson } from './respond.js';

/** Interval of the keep-alive comment on open SSE streams (the SDK's default). */
export const SSE_KEEP_ALIVE_MS = 15_000;

const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

export interface NodeHttpTransportOptions {
  /** The session's id, given to the client in answer to `initialize`; undefined for a stateless transport. */
  sessionId?: string;
  /** Called once `initialize` has opened the session, before the request is handled. */
  onsessioninitialized?: (id: string) => void;
  /** Called when the client ends the session with DELETE. */
  onsessionclosed?: () => void;
  keepAliveMs?: number;
}

/** One open SSE response: a POST's (answering the requests in `awaiting`) or the session's standalone GET stream. */
interface Stream {
  res: ServerResponse;
  awaiting: Set<RequestId>;
  keepAlive?: NodeJS.Timeout;
}

/** A JSON-RPC error answer with no id (the request could not be routed to a handler), as MCP clients read it on /mcp. */
export function rpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

function accepts(req: IncomingMessage, type: string): boolean {
  return (req.headers.accept ?? '').includes(type);
}

export class NodeHttpTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  sessionId?: string;

  private readonly stateful: boolean;
  private readonly keepAliveMs: number;
  private initialized = false;
  private closed = false;
  private handled = false;
  /** The stream each in-flight client request is answered on. */
  private readonly byRequest = new Map<RequestId, Stream>();
  /** Headers of every event stream this transport opens (with the session's id, when it has one). */
  private readonly streamHeaders: Readonly<Record<string, string>>;
  private standalone?: Stream;

  constructor(private readonly options: NodeHttpTransportOptions = {}) {
    this.stateful = options.sessionId !== undefined;
    this.streamHeaders = this.stateful ? { ...SSE_HEADERS, 'mcp-session-id': options.sessionId! } : SSE_HEADERS;
    this.keepAliveMs = options.keepAliveMs ?? SSE_KEEP_ALIVE_MS;
  }

  async start(): Promise<void> {}

  /** Answers one HTTP request; `body` is the parsed JSON body of a POST. */
  async handleRequest(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
    if (this.closed) return rpcError(res, 404, -32001, 'Session not found (it has ended). Initialize a new session.');
    if (!this.stateful && this.handled) throw new Error('A stateless transport answers one request; create one per request.');
    this.handled = true;
    switch (req.method) {
      case 'POST':
        return this.post(req, res, body);
      case 'GET':
        return this.get(req, res);
      case 'DELETE':
        return this.delete(req, res);
      default:
        return rpcError(res, 405, -32000, 'Method not allowed: use POST, GET or DELETE on /mcp.', { allow: 'GET, POST, DELETE' });
    }
  }

  private post(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    if (!accepts(req, 'application/json') || !accepts(req, 'text/event-stream')) {
      return rpcError(
        res,
        406,
        -32000,
        'Not Acceptable: send "Accept: application/json, text/event-stream" (MCP streamable HTTP answers requests on an event stream).',
      );
    }
    const parsed = JSONRPCMessageSchema.safeParse(body);
    if (!parsed.success) return rpcError(res, 400, -32600, 'Invalid Request: the body is not a JSON-RPC 2.0 message (request, notification or response).');
    const message = parsed.data;
    // The schema has decided the message's kind; what is left is telling the kinds apart (without parsing again).
    const request = 'method' in message && 'id' in message ? (message as JSONRPCRequest) : undefined;
    if (request?.method === 'initialize' && isInitializeRequest(message)) {
      if (this.initialized && this.stateful)
        return rpcError(res, 400, -32600, 'Invalid Request: this session is initialized already; send initialize without Mcp-Session-Id to open another.');
      this.initialized = true;
      this.sessionId = this.options.sessionId;
      if (this.sessionId) this.options.onsessioninitialized?.(this.sessionId);
    } else if (!this.valid(req, res)) return;
    if (this.closed) return rpcError(res, 404, -32001, 'Session not found (it has ended). Initialize a new session.');

    const extra: MessageExtraInfo = { requestInfo: { headers: req.headers, url: new URL(req.url ?? '/mcp', 'http://localhost') } };
    if (!request) {
      res.writeHead(202).end();
      this.onmessage?.(message, extra);
      return;
    }
    // Ids identify the answer's stream: a second request under an id still in flight would take the first one's.
    if (this.byRequest.has(request.id)) {
      return rpcError(
        res,
        409,
        -32600,
        `Invalid Request: request id ${JSON.stringify(request.id)} is still in flight in this session; give each request its own id.`,
      );
    }
    const stream: Stream = { res, awaiting: new Set([request.id]) };
    this.byRequest.set(request.id, stream);
    res.writeHead(200, this.streamHeaders);
    res.once('close', () => this.drop(stream));
    this.onmessage?.(message, extra);
    if (stream.awaiting.size > 0 && !res.writableEnded) this.keepAlive(stream);
  }

  private get(req: IncomingMessage, res: ServerResponse): void {
    if (!accepts(req, 'text/event-stream'))
      return rpcError(res, 406, -32000, 'Not Acceptable: send "Accept: text/event-stream" to open the session\'s stream.');
    if (!this.valid(req, res)) return;
    if (this.standalone) return rpcError(res, 409, -32000, 'Conflict: this session already has its stream open (one GET stream per session).');
    const stream: Stream = { res, awaiting: new Set() };
    this.standalone = stream;
    res.writeHead(200, this.streamHeaders);
    res.flushHeaders();
    res.once('close', () => this.drop(stream));
    this.keepAlive(stream);
  }

  private delete(req: IncomingMessage, res: ServerResponse): void {
    if (!this.valid(req, res)) return;
    this.options.onsessionclosed?.();
    res.writeHead(200).end();
    void this.close();
  }

  /** Session id and protocol version of a request other than initialize; writes the error and returns false. */
  private valid(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.stateful) {
      if (!this.initialized) {
        rpcError(res, 400, -32000, 'Bad Request: the session is not initialized; send initialize first.');
        return false;
      }
      const id = req.headers['mcp-session-id'];
      if (!id) {
        rpcError(res, 400, -32000, 'Bad Request: the Mcp-Session-Id header is required (the id initialize returned).');
        return false;
      }
      if (id !== this.sessionId) {
        rpcError(res, 404, -32001, 'Session not found (it ended, expired or never existed). Initialize a new session.');
        return false;
      }
    }
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      rpcError(res, 400, -32000, `Bad Request: unsupported protocol version ${version} (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}).`);
      return false;
    }
    return true;
  }

  private keepAlive(stream: Stream): void {
    if (!Number.isFinite(this.keepAliveMs) || this.keepAliveMs < 1) return;
    stream.keepAlive = setInterval(() => stream.res.write(': keepalive\n\n'), this.keepAliveMs);
    stream.keepAlive.unref();
  }

  /** Forgets a stream whose response ended or whose client went away. */
  private drop(stream: Stream): void {
    if (stream.keepAlive) clearInterval(stream.keepAlive);
    for (const id of stream.awaiting) if (this.byRequest.get(id) === stream) this.byRequest.delete(id);
    stream.awaiting.clear();
    if (this.standalone === stream) this.standalone = undefined;
  }

  private end(stream: Stream): void {
    this.drop(stream);
    if (!stream.res.writableEnded) stream.res.end();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const response = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
    const related = response ? message.id : options?.relatedRequestId;
    if (related === undefined) {
      if (response) throw new Error('A response can only be sent on the stream of the request it answers.');
      // Not tied to a request: the standalone stream if the client opened one, else it is dropped (MCP allows it).
      if (this.standalone && !this.standalone.res.writableEnded) this.standalone.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
      return;
    }
    // No stream: the client went away (or the session ended) before this message; there is nothing to write it
    // to, and the work that sends it (a progress notification, the answer) goes on undisturbed.
    const stream = this.byRequest.get(related);
    if (!stream) return;
    const event = `event: message\ndata: ${JSON.stringify(message)}\n\n`;
    if (!response) {
      if (!stream.res.writableEnded) stream.res.write(event);
      return;
    }
    stream.awaiting.delete(related);
    this.byRequest.delete(related);
    if (stream.awaiting.size > 0) {
      if (!stream.res.writableEnded) stream.res.write(event);
      return;
    }
    // The last answer and the end of the stream in one write.
    this.drop(stream);
    if (!stream.res.writableEnded) stream.res.end(event);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const stream of new Set([...this.byRequest.values(), ...(this.standalone ? [this.standalone] : [])])) this.end(stream);
    this.onclose?.();
  }
}
