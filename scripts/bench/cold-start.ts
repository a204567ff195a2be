/**
 * Cold start: spawn an MCP server over stdio, `initialize`, `tools/list`, close stdin, wait for exit.
 * docent (`docent serve`, fresh data directory) against the reference MCP filesystem server
 * (@modelcontextprotocol/server-filesystem on a temporary directory), both on this Node, with runs
 * interleaved (alternating which goes first) after warm-ups, so machine noise hits both alike.
 * `ready` is spawn → tools/list answered; `exit` is spawn → process gone. The target: docent's
 * median is no slower than the reference's.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { prebuiltCatalog } from '../../src/mcp/catalog.js';

export const name = 'cold-start';

const RUNS = Number(process.env.BENCH_COLD_START_RUNS ?? 15);
const WARMUPS = 2;

interface Timing {
  ready: number;
  exit: number;
  tools: number;
}

/** One cold start of `node <args>`, speaking raw JSON-RPC lines so both servers see the same client. */
function coldStart(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, cwd, stdio: ['pipe', 'pipe', 'ignore'] });
    let buffer = '';
    let ready = 0;
    let tools = 0;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no answer within 20 s from node ${args.join(' ')}`));
    }, 20_000);
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const message = JSON.parse(line) as { id?: number; result?: { tools?: unknown[] } };
        if (message.id === 1) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        } else if (message.id === 2) {
          ready = performance.now() - started;
          tools = message.result?.tools?.length ?? 0;
          child.stdin.end();
        }
      }
    });
    child.once('error', reject);
    child.once('close', () => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`node ${args.join(' ')} exited before answering tools/list`));
      else resolve({ ready, exit: performance.now() - started, tools });
    });
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
  });
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = (sorted.length - 1) * q;
  const low = Math.floor(index);
  const high = Math.ceil(index);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (index - low);
}

export async function run(): Promise<Record<string, unknown>> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'docent-bench-'));
  try {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const cli = path.resolve(here, '../../src/cli/main.js');
    const reference = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
    const env = { PATH: process.env.PATH, HOME: root, DOCENT_DATA_DIR: path.join(root, 'data'), DOCENT_LOG_LEVEL: 'info' };
    const subjects = {
      docent: () => coldStart([cli, 'serve'], env, root),
      reference: () => coldStart([reference, root], env, root),
    };
    // A catalog older than the compiled tools (tsc ran after the build) makes docent derive tools/list from
    // the tool modules: correct, but not the cold start a built install has. Report it with the figures.
    const catalogBefore = prebuiltCatalog() !== undefined;
    const samples: Record<keyof typeof subjects, Timing[]> = { docent: [], reference: [] };
    for (let i = 0; i < WARMUPS + RUNS; i++) {
      const order = (i % 2 === 0 ? ['docent', 'reference'] : ['reference', 'docent']) as (keyof typeof subjects)[];
      for (const subject of order) {
        const timing = await subjects[subject]();
        if (i >= WARMUPS) samples[subject].push(timing);
      }
    }
    const stat = (subject: keyof typeof subjects, key: 'ready' | 'exit') => samples[subject].map((t) => t[key]);
    const docentMedian = quantile(stat('docent', 'ready'), 0.5);
    const referenceMedian = quantile(stat('reference', 'ready'), 0.5);
    return {
      node: process.version,
      docent_catalog: catalogBefore && prebuiltCatalog() !== undefined ? 'prebuilt' : 'stale during the run (run `npm run build`)',
      runs: RUNS,
      docent_tools: samples.docent[0]!.tools,
      reference_tools: samples.reference[0]!.tools,
      docent_ready_median_ms: docentMedian,
      docent_ready_p90_ms: quantile(stat('docent', 'ready'), 0.9),
      reference_ready_median_ms: referenceMedian,
      reference_ready_p90_ms: quantile(stat('reference', 'ready'), 0.9),
      docent_exit_median_ms: quantile(stat('docent', 'exit'), 0.5),
      reference_exit_median_ms: quantile(stat('reference', 'exit'), 0.5),
      ready_ratio_docent_over_reference: docentMedian / referenceMedian,
      target_met: docentMedian <= referenceMedian,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
