/**
 * `GET /v1/me`: the calling key's tenant, plan, limits and usage, from the real plan-limits check, and
 * nothing of any other key or tenant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyId } from '../../src/auth/keys.js';
import { planLimitsCheck } from '../../src/http/limits.js';
import { startApp, type TestApp } from './helpers.js';

const clock = new Date('2026-03-10T12:00:00Z');

const me = async (t: TestApp, key: string | undefined, query = '') => {
  const res = await fetch(`${t.url}/v1/me${query}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
};

describe('GET /v1/me', () => {
  let t: TestApp;
  let acme: string;
  let beta: string;
  beforeAll(async () => {
    t = await startApp(
      { 'limits.free.requestsPerMinute': 5, 'limits.free.requestsPerMonth': 100, 'limits.free.documentBytes': 5000, 'limits.pro.requestsPerMinute': 0 },
      { checks: [planLimitsCheck({ now: () => clock })] },
    );
    acme = await t.key('acme');
    beta = await t.key('beta', 'pro');
  });
  afterAll(async () => t.close());

  it("shows the key's tenant, key id, plan, the plan's limits and its usage, this request included", async () => {
    const first = await me(t, acme);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      tenant: 'acme',
      key_id: keyId(acme),
      plan: 'free',
      limits: { requests_per_minute: 5, requests_per_month: 100, document_bytes: 5000 },
      usage: { month: '2026-03', requests_this_month: 1, month_resets_at: '2026-04-01T00:00:00.000Z', requests_this_minute: 1, document_bytes: 0 },
    });
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);

    // Other requests count too, and stored documentation shows.
    const upload = await fetch(`${t.url}/v1/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${acme}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'setup.md', content: '# Setup\n\nRun `lumen init` once.', library: 'lumen' }),
    });
    expect(upload.status).toBe(201);
    const second = await me(t, acme);
    expect(second.body.usage).toMatchObject({ requests_this_month: 3, requests_this_minute: 3 });
    expect(second.body.usage.document_bytes).toBeGreaterThan(0);
    expect(second.headers.get('x-quota-remaining')).toBe('97');
  });

  it("shows only the caller's own tenant and key: another tenant's key sees its own figures and nothing of acme", async () => {
    const own = await me(t, beta);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({
      tenant: 'beta',
      key_id: keyId(beta),
      plan: 'pro',
      // Limits 0 in the configuration are published as null: none applies.
      limits: { requests_per_minute: null, requests_per_month: 1_000_000, document_bytes: 2_147_483_648 },
      usage: { month: '2026-03', requests_this_month: 1, month_resets_at: '2026-04-01T00:00:00.000Z', requests_this_minute: null, document_bytes: 0 },
    });
    const text = JSON.stringify(own.body);
    expect(text).not.toContain('acme');
    expect(text).not.toContain(keyId(acme)!);

    // A second key of the same tenant has its own request counts, and shares the tenant's documentation.
    const second = await t.key('acme');
    const other = await me(t, second);
    expect(other.body).toMatchObject({ tenant: 'acme', key_id: keyId(second), usage: { requests_this_month: 1, requests_this_minute: 1 } });
    expect(other.body.usage.document_bytes).toBeGreaterThan(0);
  });

  it('needs a valid key, and takes no query parameters', async () => {
    const missing = await me(t, undefined);
    expect([missing.status, missing.body.error.code]).toEqual([401, 'missing_api_key']);
    const invalid = await me(t, `${acme}x`);
    expect([invalid.status, invalid.body.error.code]).toEqual([401, 'invalid_api_key']);
    const query = await me(t, acme, '?tenant=beta');
    expect(query.status).toBe(400);
    expect(query.body.error).toMatchObject({ code: 'invalid_arguments', field: 'tenant' });
  });
});

describe('GET /v1/me without keys (--auth none)', () => {
  it('names the configured tenant, with no plan, limits or request counts', async () => {
    const t = await startApp({ 'http.auth': 'none', tenant: 'local' });
    try {
      const res = await me(t, undefined);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        tenant: 'local',
        key_id: null,
        plan: null,
        limits: { requests_per_minute: null, requests_per_month: null, document_bytes: null },
        usage: {
          month: expect.stringMatching(/^\d{4}-\d{2}$/),
          requests_this_month: null,
          month_resets_at: expect.any(String),
          requests_this_minute: null,
          document_bytes: 0,
        },
      });
    } finally {
      await t.close();
    }
  });
});
