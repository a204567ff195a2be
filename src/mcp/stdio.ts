/**
 * `docent serve` over stdio, the transport agent hosts launch. stdout carries only protocol messages; the
 * tenant is DOCENT_TENANT and agent mode comes from the environment.
 *
 * The opening messages (initialize, tools/list, ping) are answered by the stdio front without loading the
 * MCP SDK; the SDK server takes the session over at the first other message (see stdio-front.ts).
 */
import { infoAtExit } from '../logging.js';
import type { Runtime } from '../runtime.js';
import { LineLimit, MAX_STDIO_MESSAGE_BYTES } from './line-limit.js';
import { StdioFront, type Handover } from './stdio-front.js';

/** How long after starting the startup line is written (see `announce`). */
const STARTUP_LOG_DELAY_MS = 200;

/** Starts the SDK server on a handed-over session; resolves to what closes it. */
async function startSdkServer(runtime: Runtime, { input, output }: Handover): Promise<{ close(): Promise<void> }> {
  const { config, logger, services } = runtime;
  const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([import('@modelcontextprotocol/sdk/server/stdio.js'), import('./server.js')]);
  const server = createMcpServer({
    config,
    services,
    logger,
    transport: 'stdio',
    serverRequests: true,
    identify: () => ({ tenant: config.tenant, tenantBound: false, agentMode: config.policy.agentEnv }),
  });
  await server.connect(new StdioServerTransport(input as unknown as typeof process.stdin, output as unknown as typeof process.stdout));
  return server;
}

export async function serveStdio(runtime: Runtime): Promise<void> {
  const { config, logger } = runtime;
  const write = (line: string) => void process.stdout.write(line);
  let sdk: Promise<{ close(): Promise<void> }> | undefined;
  const front = new StdioFront(write, (streams) => {
    sdk = startSdkServer(runtime, streams);
    sdk.catch((error: unknown) => {
      logger.error({ err: error }, 'the MCP server failed to start');
      void shutdown('startup failed', 1);
    });
  });
  // Oversized lines are answered with an error and dropped before anything parses them.
  const input = process.stdin.pipe(
    new LineLimit(MAX_STDIO_MESSAGE_BYTES, (bytes, id) => {
      logger.warn({ bytes, id }, 'stdio message over the size limit; refused');
      const message = `Message too large: ${bytes} bytes, the most one JSON-RPC message on stdio may be is ${MAX_STDIO_MESSAGE_BYTES} bytes. Send less (split the work, or pass large content by reference).`;
      write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message } })}\n`);
    }),
  );
  input.on('data', (chunk: Buffer) => front.push(chunk));
  // The startup line is written shortly after starting, or at shutdown if that comes first: the logger
  // (pino) loads on first use, and the host's first requests (initialize, tools/list) should not wait for it.
  let announced = false;
  const announce = (log = (fields: Record<string, string | boolean>, msg: string) => logger.info(fields, msg)) => {
    if (announced) return;
    announced = true;
    log({ tenant: config.tenant, agentMode: config.policy.agentEnv, dataDir: config.dataDir }, 'docent MCP server on stdio');
  };
  let closing = false;
  const shutdown = async (why: string, code = 0) => {
    if (closing) return;
    closing = true;
    // Without loading the logger when nothing loaded it yet (see infoAtExit).
    const log = (fields: Record<string, string | boolean>, msg: string) => infoAtExit(logger, fields, msg);
    announce(log);
    log({ why }, 'shutting down');
    front.end();
    if (sdk) await (await sdk.catch(() => undefined))?.close().catch(() => undefined);
    await runtime.close().catch(() => undefined);
    process.exit(code);
  };
  process.stdin.on('end', () => void shutdown('stdin closed'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  setTimeout(() => announce(), STARTUP_LOG_DELAY_MS).unref();
}
