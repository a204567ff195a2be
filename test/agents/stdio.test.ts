/**
 * spawn_sub_agent in `docent serve` over stdio, configured only through the environment, as an agent host
 * runs it: once with DOCENT_LLM_* pointing at the local chat fixture, once with no endpoint and a client
 * that answers sampling requests.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubAgentResult } from '../../src/agents/result.js';
import { CLI, cleanEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/harness.js';
import { startLlmFixture, type LlmFixture } from './llm-fixture.js';

let root: string;
let llm: LlmFixture;
const open: Client[] = [];

async function serve(extraEnv: Record<string, string>, capabilities = {}): Promise<{ client: Client; stderr: () => string }> {
  let stderr = '';
  const env = cleanEnv(root, { DOCENT_DATA_DIR: path.join(root, 'data'), DOCENT_WORKSPACE_DIR: path.join(root, 'ws'), ...extraEnv });
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve'], env, cwd: root, stderr: 'pipe' });
  transport.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const client = new Client({ name: 'stdio-agents-test', version: '1.0.0' }, { capabilities });
  await client.connect(transport);
  open.push(client);
  return { client, stderr: () => stderr };
}

beforeAll(async () => {
  root = await tempDir('docent-agents-stdio-');
  llm = await startLlmFixture();
});
afterAll(async () => {
  for (const client of open) await client.close();
  await llm.close();
  await rm(root, { recursive: true, force: true });
});

describe('spawn_sub_agent over stdio', () => {
  it('uses the endpoint named by DOCENT_LLM_BASE_URL / DOCENT_LLM_MODEL with DOCENT_LLM_API_KEY, and never logs the key', async () => {
    const { client, stderr } = await serve({
      DOCENT_LLM_BASE_URL: llm.baseUrl,
      DOCENT_LLM_MODEL: 'llama3.1',
      DOCENT_LLM_API_KEY: 'sk-fixture-secret',
      DOCENT_LOG_LEVEL: 'debug',
    });
    llm.script([{ toolCalls: [{ name: 'calculator', arguments: { operation: 'add', a: 0.1, b: 0.2 } }] }, { content: '0.1 plus 0.2 is exactly 0.3.' }]);
    const result = await client.callTool({ name: 'spawn_sub_agent', arguments: { prompt: 'Add 0.1 and 0.2 exactly.' } });
    const value = result.structuredContent as SubAgentResult;
    expect(value).toMatchObject({
      answer: '0.1 plus 0.2 is exactly 0.3.',
      verdict: 'verified',
      model: { source: 'endpoint', label: `llama3.1 at ${llm.baseUrl}` },
    });
    expect(llm.server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer sk-fixture-secret', 'Bearer sk-fixture-secret']);
    expect(llm.bodies.map((b) => b.model)).toEqual(['llama3.1', 'llama3.1']);
    // Logs are written asynchronously: wait for the line, then check that nothing logged holds the key.
    await expect.poll(() => stderr()).toMatch(/sub-agent finished/);
    expect(stderr()).not.toMatch(/sk-fixture-secret/);
  });

  it("asks the client's model through sampling when no endpoint is configured", async () => {
    const { client } = await serve({}, { sampling: {} });
    const replies = [
      '{"tool_calls": [{"name": "datetime", "arguments": {"action": "diff", "from": "2024-01-01T00:00:00Z", "to": "2024-03-01T00:00:00Z", "unit": "days"}}]}',
      'There are 60 days between 2024-01-01 and 2024-03-01.',
    ];
    const asked: string[] = [];
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      asked.push(request.params.systemPrompt ?? '');
      return { model: 'host-model', role: 'assistant', content: { type: 'text', text: replies.shift() ?? 'no more' } };
    });
    const result = await client.callTool({ name: 'spawn_sub_agent', arguments: { prompt: 'How many days from 2024-01-01 to 2024-03-01?' } });
    const value = result.structuredContent as SubAgentResult;
    expect(value.steps).toMatchObject([{ tool: 'datetime', outcome: 'ok' }]);
    expect(value).toMatchObject({ verdict: 'verified', model: { source: 'sampling', tool_calling: 'json' } });
    expect(asked).toHaveLength(2);
  });
});
