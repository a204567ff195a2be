/**
 * `GET /v1/me`: the calling key's own standing, for operators and their tools: its tenant, key id and plan,
 * the plan's limits, and its usage (requests this month and this minute, documentation stored). Never
 * anything of another key or tenant. No query parameters (400 for any).
 *
 * The request counts are the plan-limits check's (src/http/limits.ts), taken as this request was counted,
 * so they include it. Without keys (`--auth none`) there is no plan: limits and request counts are null.
 */
import { z } from 'zod';
import type { MeResponse } from '../../client/types.js';
import { monthOf, nextMonthStart } from '../../tenants/usage.js';
import { indexedDocumentBytes, measuredUsage, planLimitsOf, type PlanLimits } from '../limits.js';
import { HttpError, type Route } from '../route.js';

const NoQuery = z.strictObject({});

/** A configured limit as published: 0 (none) is null. */
const limit = (value: number): number | null => (value > 0 ? value : null);

function published(limits: PlanLimits | undefined): MeResponse['limits'] {
  return {
    requests_per_minute: limits ? limit(limits.requestsPerMinute) : null,
    requests_per_month: limits ? limit(limits.requestsPerMonth) : null,
    document_bytes: limits ? limit(limits.documentBytes) : null,
  };
}

export const routes: Route[] = [
  {
    method: 'GET',
    path: '/v1/me',
    auth: 'key',
    async handle(ctx) {
      const query = NoQuery.safeParse(Object.fromEntries(ctx.query));
      if (!query.success) {
        const field = [...ctx.query.keys()][0]!.slice(0, 50);
        throw new HttpError(400, 'invalid_arguments', `Unknown query parameter "${field}"; GET /v1/me takes none.`, { field });
      }
      const { caller, runtime } = ctx;
      const measured = measuredUsage(ctx.req);
      const plan = caller.keyId ? planLimitsOf(runtime.config, caller.plan) : undefined;
      const now = new Date();
      const documentBytes = (await indexedDocumentBytes(runtime, caller.tenant)) ?? 0;
      const limits = measured?.limits ?? plan?.limits;
      const body: MeResponse = {
        tenant: caller.tenant,
        key_id: caller.keyId ?? null,
        plan: measured?.plan ?? plan?.plan ?? null,
        limits: published(limits),
        usage: {
          month: measured?.month ?? monthOf(now),
          requests_this_month: measured?.requestsThisMonth ?? null,
          month_resets_at: (measured?.monthResetsAt ?? nextMonthStart(now)).toISOString(),
          requests_this_minute:
            limits && limits.requestsPerMinute > 0 && measured?.minuteRemaining !== undefined
              ? Math.max(0, limits.requestsPerMinute - measured.minuteRemaining)
              : null,
          document_bytes: documentBytes,
        },
      };
      return { status: 200, body };
    },
  },
];
