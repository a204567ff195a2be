import { z } from 'zod';
import { actionInputShape, checkAction, defineActions } from '../src/catalog/actions.js';
import { defineTool } from '../src/catalog/definition.js';
import { ToolError } from '../src/errors.js';
import { dollars, PlanStore, type PlanRow } from '../src/tenants/plans.js';
import { COST_PROFILES, projectRevenue, suggestPricing, TIERS } from '../src/tenants/pricing.js';
import { resolveTenant, tenantIdInput } from '../src/tenants/tenant.js';

/** The fields each action reads (besides action and tenant_id): validation and field descriptions come from here. */
const SPEC = defineActions({
  selector: 'action',
  selectorDoc: 'What to do',
  fields: {
    name: { schema: z.string().trim().min(1).max(64), doc: 'The plan name, unique per tenant (case-insensitive)' },
    // Whole cents, checked here rather than as JSON Schema `multipleOf: 0.01`, which binary floating point
    // makes clients refuse valid prices (19.99 / 0.01 is not an integer in IEEE 754).
    price_usd: {
      schema: z
        .number()
        .min(0)
        .max(1_000_000)
        .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'must be in whole cents (at most two decimals)'),
      doc: 'The monthly price in USD, at most two decimals (0 for a free plan)',
    },
    requests_per_month: { schema: z.number().int().min(0).max(1e12), doc: 'The API requests included per month' },
    features: { schema: z.array(z.string().trim().min(1).max(200)).max(50), doc: 'Features included in the plan' },
    subscribers: {
      schema: z.record(z.string().trim().min(1).max(64), z.number().int().min(0).max(1e9)),
      doc: 'An object mapping plan names to expected subscriber counts (whole numbers ≥ 0)',
    },
    category: { schema: z.string().trim().min(1).max(200), doc: 'The API category to price, e.g. "speech-to-text AI" or "weather data"' },
  },
  actions: {
    create_plan: { name: 'required', price_usd: 'required', requests_per_month: 'required', features: 'optional' },
    list_plans: {},
    project_revenue: { subscribers: 'required' },
    suggest_pricing: { category: 'required' },
  },
});
const ACTIONS = Object.keys(SPEC.actions) as (keyof typeof SPEC.actions)[];

const plan = z.object({
  id: z.string(),
  name: z.string(),
  price_usd: z.number(),
  requests_per_month: z.number().int(),
  features: z.array(z.string()),
  created_at: z.string(),
});

const money = z.string().describe('US dollars, exact, two decimals');

const output = z.object({
  action: z.enum(ACTIONS as [keyof typeof SPEC.actions]),
  tenant_id: z.string(),
  created: z.boolean().optional().describe('create_plan: false when an identical plan already existed'),
  plan: plan.optional(),
  plans: z.array(plan).optional(),
  projection: z
    .object({
      currency: z.literal('USD'),
      plans: z.array(z.object({ name: z.string(), price_usd: money, subscribers: z.number().int(), monthly_revenue_usd: money, annual_revenue_usd: money })),
      total: z.object({ subscribers: z.number().int(), monthly_revenue_usd: money, annual_revenue_usd: money }),
      unknown_plans: z.array(z.string()).describe('Names in subscribers that are not plans of the tenant; not in the totals'),
      plans_not_in_projection: z.array(z.string()).describe('Plans of the tenant with no subscriber count given (counted as 0)'),
    })
    .optional(),
  suggestion: z
    .object({
      category: z.string(),
      cost_profile: z.enum(COST_PROFILES),
      profile_reason: z.string(),
      tiers: z.array(
        z.object({ tier: z.enum(TIERS), price_usd: money, requests_per_month: z.number().int(), usd_per_1000_requests: z.string(), rationale: z.string() }),
      ),
      rules: z.array(z.string()),
      comparison: z.array(
        z.object({
          plan: z.string(),
          price_usd: money,
          requests_per_month: z.number().int(),
          usd_per_1000_requests: z.string().nullable(),
          compared_with: z.enum(TIERS),
          assessment: z.string(),
        }),
      ),
      gaps: z.array(z.string()),
      caveat: z.string(),
    })
    .optional(),
});

type Output = z.infer<typeof output>;

function shown(row: PlanRow): z.infer<typeof plan> {
  return {
    id: row.id,
    name: row.name,
    price_usd: row.price_cents / 100,
    requests_per_month: row.requests_per_month,
    features: row.features,
    created_at: row.created_at,
  };
}

function planLine(p: PlanRow): string {
  const features = p.features.length ? `; ${p.features.join(', ')}` : '';
  return `${p.name}: ${dollars(p.price_cents)}/month, ${p.requests_per_month.toLocaleString('en-US')} requests/month${features}`;
}

export const pricing_manager = defineTool({
  name: 'pricing_manager',
  title: 'Pricing plans',
  summary: 'Per-tenant pricing plans, exact revenue projections, rule-based tier suggestions',
  description:
    "Keeps the pricing plans of a tenant's API and reasons about them. Actions: `create_plan` (name, price_usd " +
    'per month, requests_per_month, features; names are unique per tenant, repeating an identical plan is harmless, ' +
    'different terms under an existing name are refused), `list_plans`, `project_revenue` (subscribers: plan name → ' +
    'expected subscriber count; monthly and annual revenue per plan and in total, exact to the cent, unknown plan ' +
    'names reported), `suggest_pricing` (category: free/paid/scale tiers from stated rules, compared with the ' +
    "tenant's plans). Use it when planning or checking an API's pricing. Not for billing or charging anyone, and " +
    'its suggestions are rules of thumb, not market data.',
  input: z.object({ ...actionInputShape(SPEC), tenant_id: tenantIdInput }),
  output,
  side_effects: 'none',
  // create_plan stores a plan (never changes or removes one; an identical repeat is a no-op).
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  cost_class: 'free',
  requires_secret: false,
  hints: [
    'Prices are per month in USD with at most two decimals; revenue figures are decimal strings, exact to the cent.',
    'Plans cannot be edited: to change terms, create a plan under a new name.',
  ],
  async handler(input, ctx) {
    const tenant = resolveTenant(ctx, input.tenant_id);
    const args = checkAction(SPEC, input);
    const action = args.action;
    const plans = await PlanStore.open(ctx.services);
    const base = { action, tenant_id: tenant };

    switch (args.action) {
      case 'create_plan': {
        const { plan: row, created } = await plans.create(tenant, {
          name: args.name,
          price_cents: Math.round(args.price_usd * 100),
          requests_per_month: args.requests_per_month,
          features: args.features ?? [],
        });
        const value: Output = { ...base, created, plan: shown(row) };
        const text = created
          ? `Created plan ${planLine(row)} (id ${row.id}).`
          : `Plan "${row.name}" already exists with exactly these terms; nothing changed. ${planLine(row)}.`;
        return { value, text };
      }
      case 'list_plans': {
        const rows = await plans.list(tenant);
        const text = rows.length
          ? `${rows.length} plan${rows.length === 1 ? '' : 's'} for tenant "${tenant}":\n${rows.map((r) => `- ${planLine(r)}`).join('\n')}`
          : `Tenant "${tenant}" has no pricing plans yet. Create one with action create_plan.`;
        return { value: { ...base, plans: rows.map(shown) }, text };
      }
      case 'project_revenue': {
        const subscribers = args.subscribers;
        if (Object.keys(subscribers).length === 0) {
          throw new ToolError('`subscribers` is empty: give at least one plan name with its subscriber count.', 'invalid_arguments', { field: 'subscribers' });
        }
        const rows = await plans.list(tenant);
        if (rows.length === 0) {
          throw new ToolError(`Tenant "${tenant}" has no pricing plans to project: create them with action create_plan first.`, 'not_found', {
            field: 'subscribers',
          });
        }
        const projection = projectRevenue(rows, subscribers);
        const lines = projection.plans.map(
          (p) => `- ${p.name}: ${p.subscribers} × $${p.price_usd} = $${p.monthly_revenue_usd}/month, $${p.annual_revenue_usd}/year`,
        );
        lines.push(
          `Total: ${projection.total.subscribers} subscribers, $${projection.total.monthly_revenue_usd}/month, $${projection.total.annual_revenue_usd}/year.`,
        );
        if (projection.unknown_plans.length) {
          lines.push(
            `Not counted: ${projection.unknown_plans.map((n) => `"${n}"`).join(', ')} ${projection.unknown_plans.length === 1 ? 'is not a plan' : 'are not plans'} of tenant "${tenant}" ` +
              `(its plans: ${rows.map((r) => r.name).join(', ')}).`,
          );
        }
        if (projection.plans_not_in_projection.length) lines.push(`No count given (0 assumed): ${projection.plans_not_in_projection.join(', ')}.`);
        return { value: { ...base, projection }, text: lines.join('\n') };
      }
      case 'suggest_pricing': {
        const suggestion = suggestPricing(args.category, await plans.list(tenant));
        const lines = [
          `Cost profile: ${suggestion.cost_profile}. ${suggestion.profile_reason}`,
          ...suggestion.tiers.map(
            (t) =>
              `- ${t.tier}: $${t.price_usd}/month, ${t.requests_per_month.toLocaleString('en-US')} requests ($${t.usd_per_1000_requests} per 1,000). ${t.rationale}`,
          ),
          ...(suggestion.comparison.length ? ['Your plans:', ...suggestion.comparison.map((c) => `- ${c.plan}: ${c.assessment}`)] : []),
          ...suggestion.gaps,
          `Rules: ${suggestion.rules.join(' ')}`,
          suggestion.caveat,
        ];
        return { value: { ...base, suggestion }, text: lines.join('\n') };
      }
    }
  },
});
