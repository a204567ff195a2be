import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { planLimitsCheck } from '../../src/http/limits.js';
import { UsageMeter } from '../../src/tenants/usage.js';
import { sharedDataDir } from './helpers.js';
import { startApp, type App } from './http-app.js';

let data: Awaited<ReturnType<typeof sharedDataDir>>;
let app: App | undefined;
const list = { tenant_id: 'acme', action: 'list_plans' };

beforeAll(async () => {
  data = await sharedDataDir();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});
afterAll(async () => data.remove());

describe('per-minute rate limit', () => {
  it("answers 429 rate_limited with Retry-After past the plan's requests per minute, per key, on every authenticated route", async () => {
    let clock = new Date('2026-03-10T12:00:00Z');
    app = await startApp(
      `${data.dir}/minute`,
      { 'limits.free.requestsPerMinute': 3, 'limits.free.requestsPerMonth': 0, 'limits.pro.requestsPerMinute': 0 },
      { checks: [planLimitsCheck({ now: () => clock })] },
    );
    const key = await app.key('acme');
    const other = await app.key('acme');
    const pro = await app.key('acme', 'pro');

    for (let i = 0; i < 3; i++) {
      const ok = await app.tool(key, 'pricing_manager', list);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-ratelimit-limit')).toBe('3');
      expect(ok.headers.get('x-ratelimit-remaining')).toBe(String(2 - i));
    }
    const limited = await app.tool(key, 'pricing_manager', list);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('20');
    expect(limited.body).toEqual({
      error: {
        code: 'rate_limited',
        message: 'Too many requests: this API key may make 3 requests per minute (free plan). Retry after 20 s.',
        limit: 3,
        window: 'minute',
        plan: 'free',
        retry_after_seconds: 20,
      },
    });

    // The MCP endpoint is limited too; public routes are not.
    const mcp = await fetch(`${app.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{}' });
    expect(mcp.status).toBe(429);
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);

    // Other keys have their own allowance; pro is unlimited here.
    expect((await app.tool(other, 'pricing_manager', list)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await app.tool(pro, 'pricing_manager', list)).status).toBe(200);

    // A token comes back every 20 s.
    clock = new Date(clock.getTime() + 19_000);
    expect((await app.tool(key, 'pricing_manager', list)).status).toBe(429);
    clock = new Date(clock.getTime() + 1_000);
    expect((await app.tool(key, 'pricing_manager', list)).status).toBe(200);
    expect((await app.tool(key, 'pricing_manager', list)).status).toBe(429);
  });
});

describe('monthly quota', () => {
  it('answers 429 quota_exceeded until the month ends, counts survive a restart, and refused requests are not counted', async () => {
    const dir = `${data.dir}/month`;
    let clock = new Date('2026-03-31T23:00:00Z');
    const settings = { 'limits.free.requestsPerMinute': 0, 'limits.free.requestsPerMonth': 5 };
    app = await startApp(dir, settings, { checks: [planLimitsCheck({ now: () => clock })] });
    const key = await app.key('acme');
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const r = await app.tool(key, 'pricing_manager', list);
      statuses.push(r.status);
      expect(r.headers.get('x-quota-remaining')).toBe(String(4 - i));
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const refused = await app.tool(key, 'pricing_manager', list);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3600');
    expect(refused.body.error).toEqual({
      code: 'quota_exceeded',
      message: 'This API key has used its 5 requests for 2026-03 (free plan). The quota resets at 2026-04-01T00:00:00.000Z; a pro key has a larger quota.',
      limit: 5,
      used: 5,
      quota: 'requests_per_month',
      period: '2026-03',
      resets_at: '2026-04-01T00:00:00.000Z',
      plan: 'free',
      retry_after_seconds: 3600,
    });
    await app.close();

    // Restart on the same data directory: the month's count was written at shutdown.
    app = await startApp(dir, settings, { checks: [planLimitsCheck({ now: () => clock })] });
    const meter = await UsageMeter.open(app.runtime.services);
    expect([...(await meter.storedMonth('2026-03')).values()]).toEqual([5]);
    expect((await app.tool(key, 'pricing_manager', list)).status).toBe(429);

    // A new month starts from zero.
    clock = new Date('2026-04-01T00:00:01Z');
    expect((await app.tool(key, 'pricing_manager', list)).status).toBe(200);
    await app.close();
    app = undefined;
    const after = await startApp(dir, settings);
    try {
      const stored = await (await UsageMeter.open(after.runtime.services)).storedMonth('2026-04');
      expect([...stored.values()]).toEqual([1]);
    } finally {
      await after.close();
    }
  });

  it('flushes counts on a timer while serving', async () => {
    app = await startApp(`${data.dir}/flush`, { 'limits.free.requestsPerMinute': 0, 'limits.usageFlushSeconds': 1 });
    const key = await app.key('acme');
    for (let i = 0; i < 3; i++) expect((await app.tool(key, 'pricing_manager', list)).status).toBe(200);
    const meter = await UsageMeter.open(app.runtime.services);
    const month = new Date().toISOString().slice(0, 7);
    await expect.poll(async () => [...(await meter.storedMonth(month)).values()], { interval: 200 }).toEqual([3]);
  });
});

describe('documentation stored', () => {
  it("refuses a document upload with 429 quota_exceeded when the tenant's indexed text is at, or would pass, the plan limit", async () => {
    const { createRuntime } = await import('../../src/runtime.js');
    const { loadConfig } = await import('../../src/config.js');
    const { silentLogger } = await import('../../src/logging.js');
    const { HttpError } = await import('../../src/http/route.js');
    const runtime = createRuntime(
      loadConfig({ env: {}, overrides: { dataDir: `${data.dir}/docs`, 'limits.free.documentBytes': 1000, 'limits.free.requestsPerMinute': 0 } }),
      silentLogger(),
    );
    const check = planLimitsCheck();
    const index = await (await runtime.services.docs()).forTenant('acme');
    const attempt = async (route: { method: 'POST'; path: string }, declared: number, plan = 'free') => {
      const headers: Record<string, string> = {};
      const res = { setHeader: (k: string, v: string) => (headers[k] = v) };
      const ctx = {
        runtime,
        req: { headers: { 'content-length': String(declared) } },
        res,
        params: {},
        query: new URLSearchParams(),
        caller: { tenant: 'acme', keyId: `key-${plan}`, plan, agentMode: false },
        baseUrl: 'http://127.0.0.1',
        route: { ...route, auth: 'key', handle: async () => undefined },
      } as unknown as Parameters<typeof check.check>[0];
      try {
        await check.check(ctx);
        return 'allowed';
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        return { status: error.status, code: error.code, details: error.details, retry: error.headers?.['retry-after'] };
      }
    };
    const upload = { method: 'POST' as const, path: '/v1/documents' };
    try {
      await index.ingestDocument({ title: 'guide.md', content: `# Guide\n\n${'word '.repeat(120)}` });
      const stored = (await index.listDocuments()).reduce((n, d) => n + d.chars, 0);
      expect(stored).toBeGreaterThan(500);
      expect(stored).toBeLessThan(1000);

      expect(await attempt(upload, 1000 - stored)).toBe('allowed');
      expect(await attempt(upload, 1000 - stored + 1)).toEqual({
        status: 429,
        code: 'quota_exceeded',
        details: { limit: 1000, used: stored, quota: 'document_bytes', plan: 'free', retry_after_seconds: 86_400 },
        retry: '86400',
      });
      await index.ingestDocument({ title: 'more.md', content: 'x'.repeat(600) });
      const over = await attempt(upload, 10);
      expect(over).toMatchObject({ status: 429, code: 'quota_exceeded', details: { limit: 1000, quota: 'document_bytes' } });
      // Other routes, and plans with room, are not held back by stored documentation.
      expect(await attempt({ method: 'POST', path: '/v1/tools/:name' }, 10)).toBe('allowed');
      expect(await attempt(upload, 10, 'pro')).toBe('allowed');
      // Removing documents frees the quota again.
      await index.removeDocument('more.md');
      expect(await attempt(upload, 10)).toBe('allowed');
    } finally {
      await check.close?.(runtime);
      await runtime.close();
    }
  });
});
