import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { call, harnessOn, sharedDataDir } from './helpers.js';

let data: Awaited<ReturnType<typeof sharedDataDir>>;
let h: Harness;
const T = { tenant_id: 'acme' };

beforeAll(async () => {
  data = await sharedDataDir();
  h = await harnessOn(data.dir);
});
afterAll(async () => {
  await h.close();
  await data.remove();
});

describe('pricing_manager plans', () => {
  it('creates plans, lists them in creation order, and treats an identical re-create as a no-op', async () => {
    const free = await call(h, 'pricing_manager', {
      ...T,
      action: 'create_plan',
      name: 'Free',
      price_usd: 0,
      requests_per_month: 1000,
      features: ['docs search'],
    });
    expect(free.isError).toBe(false);
    expect(free.value.created).toBe(true);
    expect(free.value.plan).toMatchObject({ name: 'Free', price_usd: 0, requests_per_month: 1000, features: ['docs search'] });
    await call(h, 'pricing_manager', {
      ...T,
      action: 'create_plan',
      name: 'Starter',
      price_usd: 9.99,
      requests_per_month: 50_000,
      features: ['email support', ' docs search ', 'Docs search'],
    });
    await call(h, 'pricing_manager', { ...T, action: 'create_plan', name: 'Pro', price_usd: 29, requests_per_month: 250_000 });

    const again = await call(h, 'pricing_manager', {
      ...T,
      action: 'create_plan',
      name: ' starter ',
      price_usd: 9.99,
      requests_per_month: 50_000,
      features: ['docs search', 'email support'],
    });
    expect(again.isError).toBe(false);
    expect(again.value.created).toBe(false);
    expect(again.text).toMatch(/already exists with exactly these terms/);

    const list = await call(h, 'pricing_manager', { ...T, action: 'list_plans' });
    expect(list.value.plans.map((p: { name: string }) => p.name)).toEqual(['Free', 'Starter', 'Pro']);
    expect(list.value.plans[1].features).toEqual(['email support', 'docs search']);
  });

  it('refuses a differing plan under an existing name, naming what differs, and writes nothing', async () => {
    const r = await call(h, 'pricing_manager', { ...T, action: 'create_plan', name: 'PRO', price_usd: 39, requests_per_month: 250_000 });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/already exists/);
    expect(r.text).toMatch(/price_usd \(\$29\.00 stored, \$39\.00 given\)/);
    const list = await call(h, 'pricing_manager', { ...T, action: 'list_plans' });
    expect(list.value.plans.find((p: { name: string }) => p.name === 'Pro').price_usd).toBe(29);
    expect(list.value.plans).toHaveLength(3);
  });

  it.each([
    [{ action: 'create_plan', price_usd: 5, requests_per_month: 10 }, /`name` is required for create_plan/],
    [{ action: 'create_plan', name: 'X', requests_per_month: 10 }, /`price_usd` is required/],
    [{ action: 'create_plan', name: 'X', price_usd: 5 }, /`requests_per_month` is required/],
    [{ action: 'create_plan', name: 'X', price_usd: -1, requests_per_month: 10 }, /`price_usd`/],
    [{ action: 'create_plan', name: 'X', price_usd: 9.999, requests_per_month: 10 }, /`price_usd`/],
    [{ action: 'create_plan', name: 'X', price_usd: 5, requests_per_month: 10.5 }, /`requests_per_month`/],
    [{ action: 'create_plan', name: 'X', price_usd: 5, requests_per_month: 10, subscribers: { X: 1 } }, /`subscribers` does not apply to create_plan/],
    [{ action: 'bill_customer' }, /`action`/],
    [{ action: 'list_plans', tenant_id: 'acme corp' }, /`tenant_id`/],
    [{ action: 'list_plans', tenant_id: "x' OR '1'='1" }, /`tenant_id`/],
  ])('refuses %j with an error naming the field, writing nothing', async (args, message) => {
    const r = await call(h, 'pricing_manager', { ...T, ...args });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(message);
    const list = await call(h, 'pricing_manager', { ...T, action: 'list_plans' });
    expect(list.value.plans.map((p: { name: string }) => p.name)).toEqual(['Free', 'Starter', 'Pro']);
  });
});

describe('pricing_manager project_revenue', () => {
  it('projects monthly and annual revenue exactly to the cent and reports unknown plans', async () => {
    const r = await call(h, 'pricing_manager', { ...T, action: 'project_revenue', subscribers: { starter: 3, Pro: 1000, Enterprise: 5 } });
    expect(r.isError).toBe(false);
    expect(r.value.projection).toEqual({
      currency: 'USD',
      plans: [
        { name: 'Starter', price_usd: '9.99', subscribers: 3, monthly_revenue_usd: '29.97', annual_revenue_usd: '359.64' },
        { name: 'Pro', price_usd: '29.00', subscribers: 1000, monthly_revenue_usd: '29000.00', annual_revenue_usd: '348000.00' },
      ],
      total: { subscribers: 1003, monthly_revenue_usd: '29029.97', annual_revenue_usd: '348359.64' },
      unknown_plans: ['Enterprise'],
      plans_not_in_projection: ['Free'],
    });
    expect(r.text).toMatch(/Not counted: "Enterprise" is not a plan/);
  });

  it('stays exact where binary floating point would not (0.07 × 3, 19.99 × 10⁹)', async () => {
    await call(h, 'pricing_manager', { ...T, action: 'create_plan', name: 'Penny', price_usd: 0.07, requests_per_month: 10 });
    const r = await call(h, 'pricing_manager', { ...T, action: 'project_revenue', subscribers: { Penny: 3, Starter: 1_000_000_000 } });
    expect(0.07 * 3).not.toBe(0.21);
    const byName = Object.fromEntries(r.value.projection.plans.map((p: { name: string }) => [p.name, p]));
    expect(byName.Penny.monthly_revenue_usd).toBe('0.21');
    expect(byName.Starter.monthly_revenue_usd).toBe('9990000000.00');
    expect(byName.Starter.annual_revenue_usd).toBe('119880000000.00');
    expect(r.value.projection.total.monthly_revenue_usd).toBe('9990000000.21');
  });

  it.each([
    [{ Pro: -1 }, /`subscribers\.Pro`/],
    [{ Pro: 2.5 }, /`subscribers\.Pro`/],
    [{ Pro: '10' }, /`subscribers\.Pro`/],
    [{}, /`subscribers` is empty/],
    [{ Pro: 1, PRO: 2 }, /names the plan "pro" twice/],
  ])('refuses subscribers %j', async (subscribers, message) => {
    const r = await call(h, 'pricing_manager', { ...T, action: 'project_revenue', subscribers });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(message);
  });

  it('says when the tenant has no plans to project', async () => {
    const r = await call(h, 'pricing_manager', { tenant_id: 'empty-co', action: 'project_revenue', subscribers: { Pro: 1 } });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/has no pricing plans/);
  });
});

describe('pricing_manager suggest_pricing', () => {
  it("is deterministic, explains its profile and rules, and compares the tenant's plans", async () => {
    const a = await call(h, 'pricing_manager', { ...T, action: 'suggest_pricing', category: 'speech-to-text AI' });
    const b = await call(h, 'pricing_manager', { ...T, action: 'suggest_pricing', category: 'speech-to-text AI' });
    expect(a.isError).toBe(false);
    expect(a.value).toEqual(b.value);
    const s = a.value.suggestion;
    expect(s.cost_profile).toBe('compute_heavy');
    expect(s.profile_reason).toMatch(/contains "speech"/);
    expect(s.tiers.map((t: { tier: string; price_usd: string; requests_per_month: number }) => [t.tier, t.price_usd, t.requests_per_month])).toEqual([
      ['free', '0.00', 100],
      ['paid', '49.00', 10_000],
      ['scale', '249.00', 100_000],
    ]);
    expect(s.tiers[1].usd_per_1000_requests).toBe('4.9');
    expect(s.rules).toHaveLength(4);
    expect(s.caveat).toMatch(/not from market research/);
    expect(s.comparison.map((c: { plan: string; compared_with: string }) => [c.plan, c.compared_with])).toEqual([
      ['Free', 'free'],
      ['Starter', 'paid'],
      ['Pro', 'paid'],
      ['Penny', 'paid'],
    ]);
    expect(s.comparison[0].assessment).toMatch(/10× the suggested 100: generous/);
    expect(s.gaps).toEqual([expect.stringMatching(/No plan near the scale tier/)]);
  });

  it('falls back to the lightweight profile for an unrecognised category and says so', async () => {
    const r = await call(h, 'pricing_manager', { tenant_id: 'empty-co', action: 'suggest_pricing', category: 'zorblax' });
    expect(r.value.suggestion.cost_profile).toBe('lightweight');
    expect(r.value.suggestion.profile_reason).toMatch(/matched none of the category keywords/);
    expect(r.value.suggestion.comparison).toEqual([]);
    expect(r.value.suggestion.gaps).toEqual([expect.stringMatching(/no plans yet/)]);
  });

  it('needs a category', async () => {
    const r = await call(h, 'pricing_manager', { ...T, action: 'suggest_pricing' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/`category` is required for suggest_pricing/);
  });
});

describe('pricing_manager durability', () => {
  it('keeps plans across a restart', async () => {
    await h.close();
    h = await harnessOn(data.dir);
    const list = await call(h, 'pricing_manager', { ...T, action: 'list_plans' });
    expect(list.value.plans.map((p: { name: string }) => p.name)).toEqual(['Free', 'Starter', 'Pro', 'Penny']);
    expect(list.value.plans[1].price_usd).toBe(9.99);
  });
});
