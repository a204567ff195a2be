/**
 * Bench section `http`: requests per second of `docent serve --http` beside a bare node:http server, both
 * child processes on 127.0.0.1 loaded in the same run by the same client (keep-alive node:http, a fixed number
 * of requests at a fixed concurrency, so the ratio is what counts, not the absolute figures):
 * - bare: a node:http server that reads the JSON body and answers a small JSON object;
 * - REST: `POST /v1/tools/calculator` with a valid API key (plan limits off, as for a pro key sized for it);
 * - MCP: `tools/call calculator` on one streamable-HTTP session, same key;
 * - rag_query over REST at concurrency 20 on the test fixture documentation (lexical), with p50/p95 latency;
 * and docent's peak RSS (VmHWM) at the end. Loopback only; every loop is bounded by a request count.
 * Bare, REST and MCP run back to back in each of ROUNDS rounds; ratios are per round, reported as medians.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const name = 'http';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const CLI = path.join(ROOT, 'dist', 'src', 'cli', 'main.js');
const REQUESTS = Number(process.env.BENCH_HTTP_REQUESTS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_HTTP_CONCURRENCY ?? 16);
const RAG_REQUESTS = Number(process.env.BENCH_HTTP_RAG_REQUESTS ?? 400);
const RAG_CONCURRENCY = 20;
const WARMUP = 200;
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 5);

const BARE_SERVER = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  const parts = [];
  req.on('data', (c) => parts.push(c));
  req.on('end', () => {
    const body = JSON.stringify({ ok: true, result: { echo: Buffer.concat(parts).length } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => process.stderr.write('listening ' + server.address().port + '\\n'));
`;

interface Target {
  port: number;
  child: ChildProcess;
}

/** Spawns a server and resolves with the port it reports on stderr. */
function startServer(args: string[], env: NodeJS.ProcessEnv, portOf: (line: string) => number | undefined): Promise<Target> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let buffer = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (const line of buffer.split('\n')) {
        const port = portOf(line);
        if (port) {
          // Keep draining stderr (request log lines) without holding it.
          child.stderr!.off('data', onData);
          child.stderr!.resume();
          resolve({ port, child });
          return;
        }
      }
    };
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before listening:\n${buffer}`)));
  });
}

interface Sent {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

function send(agent: Agent, port: number, method: string, pathName: string, headers: Record<string, string>, body?: string): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: pathName,
        agent,
        headers: { ...headers, ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8'), headers: res.headers }));
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

/** `total` requests, `concurrency` at a time; each must answer 200 (`check` may look closer). */
async function load(total: number, concurrency: number, one: () => Promise<Sent>, check: (s: Sent) => boolean = (s) => s.status === 200) {
  const latencies: number[] = [];
  let next = 0;
  let failed = 0;
  let example = '';
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const t0 = performance.now();
        const sent = await one();
        latencies.push(performance.now() - t0);
        if (!check(sent)) {
          failed++;
          example ||= `${sent.status} ${sent.body.slice(0, 300)}`;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  if (failed) throw new Error(`${failed} of ${total} requests failed, e.g. ${example}`);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]! * 10) / 10;
  return { rps: Math.round(total / seconds), p50: pct(50), p95: pct(95) };
}

function peakRssMb(pid: number): number | undefined {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : undefined;
}

export async function run(): Promise<Record<string, unknown>> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'docent-bench-http-'));
  const env = {
    PATH: process.env.PATH,
    HOME: root,
    DOCENT_DATA_DIR: path.join(root, 'data'),
    DOCENT_WORKSPACE_DIR: path.join(root, 'workspace'),
    DOCENT_PRO_REQUESTS_PER_MINUTE: '0',
    DOCENT_PRO_REQUESTS_PER_MONTH: '0',
  };
  const targets: Target[] = [];
  try {
    const exec = promisify(execFile);
    await exec(process.execPath, [CLI, 'ingest', path.join(ROOT, 'test', 'fixtures', 'docs'), '--tenant', 'bench'], { env, cwd: root });
    const created = JSON.parse(
      (await exec(process.execPath, [CLI, 'keys', 'create', '--tenant', 'bench', '--plan', 'pro', '--json'], { env, cwd: root })).stdout,
    ) as { key: string };
    const auth = { authorization: `Bearer ${created.key}`, 'content-type': 'application/json' };

    const bare = await startServer(['-e', BARE_SERVER], env, (l) => (/^listening (\d+)/.exec(l) ? Number(/^listening (\d+)/.exec(l)![1]) : undefined));
    targets.push(bare);
    const docent = await startServer([CLI, 'serve', '--http', '--port', '0'], env, (l) => {
      if (!l.includes('docent HTTP server listening')) return undefined;
      return (JSON.parse(l) as { port: number }).port;
    });
    targets.push(docent);
    const agent = new Agent({ keepAlive: true, maxSockets: Math.max(CONCURRENCY, RAG_CONCURRENCY) });
    const calc = JSON.stringify({ operation: 'add', a: 1, b: 2 });

    const bareCall = () => send(agent, bare.port, 'POST', '/v1/tools/calculator', auth, calc);
    const restCall = () => send(agent, docent.port, 'POST', '/v1/tools/calculator', auth, calc);

    // One MCP session for the tool calls.
    const mcpHeaders = { ...auth, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
    const init = await send(
      agent,
      docent.port,
      'POST',
      '/mcp',
      mcpHeaders,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
      }),
    );
    const session = init.headers['mcp-session-id'];
    if (init.status !== 200 || typeof session !== 'string') throw new Error(`MCP initialize failed: ${init.status} ${init.body}`);
    const inSession = { ...mcpHeaders, 'mcp-session-id': session };
    await send(agent, docent.port, 'POST', '/mcp', inSession, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    let id = 1;
    const mcpCall = () =>
      send(
        agent,
        docent.port,
        'POST',
        '/mcp',
        inSession,
        JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'calculator', arguments: { operation: 'add', a: 1, b: 2 } } }),
      );
    const mcpOk = (s: Sent) => s.status === 200 && s.body.includes('"result"') && !s.body.includes('"isError":true');

    for (const [one, check] of [[bareCall], [restCall], [mcpCall, mcpOk]] as const) await load(WARMUP, CONCURRENCY, one, check);
    // Interleaved rounds (bare, REST, MCP back to back), so that machine noise hits all three alike; each
    // round gives its own ratios, and the medians over rounds are reported.
    const rounds = { bare: [] as number[], rest: [] as number[], mcp: [] as number[], restRatio: [] as number[], mcpRatio: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      const bareRps = (await load(REQUESTS, CONCURRENCY, bareCall)).rps;
      const restRps = (await load(REQUESTS, CONCURRENCY, restCall)).rps;
      const mcpRps = (await load(REQUESTS, CONCURRENCY, mcpCall, mcpOk)).rps;
      rounds.bare.push(bareRps);
      rounds.rest.push(restRps);
      rounds.mcp.push(mcpRps);
      rounds.restRatio.push(restRps / bareRps);
      rounds.mcpRatio.push(mcpRps / bareRps);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

    const questions = [
      'How do I install without dev dependencies?',
      'What does nestedKey do?',
      'How do I rotate log files?',
      'Which Node.js versions are supported?',
    ];
    let q = 0;
    const ragCall = () => send(agent, docent.port, 'POST', '/v1/tools/rag_query', auth, JSON.stringify({ question: questions[q++ % questions.length] }));
    await load(40, RAG_CONCURRENCY, ragCall);
    const rag = await load(RAG_REQUESTS, RAG_CONCURRENCY, ragCall);
    agent.destroy();

    return {
      node: process.version,
      requests_per_run: REQUESTS,
      concurrency: CONCURRENCY,
      rounds: ROUNDS,
      bare_rps_median: median(rounds.bare),
      rest_tool_call_rps_median: median(rounds.rest),
      rest_ratio_to_bare_median: median(rounds.restRatio),
      mcp_tool_call_rps_median: median(rounds.mcp),
      mcp_ratio_to_bare_median: median(rounds.mcpRatio),
      target: '>= 0.25 (aim 0.5)',
      target_met: median(rounds.restRatio) >= 0.25 && median(rounds.mcpRatio) >= 0.25,
      rag_query_requests: RAG_REQUESTS,
      rag_query_concurrency: RAG_CONCURRENCY,
      rag_query_rps: rag.rps,
      rag_query_p50_ms: rag.p50,
      rag_query_p95_ms: rag.p95,
      docent_peak_rss_mb: peakRssMb(docent.child.pid!),
    };
  } finally {
    for (const t of targets) t.child.kill('SIGTERM');
    await Promise.all(targets.map((t) => new Promise((resolve) => (t.child.exitCode !== null ? resolve(undefined) : t.child.once('exit', resolve)))));
    await rm(root, { recursive: true, force: true });
  }
}
