/**
 * Calling a tool: the one path shared by MCP tools/call, REST `POST /v1/tools/:name` and sub-agents.
 * Validates arguments with the tool's zod schema, runs the handler with a context, checks the output
 * schema, and turns every failure into a result (the server never throws on input).
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../config.js';
import { ConfigError, ConfirmationRequiredError, ToolError, type ToolErrorCode } from '../errors.js';
import type { Logger } from '../logging.js';
import type { Services } from '../services.js';
import type { ClientBridge, ConfirmationRequest, ToolContext, TransportKind } from './context.js';
import type { AnyTool } from './definition.js';
import { CONFIRMATION_TOKEN_FIELD, describeIssues, effectiveInput } from './schema.js';

export interface CallEnvironment {
  config: Config;
  services: Services;
  logger: Logger;
  tenant: string;
  tenantBound: boolean;
  agentMode: boolean;
  transport: TransportKind;
  client?: ClientBridge;
  lineage?: { depth: number; preset?: string };
  signal?: AbortSignal;
  progress?: (progress: number, total?: number, message?: string) => Promise<void>;
  /** Ask the person at the client (MCP elicitation); resolves true only on an explicit yes. */
  elicitConfirmation?: (request: ConfirmationRequest) => Promise<boolean>;
}

export type ToolCallOutcome =
  { ok: true; value: unknown; text: string; structured: boolean } | { ok: false; code: ToolErrorCode; message: string; details?: Record<string, unknown> };

function render(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** The path of the first string in `value` that is not well-formed UTF-16 (an unpaired surrogate), if any. */
function unpairedSurrogate(value: unknown, at: string[] = []): string[] | undefined {
  if (typeof value === 'string') return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value) ? at : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unpairedSurrogate(value[i], [...at, String(i)]);
      if (found) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const found = unpairedSurrogate(v, [...at, k]);
      if (found) return found;
    }
  }
  return undefined;
}

export async function invokeTool(tool: AnyTool, rawArgs: unknown, env: CallEnvironment): Promise<ToolCallOutcome> {
  // Text that is not valid Unicode (a lone surrogate, as JSON's \ud800 escape allows) cannot be encoded into a
  // URL, a file or a request: refused before anything runs.
  const broken = unpairedSurrogate(rawArgs);
  if (broken) {
    return {
      ok: false,
      code: 'invalid_arguments',
      message: `Invalid arguments for ${tool.name}: \`${broken.join('.') || 'arguments'}\` contains an unpaired UTF-16 surrogate, which is not text. Send valid Unicode.`,
    };
  }
  const parsed = effectiveInput(tool).safeParse(rawArgs ?? {});
  if (!parsed.success) {
    return {
      ok: false,
      code: 'invalid_arguments',
      message: `Invalid arguments for ${tool.name}: ${describeIssues(parsed.error)}. Correct them and call again.`,
    };
  }
  const { [CONFIRMATION_TOKEN_FIELD]: token, ...args } = parsed.data as Record<string, unknown>;
  const log = env.logger.child({ tool: tool.name, tenant: env.tenant, transport: env.transport });
  const subject = { tenant: env.tenant, tool: tool.name, args };
  const ledger = env.services.confirmations;

  const ctx: ToolContext = {
    config: env.config,
    tenant: env.tenant,
    tenantBound: env.tenantBound,
    agentMode: env.agentMode,
    transport: env.transport,
    logger: log,
    signal: env.signal ?? new AbortController().signal,
    services: env.services,
    client: env.client ?? {},
    lineage: env.lineage ?? { depth: 0 },
    progress: env.progress ?? (async () => {}),
    async confirm(request) {
      const check = await ledger.check(subject, request.kind, env.agentMode, token);
      if (check.allowed) {
        if (check.by === 'policy') log.debug({ kind: request.kind, reason: check.reason }, 'auto-confirmed');
        else log.info({ kind: request.kind }, 'confirmed by token');
        return;
      }
      if (env.elicitConfirmation) {
        if (await env.elicitConfirmation(request)) {
          log.info({ kind: request.kind }, 'confirmed by the user');
          return;
        }
        throw new ToolError(`The user declined: ${request.summary}. Nothing was done.`, 'declined');
      }
      const issued = await ledger.issue(subject);
      const preview = request.preview === undefined ? '' : `\n\n${request.preview}\n\n`;
      throw new ConfirmationRequiredError(
        `Confirmation required (${check.reason}): ${request.summary}.${preview} ` +
          `Nothing has been done yet. Show this to the user; if they agree, call ${tool.name} again with the same ` +
          `arguments plus "${CONFIRMATION_TOKEN_FIELD}": "${issued}" (valid ${ledger.settings.confirmationTtlSeconds} s, once).`,
        issued,
        request.summary,
      );
    },
  };

  try {
    const result = await tool.handler(args, ctx);
    if (tool.output) {
      const checked = tool.output.safeParse(result.value);
      if (!checked.success) {
        const id = randomUUID();
        log.error({ id, issues: checked.error.issues }, 'tool produced output that does not match its schema');
        return {
          ok: false,
          code: 'internal_error',
          message: `${tool.name} failed internally (reference ${id}). Try again; if it persists, report the reference to the operator.`,
        };
      }
      return { ok: true, value: checked.data, text: result.text ?? render(checked.data), structured: true };
    }
    return { ok: true, value: result.value, text: result.text ?? render(result.value), structured: false };
  } catch (error) {
    if (error instanceof ToolError) {
      // A confirmation token is a bearer credential for one call: it goes to the caller, never to the logs.
      log.info({ code: error.code }, error instanceof ConfirmationRequiredError ? `confirmation required: ${error.summary}` : error.message);
      return { ok: false, code: error.code, message: error.message, details: error.details };
    }
    if (error instanceof ConfigError) {
      // The operator's setup (e.g. a data directory that cannot be used): the message names what to fix.
      log.warn({ problem: error.message }, 'tool cannot run with this configuration');
      return { ok: false, code: 'not_configured', message: `${tool.name} cannot run: ${error.message}` };
    }
    if (ctx.signal.aborted) {
      return { ok: false, code: 'cancelled', message: `${tool.name} was cancelled before it finished.` };
    }
    const id = randomUUID();
    log.error({ id, err: error }, 'tool failed unexpectedly');
    return {
      ok: false,
      code: 'internal_error',
      message: `${tool.name} failed internally (reference ${id}). Try again; if it persists, report the reference to the operator.`,
    };
  }
}
