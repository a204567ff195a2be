import { describe, expect, it } from 'vitest';
import { loadConfig, settingsTable, SETTINGS, storageOptions } from '../src/config.js';
import { ConfigError } from '../src/errors.js';

describe('config', () => {
  it('layers defaults, then environment, then flags, then overrides', () => {
    const env = { DOCENT_PORT: '9000', DOCENT_HOST: '127.0.0.2', DOCENT_DATA_DIR: '/tmp/a' };
    expect(loadConfig({ env }).http.port).toBe(9000);
    expect(loadConfig({ env, flags: { port: '9001' } }).http.port).toBe(9001);
    expect(loadConfig({ env, flags: { port: '9001' }, overrides: { 'http.port': 9002 } }).http.port).toBe(9002);
    expect(loadConfig({ env: {} }).http.port).toBe(8787);
  });

  it('resolves directories against the working directory and derives the base URL', () => {
    const config = loadConfig({ env: { DOCENT_DATA_DIR: 'data' }, cwd: '/srv/docent' });
    expect(config.dataDir).toBe('/srv/docent/data');
    expect(config.workspaceDir).toBe('/srv/docent/agent_workspace');
    expect(config.baseUrl).toBe('http://127.0.0.1:8787');
    expect(loadConfig({ env: { DOCENT_BASE_URL: 'https://docs.example.com/' } }).baseUrl).toBe('https://docs.example.com');
  });

  it('uses the XDG data directory by default', () => {
    expect(loadConfig({ env: { XDG_DATA_HOME: '/xdg' } }).dataDir).toBe('/xdg/docent');
  });

  it('detects agent environment variables', () => {
    expect(loadConfig({ env: {} }).policy.agentEnv).toBe(false);
    expect(loadConfig({ env: { CLAUDE_CODE: '1' } }).policy.agentEnv).toBe(true);
    expect(loadConfig({ env: { CURSOR_AGENT: 'true' } }).policy.agentEnv).toBe(true);
    expect(loadConfig({ env: { SERVICE_AGENT: '0' } }).policy.agentEnv).toBe(false);
  });

  it('is frozen all the way down', () => {
    const config = loadConfig({ env: {} });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.http)).toBe(true);
    expect(() => {
      (config.http as { port: number }).port = 1;
    }).toThrow(TypeError);
  });

  it('names the variable or flag to fix, for every bad value at once', () => {
    let error: unknown;
    try {
      loadConfig({ env: { DOCENT_PORT: 'eighty', DOCENT_AUTH: 'maybe' }, flags: { 'log-level': 'loud' } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/environment variable DOCENT_PORT/);
    expect(message).toMatch(/environment variable DOCENT_AUTH/);
    expect(message).toMatch(/flag --log-level/);
  });

  it('rejects a tenant name that is not a plain identifier', () => {
    expect(() => loadConfig({ env: { DOCENT_TENANT: "x' OR '1'='1" } })).toThrow(/DOCENT_TENANT/);
  });

  it('documents every setting in the generated table', () => {
    const table = settingsTable();
    for (const s of SETTINGS) for (const env of s.env ?? []) expect(table).toContain(`\`${env}\``);
  });

  it('takes an object-store data location as given, with the AWS_* variables as LanceDB storage options', () => {
    const config = loadConfig({
      cwd: '/srv',
      env: {
        DOCENT_DATA_DIR: 's3://docs-prod/docent',
        AWS_ACCESS_KEY_ID: 'AKIA',
        AWS_SECRET_ACCESS_KEY: 'secret',
        AWS_DEFAULT_REGION: 'eu-west-1',
        AWS_ENDPOINT_URL: 'http://127.0.0.1:9000',
        AWS_ALLOW_HTTP: 'true',
        DOCENT_REDIS_URL: 'redis://127.0.0.1:6379/0',
      },
    });
    expect(config.dataDir).toBe('s3://docs-prod/docent');
    expect(storageOptions(config)).toEqual({
      aws_access_key_id: 'AKIA',
      aws_secret_access_key: 'secret',
      aws_region: 'eu-west-1',
      aws_endpoint: 'http://127.0.0.1:9000',
      allow_http: 'true',
    });
    expect(config.redis).toEqual({ url: 'redis://127.0.0.1:6379/0', lockLeaseMs: 15000 });
    expect(loadConfig({ cwd: '/srv', env: { DOCENT_DATA_DIR: 'data' } }).dataDir).toBe('/srv/data');
    expect(storageOptions(loadConfig({ env: {} }))).toEqual({});
    expect(() => loadConfig({ env: { DOCENT_REDIS_URL: 'http://127.0.0.1:6379' } })).toThrow(/DOCENT_REDIS_URL: a redis:\/\/ or rediss:\/\/ URL/);
  });
});
