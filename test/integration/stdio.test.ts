/**
 * `docent serve` over stdio, as an agent host runs it: the built CLI in its own process, a real SDK client
 * on StdioClientTransport, a temporary data directory.
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPreset } from '../../presets/index.js';
import { buildManifest } from '../../src/catalog/manifest.js';
import { annotationsOf } from '../../src/catalog/schema.js';
import { TOOLS } from '../../tools/index.js';
import { CLI, cleanEnv } from '../helpers/cli.js';
import { tempDir, textOf } from '../helpers/harness.js';

const PRESET_NAMES = ['general_task', 'rag_data_engineer', 'rust_backend_architect', 'security_auditor', 'data_analyst', 'growth_hacker', 'planner_executor'];

let root: string;
let env: Record<string, string>;
let client: Client;
let transport: StdioClientTransport;
let stderr = '';
const transportErrors: Error[] = [];

beforeAll(async () => {
  root = await tempDir('docent-stdio-');
  env = cleanEnv(root, { DOCENT_DATA_DIR: path.join(root, 'data') });
  transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve'], env, cwd: root, stderr: 'pipe' });
  transport.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  client = new Client({ name: 'stdio-test', version: '1.0.0' });
  client.onerror = (error) => transportErrors.push(error);
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await rm(root, { recursive: true, force: true });
});

describe('docent serve (stdio)', () => {
  it('lists exactly the registered tools, with the manifest schemas and annotations of each definition', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    const manifest = buildManifest('http://127.0.0.1:8787');
    for (const tool of TOOLS) {
      const listed = tools.find((t) => t.name === tool.name)!;
      expect(listed.inputSchema, tool.name).toEqual(manifest.tools.find((t) => t.name === tool.name)!.input_schema);
      expect(listed.annotations, tool.name).toEqual(annotationsOf(tool));
      expect(listed.description).toBe(tool.description);
    }
  });

  it('lists exactly the seven presets as prompts and renders one with a task', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual([...PRESET_NAMES].sort());
    const prompt = await client.getPrompt({ name: 'security_auditor', arguments: { task: 'Review the login handler' } });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text.startsWith(findPreset('security_auditor')!.instructions)).toBe(true);
    expect(text).toContain('Task: Review the login handler');
    await expect(client.getPrompt({ name: 'no_such_preset' })).rejects.toThrow(/Unknown prompt/);
  });

  it('calls calculator exactly', async () => {
    const result = await client.callTool({ name: 'calculator', arguments: { operation: 'add', a: 0.1, b: 0.2 } });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { result: string }).result).toBe('0.3');
  });

  it('answers an unknown tool with a protocol error and malformed arguments with isError', async () => {
    const unknown = client.callTool({ name: 'no_such_tool', arguments: {} });
    await expect(unknown).rejects.toBeInstanceOf(McpError);
    await expect(unknown).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    const bad = await client.callTool({ name: 'calculator', arguments: { operation: 'add', a: 'one', b: 2 } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/Invalid arguments for calculator: `a`/);
  });

  it('kept stdout to protocol (no transport errors) and logged to stderr', async () => {
    expect(transportErrors).toEqual([]);
    const messages = () =>
      stderr
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { msg: string }).msg);
    await expect.poll(messages).toContain('docent MCP server on stdio');
  });
});

describe('stdout of docent serve', () => {
  it('carries nothing but JSON-RPC messages, while logs go to stderr', async () => {
    const child = spawn(process.execPath, [CLI, 'serve'], { env: { ...env, DOCENT_LOG_LEVEL: 'debug' }, cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    // Wait for each answer by id, so the conversation is in order.
    const answered = (id: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (out.split('\n').some((l) => l.startsWith('{') && (JSON.parse(l) as { id?: number }).id === id)) {
            child.stdout.off('data', check);
            resolve();
          }
        };
        child.stdout.on('data', check);
        check();
      });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await answered(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'calculator', arguments: { operation: 'divide', a: 1, b: 0 } } });
    await answered(2);
    send({ jsonrpc: '2.0', id: 3, method: 'no/such/method' });
    await answered(3);
    // A line over the size limit (9 MiB) is answered with an error for its id, and the session goes on.
    send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'calculator', arguments: { operation: 'add', a: 1, b: 2, pad: 'x'.repeat(9 * 1024 * 1024) } },
    });
    await answered(4);
    send({ jsonrpc: '2.0', id: 5, method: 'ping' });
    await answered(5);
    child.stdin.end();
    await new Promise((resolve) => child.once('close', resolve));

    const lines = out.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) expect((JSON.parse(line) as { jsonrpc: string }).jsonrpc).toBe('2.0');
    const byId = new Map(lines.map((l) => JSON.parse(l) as { id?: number; error?: { code: number } }).map((m) => [m.id, m]));
    expect(byId.get(3)!.error!.code).toBe(ErrorCode.MethodNotFound);
    expect(byId.get(4)!.error).toMatchObject({
      code: ErrorCode.InvalidRequest,
      message: expect.stringMatching(/^Message too large: \d+ bytes, the most one JSON-RPC message on stdio may be is 8388608 bytes/),
    });
    expect(byId.get(5)).toMatchObject({ result: {} });
    expect(err).toMatch(/"msg":"docent MCP server on stdio"/);
    expect(err).toMatch(/Division by zero/);
  });
});
