/**
 * The shared-state seam: what replicas of one deployment must agree on, behind one interface with two
 * implementations. `InProcessState` (the default, no Redis) keeps it in this process's memory, which is
 * exact for one process; `RedisState` (src/shared/redis.ts, loaded only when DOCENT_REDIS_URL is set)
 * keeps it in Redis, exact across every replica that uses the same Redis.
 *
 * Contracts, both implementations:
 * - `takeToken`: a token bucket of `capacity` tokens refilled evenly over a minute; atomic per bucket.
 * - `monthly`: a counter per key and month, seeded once from storage (`seed`) and incremented atomically.
 * - `spendOnce`: true exactly once per token until it expires (single-use confirmation tokens).
 * - `secret`: one random secret per deployment (every replica signs and verifies with the same bytes).
 * - `paidCalls`/`addPaidCall`: per-tenant counts of auto-confirmed paid calls.
 * - `sessionSlot`/`releaseSession`: per-tenant MCP session slots with a lease (a replica that dies frees its
 *   slots when the lease lapses); `renewSessions` extends this process's leases.
 * - `lock`: the cross-process write lock of src/storage (see WriteLocks).
 */
import { randomBytes } from 'node:crypto';

export type TokenTake = { ok: true; remaining: number } | { ok: false; waitMs: number };

/**
 * Serialises writers of one named resource across every process sharing the state. `run` holds the lock for
 * `fn`; `fence()` (given to `fn`) throws when the lock was lost (lease lapsed and taken by another holder), and
 * is called by the storage layer right before each commit, so a stalled holder never commits over another.
 */
export interface WriteLocks {
  readonly distributed: boolean;
  run<T>(name: string, fn: (fence: () => Promise<void>) => Promise<T>): Promise<T>;
}

export interface SharedState {
  readonly kind: 'in-process' | 'redis';
  readonly locks: WriteLocks;
  takeToken(bucket: string, capacity: number, nowMs: number): Promise<TokenTake>;
  /** The current count of a monthly counter (seeded from storage the first time it is seen anywhere). */
  monthly(counter: string, seed: () => Promise<number>): Promise<number>;
  /** Adds one to a monthly counter (seeded like `monthly`); returns the new count. */
  addMonthly(counter: string, seed: () => Promise<number>): Promise<number>;
  spendOnce(token: string, expiresAtSec: number): Promise<boolean>;
  secret(): Promise<Buffer>;
  paidCalls(tenant: string): Promise<number>;
  addPaidCall(tenant: string): Promise<void>;
  /** Takes one of the tenant's `cap` session slots for `id`; false when all are held. */
  sessionSlot(tenant: string, id: string, cap: number): Promise<boolean>;
  releaseSession(tenant: string, id: string): Promise<void>;
  /** Extends the leases of these sessions (called periodically by the replica holding them). */
  renewSessions(sessions: { tenant: string; id: string }[]): Promise<void>;
  close(): Promise<void>;
}

/** Serialises async sections by key, within one process. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}

/** The token bucket arithmetic shared by both implementations (Redis runs the same steps in Lua). */
export function bucketStep(
  state: { tokens: number; at: number } | undefined,
  capacity: number,
  nowMs: number,
): { state: { tokens: number; at: number }; take: TokenTake } {
  let tokens = state ? Math.min(capacity, state.tokens + (Math.max(0, nowMs - state.at) * capacity) / 60_000) : capacity;
  if (tokens >= 1) {
    tokens -= 1;
    return { state: { tokens, at: nowMs }, take: { ok: true, remaining: Math.floor(tokens) } };
  }
  return { state: { tokens, at: nowMs }, take: { ok: false, waitMs: ((1 - tokens) * 60_000) / capacity } };
}

const noFence = async () => {};

export class InProcessState implements SharedState {
  readonly kind = 'in-process';
  private readonly mutex = new KeyedMutex();
  readonly locks: WriteLocks = { distributed: false, run: (name, fn) => this.mutex.run(name, () => fn(noFence)) };
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly counters = new Map<string, number>();
  private readonly seeding = new Map<string, Promise<number>>();
  private readonly spent = new Map<string, number>();
  private readonly paid = new Map<string, number>();
  private readonly sessions = new Map<string, Set<string>>();
  private readonly key = randomBytes(32);

  async takeToken(bucket: string, capacity: number, nowMs: number): Promise<TokenTake> {
    const step = bucketStep(this.buckets.get(bucket), capacity, nowMs);
    this.buckets.set(bucket, step.state);
    // A bucket that has refilled is the same as no bucket: forget those, so idle keys cost no memory.
    if (this.buckets.size > 10_000) {
      for (const [id, s] of this.buckets) if (nowMs - s.at >= 60_000) this.buckets.delete(id);
    }
    return step.take;
  }

  private async seeded(counter: string, seed: () => Promise<number>): Promise<number> {
    const known = this.counters.get(counter);
    if (known !== undefined) return known;
    let loading = this.seeding.get(counter);
    if (!loading) {
      loading = seed().finally(() => this.seeding.delete(counter));
      this.seeding.set(counter, loading);
    }
    const value = await loading;
    if (!this.counters.has(counter)) this.counters.set(counter, value);
    return this.counters.get(counter)!;
  }

  monthly(counter: string, seed: () => Promise<number>): Promise<number> {
    return this.seeded(counter, seed);
  }

  async addMonthly(counter: string, seed: () => Promise<number>): Promise<number> {
    await this.seeded(counter, seed);
    // Read after the await: other increments may have landed meanwhile.
    const value = this.counters.get(counter)! + 1;
    this.counters.set(counter, value);
    return value;
  }

  async spendOnce(token: string, expiresAtSec: number): Promise<boolean> {
    const nowSec = Math.floor(Date.now() / 1000);
    for (const [t, exp] of this.spent) if (exp < nowSec) this.spent.delete(t);
    if (this.spent.has(token)) return false;
    this.spent.set(token, expiresAtSec);
    return true;
  }

  async secret(): Promise<Buffer> {
    return this.key;
  }

  async paidCalls(tenant: string): Promise<number> {
    return this.paid.get(tenant) ?? 0;
  }

  async addPaidCall(tenant: string): Promise<void> {
    this.paid.set(tenant, (this.paid.get(tenant) ?? 0) + 1);
  }

  async sessionSlot(tenant: string, id: string, cap: number): Promise<boolean> {
    const held = this.sessions.get(tenant) ?? new Set<string>();
    if (held.size >= cap && !held.has(id)) return false;
    held.add(id);
    this.sessions.set(tenant, held);
    return true;
  }

  async releaseSession(tenant: string, id: string): Promise<void> {
    const held = this.sessions.get(tenant);
    held?.delete(id);
    if (held && held.size === 0) this.sessions.delete(tenant);
  }

  async renewSessions(): Promise<void> {}

  async close(): Promise<void> {}
}
