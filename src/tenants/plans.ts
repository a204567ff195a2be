/**
 * Pricing plans, one table for every tenant, every read and write filtered by tenant.
 *
 * A plan name is unique per tenant, compared without case or surrounding space (`Pro` and ` pro ` are one
 * plan). Prices are stored in whole cents so arithmetic on them is exact.
 */
import type { Services } from '../services.js';
import type { RecordTable, TableSpec } from '../storage/store.js';
import { ToolError } from '../errors.js';
import { newId, nowIso } from './fields.js';
import { openTenantTable } from './maintenance.js';

export interface PlanRow {
  [column: string]: unknown;
  id: string;
  tenant: string;
  name: string;
  name_key: string;
  price_cents: number;
  requests_per_month: number;
  features: string[];
  created_at: string;
}

export const PLANS_TABLE: TableSpec = {
  name: 'pricing_plans',
  columns: {
    id: 'string',
    tenant: 'string',
    name: 'string',
    name_key: 'string',
    price_cents: 'number',
    requests_per_month: 'number',
    features: 'json',
    created_at: 'string',
  },
};

export interface PlanInput {
  name: string;
  price_cents: number;
  requests_per_month: number;
  features: string[];
}

export function planKey(name: string): string {
  return name.trim().toLowerCase();
}

/** Features as stored: trimmed, empty ones dropped, duplicates removed, order kept. */
export function normaliseFeatures(features: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const f of features.map((x) => x.trim()).filter(Boolean)) {
    if (!seen.has(f.toLowerCase())) {
      seen.add(f.toLowerCase());
      out.push(f);
    }
  }
  return out;
}

function sameFeatures(a: readonly string[], b: readonly string[]): boolean {
  const norm = (xs: readonly string[]) =>
    [...xs]
      .map((x) => x.toLowerCase())
      .sort()
      .join('\u0000');
  return norm(a) === norm(b);
}

function byCreation(a: PlanRow, b: PlanRow): number {
  return a.created_at.localeCompare(b.created_at) || a.name_key.localeCompare(b.name_key) || a.id.localeCompare(b.id);
}

export class PlanStore {
  private constructor(
    private readonly table: RecordTable<PlanRow>,
    private readonly wrote: () => void,
  ) {}

  static async open(services: Services): Promise<PlanStore> {
    const { table, wrote } = await openTenantTable<PlanRow>(services, PLANS_TABLE);
    return new PlanStore(table, wrote);
  }

  /** The tenant's plans, oldest first (ties by name): a stable order. */
  async list(tenant: string): Promise<PlanRow[]> {
    return (await this.table.find({ tenant })).sort(byCreation);
  }

  /**
   * Creates a plan, or returns the existing one when an identical plan of that name exists. A plan of that
   * name with different terms is a `conflict` naming what differs; nothing is written.
   */
  async create(tenant: string, input: PlanInput, now = new Date()): Promise<{ plan: PlanRow; created: boolean }> {
    const features = normaliseFeatures(input.features);
    const name_key = planKey(input.name);
    return this.table.exclusive(async () => {
      const [existing] = await this.table.find({ tenant, name_key }, { limit: 1 });
      if (existing) {
        const differs: string[] = [];
        if (existing.price_cents !== input.price_cents)
          differs.push(`price_usd (${dollars(existing.price_cents)} stored, ${dollars(input.price_cents)} given)`);
        if (existing.requests_per_month !== input.requests_per_month) {
          differs.push(`requests_per_month (${existing.requests_per_month} stored, ${input.requests_per_month} given)`);
        }
        if (!sameFeatures(existing.features, features)) differs.push('features');
        if (differs.length) {
          throw new ToolError(
            `A plan named "${existing.name}" already exists for tenant "${tenant}" with different terms: ${differs.join(', ')}. ` +
              'Plans are not changed in place: pick another name for the new terms, or repeat the exact stored terms. Nothing was changed.',
            'conflict',
            { field: 'name', plan: existing.name },
          );
        }
        return { plan: existing, created: false };
      }
      const plan: PlanRow = {
        id: newId('plan'),
        tenant,
        name: input.name.trim(),
        name_key,
        price_cents: input.price_cents,
        requests_per_month: input.requests_per_month,
        features,
        created_at: nowIso(now),
      };
      await this.table.insert([plan]);
      this.wrote();
      return { plan, created: true };
    });
  }
}

export function dollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}$${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
}
