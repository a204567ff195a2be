/**
 * A cold start loads no heavy modules: `docent serve` (stdio) is traced with a module loader hook through
 * initialize and tools/list, and again through a tool call. LanceDB and `openai` must never load for these;
 * with a current build catalog, neither the tool modules nor the MCP SDK (its zod schemas, ajv) load before
 * the first other message: the stdio front answers (src/mcp/stdio-front.ts).
 */
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cleanEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/harness.js';

const TRACER = fileURLToPath(new URL('../helpers/module-trace.mjs', import.meta.url));
const HEAVY = [/node_modules\/@lancedb\//, /node_modules\/openai\//, /node_modules\/apache-arrow\//, /node_modules\/ioredis\//];
const SDK = /node_modules\/(@modelcontextprotocol\/sdk|ajv|zod-to-json-schema)\//;

let root: string;
beforeAll(async () => {
  root = await tempDir('docent-cold-');
});
afterAll(async () => rm(root, { recursive: true, force: true }));

/** Runs `docent serve` with the tracer through the given requests; returns the modules it loaded. */
async function traced(name: string, requests: object[]): Promise<string[]> {
  const trace = path.join(root, `${name}.trace`);
  const child = spawn(process.execPath, ['--import', TRACER, CLI, 'serve'], {
    env: cleanEnv(root, { DOCENT_DATA_DIR: path.join(root, 'data'), DOCENT_MODULE_TRACE: trace }),
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  const waiting = new Map<number, () => void>();
  let failed: (error: Error) => void = () => {};
  const failure = new Promise<never>((_, reject) => (failed = reject));
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    const lines = out.split('\n');
    out = lines.pop()!;
    for (const line of lines) {
      const message = JSON.parse(line) as { id?: number; error?: unknown };
      if (message.error) failed(new Error(line));
      if (typeof message.id === 'number') waiting.get(message.id)?.();
    }
  });
  child.once('exit', (code) => failed(new Error(`docent exited (${code}) before answering`)));
  for (const request of requests) {
    const id = (request as { id?: number }).id;
    const answer = id === undefined ? undefined : new Promise<void>((resolve) => waiting.set(id, resolve));
    child.stdin.write(`${JSON.stringify(request)}\n`);
    if (answer) await Promise.race([answer, failure]);
  }
  child.stdin.end();
  await new Promise((resolve) => child.once('close', resolve));
  return (await readFile(trace, 'utf8')).split('\n').filter(Boolean);
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'trace', version: '1' } },
};
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

describe('cold start', () => {
  it('initialize + tools/list load neither LanceDB nor openai (nor, with a current catalog, any tool module or the MCP SDK)', async () => {
    const modules = await traced('list', [initialize, initialized, list]);
    expect(modules.some((m) => m.includes('/dist/src/mcp/stdio-front.js'))).toBe(true);
    for (const heavy of HEAVY)
      expect(
        modules.filter((m) => heavy.test(m)),
        String(heavy),
      ).toEqual([]);
    const { prebuiltCatalog } = (await import(new URL('../../dist/src/mcp/catalog.js', import.meta.url).href)) as typeof import('../../src/mcp/catalog.js');
    if (prebuiltCatalog()) {
      expect(modules.filter((m) => m.includes('/dist/tools/'))).toEqual([]);
      expect(modules.filter((m) => SDK.test(m) || m.includes('/dist/src/mcp/server.js'))).toEqual([]);
    }
  });

  it('a tool call loads the tools, still without LanceDB or openai', async () => {
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'calculator', arguments: { operation: 'add', a: 1, b: 2 } } };
    const modules = await traced('call', [initialize, initialized, list, call]);
    expect(modules.some((m) => m.includes('/dist/tools/calculator.js'))).toBe(true);
    expect(modules.some((m) => m.includes('/dist/src/mcp/server.js'))).toBe(true);
    for (const heavy of HEAVY)
      expect(
        modules.filter((m) => heavy.test(m)),
        String(heavy),
      ).toEqual([]);
  });
});
