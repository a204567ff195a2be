/**
 * Cold start, as an agent host runs a stdio server: spawn it, `initialize`, `tools/list`, close (through
 * the MCP SDK client: stdin is closed and the process awaited). docent (`docent serve`, fresh data
 * directory) against the reference MCP filesystem server (@modelcontextprotocol/server-filesystem on a
 * temporary directory), both on this Node, runs alternating which goes first after warm-ups, so machine
 * noise hits both alike. `ready` is spawn → tools/list answered; `session` is spawn → closed (process gone).
 * The target: docent's whole-session median at most 0.9× the reference's.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { prebuiltCatalog } from '../../src/mcp/catalog.js';

export const name = 'cold-start';

const RUNS = Number(process.env.BENCH_COLD_START_RUNS ?? 15);
const WARMUPS = 2;

interface Timing {
  ready: number;
  session: number;
  tools: number;
}

/** One whole session with `node <args>` through the SDK's stdio client, as an agent host would run it. */
async function coldStart(args: string[], env: Record<string, string>, cwd: string): Promise<Timing> {
  const started = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args, env, cwd, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const ready = performance.now() - started;
  await client.close();
  return { ready, session: performance.now() - started, tools: tools.length };
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
    const env = { PATH: process.env.PATH ?? '', HOME: root, DOCENT_DATA_DIR: path.join(root, 'data'), DOCENT_LOG_LEVEL: 'info' };
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
    const stat = (subject: keyof typeof subjects, key: 'ready' | 'session') => samples[subject].map((t) => t[key]);
    const median = (subject: keyof typeof subjects, key: 'ready' | 'session') => quantile(stat(subject, key), 0.5);
    return {
      node: process.version,
      docent_catalog: catalogBefore && prebuiltCatalog() !== undefined ? 'prebuilt' : 'stale during the run (run `npm run build`)',
      runs: RUNS,
      docent_tools: samples.docent[0]!.tools,
      reference_tools: samples.reference[0]!.tools,
      docent_ready_median_ms: median('docent', 'ready'),
      reference_ready_median_ms: median('reference', 'ready'),
      ready_ratio_docent_over_reference: median('docent', 'ready') / median('reference', 'ready'),
      docent_session_median_ms: median('docent', 'session'),
      docent_session_p90_ms: quantile(stat('docent', 'session'), 0.9),
      reference_session_median_ms: median('reference', 'session'),
      reference_session_p90_ms: quantile(stat('reference', 'session'), 0.9),
      session_ratio_docent_over_reference: median('docent', 'session') / median('reference', 'session'),
      target: '<= 0.9',
      target_met: median('docent', 'session') / median('reference', 'session') <= 0.9,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
