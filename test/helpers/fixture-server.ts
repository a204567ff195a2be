/**
 * A local stand-in for an external service: an HTTP server on 127.0.0.1, port 0, whose handler returns the
 * real response shapes of that service. Records every request so tests can assert what was (not) sent.
 * With `tls` it serves HTTPS with that key and certificate instead.
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type FixtureHandler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface FixtureServer {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Replace the handler (per test). */
  handle(handler: FixtureHandler): void;
  close(): Promise<void>;
}

export interface FixtureOptions {
  tls?: { key: string; cert: string };
}

export async function startFixtureServer(
  handler: FixtureHandler = (_req, res) => void res.writeHead(404).end(),
  options: FixtureOptions = {},
): Promise<FixtureServer> {
  let current = handler;
  const requests: RecordedRequest[] = [];
  const listener: RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      Promise.resolve(current(recorded, res)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(error));
      });
    });
  };
  const server = options.tls ? createHttpsServer(options.tls, listener) : createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    handle(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}
