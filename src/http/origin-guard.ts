/**
 * DNS-rebinding protection for every route. A web page on another site can make a browser send requests to
 * a server on this machine (by rebinding its own name to 127.0.0.1); such requests carry the attacker's
 * name in `Host` and its page in `Origin`. So:
 *
 * - `Host` must be a loopback name or address with the listening port (`localhost:8787`, `127.0.0.1:8787`,
 *   `[::1]:8787`), the host of the public base URL, or an entry of `http.allowedHosts` (an entry without a
 *   port accepts any port).
 * - `Origin`, when present, must be a loopback origin (any port), the base URL's origin, or an entry of
 *   `http.allowedOrigins`. `Origin: null` (sandboxed frames, files) is refused.
 *
 * Anything else is a 403 before routing, authentication or body parsing.
 */
import { isIP } from 'node:net';
import { HttpError } from './route.js';

export interface GuardSettings {
  /** The port the server actually listens on. */
  port: number;
  baseUrl: string;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
}

type HeaderValue = string | string[] | undefined;

/** True for `localhost`, 127.0.0.0/8 and ::1 (with or without IPv6 brackets). */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost') return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  if (isIP(name) === 6) return name === '::1' || name === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(name);
  return false;
}

function parseHost(value: string): URL | undefined {
  if (!value || /[\s/?#@\\]/.test(value)) return undefined;
  try {
    return new URL(`http://${value}`);
  } catch {
    return undefined;
  }
}

function parseOrigin(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

const stripDot = (hostname: string) => hostname.replace(/\.$/, '');

function single(value: HeaderValue): string | undefined {
  return Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;
}

export class RequestGuard {
  private readonly baseHost: string;
  private readonly baseOrigin: string;
  private readonly exactHosts = new Set<string>();
  private readonly anyPortHosts = new Set<string>();
  private readonly origins = new Set<string>();

  constructor(private readonly settings: GuardSettings) {
    const base = new URL(settings.baseUrl);
    this.baseHost = base.host.toLowerCase();
    this.baseOrigin = base.origin.toLowerCase();
    for (const entry of settings.allowedHosts) {
      const url = parseHost(entry.trim());
      if (!url) continue;
      if (url.port || /:\d+$/.test(entry.trim())) this.exactHosts.add(url.host.toLowerCase());
      else this.anyPortHosts.add(stripDot(url.hostname.toLowerCase()));
    }
    for (const entry of settings.allowedOrigins) {
      const url = parseOrigin(entry.trim());
      if (url) this.origins.add(url.origin.toLowerCase());
    }
  }

  hostAllowed(value: string): boolean {
    const url = parseHost(value);
    if (!url) return false;
    const host = url.host.toLowerCase();
    const hostname = stripDot(url.hostname.toLowerCase());
    const port = url.port === '' ? 80 : Number(url.port);
    if (isLoopbackHost(hostname) && port === this.settings.port) return true;
    if (host === this.baseHost) return true;
    return this.exactHosts.has(host) || this.anyPortHosts.has(hostname);
  }

  originAllowed(value: string): boolean {
    const url = parseOrigin(value);
    if (!url) return false;
    if (isLoopbackHost(url.hostname)) return true;
    const origin = url.origin.toLowerCase();
    return origin === this.baseOrigin || this.origins.has(origin);
  }

  /**
   * Throws a 403 HttpError unless the request's Host and Origin are acceptable. `rawHeaders` (name, value,
   * name, value, …) shows repeated headers that node folds away: a request with two Host or two Origin
   * headers is refused (400), since the one judged need not be the one a proxy or the application uses.
   */
  check(headers: Record<string, HeaderValue>, rawHeaders: readonly string[] = []): void {
    for (const name of ['host', 'origin']) {
      let count = 0;
      for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === name) count++;
      if (count > 1) {
        throw new HttpError(400, 'duplicate_header', `The request carries ${count} ${name === 'host' ? 'Host' : 'Origin'} headers; send exactly one.`);
      }
    }
    const host = single(headers.host);
    if (host === undefined || !this.hostAllowed(host)) {
      throw new HttpError(
        403,
        'forbidden_host',
        `Host "${(host ?? '').slice(0, 200)}" is not accepted (DNS-rebinding protection). Use a loopback address with the listening port, ` +
          'the public base URL (DOCENT_BASE_URL), or add the name to DOCENT_ALLOWED_HOSTS.',
      );
    }
    const origin = headers.origin;
    if (origin === undefined) return;
    const value = single(origin);
    if (value === undefined || !this.originAllowed(value)) {
      throw new HttpError(
        403,
        'forbidden_origin',
        `Origin "${String(value ?? origin).slice(0, 200)}" is not accepted (DNS-rebinding protection). Add it to DOCENT_ALLOWED_ORIGINS if this page may call docent.`,
      );
    }
  }
}
