/**
 * The deferred logger: importing src/logging and creating a logger does not load pino; the first use does,
 * and then it behaves as pino (JSON on stderr, redaction, children, level changes).
 */
import { describe, expect, it } from 'vitest';
import { runNode } from '../helpers/cli.js';

const LOGGING = new URL('../../dist/src/logging.js', import.meta.url).href;

const run = (script: string) => runNode(['--input-type=module', '-e', script]);

describe('createLogger', () => {
  it('loads pino on first use only, then logs JSON to stderr with secrets redacted', async () => {
    const { stdout, stderr, code } = await run(`
      import { createRequire } from 'node:module';
      const cache = createRequire(import.meta.url).cache;
      const pinoLoaded = () => Object.keys(cache).some((f) => f.includes('/node_modules/pino/'));
      const { createLogger } = await import(${JSON.stringify(LOGGING)});
      const logger = createLogger('info', 'probe');
      const before = pinoLoaded();
      logger.debug('hidden at info');
      const after = pinoLoaded();
      logger.info({ apiKey: 'sk-secret', user: { password: 'hunter2' }, tenant: 'acme' }, 'first');
      logger.child({ tool: 'calculator' }).warn('from a child');
      logger.level = 'debug';
      logger.debug('now visible');
      console.log(JSON.stringify({ before, after, level: logger.level, enabled: logger.isLevelEnabled('debug') }));
    `);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ before: false, after: true, level: 'debug', enabled: true });
    const lines = stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.msg)).toEqual(['first', 'from a child', 'now visible']);
    expect(lines[0]).toMatchObject({ level: 30, name: 'probe', apiKey: '[redacted]', user: { password: '[redacted]' }, tenant: 'acme' });
    expect(lines[1]).toMatchObject({ level: 40, tool: 'calculator' });
    expect(stderr).not.toContain('sk-secret');
    expect(stderr).not.toContain('hunter2');
  });

  it('writes an exit line as pino would, without loading it, when nothing loaded it yet; through pino once loaded', async () => {
    const { stdout, stderr, code } = await run(`
      import { createRequire } from 'node:module';
      const cache = createRequire(import.meta.url).cache;
      const pinoLoaded = () => Object.keys(cache).some((f) => f.includes('/node_modules/pino/'));
      const { createLogger, infoAtExit } = await import(${JSON.stringify(LOGGING)});
      const early = createLogger('info', 'probe');
      infoAtExit(early, { why: 'stdin closed', n: 1 }, 'early');
      infoAtExit(createLogger('warn', 'quiet'), { why: 'x' }, 'below the level');
      const before = pinoLoaded();
      const loaded = createLogger('info', 'probe');
      loaded.info('loads pino');
      infoAtExit(loaded, { why: 'stdin closed', n: 1 }, 'late');
      console.log(JSON.stringify({ before }));
    `);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ before: false });
    const lines = stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.msg)).toEqual(['early', 'loads pino', 'late']);
    const shape = (l: Record<string, unknown>) => ({ ...l, time: typeof l.time, pid: typeof l.pid, msg: undefined });
    expect(shape(lines[0]!)).toEqual(shape(lines[2]!));
    expect(Object.keys(lines[0]!)).toEqual(Object.keys(lines[2]!));
  });
});
