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
  it('answers 429 rate_limited with Retry-After past the plan\'s requests per minute, per key, on every authenticated route', async () => {
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
    await expect.poll(async () => [...(await meter.storedMonth(month)).values()], { timeout: 5000, interval: 200 }).toEqual([3]);
  });
});
