/**
 * Streamable HTTP MCP at /mcp, on docent's node:http transport (mcp-transport.ts: the wire format, id and version checks).
 *
 * Sessions (the default): `initialize` without a session id opens a session (its own MCP server and
 * transport) bound to the caller's tenant; later requests carry `Mcp-Session-Id`. A session id presented
 * with another tenant's key is answered exactly like an unknown one (404), so ids cannot be probed or
 * borrowed. Sessions let the server ask the client (elicitation, sampling) and carry log notifications
 * on the client's GET stream. Idle sessions (no request for SESSION_IDLE_MS, no stream open) are closed.
 *
 * Caps per tenant, so that one tenant cannot lock the others out: sessions (`http.sessionsPerTenant`; past it
 * the tenant's oldest idle session is closed, or initialize is refused with 429 when all are busy) and open
 * GET streams across its sessions (`http.streamsPerTenant`; past it GET is refused with 429). Both 429s name
 * the cap and its setting and carry Retry-After. The process-wide MAX_SESSIONS is only a backstop.
 *
 * Stateless (`--stateless`): every POST gets a fresh server and transport, so any replica can answer any
 * request; there are no server-to-client requests, and GET/DELETE are 405.
 *
 * Replicas: the per-tenant session cap counts every replica's sessions through the shared state (slots with a
 * lease, renewed by the replica holding the session; with Redis, across replicas). A session lives in the
 * replica that opened it, so a load balancer must route by `Mcp-Session-Id` (sticky) for sessions; stateless
 * replicas need no routing at all.
 *
 * Identity: the tenant of the API key (`tenantBound`), agent mode from each request's headers.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer, type Extra } from '../mcp/server.js';
import { isAgentRequest } from '../policy/agent-mode.js';
import type { Runtime } from '../runtime.js';
import { NodeHttpTransport, rpcError } from './mcp-transport.js';
import type { RouteContext } from './route.js';

/** A session with no request for this long (and no stream open) is closed. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** Sessions one process holds at most; beyond it new sessions are refused with 503. */
export const MAX_SESSIONS = 5000;
const SESSION_HEADER = 'mcp-session-id';

interface Session {
  id: string;
  tenant: string;
  server: Server;
  transport: NodeHttpTransport;
  lastSeen: number;
  /** Requests of this session still open (a GET stream stays open for the session's life). */
  open: number;
  /** GET streams of this session still open. */
  streams: number;
  closed: boolean;
}

function opensSession(body: unknown): boolean {
  return isInitializeRequest(body);
}

export class McpEndpoint {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly runtime: Runtime) {
    this.sweeper = setInterval(
      () => {
        this.sweep();
        void this.renewSlots();
      },
      Math.min(60_000, SESSION_IDLE_MS),
    ).unref();
  }

  /** Extends the shared slots of this replica's live sessions (they lapse when a replica dies). */
  private async renewSlots(): Promise<void> {
    const live = [...this.sessions.values()].filter((s) => !s.closed).map((s) => ({ tenant: s.tenant, id: s.id }));
    await (
      await this.runtime.services.shared()
    )
      .renewSessions(live)
      .catch((error: unknown) => this.runtime.logger.warn({ err: error }, 'could not renew MCP session slots'));
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  private newServer(tenant: string, serverRequests: boolean): Server {
    const { config, services, logger } = this.runtime;
    return createMcpServer({
      config,
      services,
      logger,
      transport: 'http',
      serverRequests,
      identify: (extra: Extra) => ({
        tenant,
        tenantBound: config.http.auth === 'key',
        agentMode: isAgentRequest(extra.requestInfo?.headers ?? {}),
      }),
    });
  }

  async post(ctx: RouteContext): Promise<void> {
    // One JSON-RPC message per request: a batch would count as one request against the plan's per-minute and
    // monthly limits while doing the work of many (MCP 2025-06-18 removed batching; the SDK clients never send one).
    if (Array.isArray(ctx.body)) {
      rpcError(
        ctx.res,
        400,
        -32600,
        `JSON-RPC batches are not accepted on /mcp (this one holds ${ctx.body.length} messages): send each message in a request of its own. MCP 2025-06-18 removed batching.`,
      );
      return;
    }
    if (this.runtime.config.http.stateless) return this.stateless(ctx);
    const id = ctx.req.headers[SESSION_HEADER];
    if (typeof id === 'string') {
      const session = this.lookup(ctx, id);
      if (session) await this.forward(session, ctx);
      return;
    }
    if (!opensSession(ctx.body)) {
      rpcError(ctx.res, 400, -32000, 'Bad Request: no Mcp-Session-Id header. Send "initialize" first and then the session id it returns.');
      return;
    }
    // Per tenant first, so that one tenant cannot fill the server's cap and lock the others out.
    const cap = this.runtime.config.http.sessionsPerTenant;
    const tenant = ctx.caller.tenant;
    const mine = () => [...this.sessions.values()].filter((s) => s.tenant === tenant && !s.closed);
    if (mine().length >= cap) {
      const idle = mine()
        .filter((s) => s.open === 0)
        .sort((a, b) => a.lastSeen - b.lastSeen);
      for (const session of idle.slice(0, mine().length - cap + 1)) await this.end(session, 'evicted (tenant session cap)');
    }
    if (mine().length >= cap) {
      rpcError(
        ctx.res,
        429,
        -32000,
        `Tenant "${tenant}" already holds ${cap} open MCP sessions, the most one tenant may (DOCENT_MCP_SESSIONS_PER_TENANT), each with a request or stream open. Close sessions you no longer use (DELETE /mcp with their Mcp-Session-Id) and retry.`,
        { 'retry-after': '30' },
      );
      return;
    }
    if (this.sessions.size >= MAX_SESSIONS) this.sweep(true);
    if (this.sessions.size >= MAX_SESSIONS) {
      rpcError(ctx.res, 503, -32000, 'Too many open MCP sessions on this server; retry shortly.', { 'retry-after': '30' });
      return;
    }
    // The tenant's sessions on every replica (the count above is this replica's only).
    const slot = randomUUID();
    if (!(await (await this.runtime.services.shared()).sessionSlot(tenant, slot, cap))) {
      rpcError(
        ctx.res,
        429,
        -32000,
        `Tenant "${tenant}" already holds ${cap} open MCP sessions across the server's replicas, the most one tenant may (DOCENT_MCP_SESSIONS_PER_TENANT). Close sessions you no longer use (DELETE /mcp with their Mcp-Session-Id) and retry.`,
        { 'retry-after': '30' },
      );
      return;
    }
    await this.open(ctx, slot);
  }

  async get(ctx: RouteContext): Promise<void> {
    if (this.runtime.config.http.stateless) return this.notInStateless(ctx);
    const id = ctx.req.headers[SESSION_HEADER];
    if (typeof id !== 'string') {
      rpcError(ctx.res, 400, -32000, 'Bad Request: the Mcp-Session-Id header is required to open a stream.');
      return;
    }
    const session = this.lookup(ctx, id);
    if (!session) return;
    const cap = this.runtime.config.http.streamsPerTenant;
    let open = 0;
    for (const s of this.sessions.values()) if (s.tenant === session.tenant && !s.closed) open += s.streams;
    if (open >= cap) {
      rpcError(
        ctx.res,
        429,
        -32000,
        `Tenant "${session.tenant}" already holds ${cap} open MCP streams (GET /mcp), the most one tenant may (DOCENT_MCP_STREAMS_PER_TENANT). Close streams or sessions you no longer use (DELETE /mcp with their Mcp-Session-Id) and retry.`,
        { 'retry-after': '30' },
      );
      return;
    }
    session.streams++;
    ctx.res.once('close', () => session.streams--);
    await this.forward(session, ctx);
  }

  /** DELETE: ends an existing session. */
  async delete(ctx: RouteContext): Promise<void> {
    if (this.runtime.config.http.stateless) return this.notInStateless(ctx);
    const id = ctx.req.headers[SESSION_HEADER];
    if (typeof id !== 'string') {
      rpcError(ctx.res, 400, -32000, 'Bad Request: the Mcp-Session-Id header names the session to end.');
      return;
    }
    const session = this.lookup(ctx, id);
    if (session) await this.forward(session, ctx);
  }

  private notInStateless(ctx: RouteContext): void {
    rpcError(ctx.res, 405, -32000, 'This server runs stateless (no sessions): only POST is supported on /mcp.', { allow: 'POST' });
  }

  /** The caller's session, or a 404 written (unknown id, or one that belongs to another tenant). */
  private lookup(ctx: RouteContext, id: string): Session | undefined {
    const session = this.sessions.get(id);
    if (session && !session.closed && session.tenant === ctx.caller.tenant) return session;
    if (session) this.runtime.logger.warn({ tenant: ctx.caller.tenant, keyId: ctx.caller.keyId }, 'MCP session id presented by another tenant; refused');
    rpcError(ctx.res, 404, -32001, 'Session not found (it ended, expired or never existed). Initialize a new session.');
    return undefined;
  }

  private async forward(session: Session, ctx: RouteContext): Promise<void> {
    session.open++;
    session.lastSeen = Date.now();
    ctx.res.once('close', () => {
      session.open--;
      session.lastSeen = Date.now();
    });
    await session.transport.handleRequest(ctx.req, ctx.res, ctx.body);
  }

  private async open(ctx: RouteContext, slot: string): Promise<void> {
    const tenant = ctx.caller.tenant;
    const server = this.newServer(tenant, true);
    const transport = new NodeHttpTransport({
      sessionId: slot,
      onsessioninitialized: (id) => {
        session.id = id;
        this.sessions.set(id, session);
        this.runtime.logger.info({ tenant, sessions: this.sessions.size }, 'MCP session opened');
      },
      onsessionclosed: () => void this.end(session, 'closed by the client'),
    });
    // `id` stays empty until initialize succeeds: a session without one was never opened.
    const session: Session = { id: '', tenant, server, transport, lastSeen: Date.now(), open: 0, streams: 0, closed: false };
    transport.onclose = () => void this.end(session, 'transport closed');
    await server.connect(transport);
    try {
      await this.forward(session, ctx);
    } finally {
      // An initialize that failed (bad version, malformed) never became a session: release it.
      if (!session.id) {
        await this.end(session, 'initialize failed');
        await this.releaseSlot(tenant, slot);
      }
    }
  }

  private async end(session: Session, why: string): Promise<void> {
    if (session.closed) return;
    session.closed = true;
    if (session.id && this.sessions.get(session.id) === session) this.sessions.delete(session.id);
    await session.server.close().catch(() => undefined);
    if (session.id) await this.releaseSlot(session.tenant, session.id);
    if (session.id) this.runtime.logger.info({ tenant: session.tenant, why, sessions: this.sessions.size }, 'MCP session ended');
  }

  private async releaseSlot(tenant: string, id: string): Promise<void> {
    await (
      await this.runtime.services.shared()
    )
      .releaseSession(tenant, id)
      .catch((error: unknown) => this.runtime.logger.warn({ err: error }, 'could not release an MCP session slot; it lapses with its lease'));
  }

  private async stateless(ctx: RouteContext): Promise<void> {
    const server = this.newServer(ctx.caller.tenant, false);
    const transport = new NodeHttpTransport();
    ctx.res.once('close', () => {
      void server.close().catch(() => undefined);
    });
    await server.connect(transport);
    await transport.handleRequest(ctx.req, ctx.res, ctx.body);
  }

  /** Closes idle sessions (or, when `force`, the longest idle ones without open streams beyond the cap). */
  private sweep(force = false): void {
    const now = Date.now();
    for (const session of this.sessions.values()) {
      if (session.open === 0 && now - session.lastSeen > SESSION_IDLE_MS) void this.end(session, 'idle');
    }
    if (force && this.sessions.size >= MAX_SESSIONS) {
      const idle = [...this.sessions.values()].filter((s) => s.open === 0).sort((a, b) => a.lastSeen - b.lastSeen);
      for (const session of idle.slice(0, Math.ceil(MAX_SESSIONS / 10))) void this.end(session, 'evicted (session cap)');
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((s) => this.end(s, 'server shutting down')));
  }
}

const endpoints = new WeakMap<Runtime, McpEndpoint>();

export function mcpEndpoint(runtime: Runtime): McpEndpoint {
  let endpoint = endpoints.get(runtime);
  if (!endpoint) {
    endpoint = new McpEndpoint(runtime);
    endpoints.set(runtime, endpoint);
  }
  return endpoint;
}

export async function closeMcpEndpoint(runtime: Runtime): Promise<void> {
  const endpoint = endpoints.get(runtime);
  endpoints.delete(runtime);
  await endpoint?.close();
}
