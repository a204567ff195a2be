/**
 * Logging: pino JSON, always to stderr (stdout belongs to the stdio MCP transport). Secrets are redacted
 * by key name wherever they appear in a log object.
 *
 * pino itself loads on a logger's first use, not when this module is imported: loading it is about a tenth
 * of a cold start, and a server can answer its first requests before it logs anything.
 */
import { createRequire } from 'node:module';
import type { Logger } from 'pino';

export type { Logger };

export const REDACT_PATHS = [
  'apiKey', '*.apiKey', 'token', '*.token', 'authorization', '*.authorization', 'headers.authorization',
  'req.headers.authorization', 'secret', '*.secret', 'password', '*.password', 'key', '*.key',
];

const load = () => (createRequire(import.meta.url)('pino') as typeof import('pino')).pino;

/** A Logger that creates the real one on first use (any property read or write) and forwards to it. */
function deferred(create: () => Logger): Logger {
  let real: Logger | undefined;
  const target = () => (real ??= create());
  return new Proxy({} as Logger, {
    get(_, prop) {
      const logger = target();
      const value = Reflect.get(logger, prop, logger) as unknown;
      // Bound per read: pino swaps its level methods when the level changes.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(logger) : value;
    },
    set: (_, prop, value) => Reflect.set(target(), prop, value),
    has: (_, prop) => Reflect.has(target(), prop),
    getPrototypeOf: () => Reflect.getPrototypeOf(target()),
  });
}

export function createLogger(level: string = 'info', name = 'docent'): Logger {
  return deferred(() => {
    const pino = load();
    return pino(
      { name, level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { pid: process.pid } },
      pino.destination({ dest: 2, sync: true }),
    );
  });
}

/** A logger that drops everything; for tests and library use. */
export function silentLogger(): Logger {
  return deferred(() => load()({ level: 'silent' }));
}
