/**
 * Plan limits, enforced on every authenticated HTTP request (an AuthenticatedCheck, see hooks.ts).
 *
 * Each API key has a plan (`free` or `pro`) whose limits are configuration (`limits.<plan>.*`, 0 = none):
 * - requests per minute: a token bucket per key in the shared state (bursts up to the limit, refilled evenly
 *   over a minute; with Redis one bucket across every replica); exceeding it answers 429 `rate_limited`;
 * - requests per calendar month (UTC): counted per key by the UsageMeter (with Redis, in Redis across
 *   replicas), persisted in the data location; exceeding it answers 429 `quota_exceeded` until the month ends;
 * - documentation stored per tenant (the text the index holds, see indexedDocumentBytes): checked before an
 *   upload (`POST /v1/documents`); a tenant at or over the limit, or whose upload's declared size would pass
 *   it, gets 429 `quota_exceeded`.
 *
 * Every refusal carries `Retry-After` (seconds) and `{ error: { code, message, limit, ... } }`. Refused
 * requests are not counted. Successful checks set `X-RateLimit-Limit/Remaining` and
 * `X-Quota-Limit/Remaining` headers, and leave the same figures for the handler (`measuredUsage`, read by
 * `GET /v1/me`). With `--auth none` there is no key, and no plan limits apply.
 */
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config.js';
import type { Plan } from '../auth/types.js';
import type { Runtime } from '../runtime.js';
import { monthOf, nextMonthStart, UsageMeter } from '../tenants/usage.js';
import type { AuthenticatedCheck, CheckContext } from './hooks.js';
import { HttpError } from './route.js';

export type PlanLimits = Config['limits']['free'];

/** Bytes of documentation a tenant stores now; undefined when the documentation index cannot say. */
export type StoredBytes = (runtime: Runtime, tenant: string) => Promise<number | undefined>;

/**
 * What the documentation index holds for a tenant: the extracted text of every document (markup and
 * front matter stripped), counted in characters as the index records them (one byte each for ASCII text).
 */
export const indexedDocumentBytes: StoredBytes = async (runtime, tenant) => {
  const index = await (await runtime.services.docs()).forTenant(tenant);
  return (await index.listDocuments()).reduce((sum, doc) => sum + doc.chars, 0);
};

/** The routes that add documentation, where the documentation-bytes limit is checked. */
export const DOCUMENT_UPLOAD_ROUTES: readonly { method: string; path: string }[] = [{ method: 'POST', path: '/v1/documents' }];

export function planLimitsOf(config: Config, plan: string | undefined): { plan: Plan; limits: PlanLimits } {
  const name: Plan = plan === 'pro' ? 'pro' : 'free';
  return { plan: name, limits: config.limits[name] };
}

/** A token bucket: `capacity` tokens, refilled continuously at capacity per minute. */
export class Bucket {
  private tokens: number;
  private at: number;
  constructor(
    readonly capacity: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.at = now;
  }
  private refill(now: number): void {
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.at) * this.capacity) / 60_000);
    this.at = now;
  }
  /** Takes a token, or returns the milliseconds until one is available. */
  take(now: number): { ok: true; remaining: number } | { ok: false; waitMs: number } {
    this.refill(now);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { ok: true, remaining: Math.floor(this.tokens) };
    }
    return { ok: false, waitMs: ((1 - this.tokens) * 60_000) / this.capacity };
  }
  full(now: number): boolean {
    this.refill(now);
    return this.tokens >= this.capacity;
  }
}

interface LimitState {
  meter: Promise<UsageMeter>;
  timer: NodeJS.Timeout;
}

export interface PlanLimitOptions {
  now?: () => Date;
  /** The tenant's stored documentation; defaults to what the documentation index holds. */
  storedBytes?: StoredBytes;
}

/** A key's standing as the plan-limits check measured it for one request, that request counted. */
export interface MeasuredUsage {
  plan: Plan;
  limits: PlanLimits;
  /** Calendar month (UTC) of the count, `YYYY-MM`. */
  month: string;
  /** Requests of the key this month, this one included. */
  requestsThisMonth: number;
  /** When the monthly count starts again. */
  monthResetsAt: Date;
  /** Requests the per-minute bucket still allows at once; undefined when the plan sets no per-minute limit. */
  minuteRemaining?: number;
}

const measured = new WeakMap<IncomingMessage, MeasuredUsage>();

/** What the plan-limits check measured for this request; undefined when it did not count it (no key, or no such check). */
export function measuredUsage(req: IncomingMessage): MeasuredUsage | undefined {
  return measured.get(req);
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Retry-After of a documentation-quota refusal: stored bytes only go down when documents are removed, so a day is an honest "not soon". */
export const DOCUMENT_QUOTA_RETRY_MS = 86_400_000;

/** A 429 refusal with `Retry-After` and `retry_after_seconds` (at least 1 s). */
export function tooMany(
  code: 'rate_limited' | 'quota_exceeded' | 'auth_rate_limited',
  message: string,
  retryMs: number,
  details: Record<string, unknown>,
): HttpError {
  const retry = seconds(retryMs);
  return new HttpError(429, code, message, { ...details, retry_after_seconds: retry }, { 'retry-after': String(retry) });
}

export function planLimitsCheck(options: PlanLimitOptions = {}): AuthenticatedCheck {
  const now = options.now ?? (() => new Date());
  const storedBytes = options.storedBytes ?? indexedDocumentBytes;
  const states = new WeakMap<Runtime, LimitState>();

  const stateOf = (runtime: Runtime): LimitState => {
    let state = states.get(runtime);
    if (!state) {
      const meter = UsageMeter.open(runtime.services);
      const timer = setInterval(() => {
        const t = now();
        void meter
          .then((m) => m.flush(monthOf(t)))
          .catch((error: unknown) => runtime.logger.warn({ err: error }, 'could not write request counts; will retry'));
      }, runtime.config.limits.usageFlushSeconds * 1000);
      timer.unref();
      state = { meter, timer };
      states.set(runtime, state);
    }
    return state;
  };

  return {
    name: 'plan-limits',
    async check(ctx: CheckContext) {
      const { caller, runtime } = ctx;
      if (!caller.keyId) return;
      const { plan, limits } = planLimitsOf(runtime.config, caller.plan);
      const state = stateOf(runtime);
      const t = now();
      const month = monthOf(t);

      // Documentation bytes: only where documentation is added.
      if (limits.documentBytes > 0 && DOCUMENT_UPLOAD_ROUTES.some((r) => r.method === ctx.route.method && r.path === ctx.route.path)) {
        const stored = await storedBytes(runtime, caller.tenant);
        if (stored !== undefined) {
          const declared = Number(ctx.req.headers['content-length'] ?? 0) || 0;
          if (stored >= limits.documentBytes || stored + declared > limits.documentBytes) {
            throw tooMany(
              'quota_exceeded',
              `Tenant "${caller.tenant}" stores ${stored} bytes of documentation; the ${plan} plan allows ${limits.documentBytes}` +
                `${stored < limits.documentBytes ? ` and this upload (${declared} bytes) would pass it` : ''}. Remove documents (DELETE /v1/documents/:id) or move the key to a larger plan.`,
              DOCUMENT_QUOTA_RETRY_MS,
              { limit: limits.documentBytes, used: stored, quota: 'document_bytes', plan },
            );
          }
        }
      }

      // Monthly quota (refused requests are not counted).
      const counter = await (await state.meter).counter(caller.keyId, caller.tenant, month);
      if (limits.requestsPerMonth > 0 && counter.used >= limits.requestsPerMonth) {
        const resets = nextMonthStart(t);
        throw tooMany(
          'quota_exceeded',
          `This API key has used its ${limits.requestsPerMonth} requests for ${month} (${plan} plan). The quota resets at ${resets.toISOString()}; a pro key has a larger quota.`,
          resets.getTime() - t.getTime(),
          { limit: limits.requestsPerMonth, used: counter.used, quota: 'requests_per_month', period: month, resets_at: resets.toISOString(), plan },
        );
      }

      // Per-minute rate.
      let remainingMinute: number | undefined;
      if (limits.requestsPerMinute > 0) {
        const shared = await runtime.services.shared();
        // Keyed by the capacity too: a key moved to another plan starts a full bucket of the new size.
        const taken = await shared.takeToken(`${caller.keyId}:${limits.requestsPerMinute}`, limits.requestsPerMinute, t.getTime());
        if (!taken.ok) {
          throw tooMany(
            'rate_limited',
            `Too many requests: this API key may make ${limits.requestsPerMinute} requests per minute (${plan} plan). Retry after ${seconds(taken.waitMs)} s.`,
            taken.waitMs,
            { limit: limits.requestsPerMinute, window: 'minute', plan },
          );
        }
        remainingMinute = taken.remaining;
      }

      const used = counter.used;
      await counter.record();
      measured.set(ctx.req, { plan, limits, month, requestsThisMonth: used + 1, monthResetsAt: nextMonthStart(t), minuteRemaining: remainingMinute });
      if (remainingMinute !== undefined) {
        ctx.res.setHeader('x-ratelimit-limit', String(limits.requestsPerMinute));
        ctx.res.setHeader('x-ratelimit-remaining', String(remainingMinute));
      }
      if (limits.requestsPerMonth > 0) {
        ctx.res.setHeader('x-quota-limit', String(limits.requestsPerMonth));
        ctx.res.setHeader('x-quota-remaining', String(Math.max(0, limits.requestsPerMonth - used - 1)));
      }
    },
    async close(runtime) {
      const state = states.get(runtime);
      if (!state) return;
      clearInterval(state.timer);
      states.delete(runtime);
      await (await state.meter).flush();
    },
  };
}
