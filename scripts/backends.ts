/**
 * The real shared backends of a multi-replica deployment, started by the tests and the bench on loopback:
 * Debian's `redis-server` on a free port with a temporary directory (no persistence), and `s3rver` (an
 * S3-compatible server from npm) in this process on port 0 with one bucket. Each start either succeeds or
 * says exactly why it cannot (so a suite can skip with that message).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface RedisServer {
  url: string;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Why redis-server cannot run here, or undefined when it can. */
export function redisUnavailable(): string | undefined {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    return 'redis-server is not installed (apt-get install redis-server; .ci/run installs it when missing)';
  }
  return undefined;
}

export async function startRedis(): Promise<RedisServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'docent-redis-'));
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    const ready = await new Promise<boolean>((resolve) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('Ready to accept connections')) resolve(true);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', () => resolve(false));
      child.once('error', () => resolve(false));
    });
    if (ready) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        child,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
          await rm(dir, { recursive: true, force: true });
        },
      };
    }
    // The free port was taken between the probe and the start: try another, a few times.
    if (attempt >= 3 || !/Address already in use/i.test(output)) {
      await rm(dir, { recursive: true, force: true });
      throw new Error(`redis-server did not start: ${output.trim().slice(-500)}`);
    }
  }
}

export interface S3Server {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  bucket: string;
  /** Environment a docent process needs to use `s3://<bucket>/<prefix>`. */
  env(prefix: string): Record<string, string>;
  stop(): Promise<void>;
}

/** s3rver's fixed credentials. */
const S3RVER_KEY = 'S3RVER';

export async function startS3(bucket = 'docent'): Promise<S3Server> {
  // s3rver is a development dependency without type declarations.
  const module = 's3rver';
  const { default: S3rver } = (await import(module)) as {
    default: new (options: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };
  };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'docent-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory: dir, silent: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: (prefix) => ({
      DOCENT_DATA_DIR: `s3://${bucket}/${prefix}`,
      AWS_ACCESS_KEY_ID: S3RVER_KEY,
      AWS_SECRET_ACCESS_KEY: S3RVER_KEY,
      AWS_REGION: 'us-east-1',
      AWS_ENDPOINT_URL: endpoint,
      AWS_ALLOW_HTTP: 'true',
    }),
    async stop() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
