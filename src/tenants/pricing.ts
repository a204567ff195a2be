/**
 * Pricing arithmetic and suggestions, pure functions over a tenant's plans.
 *
 * Revenue is computed in decimal (decimal.js) from prices in whole cents, so every figure is exact to the
 * cent. Suggestions come from fixed, stated rules keyed on how much one request costs to serve in an API
 * category; they are rules of thumb to reason from, never market data.
 */
import { Decimal } from 'decimal.js';
import { ToolError } from '../errors.js';
import { planKey, type PlanRow } from './plans.js';

const usd = (cents: Decimal.Value): string => new Decimal(cents).dividedBy(100).toFixed(2);

export interface PlanRevenue {
  name: string;
  price_usd: string;
  subscribers: number;
  monthly_revenue_usd: string;
  annual_revenue_usd: string;
}

export interface RevenueProjection {
  currency: 'USD';
  plans: PlanRevenue[];
  total: { subscribers: number; monthly_revenue_usd: string; annual_revenue_usd: string };
  /** Names in `subscribers` that are not plans of the tenant: left out of the totals, and said so. */
  unknown_plans: string[];
  /** Plans of the tenant absent from `subscribers`: counted as 0 subscribers. */
  plans_not_in_projection: string[];
}

/** Monthly and annual revenue per plan and in total. `subscribers` counts are validated integers ≥ 0. */
export function projectRevenue(plans: readonly PlanRow[], subscribers: Readonly<Record<string, number>>): RevenueProjection {
  const byKey = new Map(plans.map((p) => [p.name_key, p]));
  const given = new Map<string, string>();
  const unknown: string[] = [];
  const rows: PlanRevenue[] = [];
  let monthlyCents = new Decimal(0);
  let count = 0;
  for (const [name, n] of Object.entries(subscribers)) {
    const key = planKey(name);
    if (given.has(key)) {
      throw new ToolError(
        `\`subscribers\` names the plan "${key}" twice ("${given.get(key)}" and "${name}"; names ignore case). Give each plan once.`,
        'invalid_arguments',
        { field: 'subscribers' },
      );
    }
    given.set(key, name);
    const plan = byKey.get(key);
    if (!plan) {
      unknown.push(name);
      continue;
    }
    const cents = new Decimal(plan.price_cents).times(n);
    monthlyCents = monthlyCents.plus(cents);
    count += n;
    rows.push({
      name: plan.name,
      price_usd: usd(plan.price_cents),
      subscribers: n,
      monthly_revenue_usd: usd(cents),
      annual_revenue_usd: usd(cents.times(12)),
    });
  }
  const order = new Map(plans.map((p, i) => [p.name, i]));
  rows.sort((a, b) => order.get(a.name)! - order.get(b.name)!);
  return {
    currency: 'USD',
    plans: rows,
    total: { subscribers: count, monthly_revenue_usd: usd(monthlyCents), annual_revenue_usd: usd(monthlyCents.times(12)) },
    unknown_plans: unknown,
    plans_not_in_projection: plans.filter((p) => !given.has(p.name_key)).map((p) => p.name),
  };
}

/** How expensive one request is to serve: the one input of the suggestion rules. */
export const COST_PROFILES = ['lightweight', 'data', 'messaging', 'compute_heavy'] as const;
export type CostProfile = (typeof COST_PROFILES)[number];

export const TIERS = ['free', 'paid', 'scale'] as const;
export type Tier = (typeof TIERS)[number];

interface ProfileRule {
  profile: CostProfile;
  meaning: string;
  keywords: readonly string[];
  free: number;
  paid: { cents: number; requests: number };
  scale: { cents: number; requests: number };
}

// Checked in this order: the first profile with a matching keyword wins (costliest first).
const PROFILES: readonly ProfileRule[] = [
  {
    profile: 'compute_heavy',
    meaning: 'each request runs costly computation (model inference, media processing), so serving it has a real marginal cost',
    keywords: [
      'ai',
      'ml',
      'llm',
      'gpt',
      'inference',
      'model',
      'vision',
      'image',
      'video',
      'audio',
      'speech',
      'transcription',
      'ocr',
      'translation',
      'embedding',
      'gpu',
      'generation',
      'rendering',
    ],
    free: 100,
    paid: { cents: 4900, requests: 10_000 },
    scale: { cents: 24_900, requests: 100_000 },
  },
  {
    profile: 'messaging',
    meaning: 'each request delivers a message through a carrier or provider that charges per message',
    keywords: ['email', 'sms', 'mms', 'messaging', 'notification', 'notifications', 'push', 'voice', 'telephony', 'whatsapp'],
    free: 500,
    paid: { cents: 2500, requests: 20_000 },
    scale: { cents: 12_500, requests: 200_000 },
  },
  {
    profile: 'data',
    meaning: 'each request reads data that costs money to acquire, store or keep fresh (licensed, scraped or indexed data)',
    keywords: [
      'data',
      'search',
      'scraping',
      'scraper',
      'crawler',
      'enrichment',
      'geolocation',
      'geocoding',
      'maps',
      'weather',
      'finance',
      'financial',
      'stock',
      'market',
      'news',
      'analytics',
      'lookup',
      'rag',
      'retrieval',
      'documentation',
      'docs',
    ],
    free: 1000,
    paid: { cents: 2900, requests: 50_000 },
    scale: { cents: 14_900, requests: 500_000 },
  },
  {
    profile: 'lightweight',
    meaning: "each request is cheap computation on the caller's own input (validation, conversion, utilities, CRUD)",
    keywords: [
      'utility',
      'utilities',
      'validation',
      'validator',
      'conversion',
      'converter',
      'formatting',
      'crud',
      'auth',
      'authentication',
      'qr',
      'url',
      'shortener',
      'calculator',
      'developer',
      'devtools',
      'tools',
      'productivity',
      'webhook',
      'webhooks',
      'scheduling',
    ],
    free: 10_000,
    paid: { cents: 1900, requests: 250_000 },
    scale: { cents: 9900, requests: 2_500_000 },
  },
];

export const PRICING_RULES: readonly string[] = [
  'R1 Free tier: no card, enough requests to build and test an integration but not to run production traffic; the cheaper a request is to serve, the larger it is.',
  'R2 Paid tier: one round monthly price under $50 that a developer can expense without approval, including 10 to 100 times the free requests.',
  "R3 Scale tier: 10 times the paid tier's requests for about 5 times its price, so the price per request halves as usage grows and the step up is predictable.",
  'R4 The request cost profile of the category sets the numbers: lightweight, data, messaging or compute-heavy.',
];

export interface SuggestedTier {
  tier: Tier;
  price_usd: string;
  requests_per_month: number;
  usd_per_1000_requests: string;
  rationale: string;
}

export interface PlanComparison {
  plan: string;
  price_usd: string;
  requests_per_month: number;
  usd_per_1000_requests: string | null;
  compared_with: Tier;
  assessment: string;
}

export interface PricingSuggestion {
  category: string;
  cost_profile: CostProfile;
  profile_reason: string;
  tiers: SuggestedTier[];
  rules: string[];
  comparison: PlanComparison[];
  gaps: string[];
  caveat: string;
}

function per1000(cents: number, requests: number): Decimal | null {
  return requests > 0 ? new Decimal(cents).dividedBy(requests).times(1000).dividedBy(100) : null;
}

const fmtPer1000 = (d: Decimal | null): string | null => (d === null ? null : d.toDecimalPlaces(4, Decimal.ROUND_HALF_EVEN).toFixed());
const times = (x: Decimal): string => x.toDecimalPlaces(1, Decimal.ROUND_HALF_EVEN).toFixed();

function profileFor(category: string): { rule: ProfileRule; reason: string } {
  const words = category
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  for (const rule of PROFILES) {
    const hit = words.find((w) => rule.keywords.includes(w) || (w.endsWith('s') && rule.keywords.includes(w.slice(0, -1))));
    if (hit) return { rule, reason: `"${category}" contains "${hit}": ${rule.meaning}.` };
  }
  const fallback = PROFILES.find((r) => r.profile === 'lightweight')!;
  return {
    rule: fallback,
    reason:
      `"${category}" matched none of the category keywords, so the lightweight profile is assumed (${fallback.meaning}). ` +
      'If requests in this category are costly to serve, describe it with words such as "AI", "data", "search", "email" or "video".',
  };
}

/** Suggested free/paid/scale tiers for a category, compared with the tenant's own plans. Deterministic. */
export function suggestPricing(category: string, plans: readonly PlanRow[]): PricingSuggestion {
  const { rule, reason } = profileFor(category);
  const tiers: SuggestedTier[] = [
    {
      tier: 'free',
      price_usd: '0.00',
      requests_per_month: rule.free,
      usd_per_1000_requests: '0',
      rationale: `R1: ${rule.free.toLocaleString('en-US')} requests a month lets a developer build and test an integration; production traffic outgrows it.`,
    },
    {
      tier: 'paid',
      price_usd: usd(rule.paid.cents),
      requests_per_month: rule.paid.requests,
      usd_per_1000_requests: fmtPer1000(per1000(rule.paid.cents, rule.paid.requests))!,
      rationale: `R2: $${usd(rule.paid.cents)} a month is an expensable round price; ${rule.paid.requests / rule.free}× the free requests.`,
    },
    {
      tier: 'scale',
      price_usd: usd(rule.scale.cents),
      requests_per_month: rule.scale.requests,
      usd_per_1000_requests: fmtPer1000(per1000(rule.scale.cents, rule.scale.requests))!,
      rationale: `R3: ${rule.scale.requests / rule.paid.requests}× the paid requests for ${times(new Decimal(rule.scale.cents).dividedBy(rule.paid.cents))}× the price, halving the price per request.`,
    },
  ];
  const suggestedFor = (t: 'paid' | 'scale') => (t === 'paid' ? rule.paid : rule.scale);

  const comparison: PlanComparison[] = plans.map((plan) => {
    const price = usd(plan.price_cents);
    const rate = per1000(plan.price_cents, plan.requests_per_month);
    if (plan.price_cents === 0) {
      const ratio = new Decimal(plan.requests_per_month).dividedBy(rule.free);
      const assessment =
        plan.requests_per_month > rule.free * 2
          ? `Free with ${plan.requests_per_month.toLocaleString('en-US')} requests, ${times(ratio)}× the suggested ${rule.free.toLocaleString('en-US')}: generous for a ${rule.profile} API; make sure the cost of serving it is budgeted.`
          : plan.requests_per_month < rule.free / 2
            ? `Free with ${plan.requests_per_month.toLocaleString('en-US')} requests, ${times(ratio)}× the suggested ${rule.free.toLocaleString('en-US')}: possibly too small to build and test an integration.`
            : `Free with ${plan.requests_per_month.toLocaleString('en-US')} requests: in line with the suggested ${rule.free.toLocaleString('en-US')}.`;
      return {
        plan: plan.name,
        price_usd: price,
        requests_per_month: plan.requests_per_month,
        usd_per_1000_requests: fmtPer1000(rate),
        compared_with: 'free',
        assessment,
      };
    }
    // Compare a paid plan with the suggested tier nearest in price.
    const tier: 'paid' | 'scale' = Math.abs(plan.price_cents - rule.paid.cents) <= Math.abs(plan.price_cents - rule.scale.cents) ? 'paid' : 'scale';
    const target = suggestedFor(tier);
    const targetRate = per1000(target.cents, target.requests)!;
    let assessment: string;
    if (rate === null) {
      assessment = `$${price} a month with no included requests: state how many requests it includes so it can be compared.`;
    } else {
      const ratio = rate.dividedBy(targetRate);
      const verdict = ratio.greaterThan(1.5)
        ? `${times(ratio)}× the suggested price per request: expensive for this profile unless the plan carries features that justify it`
        : ratio.lessThan(0.67)
          ? `${times(ratio)}× the suggested price per request: cheap for this profile; check it covers the cost of serving`
          : `${times(ratio)}× the suggested price per request: in line with the rules`;
      assessment = `$${price} for ${plan.requests_per_month.toLocaleString('en-US')} requests is $${fmtPer1000(rate)} per 1,000 against $${fmtPer1000(targetRate)} for the suggested ${tier} tier (${verdict}).`;
    }
    return {
      plan: plan.name,
      price_usd: price,
      requests_per_month: plan.requests_per_month,
      usd_per_1000_requests: fmtPer1000(rate),
      compared_with: tier,
      assessment,
    };
  });

  const gaps: string[] = [];
  if (plans.length === 0) gaps.push('The tenant has no plans yet: create_plan the tiers above (or your own) to compare and project revenue.');
  else {
    if (!plans.some((p) => p.price_cents === 0)) gaps.push('No free plan: a free tier with no card (R1) lets developers try the API before paying.');
    if (!comparison.some((c) => c.compared_with === 'scale'))
      gaps.push('No plan near the scale tier: heavy users have nowhere to grow into at a lower price per request (R3).');
  }
  return {
    category,
    cost_profile: rule.profile,
    profile_reason: reason,
    tiers,
    rules: [...PRICING_RULES],
    comparison,
    gaps,
    caveat:
      "These figures come from docent's fixed pricing rules above, not from market research or competitors' prices. Check them against your own cost per request and the prices of alternatives your customers know.",
  };
}
