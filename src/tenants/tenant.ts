/**
 * Which tenant a tenant-tool call acts for: the one rule every per-tenant tool goes through.
 *
 * - Over HTTP (`ctx.tenantBound`) the tenant is the API key's. A `tenant_id` argument naming any other tenant
 *   is refused with a `forbidden` ToolError before anything is read or written.
 * - Over stdio (one local operator) `tenant_id` picks the tenant freely and defaults to `ctx.tenant`
 *   (`DOCENT_TENANT`).
 *
 * Tenant ids match TENANT_ID_PATTERN, so they are safe in store filters, logs and messages.
 */
import { z } from 'zod';
import type { ToolContext } from '../catalog/context.js';
import { TENANT_ID_PATTERN, TENANT_ID_RULE } from '../config.js';
import { ToolError } from '../errors.js';

export const tenantIdInput = z
  .string()
  .regex(TENANT_ID_PATTERN, TENANT_ID_RULE)
  .describe('Tenant or project identifier. Over HTTP it must be the tenant of your API key.');

export function resolveTenant(ctx: Pick<ToolContext, 'tenant' | 'tenantBound'>, requested?: string): string {
  if (requested !== undefined && !TENANT_ID_PATTERN.test(requested)) {
    throw new ToolError(`\`tenant_id\` must be ${TENANT_ID_RULE}.`, 'invalid_arguments', { field: 'tenant_id' });
  }
  if (ctx.tenantBound) {
    if (requested !== undefined && requested !== ctx.tenant) {
      throw new ToolError(
        `Forbidden: this API key acts for tenant "${ctx.tenant}", not "${requested}". Nothing was read or changed. ` +
          `Call again with tenant_id "${ctx.tenant}".`,
        'forbidden',
        { field: 'tenant_id' },
      );
    }
    return ctx.tenant;
  }
  return requested ?? ctx.tenant;
}
