/**
 * `docent serve --http`: runs the HTTP app until SIGINT/SIGTERM, then shuts down gracefully (stop accepting,
 * end MCP sessions, let requests in flight finish, close services). The listening line on stderr carries
 * `url` (where it listens, with the real port when --port 0) and `baseUrl`.
 */
import { ConfigError } from '../errors.js';
import { isObjectStoreLocation, type Config } from '../config.js';
import type { Runtime } from '../runtime.js';
import { createHttpApp } from './app.js';
import { isLoopbackHost } from './origin-guard.js';

/** Refuses configurations that would expose the server: `--auth none` anywhere but a loopback host. */
export function assertSafeHttpConfig(config: Config): void {
  if (config.http.auth === 'none' && !isLoopbackHost(config.http.host)) {
    throw new ConfigError(
      `--auth none (DOCENT_AUTH=none) serves without authentication, which is allowed only on a loopback host ` +
        `(127.0.0.1, ::1, localhost), but --host (DOCENT_HOST) is "${config.http.host}". Bind to 127.0.0.1, or keep ` +
        '--auth key and create API keys with `docent keys create --tenant <tenant>`.',
    );
  }
}

export async function serveHttp(runtime: Runtime): Promise<void> {
  const { config, logger } = runtime;
  assertSafeHttpConfig(config);
  // Shared state first: a Redis that cannot be reached stops the start with a message, not the first request.
  const shared = await runtime.services.shared();
  if (isObjectStoreLocation(config.dataDir) && shared.kind !== 'redis') {
    logger.warn(
      { dataDir: config.dataDir },
      'object-store data location without DOCENT_REDIS_URL: run one process on it (writes of several processes would not be serialised)',
    );
  }
  const app = createHttpApp(runtime);
  const { url, port, baseUrl } = await app.listen();

  if (config.http.auth === 'none') {
    logger.warn({ tenant: config.tenant }, 'authentication is off (--auth none): every local client acts as this tenant');
    if (!isLoopbackHost(new URL(baseUrl).hostname)) logger.warn({ baseUrl }, 'authentication is off but the base URL is not a loopback address');
  }
  if (['0.0.0.0', '::'].includes(config.http.host) && new URL(baseUrl).hostname === config.http.host) {
    logger.warn('listening on all interfaces without a public base URL: set --base-url (DOCENT_BASE_URL) so the manifest and Host checks use it');
  }

  let closing = false;
  const shutdown = async (why: string) => {
    if (closing) {
      logger.warn({ why }, 'second signal: exiting now');
      process.exit(1);
    }
    closing = true;
    logger.info({ why }, 'shutting down');
    await app.close().catch((error: unknown) => logger.error({ err: error }, 'HTTP shutdown failed'));
    await runtime.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  logger.info(
    { url, port, baseUrl, mcp: `${url}/mcp`, auth: config.http.auth, stateless: config.http.stateless, dataDir: config.dataDir, sharedState: shared.kind },
    'docent HTTP server listening',
  );
}
