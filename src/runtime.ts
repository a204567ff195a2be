/** One process's shared state: frozen config, the stderr logger, and the lazily loaded services. */
import type { Config } from './config.js';
import { createLogger, type Logger } from './logging.js';
import { Services } from './services.js';

export interface Runtime {
  config: Config;
  logger: Logger;
  services: Services;
  close(): Promise<void>;
}

export function createRuntime(config: Config, logger: Logger = createLogger(config.logLevel)): Runtime {
  const services = new Services(config, logger);
  return { config, logger, services, close: () => services.close() };
}
