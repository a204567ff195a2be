import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeTool } from '../../src/catalog/invoke.js';
import { loadConfig } from '../../src/config.js';
import { Services } from '../../src/services.js';
import { file_operations } from '../../tools/file_operations.js';

/** Confirmation tokens are bearer credentials for one call: they reach the caller, never a log line. */
const lines: string[] = [];
let root: string;
let services: Services;
let env: Parameters<typeof invokeTool>[2];

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'docent-tokens-'));
  const config = loadConfig({ env: {}, overrides: { dataDir: `${root}/data`, workspaceDir: `${root}/ws` } });
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const logger = pino({ level: 'trace' }, sink);
  services = new Services(config, logger);
  env = { config, services, logger, tenant: 'acme', tenantBound: true, agentMode: true, transport: 'rest' };
});
afterAll(async () => {
  await services.close();
  await rm(root, { recursive: true, force: true });
});

describe('confirmation tokens', () => {
  it('are returned to the caller and appear in no log line, at any level', async () => {
    expect((await invokeTool(file_operations, { operation: 'write', path: 'a.txt', content: 'x' }, env)).ok).toBe(true);
    const asked = await invokeTool(file_operations, { operation: 'delete', path: 'a.txt' }, env);
    expect(asked.ok).toBe(false);
    const token = !asked.ok ? (asked.details?.confirmation_token as string) : '';
    expect(token.length).toBeGreaterThan(16);
    expect(lines.some((l) => l.includes('confirmation required'))).toBe(true);
    const done = await invokeTool(file_operations, { operation: 'delete', path: 'a.txt', confirmation_token: token }, env);
    expect(done.ok).toBe(true);
    expect(lines.filter((l) => l.includes(token))).toEqual([]);
  });
});
