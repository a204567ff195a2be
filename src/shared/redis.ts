/**
 * SharedState in Redis (DOCENT_REDIS_URL): every replica connected to the same Redis shares limits, tokens,
 * session slots and write locks. Each operation is one atomic command or Lua script, so replicas never
 * interleave inside one. Keys live under `docent:`.
 *
 * Write locks (WriteLocks): `SET lock token NX PX lease`, where the token starts with a fencing number from
 * INCR (strictly increasing per lock). The holder extends the lease every lease/3 while it runs, and before each
 * commit `fence()` checks, atomically with extending the lease, that the lock still holds its own token; a
 * holder that lost it (a pause longer than the lease) fails its write with an error instead of committing
 * over the next holder's work. A holder that dies frees the lock when its lease lapses. Within one process,
 * writers of one lock queue in memory first, so Redis sees one waiter per process.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { ConfigError } from '../errors.js';
import type { Logger } from '../logging.js';
import { KeyedMutex, type SharedState, type TokenTake, type WriteLocks } from './state.js';

const P = 'docent:';
/** Monthly counters outlive their month by this much (seconds), then Redis forgets them (the table keeps them). */
const MONTHLY_TTL_S = 40 * 24 * 3600;
/** A session slot lapses this long after its last renewal (the holding replica renews every minute). */
export const SESSION_LEASE_MS = 3 * 60 * 1000;
/** Longest wait for a write lock before the write fails with an error that says so. */
export const LOCK_WAIT_MS = 120_000;

const BUCKET = `
local cap = tonumber(ARGV[1]) local now = tonumber(ARGV[2])
local s = redis.call('HMGET', KEYS[1], 't', 'a')
local tokens = cap
if s[1] then tokens = math.min(cap, tonumber(s[1]) + math.max(0, now - tonumber(s[2])) * cap / 60000) end
local ok = 0
if tokens >= 1 then tokens = tokens - 1 ok = 1 end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'a', tostring(now))
redis.call('PEXPIRE', KEYS[1], 120000)
if ok == 1 then return {1, tostring(math.floor(tokens))} end
return {0, tostring((1 - tokens) * 60000 / cap)}`;

const ADD_IF_EXISTS = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local v = redis.call('INCR', KEYS[1]) redis.call('EXPIRE', KEYS[1], ARGV[1]) return v`;

const SEED_AND_ADD = `
redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2])
local v = redis.call('INCR', KEYS[1]) redis.call('EXPIRE', KEYS[1], ARGV[2]) return v`;

/** Extends the lease when the lock still holds this token: 1, else 0. */
const EXTEND = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
return 0`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

const SLOT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZSCORE', KEYS[1], ARGV[3]) then redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3]) return 1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

export class LockLostError extends Error {
  constructor(name: string) {
    super(`Lost the write lock "${name}" (its lease lapsed, and another replica may hold it now); the write was not committed. Retry.`);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class RedisState implements SharedState {
  readonly kind = 'redis';
  readonly locks: WriteLocks;
  private readonly local = new KeyedMutex();
  private secretValue?: Promise<Buffer>;

  private constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
    leaseMs: number,
  ) {
    this.locks = { distributed: true, run: (name, fn) => this.local.run(name, () => this.withLock(name, leaseMs, fn)) };
  }

  /** Connects, or throws a ConfigError saying what to fix. */
  static async connect(url: string, logger: Logger, options: { lockLeaseMs: number }): Promise<RedisState> {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3, connectTimeout: 5000, enableOfflineQueue: true });
    redis.on('error', (error: Error) => logger.warn({ err: error.message }, 'Redis connection error; reconnecting'));
    try {
      await redis.connect();
      await redis.ping();
    } catch (error) {
      redis.disconnect();
      throw new ConfigError(
        `Cannot reach Redis at DOCENT_REDIS_URL (${redactUrl(url)}): ${(error as Error).message.replace(/\.$/, '')}. Start Redis there, or unset DOCENT_REDIS_URL to keep shared state in this process.`,
      );
    }
    return new RedisState(redis, logger, options.lockLeaseMs);
  }

  private async withLock<T>(name: string, leaseMs: number, fn: (fence: () => Promise<void>) => Promise<T>): Promise<T> {
    const key = `${P}lock:${name}`;
    const fencing = await this.redis.incr(`${P}fence:${name}`);
    const token = `${fencing}:${randomBytes(8).toString('hex')}`;
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      if ((await this.redis.set(key, token, 'PX', leaseMs, 'NX')) === 'OK') break;
      if (Date.now() - started > LOCK_WAIT_MS)
        throw new Error(`Timed out after ${LOCK_WAIT_MS / 1000} s waiting for the write lock "${name}" held by another replica; retry.`);
      await sleep(Math.min(100, 5 * 2 ** Math.min(attempt, 5)) * (0.5 + Math.random()));
    }
    let lost = false;
    const extend = async () => (await this.redis.eval(EXTEND, 1, key, token, leaseMs)) === 1;
    const renewer = setInterval(
      () => {
        extend()
          .then((held) => {
            if (!held) lost = true;
          })
          .catch(() => undefined);
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    renewer.unref();
    const fence = async () => {
      if (lost || !(await extend())) {
        lost = true;
        throw new LockLostError(name);
      }
    };
    try {
      return await fn(fence);
    } finally {
      clearInterval(renewer);
      await this.redis
        .eval(RELEASE, 1, key, token)
        .catch((error: unknown) => this.logger.warn({ err: error, lock: name }, 'could not release a write lock; it lapses with its lease'));
    }
  }

  async takeToken(bucket: string, capacity: number, nowMs: number): Promise<TokenTake> {
    const [ok, value] = (await this.redis.eval(BUCKET, 1, `${P}bucket:${bucket}`, capacity, nowMs)) as [number, string];
    return ok === 1 ? { ok: true, remaining: Number(value) } : { ok: false, waitMs: Number(value) };
  }

  async monthly(counter: string, seed: () => Promise<number>): Promise<number> {
    const key = `${P}monthly:${counter}`;
    const value = await this.redis.get(key);
    if (value !== null) return Number(value);
    await this.redis.set(key, await seed(), 'EX', MONTHLY_TTL_S, 'NX');
    return Number(await this.redis.get(key));
  }

  async addMonthly(counter: string, seed: () => Promise<number>): Promise<number> {
    const key = `${P}monthly:${counter}`;
    const added = Number(await this.redis.eval(ADD_IF_EXISTS, 1, key, MONTHLY_TTL_S));
    if (added >= 0) return added;
    return Number(await this.redis.eval(SEED_AND_ADD, 1, key, await seed(), MONTHLY_TTL_S));
  }

  async spendOnce(token: string, expiresAtSec: number): Promise<boolean> {
    const ttl = Math.max(1, expiresAtSec - Math.floor(Date.now() / 1000) + 1);
    const id = createHash('sha256').update(token).digest('base64url');
    return (await this.redis.set(`${P}spent:${id}`, '1', 'EX', ttl, 'NX')) === 'OK';
  }

  secret(): Promise<Buffer> {
    this.secretValue ??= (async () => {
      await this.redis.set(`${P}confirmation-secret`, randomBytes(32).toString('hex'), 'NX');
      return Buffer.from((await this.redis.get(`${P}confirmation-secret`))!, 'hex');
    })();
    this.secretValue.catch(() => (this.secretValue = undefined));
    return this.secretValue;
  }

  async paidCalls(tenant: string): Promise<number> {
    return Number((await this.redis.hget(`${P}paid-calls`, tenant)) ?? 0);
  }

  async addPaidCall(tenant: string): Promise<void> {
    await this.redis.hincrby(`${P}paid-calls`, tenant, 1);
  }

  async sessionSlot(tenant: string, id: string, cap: number): Promise<boolean> {
    const now = Date.now();
    return (await this.redis.eval(SLOT, 1, `${P}sessions:${tenant}`, now, cap, id, now + SESSION_LEASE_MS, SESSION_LEASE_MS * 2)) === 1;
  }

  async releaseSession(tenant: string, id: string): Promise<void> {
    await this.redis.zrem(`${P}sessions:${tenant}`, id);
  }

  async renewSessions(sessions: { tenant: string; id: string }[]): Promise<void> {
    if (!sessions.length) return;
    const until = Date.now() + SESSION_LEASE_MS;
    const batch = this.redis.multi();
    for (const s of sessions) batch.zadd(`${P}sessions:${s.tenant}`, 'XX', until, s.id);
    await batch.exec();
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'an unparsable URL';
  }
}
