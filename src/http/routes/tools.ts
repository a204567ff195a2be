/**
 * `POST /v1/tools/:name`: the REST call of any tool, through the same invokeTool path as MCP tools/call
 * (same validation, same confirmation policy, same result). The JSON body is the tool's arguments.
 *
 * 200 `{ ok: true, result, text }`, or `{ ok: false, error: { code, message, ...details } }` with a status
 * from the error code (statusForToolError). A call that needs confirmation answers 409 with
 * `error.confirmation_token`; repeat the call with `"confirmation_token": "<token>"` in the arguments.
 */
import type { AnyTool } from '../../catalog/definition.js';
import { invokeTool, type ToolCallOutcome } from '../../catalog/invoke.js';
import { toolRegistry } from '../../mcp/catalog.js';
import { TOOL_ERROR_STATUS, type ToolErrorCode } from '../../errors.js';
import { withCode } from '../respond.js';
import { HttpError, type Route, type RouteContext } from '../route.js';

/** HTTP status of a failed tool call, from its ToolError code. */
export function statusForToolError(code: ToolErrorCode): number {
  return TOOL_ERROR_STATUS[code];
}

/** Calls `tool` for the request's caller over REST; the call is aborted when the client goes away first. */
export async function invokeForRequest(ctx: RouteContext, tool: AnyTool, args: unknown): Promise<ToolCallOutcome> {
  const { config, services, logger } = ctx.runtime;
  const aborted = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) aborted.abort();
  });
  return invokeTool(tool, args, {
    config,
    services,
    logger,
    tenant: ctx.caller.tenant,
    tenantBound: config.http.auth === 'key',
    agentMode: ctx.caller.agentMode,
    transport: 'rest',
    signal: aborted.signal,
  });
}

export const routes: Route[] = [
  {
    method: 'POST',
    path: '/v1/tools/:name',
    auth: 'key',
    body: 'json',
    async handle(ctx) {
      const tool = (await toolRegistry()).findTool(ctx.params.name!);
      if (!tool) {
        throw new HttpError(404, 'unknown_tool', `No tool named "${ctx.params.name!.slice(0, 100)}". GET /.well-known/agent-manifest.json lists the tools.`);
      }
      const outcome = await invokeForRequest(ctx, tool, ctx.body ?? {});
      if (outcome.ok) return { status: 200, body: { ok: true, result: outcome.value, text: outcome.text } };
      return {
        status: statusForToolError(outcome.code),
        body: { ok: false, error: withCode(outcome.code, outcome.message, outcome.details) },
      };
    },
  },
];
