/**
 * An in-process HTTP app on 127.0.0.1:0 with a fresh data directory (real LanceDB) and workspace, plus
 * helpers to make keys and MCP clients against it.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { apiKeys } from '../../src/auth/keys.js';
import type { Plan } from '../../src/auth/types.js';
import { loadConfig } from '../../src/config.js';
import { createHttpApp, type HttpApp, type HttpAppOptions } from '../../src/http/app.js';
import { silentLogger } from '../../src/logging.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { rawRequest } from '../helpers/cli.js';
import { tempDir } from '../helpers/harness.js';

export interface TestApp {
  app: HttpApp;
  runtime: Runtime;
  url: string;
  baseUrl: string;
  root: string;
  key(tenant: string, plan?: Plan): Promise<string>;
  /** A connected MCP client on /mcp with this key (and extra headers). */
  mcp(
    key: string | undefined,
    options?: { headers?: Record<string, string>; capabilities?: ClientCapabilities },
  ): Promise<{ client: Client; transport: StreamableHTTPClientTransport }>;
  close(): Promise<void>;
}

export async function startApp(overrides: Record<string, unknown> = {}, options: HttpAppOptions = {}): Promise<TestApp> {
  const root = await tempDir('docent-http-');
  const config = loadConfig({
    env: {},
    overrides: { dataDir: path.join(root, 'data'), workspaceDir: path.join(root, 'agent_workspace'), 'http.port': 0, ...overrides },
    cwd: root,
  });
  const runtime = createRuntime(config, silentLogger());
  const app = createHttpApp(runtime, { shutdownGraceMs: 1000, ...options });
  const { url, baseUrl } = await app.listen();
  const clients: Client[] = [];
  return {
    app,
    runtime,
    url,
    baseUrl,
    root,
    async key(tenant, plan = 'free') {
      return (await (await apiKeys(runtime.services)).create({ tenant, plan })).key;
    },
    async mcp(key, opts = {}) {
      const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
        requestInit: { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...opts.headers } },
      });
      const client = new Client({ name: 'http-test', version: '1.0.0' }, { capabilities: opts.capabilities ?? {} });
      await client.connect(transport);
      clients.push(client);
      return { client, transport };
    },
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await app.close();
      await runtime.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

export const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** POST /v1/tools/:name on the app at `url`, with an optional key and headers; a string body is sent as is. */
export function restCall(url: string, name: string, body: unknown, key: string | undefined, headers: Record<string, string> = {}) {
  return rawRequest(`${url}/v1/tools/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
