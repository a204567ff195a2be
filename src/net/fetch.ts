/**
 * The one place docent opens outbound HTTP connections.
 *
 * Two modes, chosen by the caller's code path and never by data:
 * - caller mode (`fetchGuarded`): URLs that come from tool input or uploads. The destination guard
 *   (destination.ts) checks the URL and every address it resolves to before connecting, and again on
 *   every redirect.
 * - trusted mode (`fetchTrusted`, reached only through `ServiceEndpoint` in outbound.ts): endpoints the
 *   operator configured (GitHub API, arXiv, ...). They may point at loopback, so tests use local fixture
 *   servers. A redirect that leaves the configured origin falls back to caller mode.
 *
 * In both modes the connection is pinned to the address that was resolved (and checked): the socket's
 * `lookup` returns that address, so there is no second DNS answer between check and connect, while the
 * Host header and TLS SNI/certificate check still use the host name. Every request has a connect timeout,
 * a total deadline (redirects included), a response size cap (enforced on the decoded body) and a
 * content-type check on success responses.
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { VERSION } from '../version.js';
import {
  bareHost,
  checkCallerUrl,
  pinCallerDestination,
  pinTrustedDestination,
  publicPolicy,
  type DestinationPolicy,
  type ResolvedAddress,
  type Resolver,
} from './destination.js';
import { OutboundError } from './errors.js';

export const USER_AGENT = `docent/${VERSION} (MCP documentation server)`;
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;
/** Bodies of error responses are read only this far (they feed error messages, nothing more). */
const ERROR_BODY_BYTES = 64 * 1024;

/** How this process reaches the network. Set in code only (tests); no setting, flag or input reaches it. */
export interface NetworkOptions {
  /** Replaces DNS resolution, e.g. to map a test host name to 127.0.0.1 or to a private address. */
  resolver?: Resolver;
  /** CA certificates to trust instead of the system roots (tests with a self-signed fixture). */
  ca?: string | Buffer;
  /**
   * Tests only: caller URLs whose name the injected `resolver` maps to 127.0.0.0/8 may be fetched, so the
   * pinning and redirect checks can be exercised against a local fixture. Literal loopback addresses and
   * every other refused range stay refused. Requires `resolver`.
   */
  allowLoopbackForTests?: boolean;
  /**
   * Called with the pinned address right before each connection; throwing stops it. Tests install a
   * tripwire here so that a guard bug could never send a packet past loopback. It can refuse, not permit.
   */
  beforeConnect?: (target: ResolvedAddress, url: URL) => void;
}

export interface FetchOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Media types a success (2xx) response may have, e.g. ['application/json']; '*' accepts any. */
  accept: readonly string[];
  maxBytes?: number;
  timeoutMs?: number;
  connectTimeoutMs?: number;
  /** 0 refuses to follow any redirect. */
  maxRedirects?: number;
  signal?: AbortSignal;
}

export interface GuardedFetchOptions extends FetchOptions {
  policy: DestinationPolicy;
}

export interface FetchedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The URL that answered, after redirects. */
  url: URL;
  /** Lower-case media type without parameters, when the response had one. */
  mediaType?: string;
  body: Buffer;
  redirects: number;
  text(): string;
}

type Mode = { kind: 'caller'; policy: DestinationPolicy } | { kind: 'trusted'; origin: string; service: string };

/** Fetches a caller-supplied URL under the destination guard. */
export function fetchGuarded(url: string | URL, options: GuardedFetchOptions, network: NetworkOptions = {}): Promise<FetchedResponse> {
  if (!options.policy) throw new TypeError('fetchGuarded needs a destination policy');
  return exchange(url, options, { kind: 'caller', policy: options.policy }, network);
}

/**
 * Fetches an operator-configured endpoint. Only `ServiceEndpoint` calls this, with URLs it built from a
 * configured base; never pass a caller-supplied URL here.
 */
export function fetchTrusted(url: URL, service: string, options: FetchOptions, network: NetworkOptions = {}): Promise<FetchedResponse> {
  return exchange(url, options, { kind: 'trusted', origin: url.origin, service }, network);
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Request headers that may follow a redirect to another origin; credentials never do. */
const CROSS_ORIGIN_HEADERS = new Set(['accept', 'accept-encoding', 'accept-language', 'user-agent', 'content-type']);

function lowerKeys(headers: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

async function exchange(start: string | URL, options: FetchOptions, initial: Mode, network: NetworkOptions): Promise<FetchedResponse> {
  if (network.allowLoopbackForTests && !network.resolver) {
    throw new TypeError('allowLoopbackForTests needs an injected resolver');
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let mode = initial;
  let method = options.method ?? 'GET';
  let body = options.body;
  let headers: Record<string, string> = {
    'user-agent': USER_AGENT,
    'accept-encoding': 'gzip, deflate, br',
    accept: options.accept.map((type) => (type === '*' ? '*/*' : type)).join(', '),
    ...lowerKeys(options.headers),
  };
  let url: URL = mode.kind === 'caller' ? checkCallerUrl(start, mode.policy) : new URL(start);
  let from: string | undefined; // the host that redirected here

  const aborted = () =>
    deadline.aborted
      ? new OutboundError(`${bareHost(url)} did not answer within ${timeoutMs} ms (timeout)`, 'timeout', 'timeout')
      : new OutboundError('the request was cancelled', 'cancelled', 'cancelled');

  for (let redirects = 0; ; redirects++) {
    if (signal.aborted) throw aborted();
    const target = await pin(url, mode, network).catch((error: unknown) => {
      if (from && error instanceof OutboundError && error.failure === 'refused') {
        throw new OutboundError(error.message.replace(/^refused: /, `refused: redirect from ${from}: `), 'refused', error.rule);
      }
      throw error;
    });
    if (signal.aborted) throw aborted();
    network.beforeConnect?.(target, url);

    const response = await send(url, target, { method, headers, body, signal, connectTimeoutMs: options.connectTimeoutMs, ca: network.ca }).catch(
      (error: unknown) => {
        throw signal.aborted ? aborted() : connectionError(error, url);
      },
    );
    const status = response.statusCode ?? 0;
    const location = response.headers.location;

    if (REDIRECTS.has(status) && location) {
      response.destroy();
      const label = mode.kind === 'caller' ? mode.policy.label : mode.service;
      if (maxRedirects === 0) {
        throw new OutboundError(
          `refused: ${bareHost(url)} answered with a redirect (${status}), and ${label} does not follow redirects`,
          'refused',
          'redirect',
        );
      }
      if (redirects >= maxRedirects) {
        throw new OutboundError(`gave up after ${maxRedirects} redirects, the limit (the last from ${bareHost(url)})`, 'too_many_redirects', 'redirect_limit');
      }
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new OutboundError(`refused: ${bareHost(url)} redirected to an invalid URL`, 'refused', 'redirect');
      }
      // Trust covers the configured origin only; anywhere else is judged like a caller URL.
      if (mode.kind === 'trusted' && next.origin !== mode.origin) mode = { kind: 'caller', policy: publicPolicy(mode.service) };
      if (next.origin !== url.origin) {
        headers = Object.fromEntries(Object.entries(headers).filter(([k]) => CROSS_ORIGIN_HEADERS.has(k)));
      }
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        delete headers['content-type'];
      }
      from = bareHost(url);
      url = next;
      continue;
    }

    const success = status >= 200 && status < 300;
    const mediaType = response.headers['content-type']?.split(';')[0]?.trim().toLowerCase() || undefined;
    if (success && !options.accept.includes('*') && !(mediaType && options.accept.includes(mediaType))) {
      response.destroy();
      throw new OutboundError(
        `${bareHost(url)} answered with ${mediaType ? `content type ${mediaType}` : 'no content type'}, expected ${options.accept.join(' or ')}`,
        'unexpected_content_type',
        'content_type',
      );
    }
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    const bytes = await readBody(response, success ? maxBytes : Math.min(maxBytes, ERROR_BODY_BYTES), !success, signal, url).catch((error: unknown) => {
      if (error instanceof OutboundError) throw error;
      throw signal.aborted ? aborted() : connectionError(error, url);
    });
    if (signal.aborted) throw aborted();
    return { status, headers: response.headers, url, mediaType, body: bytes, redirects, text: () => decodeBody(bytes, response.headers['content-type']) };
  }
}

/** The checked address to connect to: guarded for caller URLs, as resolved for configured endpoints. */
async function pin(url: URL, mode: Mode, network: NetworkOptions): Promise<ResolvedAddress> {
  if (mode.kind === 'trusted') return pinTrustedDestination(url, network.resolver);
  const checked = checkCallerUrl(url, mode.policy);
  return pinCallerDestination(checked, mode.policy, { resolver: network.resolver, allowLoopbackNames: network.allowLoopbackForTests });
}

interface SendOptions {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  signal: AbortSignal;
  connectTimeoutMs?: number;
  ca?: string | Buffer;
}

function send(url: URL, target: ResolvedAddress, options: SendOptions): Promise<IncomingMessage> {
  // The socket connects to the checked address whatever name it asks for: no second resolution.
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const host = bareHost(url);
  const payload = typeof options.body === 'string' ? Buffer.from(options.body) : options.body;
  const requestOptions: RequestOptions & { servername?: string; ca?: string | Buffer } = {
    method: options.method,
    hostname: host,
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    headers: { ...options.headers, host: url.host.replace(/\.(?=:\d+$|$)/, ''), ...(payload ? { 'content-length': String(payload.length) } : {}) },
    lookup,
    agent: false,
    signal: options.signal,
    ...(options.ca ? { ca: options.ca } : {}),
  };
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(requestOptions, resolve);
    req.on('error', reject);
    req.on('socket', (socket: Socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(() => {
        req.destroy(new OutboundError(`could not connect to ${host} within ${connectTimeoutMs} ms (connect timeout)`, 'timeout', 'connect_timeout'));
      }, connectTimeoutMs);
      socket.once('connect', () => clearTimeout(timer));
      socket.once('close', () => clearTimeout(timer));
    });
    req.end(payload);
  });
}

async function readBody(response: IncomingMessage, limit: number, truncate: boolean, signal: AbortSignal, url: URL): Promise<Buffer> {
  const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const tooLarge = () => new OutboundError(`${bareHost(url)} sent more than ${limit} bytes, the size cap for this request`, 'too_large', 'size_cap');
  const declared = Number(response.headers['content-length']);
  if (!truncate && encoding === 'identity' && Number.isFinite(declared) && declared > limit) {
    response.destroy();
    throw tooLarge();
  }
  let decoder: Transform | undefined;
  if (encoding === 'gzip' || encoding === 'x-gzip') decoder = createGunzip();
  else if (encoding === 'deflate') decoder = createInflate();
  else if (encoding === 'br') decoder = createBrotliDecompress();
  else if (encoding !== 'identity') {
    response.destroy();
    throw new OutboundError(`${bareHost(url)} used an unsupported content encoding (${encoding})`, 'unexpected_content_type', 'content_encoding');
  }
  if (decoder) {
    response.on('error', (error) => decoder.destroy(error));
    response.pipe(decoder);
  }
  const stream: Readable = decoder ?? response;
  const onAbort = () => {
    response.destroy();
    stream.destroy();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        if (truncate) {
          chunks.push(chunk.subarray(0, chunk.length - (size - limit)));
          break;
        }
        throw tooLarge();
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof OutboundError) throw error;
    if (signal.aborted) throw error;
    throw new OutboundError(
      `${bareHost(url)} sent a body that could not be read (${(error as NodeJS.ErrnoException).code ?? 'decode error'})`,
      'unreachable',
      'body',
    );
  } finally {
    signal.removeEventListener('abort', onAbort);
    response.destroy();
    decoder?.destroy();
  }
  return Buffer.concat(chunks);
}

const TLS_CODES = /^(CERT_|ERR_TLS_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_SSL_|EPROTO$)/;

function connectionError(error: unknown, url: URL): OutboundError {
  if (error instanceof OutboundError) return error;
  const host = bareHost(url);
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  if (TLS_CODES.test(code)) {
    return new OutboundError(`the TLS connection to ${host} failed (${code}): its certificate is not valid for this name`, 'tls_failed', 'tls');
  }
  return new OutboundError(`could not reach ${host} (${code})`, 'unreachable', 'connection');
}

/**
 * The body as text in the charset its Content-Type declares (`text/html; charset=iso-8859-1`); UTF-8 when
 * none is declared or the declared one is unknown.
 */
export function decodeBody(bytes: Buffer, contentType: string | undefined): string {
  const charset = /;\s*charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? '')?.[1];
  if (charset) {
    try {
      return new TextDecoder(charset).decode(bytes);
    } catch {
      // An unknown label: fall through to UTF-8.
    }
  }
  return bytes.toString('utf8');
}
