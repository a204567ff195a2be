/**
 * Logging: pino JSON, always to stderr (stdout belongs to the stdio MCP transport). Secrets are redacted
 * by key name wherever they appear in a log object.
 */
import { pino, type Logger } from 'pino';

export type { Logger };

export const REDACT_PATHS = [
  'apiKey', '*.apiKey', 'token', '*.token', 'authorization', '*.authorization', 'headers.authorization',
  'req.headers.authorization', 'secret', '*.secret', 'password', '*.password', 'key', '*.key',
];

export function createLogger(level: string = 'info', name = 'docent'): Logger {
  return pino(
    { name, level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { pid: process.pid } },
    pino.destination({ dest: 2, sync: true }),
  );
}

/** A logger that drops everything; for tests and library use. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
