/**
 * The stdio front answers initialize / tools/list / ping as the SDK server would, and hands anything else to
 * it with the session replayed (the SDK's answer to the replayed initialize is not sent twice).
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRONT_PROTOCOL_VERSIONS, StdioFront, type Handover } from '../../src/mcp/stdio-front.js';
import { CLI, cleanEnv } from '../helpers/cli.js';
import { startHarness, tempDir, type Harness } from '../helpers/harness.js';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'front', version: '1' } },
};
const line = (m: object) => `${JSON.stringify(m)}\n`;

let h: Harness;
let root: string;
beforeAll(async () => {
  h = await startHarness();
  root = await tempDir('docent-front-');
});
afterAll(async () => {
  await h.close();
  await rm(root, { recursive: true, force: true });
});

/** The built server's answers (messages with an id), in order, to the given lines (stdin closed after the last one). */
async function exchange(lines: object[], answers: number): Promise<Record<string, unknown>[]> {
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: cleanEnv(root, { DOCENT_DATA_DIR: path.join(root, 'data') }),
    cwd: root,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let out = '';
  const got: Record<string, unknown>[] = [];
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      let i: number;
      while ((i = out.indexOf('\n')) >= 0) {
        const message = JSON.parse(out.slice(0, i)) as Record<string, unknown>;
        if (message.id !== undefined) got.push(message);
        out = out.slice(i + 1);
      }
      if (got.length >= answers) resolve();
    });
    for (const l of lines) child.stdin.write(line(l));
  });
  child.stdin.end();
  await new Promise((resolve) => child.once('close', resolve));
  return got;
}

describe('stdio front', () => {
  it('answers only protocol versions the SDK supports', () => {
    for (const version of FRONT_PROTOCOL_VERSIONS) expect(SUPPORTED_PROTOCOL_VERSIONS).toContain(version);
  });

  it('answers initialize, tools/list and ping exactly as the SDK server does', async () => {
    // By id: with a stale build catalog the SDK answers tools/list (handed over), and ping may come first.
    const answers = await exchange(
      [
        INIT,
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { jsonrpc: '2.0', id: 3, method: 'ping' },
      ],
      3,
    );
    const [init, list, ping] = [1, 2, 3].map((id) => answers.find((a) => a.id === id));
    expect(init).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        protocolVersion: '2025-06-18',
        capabilities: h.client.getServerCapabilities(),
        serverInfo: h.client.getServerVersion(),
        instructions: h.client.getInstructions(),
      },
    });
    expect(list).toEqual({ jsonrpc: '2.0', id: 2, result: JSON.parse(JSON.stringify(await h.client.listTools())) });
    expect(ping).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
  });

  it('hands a tools/call over to the SDK server, which answers it in the same session, and each id once', async () => {
    const answers = await exchange(
      [
        INIT,
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'calculator', arguments: { operation: 'add', a: 1, b: 2 } } },
        { jsonrpc: '2.0', id: 3, method: 'ping' },
      ],
      3,
    );
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3]);
    expect(JSON.stringify(answers.find((a) => a.id === 2))).toContain('1 + 2 = 3');
  });

  it('replays the session into the SDK side and drops only its second answer to initialize', () => {
    const written: string[] = [];
    let handed: Handover | undefined;
    const front = new StdioFront(
      (l) => written.push(l),
      (streams) => (handed = streams),
    );
    front.push(line(INIT) + line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect(handed).toBeUndefined();
    front.push(line({ jsonrpc: '2.0', id: 2, method: 'prompts/list' }) + '{"jsonrpc":"2.0","id":3,');
    front.push('"method":"ping"}\n');
    expect(handed).toBeDefined();
    const replayed = (handed!.input.read() as Buffer)
      .toString()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { method: string });
    expect(replayed.map((m) => m.method)).toEqual(['initialize', 'notifications/initialized', 'prompts/list', 'ping']);
    handed!.output.write(line({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18' } }));
    handed!.output.write(line({ jsonrpc: '2.0', id: 2, result: { prompts: [] } }));
    handed!.output.write(line({ jsonrpc: '2.0', id: 1, result: {} }));
    expect(written.map((l) => (JSON.parse(l) as { id: number }).id)).toEqual([1, 2, 1]);
  });

  it.each([
    ['an unknown protocol version', { ...INIT, params: { ...INIT.params, protocolVersion: '1999-01-01' } }],
    ['a clientInfo without a version', { ...INIT, params: { ...INIT.params, clientInfo: { name: 'x' } } }],
    ['a batch', [INIT]],
    ['a line that is not JSON', 'nope'],
  ])('hands over %s rather than answer it', (_what, message) => {
    let handed = false;
    const front = new StdioFront(
      () => undefined,
      () => (handed = true),
    );
    front.push(typeof message === 'string' ? `${message}\n` : line(message));
    expect(handed).toBe(true);
  });
});
