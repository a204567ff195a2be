/**
 * The tools a sub-agent may call, and the only way it calls them: through `invokeTool` with its parent's
 * tenant, agent mode and confirmation policy. What the model asks for is checked first: a tool outside the
 * allow-list, arguments that are not a JSON object, or a `tenant_id` other than the parent's are refused as
 * failed steps (the model sees why); a `confirmation_token` is dropped, so a sub-agent can never confirm an
 * operation, and anything that needs confirmation is refused without a token being issued.
 */
import type { ToolContext } from '../catalog/context.js';
import type { AnyTool } from '../catalog/definition.js';
import { invokeTool, type CallEnvironment, type ToolCallOutcome } from '../catalog/invoke.js';
import { CONFIRMATION_TOKEN_FIELD, inputJsonSchema } from '../catalog/schema.js';
import { ToolError, type ToolErrorCode } from '../errors.js';
import type { ToolCall, ToolSpec } from '../model/types.js';
import { SPAWN_TOOL, assertMaySpawn, type Lineage } from './guards.js';
import { SUB_AGENT_LIMITS } from './limits.js';
import type { Step } from './result.js';

const TENANT_FIELD = 'tenant_id';
const GROUP_FIELD = 'parallel_group';

export interface PreparedCall {
  id: string;
  n: number;
  tool: string;
  args: Record<string, unknown>;
  group?: string;
  /** Set when the call is refused before it runs. */
  refusal?: { code: ToolErrorCode; message: string };
}

export interface CallResult {
  call: PreparedCall;
  step: Step;
  /** What the model is shown. */
  text: string;
  outcome?: ToolCallOutcome;
}

/** Arguments as a short line: long strings clipped, the whole capped. */
export function summariseArgs(args: Record<string, unknown>): string {
  const clipped = JSON.stringify(args, (_key, value: unknown) => (typeof value === 'string' && value.length > 80 ? `${value.slice(0, 77)}...` : value));
  return clipped.length > 300 ? `${clipped.slice(0, 297)}...` : clipped;
}

function acceptsTenant(tool: AnyTool): boolean {
  const shape = (tool.input as { shape?: Record<string, unknown> }).shape;
  return shape !== undefined && TENANT_FIELD in shape;
}

/** Why a sub-agent at `lineage` may not spawn the child its raw arguments ask for (the guard's own words). */
function spawnRefusal(lineage: Lineage, rawArgs: string): { code: ToolErrorCode; message: string } | undefined {
  let preset = 'general_task';
  try {
    const parsed = JSON.parse(rawArgs || '{}') as { preset?: unknown };
    if (typeof parsed.preset === 'string') preset = parsed.preset;
  } catch {
    // unreadable arguments: the depth rule alone decides
  }
  try {
    assertMaySpawn(lineage, preset);
    return undefined;
  } catch (error) {
    return error instanceof ToolError ? { code: error.code, message: error.message } : undefined;
  }
}

export class Toolbox {
  private readonly tools: Map<string, AnyTool>;

  constructor(
    tools: readonly AnyTool[],
    private readonly env: CallEnvironment,
    private readonly fanOut: boolean,
  ) {
    this.tools = new Map(tools.map((t) => [t.name, t]));
  }

  get names(): string[] {
    return [...this.tools.keys()];
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** The `maxLength` a tool's schema sets on one string argument, if any. */
  maxLength(name: string, field: string): number | undefined {
    const tool = this.tools.get(name);
    const property = tool ? (inputJsonSchema(tool).properties[field] as { maxLength?: unknown } | undefined) : undefined;
    return typeof property?.maxLength === 'number' ? property.maxLength : undefined;
  }

  /** The tools as the model sees them: no confirmation token, no tenant (it is always the parent's). */
  specs(): ToolSpec[] {
    return [...this.tools.values()].map((tool) => {
      const schema = inputJsonSchema(tool);
      const properties: Record<string, unknown> = { ...schema.properties };
      delete properties[CONFIRMATION_TOKEN_FIELD];
      delete properties[TENANT_FIELD];
      if (this.fanOut) {
        properties[GROUP_FIELD] = {
          type: 'string',
          description: 'Optional label. Calls in one reply that share it run concurrently; use it only for calls that do not affect each other.',
        };
      }
      const required = schema.required.filter((r) => r !== CONFIRMATION_TOKEN_FIELD && r !== TENANT_FIELD);
      const hints = tool.hints.length ? `\nHints: ${tool.hints.join(' ')}` : '';
      return { name: tool.name, description: `${tool.description}${hints}`, parameters: { ...schema, properties, required } };
    });
  }

  prepare(call: ToolCall, n: number): PreparedCall {
    const base = { id: call.id, n, tool: call.name, args: {} as Record<string, unknown> };
    const tool = this.tools.get(call.name);
    if (!tool && call.name === SPAWN_TOOL) {
      const refusal = spawnRefusal(this.env.lineage ?? { depth: 0 }, call.arguments);
      if (refusal) return { ...base, refusal };
    }
    if (!tool) {
      return {
        ...base,
        refusal: {
          code: 'tool_not_allowed',
          message: `"${call.name}" is not a tool this sub-agent may call. Its tools are: ${this.names.join(', ') || 'none'}.`,
        },
      };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(call.arguments || '{}');
    } catch (error) {
      return {
        ...base,
        refusal: {
          code: 'invalid_arguments',
          message: `The arguments for ${call.name} are not valid JSON (${(error as Error).message}). Send one JSON object.`,
        },
      };
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return { ...base, refusal: { code: 'invalid_arguments', message: `The arguments for ${call.name} must be a JSON object.` } };
    }
    const { [GROUP_FIELD]: group, [CONFIRMATION_TOKEN_FIELD]: _token, ...args } = parsed as Record<string, unknown>;
    const prepared: PreparedCall = { ...base, args, ...(this.fanOut && typeof group === 'string' && group ? { group } : {}) };
    if (acceptsTenant(tool)) {
      if (args[TENANT_FIELD] !== undefined && args[TENANT_FIELD] !== this.env.tenant) {
        prepared.refusal = {
          code: 'forbidden',
          message: `A sub-agent acts only for its parent's tenant "${this.env.tenant}"; ${TENANT_FIELD} "${String(args[TENANT_FIELD])}" was refused.`,
        };
      } else args[TENANT_FIELD] = this.env.tenant;
    }
    return prepared;
  }

  async run(call: PreparedCall): Promise<CallResult> {
    const started = performance.now();
    const summary = summariseArgs(call.args);
    const stepBase = { n: call.n, tool: call.tool, arguments: summary, ...(call.group ? { parallel_group: call.group } : {}) };
    if (call.refusal) {
      return {
        call,
        step: { ...stepBase, outcome: 'error', error_code: call.refusal.code, message: call.refusal.message, duration_ms: 0 },
        text: `Error (${call.refusal.code}): ${call.refusal.message}`,
      };
    }
    const outcome = await invokeTool(this.tools.get(call.tool)!, call.args, this.env);
    const duration_ms = Math.round(performance.now() - started);
    if (!outcome.ok) {
      return {
        call,
        outcome,
        step: { ...stepBase, outcome: 'error', error_code: outcome.code, message: outcome.message, duration_ms },
        text: `Error (${outcome.code}): ${outcome.message}`,
      };
    }
    const limit = SUB_AGENT_LIMITS.resultCharsForModel;
    const text = outcome.text.length > limit ? `${outcome.text.slice(0, limit)}\n[... ${outcome.text.length - limit} more characters not shown]` : outcome.text;
    return { call, outcome, step: { ...stepBase, outcome: 'ok', duration_ms }, text };
  }
}

/**
 * The environment of a sub-agent's tool calls: the parent's tenant, binding, agent mode, transport, client
 * and services; its own lineage and signal. Confirmation cannot be obtained by a sub-agent: where the policy
 * asks for one, the call fails without issuing a token, and the parent decides.
 */
export function childEnvironment(ctx: ToolContext, lineage: { depth: number; preset: string }, signal: AbortSignal): CallEnvironment {
  return {
    config: ctx.config,
    services: ctx.services,
    logger: ctx.logger.child({ subAgent: lineage.preset, depth: lineage.depth }),
    tenant: ctx.tenant,
    tenantBound: ctx.tenantBound,
    agentMode: ctx.agentMode,
    transport: ctx.transport,
    client: ctx.client,
    lineage,
    signal,
    async elicitConfirmation(request) {
      throw new ToolError(
        `Needs the user's confirmation (${request.summary}), which a sub-agent can neither ask for nor give. ` +
          'Nothing was done. Report this action in your answer so the parent agent can ask the user and run it itself.',
        'confirmation_required',
      );
    },
  };
}
