/**
 * Who is calling: the tenant and plan of the API key in `Authorization: Bearer <key>`, or (auth `none`,
 * loopback only) the configured tenant. Agent mode comes from the request's own headers.
 * A missing, malformed, unknown or revoked key is a 401 carrying `WWW-Authenticate: Bearer`.
 *
 * Failed attempts are limited per client address (`http.authFailuresPerMinute`, a token bucket: bursts up to
 * that many, refilled evenly over a minute). An address past it gets 429 `auth_rate_limited` with
 * Retry-After for every key that does not verify. A valid key is always accepted and never waits: keys are
 * checked against the in-memory snapshot first (a map lookup and a hash), so clients sharing an address with
 * a flood keep working, and guessing a 256-bit key is not what the limit is for; it keeps the flood cheap
 * and out of the way. A missing Authorization header is not counted (nothing was guessed).
 */
import type { IncomingMessage } from 'node:http';
import { apiKeys } from '../auth/keys.js';
import { isAgentRequest } from '../policy/agent-mode.js';
import type { Runtime } from '../runtime.js';
import { Bucket, tooMany } from './limits.js';
import { HttpError, type Caller } from './route.js';

const CREATE_HINT = 'Create a key with `docent keys create --tenant <tenant>` and send it as "Authorization: Bearer <key>".';

/** Addresses tracked at most; past it the ones whose buckets are full again are dropped, then the oldest. */
const MAX_TRACKED_ADDRESSES = 100_000;

/** Failed-authentication buckets per client address, for one runtime. */
export class FailedAuthLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a failure from `address`; returns the milliseconds to wait when it is over the limit. */
  fail(address: string): number | undefined {
    if (this.perMinute <= 0) return undefined;
    const t = this.now();
    let bucket = this.buckets.get(address);
    if (!bucket) {
      if (this.buckets.size >= MAX_TRACKED_ADDRESSES) this.prune(t);
      bucket = new Bucket(this.perMinute, t);
      this.buckets.set(address, bucket);
    }
    const taken = bucket.take(t);
    return taken.ok ? undefined : taken.waitMs;
  }

  get tracked(): number {
    return this.buckets.size;
  }

  private prune(t: number): void {
    for (const [address, bucket] of this.buckets) if (bucket.full(t)) this.buckets.delete(address);
    // Still full of active floods: drop the oldest (Map order is insertion order).
    for (const address of this.buckets.keys()) {
      if (this.buckets.size < MAX_TRACKED_ADDRESSES) break;
      this.buckets.delete(address);
    }
  }
}

const limiters = new WeakMap<Runtime, FailedAuthLimiter>();

export function failedAuthLimiter(runtime: Runtime): FailedAuthLimiter {
  let limiter = limiters.get(runtime);
  if (!limiter) {
    limiter = new FailedAuthLimiter(runtime.config.http.authFailuresPerMinute);
    limiters.set(runtime, limiter);
  }
  return limiter;
}

/** The client address a failure is counted against (an IPv4-mapped IPv6 address as its IPv4 form). */
function clientAddress(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/** The 401 for a key that did not verify, or the 429 once the address is past its failure limit. */
function failure(runtime: Runtime, req: IncomingMessage, unauthorized: HttpError): HttpError {
  const address = clientAddress(req);
  const waitMs = failedAuthLimiter(runtime).fail(address);
  if (waitMs === undefined) return unauthorized;
  const limit = runtime.config.http.authFailuresPerMinute;
  return tooMany(
    'auth_rate_limited',
    `Too many failed authentications from ${address}: at most ${limit} per minute (DOCENT_AUTH_FAILURES_PER_MINUTE). ` +
      `Check the API key you send; retry after the Retry-After delay. ${CREATE_HINT}`,
    waitMs,
    { limit, window: 'minute' },
  );
}

function bearer(runtime: Runtime, req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match) {
    throw failure(
      runtime,
      req,
      new HttpError(401, 'invalid_authorization', `The Authorization header must read "Bearer <key>". ${CREATE_HINT}`, undefined, {
        'www-authenticate': 'Bearer realm="docent", error="invalid_request"',
      }),
    );
  }
  return match[1];
}

export async function authenticate(runtime: Runtime, req: IncomingMessage): Promise<Caller> {
  const agentMode = isAgentRequest(req.headers);
  if (runtime.config.http.auth === 'none') return { tenant: runtime.config.tenant, agentMode };
  const key = bearer(runtime, req);
  if (key === undefined) {
    throw new HttpError(401, 'missing_api_key', `This route needs an API key. ${CREATE_HINT}`, undefined, {
      'www-authenticate': 'Bearer realm="docent"',
    });
  }
  const record = await (await apiKeys(runtime.services)).verify(key);
  if (!record) {
    throw failure(
      runtime,
      req,
      new HttpError(401, 'invalid_api_key', `The API key is not valid (unknown, mistyped or revoked). ${CREATE_HINT}`, undefined, {
        'www-authenticate': 'Bearer realm="docent", error="invalid_token"',
      }),
    );
  }
  return { tenant: record.tenant, keyId: record.id, plan: record.plan, agentMode };
}
