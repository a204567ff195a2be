/**
 * `docent serve --http` as a real process, with keys made by `docent keys create --json` in another
 * process, and real SDK clients over streamable HTTP.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildManifest } from '../../src/catalog/manifest.js';
import { TOOLS } from '../../tools/index.js';
import { cleanEnv, rawRequest, runCli, startHttpServer, type RunningServer } from '../helpers/cli.js';
import { tempDir } from '../helpers/harness.js';

const PRESET_NAMES = ['general_task', 'rag_data_engineer', 'rust_backend_architect', 'security_auditor', 'data_analyst', 'growth_hacker', 'planner_executor'];
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

let root: string;
let env: Record<string, string>;
let server: RunningServer;
const keys: Record<string, { key: string; id: string; tenant: string; plan: string }> = {};
const clients: Client[] = [];

async function createKey(tenant: string, ...extra: string[]) {
  const result = await runCli(['keys', 'create', '--tenant', tenant, '--json', ...extra], { env, cwd: root });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { key: string; id: string; tenant: string; plan: string; label: string | null; created_at: string };
}

async function connect(url: string, key: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  const client = new Client({ name: 'integration', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

beforeAll(async () => {
  root = await tempDir('docent-http-int-');
  env = cleanEnv(root, { DOCENT_DATA_DIR: path.join(root, 'data') });
  const [a, b] = await Promise.all([createKey('acme', '--label', 'ci'), createKey('beta', '--plan', 'pro')]);
  keys.acme = a;
  keys.beta = b;
  expect(a).toEqual({
    key: expect.stringMatching(/^dk_[0-9a-f]{16}_/),
    id: expect.any(String),
    tenant: 'acme',
    plan: 'free',
    label: 'ci',
    created_at: expect.any(String),
  });
  expect(b.plan).toBe('pro');
  server = await startHttpServer([], { env, cwd: root });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  const code = await server?.stop();
  expect(code).toBe(0);
  await rm(root, { recursive: true, force: true });
});

describe('docent serve --http', () => {
  it('logs where it listens on stderr and keeps stdout empty', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.baseUrl).toBe(server.url);
  });

  it('serves MCP to a key holder: tools, prompts, a call, logging/setLevel', async () => {
    const { client } = await connect(server.url, keys.acme!.key);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    expect((await client.listPrompts()).prompts.map((p) => p.name).sort()).toEqual([...PRESET_NAMES].sort());
    const sum = await client.callTool({ name: 'calculator', arguments: { operation: 'add', a: 0.1, b: 0.2 } });
    expect((sum.structuredContent as { result: string }).result).toBe('0.3');

    expect(await client.setLoggingLevel('info')).toEqual({});
    const logged = new Promise<unknown>((resolve) => client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => resolve(n.params)));
    await client.callTool({ name: 'calculator', arguments: { operation: 'subtract', a: 1, b: 0.9 } });
    expect(await logged).toMatchObject({ level: 'info', logger: 'docent', data: { tool: 'calculator', ok: true } });
  });

  it('refuses a missing, wrong or revoked key with 401 JSON', async () => {
    const post = (headers: Record<string, string>) =>
      rawRequest(`${server.url}/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, ...headers },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        }),
      });
    const missing = await post({});
    expect([missing.status, missing.json().error.code]).toEqual([401, 'missing_api_key']);
    expect(missing.headers['content-type']).toMatch(/^application\/json/);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
    const wrong = await post({ authorization: `Bearer ${keys.acme!.key.slice(0, -2)}zz` });
    expect([wrong.status, wrong.json().error.code]).toEqual([401, 'invalid_api_key']);

    const doomed = await createKey('acme');
    const rest = () =>
      rawRequest(`${server.url}/v1/tools/calculator`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${doomed.key}` },
        body: JSON.stringify({ operation: 'add', a: 1, b: 1 }),
      });
    // A key created by another process while the server runs is accepted within a second (an unknown id
    // reloads the server's key snapshot at most once a second).
    await expect.poll(async () => (await rest()).status, { interval: 300 }).toBe(200);
    const revoked = await runCli(['keys', 'revoke', doomed.id], { env, cwd: root });
    expect([revoked.code, revoked.stdout]).toEqual([0, `Revoked API key ${doomed.id}.\n`]);
    // Revoked by another process: refused once the server's key snapshot is reloaded (KEY_SNAPSHOT_MS, 5 s).
    // (Polled every 0.3 s: the free plan allows 60 requests a minute.)
    await expect.poll(async () => (await rest()).status, { interval: 300 }).toBe(401);
    expect((await rest()).json().error.code).toBe('invalid_api_key');
    const listed = JSON.parse((await runCli(['keys', 'list', '--tenant', 'acme', '--json'], { env, cwd: root })).stdout) as {
      id: string;
      revoked_at: string | null;
      last_used_at: string | null;
    }[];
    expect(listed.find((k) => k.id === doomed.id)).toMatchObject({ revoked_at: expect.any(String), last_used_at: expect.any(String) });
    expect(JSON.stringify(listed)).not.toContain(doomed.key);
  });

  it('refuses a foreign Host or Origin with 403 (DNS rebinding)', async () => {
    const auth = { authorization: `Bearer ${keys.acme!.key}` };
    const host = await rawRequest(`${server.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...auth, host: 'evil.example.com' }, body: '{}' });
    expect([host.status, host.json().error.code]).toEqual([403, 'forbidden_host']);
    const origin = await rawRequest(`${server.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...auth, origin: 'http://evil.example.com' },
      body: '{}',
    });
    expect([origin.status, origin.json().error.code]).toEqual([403, 'forbidden_origin']);
    const rebound = await rawRequest(`${server.url}/healthz`, { headers: { host: `evil.example.com:${server.port}` } });
    expect(rebound.status).toBe(403);
    const local = await rawRequest(`${server.url}/healthz`, { headers: { host: `localhost:${server.port}`, origin: 'http://localhost:3000' } });
    expect(local.status).toBe(200);
  });

  it('publishes the manifest and health without a key; the manifest is `docent manifest` for this base URL', async () => {
    const health = await rawRequest(`${server.url}/healthz`);
    expect([health.status, health.json().status]).toEqual([200, 'ok']);
    const served = await rawRequest(`${server.url}/.well-known/agent-manifest.json`);
    expect(served.status).toBe(200);
    const printed = await runCli(['manifest', '--base-url', server.baseUrl], { env, cwd: root });
    expect(printed.code).toBe(0);
    expect(served.json()).toEqual(JSON.parse(printed.stdout));
    expect(served.json()).toEqual(buildManifest(server.baseUrl));
  });

  it('calls tools over REST: 200, 400 on bad arguments, 404 for an unknown tool', async () => {
    const call = (name: string, body: unknown) =>
      rawRequest(`${server.url}/v1/tools/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${keys.beta!.key}` },
        body: JSON.stringify(body),
      });
    const ok = await call('calculator', { operation: 'multiply', a: 1.1, b: 1.1 });
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({ ok: true, result: { result: '1.21' } });
    const bad = await call('calculator', { operation: 'add', a: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    const unknown = await call('teleport', {});
    expect([unknown.status, unknown.json().error.code]).toEqual([404, 'unknown_tool']);
  });

  it("refuses tenant B's key on tenant A's session", async () => {
    const { transport } = await connect(server.url, keys.acme!.key);
    const sessionId = transport.sessionId!;
    const list = (key: string) =>
      rawRequest(`${server.url}/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, authorization: `Bearer ${key}`, 'mcp-session-id': sessionId },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
    expect((await list(keys.beta!.key)).status).toBe(404);
    expect((await list(keys.acme!.key)).status).toBe(200);
  });
});

describe('what docent serve --http writes', () => {
  it('logs JSON to stderr with tenant and key id, never a key or an Authorization header; stdout stays empty', () => {
    const log = server.stderr();
    const lines = log
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = lines.filter((l) => l.msg === 'http request');
    expect(requests.length).toBeGreaterThan(10);
    expect(requests).toContainEqual(
      expect.objectContaining({ method: 'POST', path: '/v1/tools/calculator', status: 200, tenant: 'beta', keyId: keys.beta!.id }),
    );
    expect(requests).toContainEqual(expect.objectContaining({ method: 'POST', path: '/mcp', status: 401 }));
    for (const { key } of Object.values(keys)) {
      expect(log).not.toContain(key);
      expect(log).not.toContain(key.slice('dk_0123456789abcdef_'.length));
    }
    expect(log.toLowerCase()).not.toContain('bearer');
    expect(server.stdout()).toBe('');
  });
});

describe('docent serve --http variants', () => {
  it('--stateless serves MCP without sessions', async () => {
    const stateless = await startHttpServer(['--stateless'], { env, cwd: root });
    try {
      const { client, transport } = await connect(stateless.url, keys.acme!.key);
      expect(transport.sessionId).toBeUndefined();
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
      expect((await client.callTool({ name: 'calculator', arguments: { operation: 'divide', a: 1, b: 4 } })).structuredContent).toMatchObject({
        result: '0.25',
      });
      await client.close();
    } finally {
      expect(await stateless.stop()).toBe(0);
    }
  });

  it('--auth none serves open on loopback', async () => {
    const open = await startHttpServer(['--auth', 'none'], { env, cwd: root });
    try {
      const res = await rawRequest(`${open.url}/v1/tools/calculator`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ operation: 'add', a: 2, b: 2 }),
      });
      expect(res.status).toBe(200);
      expect(open.stderr()).toMatch(/authentication is off/);
    } finally {
      await open.stop();
    }
  });

  it('--auth none on a non-loopback host is refused at startup, naming the setting', async () => {
    const refused = await runCli(['serve', '--http', '--auth', 'none', '--host', '0.0.0.0', '--port', '0'], { env, cwd: root });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--auth none \(DOCENT_AUTH=none\)/);
    expect(refused.stderr).toMatch(/--host \(DOCENT_HOST\) is "0\.0\.0\.0"/);
    const viaEnv = await runCli(['serve', '--http', '--port', '0'], { env: { ...env, DOCENT_AUTH: 'none', DOCENT_HOST: '0.0.0.0' }, cwd: root });
    expect(viaEnv.code).toBe(2);
    expect(viaEnv.stderr).toMatch(/DOCENT_AUTH/);
  });
});

describe('docent keys', () => {
  it('validates its input and explains itself', async () => {
    const run = (...args: string[]) => runCli(['keys', ...args], { env, cwd: root });
    const [badPlan, badTenant, unknown, noAction, help, human] = await Promise.all([
      run('create', '--tenant', 'acme', '--plan', 'gold'),
      run('create', '--tenant', '../etc'),
      run('revoke', 'ffffffffffffffff'),
      run(),
      run('--help'),
      run('create', '--tenant', 'gamma'),
    ]);
    expect([badPlan.code, badPlan.stderr]).toEqual([2, expect.stringMatching(/--plan must be one of free, pro/)]);
    expect(badTenant.code).toBe(2);
    expect(badTenant.stderr).toMatch(/--tenant/);
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringMatching(/no API key with id "ffffffffffffffff"/)]);
    expect(noAction.code).toBe(2);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('docent keys create')]);
    expect(human.stdout).toMatch(/^Created API key [0-9a-f]{16} for tenant "gamma" \(plan free\):\n\n {2}dk_[0-9a-f]{16}_\S{43}\n\nStore it now/);
    const table = await runCli(['keys', 'list', '--tenant', 'gamma'], { env, cwd: root });
    const [head, row, ...more] = table.stdout.split('\n');
    expect(head).toMatch(/^ID\s+TENANT\s+PLAN\s+LABEL\s.*CREATED\s+LAST USED\s+STATUS$/);
    expect(row).toMatch(/^[0-9a-f]{16}\s+gamma\s+free\s.*\s+never\s+active$/);
    expect(more).toEqual(['']);
  });
});
