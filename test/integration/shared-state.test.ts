/**
 * The shared-state contract (src/shared/state.ts) on both implementations, and the write locks of src/storage
 * against a real redis-server and a real S3-compatible server: two "replicas" here are two RedisState
 * connections and two Stores (two LanceDB connections) in one process.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logging.js';
import { LockLostError, RedisState } from '../../src/shared/redis.js';
import { InProcessState, type SharedState } from '../../src/shared/state.js';
import { openStore, type Store } from '../../src/storage/store.js';
import { redisUnavailable, startRedis, startS3, type RedisServer, type S3Server } from '../helpers/backends.js';

const skipWhy = redisUnavailable();
if (skipWhy) console.warn(`[shared-state] skipped: ${skipWhy}`);

let redis: RedisServer;
let s3: S3Server;
const opened: SharedState[] = [];

async function redisState(leaseMs = 5000): Promise<RedisState> {
  const state = await RedisState.connect(redis.url, silentLogger(), { lockLeaseMs: leaseMs });
  opened.push(state);
  return state;
}

beforeAll(async () => {
  if (skipWhy) return;
  [redis, s3] = await Promise.all([startRedis(), startS3()]);
}, 60_000);

afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  await Promise.all([redis?.stop(), s3?.stop()]);
});

type Pair = () => Promise<[SharedState, SharedState]>;
const implementations: [string, Pair, boolean][] = [
  [
    'in-process (one process: both sides are the same state)',
    async () => {
      const one = new InProcessState();
      return [one, one];
    },
    false,
  ],
  ['Redis (two connections, as two replicas)', async () => [await redisState(), await redisState()], true],
];

describe.each(implementations)('SharedState: %s', (name, pair, needsRedis) => {
  const skip = needsRedis && skipWhy !== undefined;

  it.skipIf(skip)('shares one token bucket: at one instant exactly `capacity` takes succeed, then the wait is stated', async () => {
    const [x, y] = await pair();
    const bucket = `bucket-${name.length}-${Math.random()}`;
    const now = 1_700_000_000_000;
    const takes = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? x : y).takeToken(bucket, 5, now)));
    expect(takes.filter((t) => t.ok)).toHaveLength(5);
    expect(takes.filter((t) => !t.ok).every((t) => !t.ok && t.waitMs === 12_000)).toBe(true);
    // Twelve seconds later one token is back (5 per minute).
    expect((await x.takeToken(bucket, 5, now + 12_000)).ok).toBe(true);
    expect((await y.takeToken(bucket, 5, now + 12_000)).ok).toBe(false);
  });

  it.skipIf(skip)('seeds a monthly counter once from storage and counts every increment from both sides', async () => {
    const [x, y] = await pair();
    const counter = `key|2026-${Math.random()}`;
    let seeds = 0;
    const seed = async () => {
      seeds++;
      return 40;
    };
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? x : y).addMonthly(counter, seed)));
    expect(await x.monthly(counter, seed)).toBe(60);
    expect(await y.monthly(counter, seed)).toBe(60);
    expect(seeds).toBeGreaterThanOrEqual(1);
  });

  it.skipIf(skip)('spends a token once across both sides, shares one secret and the paid-call counts', async () => {
    const [x, y] = await pair();
    const token = `ct1.${Math.random()}`;
    const expires = Math.floor(Date.now() / 1000) + 60;
    const spends = await Promise.all([x.spendOnce(token, expires), y.spendOnce(token, expires), x.spendOnce(token, expires)]);
    expect(spends.filter(Boolean)).toHaveLength(1);
    expect((await x.secret()).equals(await y.secret())).toBe(true);
    const tenant = `t${Math.random()}`;
    await x.addPaidCall(tenant);
    await y.addPaidCall(tenant);
    expect(await x.paidCalls(tenant)).toBe(2);
  });

  it.skipIf(skip)('caps session slots per tenant across both sides, and frees released ones', async () => {
    const [x, y] = await pair();
    const tenant = `s${Math.random()}`;
    expect(await x.sessionSlot(tenant, 'a', 2)).toBe(true);
    expect(await y.sessionSlot(tenant, 'b', 2)).toBe(true);
    expect(await y.sessionSlot(tenant, 'c', 2)).toBe(false);
    expect(await x.sessionSlot(tenant, 'a', 2)).toBe(true); // the same session again holds its own slot
    await x.releaseSession(tenant, 'a');
    expect(await y.sessionSlot(tenant, 'c', 2)).toBe(true);
  });

  it.skipIf(skip)('serialises lock holders: sections of one lock never overlap, whichever side runs them', async () => {
    const [x, y] = await pair();
    const lock = `l${Math.random()}`;
    let inside = 0;
    let overlaps = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? x : y).locks.run(lock, async (fence) => {
          if (++inside > 1) overlaps++;
          await new Promise((r) => setTimeout(r, 2));
          await fence();
          order.push(i);
          inside--;
        }),
      ),
    );
    expect(overlaps).toBe(0);
    expect(order.sort((p, q) => p - q)).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });
});

describe.skipIf(skipWhy)('write locks in Redis with object storage', () => {
  it('fails the write of a holder whose lock was taken over, before it commits', async () => {
    const state = await redisState(5000);
    const admin = new Redis(redis.url);
    try {
      let committed = false;
      const outcome = state.locks.run('takeover', async (fence) => {
        // Another holder now owns the lock (as after this holder's lease lapsed during a long pause).
        await admin.set('docent:lock:takeover', 'someone-else');
        await fence();
        committed = true;
      });
      await expect(outcome).rejects.toBeInstanceOf(LockLostError);
      expect(committed).toBe(false);
      // The other holder's lock is left alone.
      expect(await admin.get('docent:lock:takeover')).toBe('someone-else');
    } finally {
      admin.disconnect();
    }
  });

  it('frees the lock of a holder that died once its lease lapses', async () => {
    const state = await redisState(600);
    const admin = new Redis(redis.url);
    try {
      // A dead replica's lock: set with a lease and never renewed.
      await admin.set('docent:lock:dead', 'dead-holder', 'PX', 600);
      let ran = false;
      await state.locks.run('dead', async (fence) => {
        await fence();
        ran = true;
      });
      expect(ran).toBe(true);
    } finally {
      admin.disconnect();
    }
  });

  it('loses no row when 40 writers over two stores (two LanceDB connections) insert into one table at once', async () => {
    const env = s3.env('store-test');
    const storageOptions = {
      aws_access_key_id: env.AWS_ACCESS_KEY_ID!,
      aws_secret_access_key: env.AWS_SECRET_ACCESS_KEY!,
      aws_region: 'us-east-1',
      aws_endpoint: env.AWS_ENDPOINT_URL!,
      allow_http: 'true',
    };
    const stores: Store[] = [];
    for (let i = 0; i < 2; i++) stores.push(await openStore(env.DOCENT_DATA_DIR!, silentLogger(), { storageOptions, locks: (await redisState()).locks }));
    const spec = { name: 'writes', columns: { id: 'string', n: 'number' } } as const;
    const tables = await Promise.all(stores.map((s) => s.records(spec)));
    await Promise.all(Array.from({ length: 40 }, (_, i) => tables[i % 2]!.insert([{ id: `w${i}`, n: i }])));
    const rows = await tables[0]!.find({});
    expect(rows.map((r) => r.id).sort()).toEqual(Array.from({ length: 40 }, (_, i) => `w${i}`).sort());
    // A read-check-write section on one side sees the other side's commits (no stale handle).
    await tables[1]!.exclusive(async () => {
      expect(await tables[1]!.count({})).toBe(40);
      await tables[1]!.update({ id: 'w7' }, { n: -7 });
    });
    expect((await tables[0]!.find({ id: 'w7' }))[0]!.n).toBe(-7);
    await Promise.all(stores.map((s) => s.close()));
  }, 120_000);
});

describe('write-lock sections of a Store', () => {
  it('runs nested writes inside a section directly, and queues detached background work after it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'docent-locks-'));
    const store = await openStore(dir, silentLogger());
    try {
      const table = await store.records({ name: 'sections', columns: { id: 'string' } });
      const events: string[] = [];
      let background: Promise<void> | undefined;
      await table.exclusive(async () => {
        await table.insert([{ id: 'a' }]); // nested: the section's own lock, no deadlock
        background = store.detached(() => table.exclusive(async () => void events.push('background')));
        await new Promise((r) => setTimeout(r, 20));
        events.push('section end');
      });
      await background;
      expect(events).toEqual(['section end', 'background']);
      expect(await table.count({})).toBe(1);
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
