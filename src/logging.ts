/**
 * Logging: pino JSON, always to stderr (stdout belongs to the stdio MCP transport). Secrets are redacted
 * by key name wherever they appear in a log object.
 *
 * pino itself loads on a logger's first use, not when this module is imported: loading it is about a tenth
 * of a cold start, and a server can answer its first requests before it logs anything.
 */
import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Logger } from 'pino';

export type { Logger };

export const REDACT_PATHS = [
  'apiKey',
  '*.apiKey',
  'token',
  '*.token',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'req.headers.authorization',
  'secret',
  '*.secret',
  'password',
  '*.password',
  'key',
  '*.key',
];

const load = () => (createRequire(import.meta.url)('pino') as typeof import('pino')).pino;

/** Loggers made by createLogger that pino has not been loaded for yet: their name, level, and whether it has. */
const unloaded = new WeakMap<Logger, { name: string; level: string; loaded(): boolean }>();

/** pino's numeric levels. */
const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

/** A Logger that creates the real one on first use (any property read or write) and forwards to it. */
function deferred(create: () => Logger, describe?: { name: string; level: string }): Logger {
  let real: Logger | undefined;
  const target = () => (real ??= create());
  const proxy = new Proxy({} as Logger, {
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
  if (describe) unloaded.set(proxy, { ...describe, loaded: () => real !== undefined });
  return proxy;
}

/**
 * Logs an info line on the way out. When the logger has not loaded pino yet (a short stdio session that only
 * listed tools), the line is written as pino would write it (JSON on stderr: level, time, pid, name, the
 * fields, msg) without loading it: loading pino would be most of such a session's shutdown. The fields must
 * be ones that need no redaction.
 */
export function infoAtExit(logger: Logger, fields: Record<string, string | number | boolean>, msg: string): void {
  const early = unloaded.get(logger);
  if (!early || early.loaded()) {
    logger.info(fields, msg);
    return;
  }
  if ((LEVELS[early.level] ?? Infinity) > LEVELS.info!) return;
  writeSync(2, `${JSON.stringify({ level: LEVELS.info, time: Date.now(), pid: process.pid, name: early.name, ...fields, msg })}\n`);
}

export function createLogger(level: string = 'info', name = 'docent'): Logger {
  return deferred(
    () => {
      const pino = load();
      return pino(
        { name, level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { pid: process.pid } },
        pino.destination({ dest: 2, sync: false }),
      );
    },
    { name, level },
  );
}

/** A logger that drops everything; for tests and library use. */
export function silentLogger(): Logger {
  return deferred(() => load()({ level: 'silent' }));
}
