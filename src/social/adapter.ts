/**
 * The platform adapter interface: how social_poster sends one post to one platform. Each adapter speaks one
 * real API, reads its base URL and credentials from configuration, and reports which settings are missing
 * rather than failing half-way.
 */
import type { Config } from '../config.js';
import type { ServiceEndpoint, ServiceName } from '../net/outbound.js';
import type { Platform } from './platforms.js';
import { SendFailure, type HttpReply } from './http.js';

export interface Setting {
  /** Environment variable the operator sets. */
  env: string;
  /** Whether the configuration has a value for it. */
  present: boolean;
}

export interface SendRequest {
  content: string;
  /** Stable per post (24 hex characters): the platform's idempotency key or nonce where it has one. */
  idempotencyKey: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface Delivered {
  externalId: string;
  url: string | null;
}

export interface PlatformAdapter {
  platform: Platform;
  /** The service this adapter talks to, e.g. "Mastodon". */
  service: string;
  /** Its operator-configured endpoint in the outbound module (base URL from configuration). */
  endpoint: ServiceName;
  /** What the post becomes there, for confirmations: "a public Mastodon status". */
  describe(config: Config): string;
  /**
   * Whether the platform itself drops a repeated send carrying the same idempotency key. When true, a send
   * whose outcome is unknown may be repeated safely; when false, only the post's own state prevents a repeat.
   */
  deduplicates: boolean;
  /** The settings the adapter needs; a post is refused, untouched, while any is missing. */
  settings(config: Config): Setting[];
  send(config: Config, endpoint: ServiceEndpoint, request: SendRequest): Promise<Delivered>;
}

/** The platform's error text from a JSON body (common shapes: `error`, `message`, `errors`). */
export function upstreamMessage(reply: HttpReply): string {
  const body = reply.json as Record<string, unknown> | undefined;
  const candidates = [body?.error_description, body?.error, body?.message];
  const text = candidates.find((c): c is string => typeof c === 'string' && c.trim() !== '');
  return (text ?? reply.text.slice(0, 200).trim()) || `HTTP ${reply.status}`;
}

/** A SendFailure for a non-success reply: rate limits say when to retry; gateway errors may have delivered. */
export function failureFor(service: string, reply: HttpReply, message = upstreamMessage(reply)): SendFailure {
  if (reply.status === 429) {
    const after = reply.header('retry-after');
    return new SendFailure(`${service} rate-limited the request (${message})${after ? `; retry after ${after} s` : ''}`, false, 429);
  }
  if (reply.status === 401 || reply.status === 403) {
    return new SendFailure(`${service} refused the credentials (HTTP ${reply.status}: ${message}); check the token and its permissions`, false, reply.status);
  }
  const maybe = reply.status === 502 || reply.status === 504;
  return new SendFailure(`${service} answered HTTP ${reply.status}: ${message}${maybe ? '; it may still have published the post' : ''}`, maybe, reply.status);
}
