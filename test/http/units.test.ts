/** The pure parts of the HTTP surface: routing, the DNS-rebinding guard, base URLs, status mapping, startup refusal. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/errors.js';
import { effectiveBaseUrl } from '../../src/http/app.js';
import { isLoopbackHost, RequestGuard } from '../../src/http/origin-guard.js';
import { HttpError, type Route } from '../../src/http/route.js';
import { Router } from '../../src/http/router.js';
import { TOOL_ERROR_STATUS } from '../../src/errors.js';
import { statusForToolError } from '../../src/http/routes/tools.js';
import { assertSafeHttpConfig } from '../../src/http/serve.js';

const route = (method: Route['method'], path: string): Route => ({ method, path, auth: 'public', handle: async () => ({ status: 200 }) });

function refusal(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected an HttpError');
}

describe('Router', () => {
  const router = new Router([
    route('GET', '/v1/documents'),
    route('POST', '/v1/documents'),
    route('DELETE', '/v1/documents/:id'),
    route('POST', '/v1/tools/:name'),
  ]);

  it('matches literal paths and decodes parameters', () => {
    expect(router.match('GET', '/v1/documents').route.method).toBe('GET');
    expect(router.match('DELETE', '/v1/documents/a%2Fb%20c').params).toEqual({ id: 'a/b c' });
    expect(router.match('HEAD', '/v1/documents').route.method).toBe('GET');
  });

  it('answers 405 with Allow for a known path and 404 otherwise', () => {
    const notAllowed = refusal(() => router.match('PUT', '/v1/documents'));
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers).toEqual({ allow: 'GET, POST, HEAD' });
    expect(refusal(() => router.match('GET', '/v1/documents/x/y')).status).toBe(404);
    expect(refusal(() => router.match('POST', '/v1/tools/')).status).toBe(404);
    expect(refusal(() => router.match('GET', '/v1/documentsX')).status).toBe(404);
  });

  it('refuses undecodable parameters with 400 and duplicate routes at construction', () => {
    expect(refusal(() => router.match('DELETE', '/v1/documents/%E0%A4%A')).status).toBe(400);
    expect(() => new Router([route('GET', '/a/:x'), route('GET', '/a/:y')])).toThrow(/duplicate route/);
  });
});

describe('RequestGuard (DNS rebinding)', () => {
  const guard = new RequestGuard({
    port: 8787,
    baseUrl: 'https://docs.example.com',
    allowedHosts: ['internal.example', 'proxy.example:9000'],
    allowedOrigins: ['https://app.example.com/'],
  });

  it.each([
    '127.0.0.1:8787',
    'localhost:8787',
    'LOCALHOST:8787',
    '[::1]:8787',
    '127.1.2.3:8787',
    'docs.example.com',
    'internal.example:1234',
    'internal.example',
    'proxy.example:9000',
  ])('accepts Host %s', (host) => expect(() => guard.check({ host })).not.toThrow());

  it.each([
    'evil.example.com',
    'evil.example.com:8787',
    '127.0.0.1:9999',
    'localhost',
    'docs.example.com:8443',
    'proxy.example:9001',
    '127.0.0.1.nip.io:8787',
    'a@127.0.0.1:8787',
    '',
  ])('refuses Host %j with 403', (host) => {
    const error = refusal(() => guard.check({ host }));
    expect([error.status, error.code]).toEqual([403, 'forbidden_host']);
  });

  it('refuses a missing or repeated Host', () => {
    expect(refusal(() => guard.check({})).status).toBe(403);
    expect(refusal(() => guard.check({ host: ['127.0.0.1:8787', 'evil.example.com'] })).status).toBe(403);
  });

  it.each(['http://localhost:3000', 'http://127.0.0.1:8787', 'http://[::1]:5173', 'https://docs.example.com', 'https://app.example.com'])(
    'accepts Origin %s',
    (origin) => expect(() => guard.check({ host: '127.0.0.1:8787', origin })).not.toThrow(),
  );

  it.each(['http://evil.example.com', 'null', 'http://docs.example.com', 'https://app.example.com:444', 'file://', 'chrome-extension://abc'])(
    'refuses Origin %s',
    (origin) => {
      const error = refusal(() => guard.check({ host: '127.0.0.1:8787', origin }));
      expect([error.status, error.code]).toEqual([403, 'forbidden_origin']);
    },
  );

  it('knows loopback names', () => {
    for (const host of ['localhost', '127.0.0.1', '127.255.0.9', '::1', '[::1]', 'localhost.']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', 'localhost.example.com', '128.0.0.1', 'example.com']) expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe('effectiveBaseUrl', () => {
  it('puts the actual port into a base URL naming port 0, and leaves others alone', () => {
    expect(effectiveBaseUrl('http://127.0.0.1:0', 41234)).toBe('http://127.0.0.1:41234');
    expect(effectiveBaseUrl('http://[::1]:0', 5)).toBe('http://[::1]:5');
    expect(effectiveBaseUrl('https://docs.example.com', 41234)).toBe('https://docs.example.com');
    expect(effectiveBaseUrl('https://docs.example.com/base', 41234)).toBe('https://docs.example.com/base');
  });
});

describe('statusForToolError', () => {
  it.each([
    ['invalid_arguments', 400],
    ['forbidden', 403],
    ['refused', 403],
    ['not_found', 404],
    ['confirmation_required', 409],
    ['declined', 409],
    ['rate_limited', 429],
    ['quota_exceeded', 429],
    ['upstream_error', 502],
    ['model_error', 502],
    ['outbound_timeout', 504],
    ['model_unavailable', 503],
    ['not_configured', 503],
    ['internal_error', 500],
    ['invalid_path', 422],
    ['tool_error', 422],
  ] as const)('%s → %i', (code, status) => expect(statusForToolError(code)).toBe(status));

  it('gives every code of the closed list a client (4xx) or server (5xx) status', () => {
    for (const [code, status] of Object.entries(TOOL_ERROR_STATUS)) expect([code, Math.floor(status / 100)]).toEqual([code, status >= 500 ? 5 : 4]);
  });
});

describe('assertSafeHttpConfig', () => {
  const config = (host: string, auth: string) => loadConfig({ env: {}, overrides: { 'http.host': host, 'http.auth': auth, dataDir: '/tmp/unused' } });

  it('refuses --auth none on a non-loopback host, naming the setting', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.com']) {
      expect(() => assertSafeHttpConfig(config(host, 'none'))).toThrow(ConfigError);
      expect(() => assertSafeHttpConfig(config(host, 'none'))).toThrow(/--auth none \(DOCENT_AUTH=none\).*--host \(DOCENT_HOST\)/s);
    }
  });

  it('allows --auth none on loopback and keys anywhere', () => {
    for (const host of ['127.0.0.1', '::1', 'localhost']) expect(() => assertSafeHttpConfig(config(host, 'none'))).not.toThrow();
    expect(() => assertSafeHttpConfig(config('0.0.0.0', 'key'))).not.toThrow();
  });
});
