/** Streamable HTTP MCP at /mcp (sessions or stateless; see src/http/mcp-endpoint.ts). */
import type { Runtime } from '../../runtime.js';
import { closeMcpEndpoint, mcpEndpoint } from '../mcp-endpoint.js';
import type { Route } from '../route.js';

export const routes: Route[] = [
  { method: 'POST', path: '/mcp', auth: 'key', body: 'json', raw: true, handle: (ctx) => mcpEndpoint(ctx.runtime).post(ctx) },
  { method: 'GET', path: '/mcp', auth: 'key', raw: true, handle: (ctx) => mcpEndpoint(ctx.runtime).get(ctx) },
  { method: 'DELETE', path: '/mcp', auth: 'key', raw: true, handle: (ctx) => mcpEndpoint(ctx.runtime).delete(ctx) },
];

export function close(runtime: Runtime): Promise<void> {
  return closeMcpEndpoint(runtime);
}
