/**
 * `docent serve` over stdio, the transport agent hosts launch. stdout carries only protocol messages; the
 * tenant is DOCENT_TENANT and agent mode comes from the environment.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Runtime } from '../runtime.js';
import { LineLimit, MAX_STDIO_MESSAGE_BYTES } from './line-limit.js';
import { createMcpServer } from './server.js';

/** How long after connecting the startup line is written (see `announce`). */
const STARTUP_LOG_DELAY_MS = 200;

export async function serveStdio(runtime: Runtime): Promise<void> {
  const { config, logger, services } = runtime;
  const server = createMcpServer({
    config,
    services,
    logger,
    transport: 'stdio',
    serverRequests: true,
    identify: () => ({ tenant: config.tenant, tenantBound: false, agentMode: config.policy.agentEnv }),
  });
  // Oversized lines are answered with an error and dropped before the SDK's read buffer sees them.
  const input = process.stdin.pipe(
    new LineLimit(MAX_STDIO_MESSAGE_BYTES, (bytes, id) => {
      logger.warn({ bytes, id }, 'stdio message over the size limit; refused');
      const message = `Message too large: ${bytes} bytes, the most one JSON-RPC message on stdio may be is ${MAX_STDIO_MESSAGE_BYTES} bytes. Send less (split the work, or pass large content by reference).`;
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message } })}\n`);
    }),
  );
  const transport = new StdioServerTransport(input as unknown as typeof process.stdin);
  // The startup line is written shortly after connecting, or at shutdown if that comes first: the logger
  // (pino) loads on first use, and the host's first requests (initialize, tools/list) should not wait for it.
  let announced = false;
  const announce = () => {
    if (announced) return;
    announced = true;
    logger.info({ tenant: config.tenant, agentMode: config.policy.agentEnv, dataDir: config.dataDir }, 'docent MCP server on stdio');
  };
  let closing = false;
  const shutdown = async (why: string) => {
    if (closing) return;
    closing = true;
    announce();
    logger.info({ why }, 'shutting down');
    await server.close().catch(() => undefined);
    await runtime.close().catch(() => undefined);
    process.exit(0);
  };
  process.stdin.on('end', () => void shutdown('stdin closed'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await server.connect(transport);
  setTimeout(announce, STARTUP_LOG_DELAY_MS);
}
