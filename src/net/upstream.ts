/**
 * Turning an external service's answer into a value or a clear ToolError: rate limits (with when to
 * retry), upstream failures, malformed bodies and missing credentials. Messages name the service and the
 * setting to fix, never a secret.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ToolError } from '../errors.js';
import type { FetchedResponse } from './fetch.js';

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Seconds until a retry makes sense: `Retry-After` (seconds or an HTTP date), else `X-RateLimit-Reset`
 * (GitHub: epoch seconds; Brave: seconds until reset, per window, comma-separated).
 */
export function retryAfterSeconds(headers: IncomingHttpHeaders, now = Date.now()): number | undefined {
  const retryAfter = header(headers, 'retry-after')?.trim();
  if (retryAfter) {
    if (/^\d+$/.test(retryAfter)) return Number(retryAfter);
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - now) / 1000));
  }
  const reset = header(headers, 'x-ratelimit-reset')?.split(',')[0]?.trim();
  if (reset && /^\d+$/.test(reset)) {
    const n = Number(reset);
    // Large values are epoch seconds (GitHub), small ones a delay (Brave).
    return n > 1_000_000_000 ? Math.max(0, n - Math.floor(now / 1000)) : n;
  }
  return undefined;
}

/** A rate-limit refusal that says when to retry. */
export function rateLimited(title: string, response: FetchedResponse, detail?: string, now = Date.now()): ToolError {
  const seconds = retryAfterSeconds(response.headers, now);
  const when =
    seconds === undefined
      ? 'Retry later (it did not say when).'
      : `Retry after ${seconds} s (at ${new Date(now + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')}).`;
  return new ToolError(
    `${title} rate limit reached (HTTP ${response.status}${detail ? `: ${detail}` : ''}). ${when}`,
    'rate_limited',
    seconds === undefined ? undefined : { retry_after_seconds: seconds },
  );
}

/** Any other unexpected status. */
export function upstreamFailure(title: string, response: FetchedResponse, detail?: string): ToolError {
  const advice = response.status >= 500 ? 'The service is failing; try again later.' : 'Check the arguments and try again.';
  return new ToolError(`${title} answered HTTP ${response.status}${detail ? `: ${detail}` : ''}. ${advice}`, 'upstream_error', { status: response.status });
}

/** The body must be the format the service documents; anything else is a clear error, not a crash. */
export function malformed(title: string, what: string): ToolError {
  return new ToolError(
    `${title} returned a malformed response (${what}). Try again later; if it persists, the service may have changed its format.`,
    'bad_upstream_response',
  );
}

export function parseJson(title: string, response: FetchedResponse): unknown {
  try {
    return JSON.parse(response.text());
  } catch {
    throw malformed(title, 'not valid JSON');
  }
}

/** A JSON error body's message, shortened; undefined when the body is not JSON or has none. */
export function jsonMessage(response: FetchedResponse, pick: (body: Record<string, unknown>) => unknown): string | undefined {
  try {
    const body = JSON.parse(response.text()) as Record<string, unknown>;
    const message = pick(body);
    return typeof message === 'string' && message.trim() ? message.trim().slice(0, 300) : undefined;
  } catch {
    return undefined;
  }
}

export function missingSecret(variable: string, tool: string, what: string): ToolError {
  return new ToolError(
    `${tool} needs ${what}, but ${variable} is not set. Ask the operator to set the environment variable ${variable} and restart docent.`,
    'missing_secret',
    { variable },
  );
}
