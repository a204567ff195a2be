/** An in-process docent HTTP app on 127.0.0.1:0 over a given data directory, with helpers for REST tool calls. */
import path from 'node:path';
import { apiKeys } from '../../src/auth/keys.js';
import type { Plan } from '../../src/auth/types.js';
import { loadConfig } from '../../src/config.js';
import { createHttpApp, type HttpApp, type HttpAppOptions } from '../../src/http/app.js';
import { silentLogger } from '../../src/logging.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';

export interface App {
  app: HttpApp;
  runtime: Runtime;
  url: string;
  key(tenant: string, plan?: Plan): Promise<string>;
  /** POST /v1/tools/:name with a key; returns status, headers and the JSON body. */
  tool(key: string, name: string, args: Record<string, unknown>): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

export async function startApp(dataDir: string, overrides: Record<string, unknown> = {}, options: HttpAppOptions = {}): Promise<App> {
  const config = loadConfig({
    env: {},
    overrides: { dataDir, workspaceDir: path.join(dataDir, '..', 'agent_workspace'), 'http.port': 0, ...overrides },
    cwd: dataDir,
  });
  const runtime = createRuntime(config, silentLogger());
  const app = createHttpApp(runtime, { shutdownGraceMs: 1000, ...options });
  const { url } = await app.listen();
  return {
    app,
    runtime,
    url,
    async key(tenant, plan = 'free') {
      return (await (await apiKeys(runtime.services)).create({ tenant, plan })).key;
    },
    async tool(key, name, args) {
      const response = await fetch(`${url}/v1/tools/${name}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(args),
      });
      return { status: response.status, headers: response.headers, body: await response.json() };
    },
    async close() {
      await app.close();
      await runtime.close();
    },
  };
}
