import { apiKeys, type ApiKeyInfo } from '../../auth/keys.js';
import { PLANS, type Plan } from '../../auth/types.js';
import type { Config } from '../../config.js';
import { createRuntime } from '../../runtime.js';
import { monthOf, UsageMeter } from '../../tenants/usage.js';
import { LOCAL_FLAGS, parseCommand, UsageError } from '../args.js';
import type { Command } from '../main.js';

const USAGE = [
  'Usage: docent keys create [--tenant T] [--plan free|pro] [--label L] [--json]',
  '       docent keys list [--tenant T] [--json]',
  '       docent keys revoke <id>',
  '',
  'API keys authenticate HTTP callers (`Authorization: Bearer <key>`); a key acts for exactly one tenant.',
  '',
  '  create   Makes a key for the tenant (--tenant, else DOCENT_TENANT, else "default") and prints it ONCE;',
  '           only its hash is stored. --plan sets the plan limits (default free). --json prints',
  '           {"key","id","tenant","plan","label","created_at"}.',
  "  list     Shows every key (or one tenant's): id, tenant, plan, label, requests this month (UTC) against",
  "           the plan's monthly quota (as last written by the server, at most DOCENT_USAGE_FLUSH_SECONDS",
  '           behind), created, last used (within 10 minutes), revoked. Never the key itself.',
  '  revoke   Disables the key with that id at once, also for a server that is running.',
].join('\n');

/** A key's requests this month against its plan's monthly quota (0 = unlimited). */
interface KeyUsage {
  month: string;
  requests: number;
  limit: number | null;
}

async function usageOf(config: Config, keys: ApiKeyInfo[], meter: UsageMeter): Promise<Map<string, KeyUsage>> {
  const month = monthOf(new Date());
  const stored = await meter.storedMonth(month);
  return new Map(
    keys.map((k) => {
      const limit = config.limits[k.plan].requestsPerMonth;
      return [k.id, { month, requests: stored.get(k.id) ?? 0, limit: limit > 0 ? limit : null }];
    }),
  );
}

function table(keys: ApiKeyInfo[], usage: Map<string, KeyUsage>): string {
  if (!keys.length) return 'No API keys. Create one with `docent keys create --tenant <tenant>`.\n';
  const used = (k: ApiKeyInfo) => {
    const u = usage.get(k.id)!;
    return `${u.requests.toLocaleString('en-US')} / ${u.limit === null ? 'unlimited' : u.limit.toLocaleString('en-US')}`;
  };
  const rows = keys.map((k) => [
    k.id,
    k.tenant,
    k.plan,
    k.label ?? '',
    used(k),
    k.created_at,
    k.last_used_at ?? 'never',
    k.revoked_at ? `revoked ${k.revoked_at}` : 'active',
  ]);
  const head = ['ID', 'TENANT', 'PLAN', 'LABEL', `REQUESTS ${usage.values().next().value?.month ?? ''}`.trim(), 'CREATED', 'LAST USED', 'STATUS'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return (
    [head, ...rows]
      .map((r) =>
        r
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

export const command: Command = {
  summary: 'Create, list and revoke API keys for the HTTP API',
  usage: USAGE,
  configFlags: LOCAL_FLAGS,
  async run(argv) {
    const parsed = parseCommand(argv, { plan: { type: 'string' }, label: { type: 'string' }, json: { type: 'boolean' } }, LOCAL_FLAGS);
    const [action, ...rest] = parsed.positionals;
    const json = parsed.values.json === true;
    const config = parsed.config();
    const runtime = createRuntime(config);
    try {
      switch (action) {
        case 'create': {
          if (rest.length) throw new UsageError(`unexpected argument: ${rest[0]}`);
          const plan = (parsed.values.plan ?? 'free') as string;
          if (!PLANS.includes(plan as Plan)) throw new UsageError(`--plan must be one of ${PLANS.join(', ')} (got "${plan}")`);
          const label = parsed.values.label as string | undefined;
          const { key, record } = await (await apiKeys(runtime.services)).create({ tenant: config.tenant, plan: plan as Plan, label });
          if (json) {
            const { revoked_at: _r, last_used_at: _l, ...shown } = record;
            process.stdout.write(`${JSON.stringify({ key, ...shown })}\n`);
          } else {
            process.stdout.write(
              `Created API key ${record.id} for tenant "${record.tenant}" (plan ${record.plan}${record.label ? `, label "${record.label}"` : ''}):\n\n` +
                `  ${key}\n\n` +
                'Store it now: it is shown only this once. Send it as "Authorization: Bearer <key>".\n',
            );
          }
          return 0;
        }
        case 'list': {
          if (rest.length) throw new UsageError(`unexpected argument: ${rest[0]}`);
          if (parsed.values.plan !== undefined || parsed.values.label !== undefined) throw new UsageError('--plan and --label apply to `keys create`');
          const tenant = parsed.values.tenant === undefined ? undefined : config.tenant;
          const keys = await (await apiKeys(runtime.services)).list(tenant);
          const usage = await usageOf(config, keys, await UsageMeter.open(runtime.services));
          process.stdout.write(
            json
              ? `${JSON.stringify(
                  keys.map((k) => ({ ...k, usage: usage.get(k.id) })),
                  null,
                  2,
                )}\n`
              : table(keys, usage),
          );
          return 0;
        }
        case 'revoke': {
          if (rest.length !== 1) throw new UsageError('keys revoke takes exactly one key id (see `docent keys list`)');
          const id = rest[0]!;
          const outcome = await (await apiKeys(runtime.services)).revoke(id);
          if (outcome === 'not_found') {
            process.stderr.write(`docent keys: no API key with id "${id}". \`docent keys list\` shows the ids.\n`);
            return 1;
          }
          process.stdout.write(outcome === 'revoked' ? `Revoked API key ${id}.\n` : `API key ${id} was already revoked.\n`);
          return 0;
        }
        case undefined:
          throw new UsageError('name an action: create, list or revoke');
        default:
          throw new UsageError(`unknown action "${action}": use create, list or revoke`);
      }
    } finally {
      await runtime.close();
    }
  },
};
