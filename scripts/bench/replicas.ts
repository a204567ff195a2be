/**
 * Bench section `replicas`: the deployment of docs/deployment.md on loopback, with the real backends
 * (redis-server, s3rver; scripts/backends.ts).
 *
 * - storage: ingest of the test fixture documentation and query latency on the S3 stand-in (with Redis write
 *   locks) beside local disk (in-process locks): medians of ROUNDS fresh ingests and of QUERIES queries, and
 *   the ratio S3 / disk.
 * - http: throughput of `docent serve --http --stateless` replicas on the S3 stand-in and Redis, one replica
 *   and two (requests alternated between them, as a round-robin balancer would): POST /v1/query and a
 *   POST /v1/tools/calculator call (authentication, shared limits, no storage), REQUESTS each at CONCURRENCY
 *   in flight, median of ROUNDS rounds; and 100 concurrent add_task writers over both replicas (every write to
 *   the tenant's task table serialised by its Redis lock), writes per second. Both replicas share this machine's cores, so the two-replica figure
 *   shows the overhead of sharing, not the scaling across machines. DOCENT_BENCH_REPLICA_LOG=1 passes the
 *   replicas' logs through to stderr.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { redisUnavailable, startRedis, startS3 } from '../backends.js';

export const name = 'replicas';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const CLI = path.join(ROOT, 'dist', 'src', 'cli', 'main.js');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'docs');
const QUESTIONS = [
  'How do I install without dev dependencies?',
  'What does nestedKey do?',
  'How do I rotate log files?',
  'Which Node.js versions are supported?',
];
const ROUNDS = 3;
const QUERIES = 40;
const REQUESTS = 300;
const CONCURRENCY = 8;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

async function storageFigures(overrides: Record<string, unknown>): Promise<{ ingest_s: number; query_ms: number }> {
  const { loadConfig } = await import('../../src/config.js');
  const { silentLogger } = await import('../../src/logging.js');
  const { Services } = await import('../../src/services.js');
  const ingests: number[] = [];
  const queries: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const services = new Services(loadConfig({ env: {}, overrides: { tenant: `bench${r}`, ...overrides } }), silentLogger());
    try {
      const index = await (await services.docs()).forTenant(`bench${r}`);
      const started = performance.now();
      await index.ingestPath([FIXTURES]);
      ingests.push((performance.now() - started) / 1000);
      await index.query(QUESTIONS[0]!);
      for (let q = 0; q < QUERIES; q++) {
        const t0 = performance.now();
        await index.query(QUESTIONS[q % QUESTIONS.length]!);
        queries.push(performance.now() - t0);
      }
    } finally {
      await services.close();
    }
  }
  return { ingest_s: round(median(ingests), 2), query_ms: round(median(queries)) };
}

interface Replica {
  url: string;
  child: ChildProcess;
}

function startReplica(env: Record<string, string>, cwd: string): Promise<Replica> {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0', '--stateless'], { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      if (process.env.DOCENT_BENCH_REPLICA_LOG) process.stderr.write(chunk);
      stderr += chunk.toString('utf8');
      const line = stderr.split('\n').find((l) => l.includes('docent HTTP server listening'));
      if (line) resolve({ url: (JSON.parse(line) as { url: string }).url, child });
    });
    child.once('exit', (code) => reject(new Error(`replica exited (${code}) before listening:\n${stderr}`)));
  });
}

/** Requests per second of REQUESTS requests, CONCURRENCY at a time, spread round-robin over `urls`. */
async function throughput(urls: string[], key: string, pathname: string, body: unknown): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let i = next++; i < REQUESTS; i = next++) {
      const res = await fetch(`${urls[i % urls.length]}${pathname}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${pathname} answered ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return REQUESTS / ((performance.now() - started) / 1000);
}

export async function run(): Promise<Record<string, unknown>> {
  const why = redisUnavailable();
  if (why) return { skipped: why };
  const root = await mkdtemp(path.join(os.tmpdir(), 'docent-bench-replicas-'));
  const [redis, s3] = await Promise.all([startRedis(), startS3()]);
  const replicas: Replica[] = [];
  try {
    const s3env = s3.env('bench');
    const s3overrides = {
      dataDir: s3env.DOCENT_DATA_DIR,
      'storage.awsAccessKeyId': s3env.AWS_ACCESS_KEY_ID,
      'storage.awsSecretAccessKey': s3env.AWS_SECRET_ACCESS_KEY,
      'storage.awsRegion': s3env.AWS_REGION,
      'storage.awsEndpointUrl': s3env.AWS_ENDPOINT_URL,
      'storage.awsAllowHttp': true,
      'redis.url': redis.url,
    };
    const disk = await storageFigures({ dataDir: path.join(root, 'disk') });
    const remote = await storageFigures(s3overrides);

    // HTTP: one tenant with the fixture documentation, a pro key without per-minute limit.
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: root,
      ...s3env,
      DOCENT_REDIS_URL: redis.url,
      DOCENT_LOG_LEVEL: 'info',
      DOCENT_PRO_REQUESTS_PER_MINUTE: '0',
    };
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'keys', 'create', '--tenant', 'http', '--plan', 'pro', '--json'], { env, cwd: root });
    const key = (JSON.parse(stdout) as { key: string }).key;
    await promisify(execFile)(process.execPath, [CLI, 'ingest', FIXTURES, '--tenant', 'http'], { env, cwd: root });
    replicas.push(await startReplica(env, root), await startReplica(env, root));
    const urls = replicas.map((r) => r.url);
    const query = { question: QUESTIONS[2] };
    const calc = { operation: 'add', a: 1, b: 2 };
    await throughput(urls, key, '/v1/query', query); // warm both replicas
    const rates: Record<string, number[]> = { query1: [], query2: [], tool1: [], tool2: [] };
    for (let r = 0; r < ROUNDS; r++) {
      rates.query1!.push(await throughput(urls.slice(0, 1), key, '/v1/query', query));
      rates.query2!.push(await throughput(urls, key, '/v1/query', query));
      rates.tool1!.push(await throughput(urls.slice(0, 1), key, '/v1/tools/calculator', calc));
      rates.tool2!.push(await throughput(urls, key, '/v1/tools/calculator', calc));
    }
    // Serialised writes: 100 writers at once, alternating replicas, each adding one task to one tenant.
    const writes: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const started = performance.now();
      await Promise.all(
        Array.from({ length: 100 }, async (_, i) => {
          const res = await fetch(`${urls[i % 2]}/v1/tools/scheduler`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ action: 'add_task', tenant_id: 'http', category: 'content', label: `r${r} task ${i}`, due_date: '2030-01-15' }),
          });
          const text = await res.text();
          if (res.status !== 200) throw new Error(`add_task answered ${res.status}: ${text}`);
        }),
      );
      writes.push(100 / ((performance.now() - started) / 1000));
    }
    return {
      fixture_ingest_disk_s: disk.ingest_s,
      fixture_ingest_s3_s: remote.ingest_s,
      ingest_ratio_s3_to_disk: round(remote.ingest_s / disk.ingest_s, 2),
      query_p50_disk_ms: disk.query_ms,
      query_p50_s3_ms: remote.query_ms,
      query_ratio_s3_to_disk: round(remote.query_ms / disk.query_ms, 2),
      http_query_rps_1_replica: round(median(rates.query1!)),
      http_query_rps_2_replicas: round(median(rates.query2!)),
      http_tool_rps_1_replica: round(median(rates.tool1!)),
      http_tool_rps_2_replicas: round(median(rates.tool2!)),
      http_add_task_writes_per_s_100_writers_2_replicas: round(median(writes)),
      setup: `${ROUNDS} rounds, ${QUERIES} queries/round, ${REQUESTS} requests x ${CONCURRENCY} in flight, loopback, ${os.cpus().length} cores`,
    };
  } finally {
    for (const r of replicas) r.child.kill('SIGTERM');
    await Promise.all(replicas.map((r) => new Promise((resolve) => (r.child.exitCode !== null ? resolve(undefined) : r.child.once('exit', resolve)))));
    await Promise.all([redis.stop(), s3.stop()]);
    await rm(root, { recursive: true, force: true });
  }
}
