/**
 * datetime and file_operations as an agent host runs them: the built CLI over stdio, started in a temporary
 * working directory, so the default workspace (./agent_workspace under the server's cwd) and agent mode from
 * the environment are the real ones.
 */
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, textOf } from '../helpers/harness.js';

const CLI = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

async function serve(root: string, extraEnv: Record<string, string>): Promise<Client> {
  // Only what the server needs: no agent variables leak in from the shell running the tests.
  const env = { PATH: process.env.PATH ?? '', HOME: root, DOCENT_DATA_DIR: path.join(root, 'data'), DOCENT_LOG_LEVEL: 'warn', ...extraEnv };
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve'], env, cwd: root, stderr: 'ignore' });
  const client = new Client({ name: 'local-tools-stdio', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

let root: string;
let agent: Client;
let person: Client;

beforeAll(async () => {
  root = await tempDir('docent-local-tools-');
  [agent, person] = await Promise.all([serve(root, { CLAUDE_CODE: '1' }), serve(root, { DOCENT_CONFIRM_SAFE_OPS: 'outside_agent_mode' })]);
});

afterAll(async () => {
  await Promise.all([agent?.close(), person?.close()]);
  await rm(root, { recursive: true, force: true });
});

describe('local tools over stdio', () => {
  it('datetime parses and formats', async () => {
    const result = await agent.callTool({
      name: 'datetime',
      arguments: { action: 'format', value: '2024-02-29T23:30:00Z', format: '%A %F %H:%M %z', tz_offset_minutes: 60 },
    });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { formatted: string }).formatted).toBe('Friday 2024-03-01 00:30 +0100');
  });

  it('writes into ./agent_workspace under the server working directory, created on first use', async () => {
    expect(existsSync(path.join(root, 'agent_workspace'))).toBe(false);
    const result = await agent.callTool({ name: 'file_operations', arguments: { operation: 'write', path: 'notes/a.md', content: 'hello' } });
    expect(result.isError).toBeFalsy();
    expect(await readFile(path.join(root, 'agent_workspace', 'notes', 'a.md'), 'utf8')).toBe('hello');
  });

  it('needs a confirmation token to delete, even for an agent (CLAUDE_CODE=1)', async () => {
    const args = { operation: 'delete', path: 'notes/a.md' };
    const first = await agent.callTool({ name: 'file_operations', arguments: args });
    expect(first.isError).toBe(true);
    const token = /"confirmation_token": "([^"]+)"/.exec(textOf(first))![1]!;
    expect(existsSync(path.join(root, 'agent_workspace', 'notes', 'a.md'))).toBe(true);
    const second = await agent.callTool({ name: 'file_operations', arguments: { ...args, confirmation_token: token } });
    expect(second.isError).toBeFalsy();
    expect(existsSync(path.join(root, 'agent_workspace', 'notes', 'a.md'))).toBe(false);
  });

  it('asks before a write outside agent mode when DOCENT_CONFIRM_SAFE_OPS=outside_agent_mode', async () => {
    const result = await person.callTool({ name: 'file_operations', arguments: { operation: 'write', path: 'b.md', content: 'x' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Confirmation required .*Create b.md \(1 byte\)/);
    expect(existsSync(path.join(root, 'agent_workspace', 'b.md'))).toBe(false);
  });

  it('refuses an escape over the real transport too', async () => {
    const result = await agent.callTool({ name: 'file_operations', arguments: { operation: 'read', path: '../data' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/leads outside the workspace/);
  });
});
