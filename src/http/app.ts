/**
 * The HTTP app: one `node:http` server for every route module in src/http/routes/index.ts.
 *
 * Each request passes, in order: DNS-rebinding guard (403) → route match (404/405) → authentication on
 * `key` routes (401) → the authenticated checks of src/http/hooks.ts (plan limits: 429) → JSON body
 * (413/415/400) → the handler. Failures are JSON `{ "error": { "code", "message", ... } }`; an unexpected
 * exception is a 500 with a reference that is also logged. Nothing a client sends can crash the process.
 * Every request is logged (method, path, status, duration, tenant, key id; never headers or bodies).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ConfigError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { authenticate } from './authenticate.js';
import { readJsonBody } from './body.js';
import { AUTHENTICATED_CHECKS, type AuthenticatedCheck } from './hooks.js';
import { RequestGuard } from './origin-guard.js';
import { sendError, sendJson } from './respond.js';
import { HttpError, type Caller, type RouteContext, type RouteModule } from './route.js';
import { Router } from './router.js';
import { ROUTE_MODULES } from './routes/index.js';

export interface HttpAppOptions {
  modules?: readonly RouteModule[];
  checks?: readonly AuthenticatedCheck[];
  /** How long shutdown waits for requests in flight before cutting connections. */
  shutdownGraceMs?: number;
}

export interface Listening {
  /** Where the server listens, e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  /** The public base URL (manifest_url, allowed Host). */
  baseUrl: string;
}

function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** The configured base URL, with the actual port when it names port 0 (the default with `--port 0`). */
export function effectiveBaseUrl(configured: string, actualPort: number): string {
  const url = new URL(configured);
  if (url.port !== '0') return configured;
  url.port = String(actualPort);
  return url.toString().replace(/(?<!\/)\/+$/, '');
}

/** The request target as a URL (origin-form `/path?q`, or absolute-form); 400 for anything else. */
function requestUrl(target = '/'): URL {
  try {
    return target.startsWith('/') ? new URL(`http://localhost${target}`) : new URL(target);
  } catch {
    throw new HttpError(400, 'bad_request', 'The request target is not a valid path.');
  }
}

export class HttpApp {
  readonly server: Server;
  private readonly router: Router;
  private readonly modules: readonly RouteModule[];
  private readonly checks: readonly AuthenticatedCheck[];
  private guard?: RequestGuard;
  private listening?: Listening;
  private closing?: Promise<void>;
  private nextId = 0;

  constructor(
    private readonly runtime: Runtime,
    private readonly options: HttpAppOptions = {},
  ) {
    this.modules = options.modules ?? ROUTE_MODULES;
    this.checks = options.checks ?? AUTHENTICATED_CHECKS;
    this.router = new Router(this.modules.flatMap((m) => m.routes));
    // Slow-client defence: a connection must send its request head and body in bounded time, idle
    // keep-alive connections close, timeouts are checked every second, and the number of connections is capped.
    const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, maxConnections } = runtime.config.http;
    this.server = createServer(
      {
        headersTimeout: headersTimeoutMs,
        requestTimeout: Math.max(requestTimeoutMs, headersTimeoutMs),
        keepAliveTimeout: keepAliveTimeoutMs,
        connectionsCheckingInterval: Math.min(1000, headersTimeoutMs),
      },
      (req, res) => void this.handle(req, res),
    );
    this.server.maxConnections = maxConnections;
    this.server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
      if (error.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
      const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
      const body = JSON.stringify(
        timedOut
          ? {
              error: {
                code: 'request_timeout',
                message: 'The request did not arrive in time (DOCENT_HTTP_HEADERS_TIMEOUT_MS / DOCENT_HTTP_REQUEST_TIMEOUT_MS); send it at once.',
              },
            }
          : { error: { code: 'bad_request', message: 'Malformed HTTP request.' } },
      );
      const status = timedOut ? '408 Request Timeout' : '400 Bad Request';
      socket.end(`HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    });
  }

  async listen(): Promise<Listening> {
    const { host, port } = this.runtime.config.http;
    await new Promise<void>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => {
        this.server.off('listening', onListening);
        if (error.code === 'EADDRINUSE')
          reject(new ConfigError(`Port ${port} on ${host} is already in use: choose another with --port (DOCENT_PORT), or 0 for any free port.`));
        else if (error.code === 'EACCES') reject(new ConfigError(`Not allowed to listen on port ${port}: use a port above 1023 (--port, DOCENT_PORT).`));
        else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
          reject(new ConfigError(`Cannot listen on host "${host}": it is not an address of this machine (--host, DOCENT_HOST).`));
        else reject(error);
      };
      const onListening = () => {
        this.server.off('error', onError);
        resolve();
      };
      this.server.once('error', onError);
      this.server.once('listening', onListening);
      this.server.listen(port, host);
    });
    const actual = (this.server.address() as AddressInfo).port;
    const baseUrl = effectiveBaseUrl(this.runtime.config.baseUrl, actual);
    const { allowedHosts, allowedOrigins } = this.runtime.config.http;
    this.guard = new RequestGuard({ port: actual, baseUrl, allowedHosts, allowedOrigins });
    this.listening = { url: `http://${hostForUrl(host)}:${actual}`, port: actual, baseUrl };
    return this.listening;
  }

  /** Stops accepting, closes sessions and checks, lets requests in flight finish (up to the grace period). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => this.server.close(() => resolve()));
      for (const module of this.modules)
        await module.close?.(this.runtime).catch((error: unknown) => this.runtime.logger.warn({ err: error }, 'route module failed to close'));
      for (const check of this.checks)
        await check.close?.(this.runtime).catch((error: unknown) => this.runtime.logger.warn({ err: error, check: check.name }, 'check failed to close'));
      this.server.closeIdleConnections();
      const grace = setTimeout(() => this.server.closeAllConnections(), this.options.shutdownGraceMs ?? 5000);
      await stopped;
      clearTimeout(grace);
    })();
    return this.closing;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const id = `${process.pid.toString(36)}-${(this.nextId++).toString(36)}`;
    res.setHeader('x-request-id', id);
    const method = req.method ?? 'GET';
    let path = '/';
    let caller: Caller | undefined;
    res.once('close', () => {
      this.runtime.logger.info(
        {
          req: id,
          method,
          path,
          status: res.statusCode,
          ms: Math.round(performance.now() - started),
          ...(caller ? { tenant: caller.tenant, keyId: caller.keyId, agent: caller.agentMode || undefined } : {}),
          ...(res.writableFinished ? {} : { aborted: true }),
        },
        'http request',
      );
    });
    try {
      if (!this.guard || !this.listening) throw new HttpError(503, 'starting', 'The server is starting; retry shortly.');
      if (this.closing)
        throw new HttpError(503, 'shutting_down', 'The server is shutting down; retry on another instance or shortly.', undefined, { connection: 'close' });
      const url = requestUrl(req.url);
      path = url.pathname;
      this.guard.check(req.headers, req.rawHeaders);
      const { route, params } = this.router.match(method, url.pathname);
      if (route.auth === 'key') caller = await authenticate(this.runtime, req);
      const ctx: RouteContext = {
        runtime: this.runtime,
        req,
        res,
        params,
        query: url.searchParams,
        body: undefined,
        // Public routes have no caller; they must not read it.
        caller: caller as Caller,
        baseUrl: this.listening.baseUrl,
      };
      if (caller) for (const check of this.checks) await check.check({ ...ctx, route });
      if (route.body === 'json') ctx.body = await readJsonBody(req);
      const result = await route.handle(ctx);
      if (route.raw) return;
      if (result) sendJson(res, result.status, result.body, result.headers);
      else sendJson(res, 204, undefined);
    } catch (error) {
      if (error instanceof HttpError) {
        sendError(res, error);
        return;
      }
      const reference = randomUUID();
      this.runtime.logger.error({ err: error, req: id, reference, method, path }, 'HTTP handler failed');
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendError(
        res,
        new HttpError(
          500,
          'internal_error',
          `The server failed to handle the request (reference ${reference}). Retry; if it persists, report the reference to the operator.`,
          { reference },
        ),
      );
    }
  }
}

export function createHttpApp(runtime: Runtime, options?: HttpAppOptions): HttpApp {
  return new HttpApp(runtime, options);
}
