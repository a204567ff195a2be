/**
 * Writing responses: JSON bodies and the one error shape, `{ "error": { "code", "message", ...details } }`.
 * Writes are no-ops once a response has started (a streaming handler may already own it).
 */
import type { ServerResponse } from 'node:http';
import { HttpError } from './route.js';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.writableEnded) return;
  const payload = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...(payload ? { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(payload)) } : {}),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(payload);
}

/** `{ code, message, ...details }`, code and message first and never overridden by a detail. */
export function withCode(code: string, message: string, details?: Record<string, unknown>): Record<string, unknown> {
  return Object.assign({ code, message }, details, { code, message });
}

export function errorBody(error: HttpError): { error: Record<string, unknown> } {
  return { error: withCode(error.code, error.message, error.details) };
}

export function sendError(res: ServerResponse, error: HttpError): void {
  sendJson(res, error.status, errorBody(error), error.headers);
}
