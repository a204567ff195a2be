/**
 * Test harness: a real MCP client connected to a real docent server over the SDK's in-memory transport,
 * with a fresh data directory (real LanceDB on disk) and workspace per harness.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { loadConfig, type Config } from '../../src/config.js';
import { silentLogger } from '../../src/logging.js';
import { createMcpServer, type CallerIdentity } from '../../src/mcp/server.js';
import { Services } from '../../src/services.js';

export async function tempDir(prefix = 'docent-test-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

export interface HarnessOptions {
  /** Config overrides by setting path, e.g. { 'policy.paidCallBudget': 1 }. */
  overrides?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  identity?: Partial<CallerIdentity>;
  capabilities?: ClientCapabilities;
  /** Let the server send elicitation/sampling requests to the client. */
  serverRequests?: boolean;
}

export interface Harness {
  client: Client;
  config: Config;
  services: Services;
  root: string;
  /** Calls a tool and returns the raw MCP result. */
  call(name: string, args?: Record<string, unknown>): Promise<Awaited<ReturnType<Client['callTool']>>>;
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const root = await tempDir();
  const config = loadConfig({
    env: options.env ?? {},
    overrides: {
      dataDir: path.join(root, 'data'),
      workspaceDir: path.join(root, 'agent_workspace'),
      ...options.overrides,
    },
    cwd: root,
  });
  const logger = silentLogger();
  const services = new Services(config, logger);
  const server = createMcpServer({
    config,
    services,
    logger,
    transport: 'inproc',
    serverRequests: options.serverRequests ?? true,
    identify: () => ({ tenant: config.tenant, tenantBound: false, agentMode: config.policy.agentEnv, ...options.identity }),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'docent-test', version: '1.0.0' }, { capabilities: options.capabilities ?? {} });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    config,
    services,
    root,
    call: (name, args = {}) => client.callTool({ name, arguments: args }),
    async close() {
      await client.close();
      await server.close();
      await services.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** The text of a tool result's first content block. */
export function textOf(result: { content?: unknown }): string {
  const content = result.content as { type: string; text?: string }[] | undefined;
  return content?.find((c) => c.type === 'text')?.text ?? '';
}
