/**
 * Attack: one API key reads, overwrites, lists or deletes another tenant's workspace files over HTTP (REST and
 * MCP). Each tenant has its own `agent_workspace/tenant-<tenant>/`; every attempt below must find nothing of the other's.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDataDir } from '../tenants/helpers.js';
import { startApp, type App } from '../tenants/http-app.js';

let data: Awaited<ReturnType<typeof sharedDataDir>>;
let app: App;
let keyA: string;
let keyB: string;
const SECRET = 'globex secret plan';

beforeAll(async () => {
  data = await sharedDataDir();
  app = await startApp(`${data.dir}/data`, {
    'limits.free.requestsPerMinute': 0,
    'limits.free.requestsPerMonth': 0,
    'policy.confirmation': 'never',
  });
  keyA = await app.key('acme');
  keyB = await app.key('globex');
  const written = await app.tool(keyB, 'file_operations', { operation: 'write', path: 'notes.md', content: SECRET });
  expect(written.status).toBe(200);
  expect((await app.tool(keyB, 'file_operations', { operation: 'write', path: 'globex-only.md', content: SECRET })).status).toBe(200);
});
afterAll(async () => {
  await app?.close();
  await data?.remove();
});

describe('per-tenant workspaces over HTTP', () => {
  it("stores each tenant's files under agent_workspace/tenant-<tenant>/", async () => {
    const workspace = app.runtime.config.workspaceDir;
    expect(await readFile(path.join(workspace, 'tenant-globex', 'notes.md'), 'utf8')).toBe(SECRET);
  });

  it("refuses 0 of 30+ cross-tenant attempts: nothing of B is read, listed, replaced or deleted through A's key", async () => {
    const attempts: [string, Record<string, unknown>][] = [];
    for (const p of [
      'notes.md',
      './notes.md',
      'x/../notes.md',
      '../globex/notes.md',
      '../tenant-globex/notes.md',
      '../../globex/notes.md',
      '..\\tenant-globex\\notes.md',
      '/notes.md',
      '%2e%2e/globex/notes.md',
    ]) {
      attempts.push(['read', { operation: 'read', path: p }]);
      attempts.push(['list', { operation: 'list', path: p.replace(/notes\.md$/, '') || undefined }]);
      attempts.push(['delete', { operation: 'delete', path: p }]);
      attempts.push(['write', { operation: 'write', path: p, content: 'acme overwrote this' }]);
    }
    attempts.push(['list', { operation: 'list', recursive: true }]);
    attempts.push(['list', { operation: 'list', path: '..', recursive: true }]);
    expect(attempts.length).toBeGreaterThanOrEqual(30);
    let leaked = 0;
    for (const [, args] of attempts) {
      const response = await app.tool(keyA, 'file_operations', args);
      if (JSON.stringify(response.body).includes(SECRET)) leaked += 1;
    }
    expect(leaked).toBe(0);
    const still = await app.tool(keyB, 'file_operations', { operation: 'read', path: 'notes.md' });
    expect(still.status).toBe(200);
    expect(JSON.stringify(still.body)).toContain(SECRET);
    expect(await readFile(path.join(app.runtime.config.workspaceDir, 'tenant-globex', 'notes.md'), 'utf8')).toBe(SECRET);
  });

  it("keeps MCP over HTTP in the caller's own workspace too", async () => {
    const client = new Client({ name: 'attacker', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${keyA}` } } }));
    try {
      const read = await client.callTool({ name: 'file_operations', arguments: { operation: 'read', path: 'globex-only.md' } });
      expect(read.isError).toBe(true);
      expect(JSON.stringify(read.content)).not.toContain(SECRET);
      const list = await client.callTool({ name: 'file_operations', arguments: { operation: 'list', recursive: true } });
      expect(JSON.stringify(list)).not.toContain('globex-only.md');
    } finally {
      await client.close();
    }
  });
});
