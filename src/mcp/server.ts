/**
 * The MCP server: tools from the registry, presets as prompts, the caller's tenant's documents as resources
 * (src/mcp/resources.ts), the logging capability. One factory serves every transport; the caller supplies how
 * a request maps to a tenant and agent mode.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  LoggingLevelSchema,
  SetLevelRequestSchema,
  type LoggingLevel,
  McpError,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { ClientBridge, ConfirmationRequest, TransportKind } from '../catalog/context.js';
import type { ToolCallOutcome } from '../catalog/invoke.js';
import type { Config } from '../config.js';
import type { Logger } from '../logging.js';
import type { Services } from '../services.js';
import { toolCatalog, toolRegistry } from './catalog.js';
import { SERVER_CAPABILITIES, SERVER_INFO, SERVER_INSTRUCTIONS } from './identity.js';
import { listDocumentResources, readDocumentResource, RESOURCE_TEMPLATES } from './resources.js';

// Presets and tools load on first use: every module a cold start skips is startup time saved.
const presets = () => import('../../presets/index.js');

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** MCP log levels, least severe first (the protocol's own order). */
const LOG_SEVERITY: readonly LoggingLevel[] = LoggingLevelSchema.options;
/** The level of log notifications for a session that has not sent logging/setLevel. */
const DEFAULT_CLIENT_LOG_LEVEL: LoggingLevel = 'warning';

export interface CallerIdentity {
  tenant: string;
  tenantBound: boolean;
  agentMode: boolean;
}

export interface McpServerOptions {
  config: Config;
  services: Services;
  logger: Logger;
  transport: TransportKind;
  /** Maps a request to the tenant and agent mode it acts under. */
  identify(extra: Extra): CallerIdentity;
  /** Whether server-to-client requests (elicitation, sampling) can reach the client on this transport. */
  serverRequests: boolean;
}

export function toCallToolResult(outcome: ToolCallOutcome): CallToolResult {
  if (outcome.ok) {
    return {
      content: [{ type: 'text', text: outcome.text }],
      ...(outcome.structured ? { structuredContent: outcome.value as Record<string, unknown> } : {}),
    };
  }
  return { content: [{ type: 'text', text: outcome.message }], isError: true };
}

export function createMcpServer(options: McpServerOptions): Server {
  const { config, services, logger } = options;
  const server = new Server(SERVER_INFO, { capabilities: SERVER_CAPABILITIES, instructions: SERVER_INSTRUCTIONS });

  // Log notifications (one per tool call) go to a session at the level it asked for with logging/setLevel;
  // a session that never asked gets warnings and errors only, not a notification for every call.
  const logLevels = new Map<string | undefined, LoggingLevel>();
  server.setRequestHandler(SetLevelRequestSchema, async (request, extra) => {
    logLevels.set(extra.sessionId, request.params.level);
    return {};
  });
  const wants = (level: LoggingLevel, sessionId: string | undefined) =>
    LOG_SEVERITY.indexOf(level) >= LOG_SEVERITY.indexOf(logLevels.get(sessionId) ?? DEFAULT_CLIENT_LOG_LEVEL);

  // Tool modules load on the first call; tools/list is served from the catalog (src/mcp/catalog.ts).
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await toolCatalog() }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const [{ findTool }, { invokeTool }] = await Promise.all([toolRegistry(), import('../catalog/invoke.js')]);
    const tool = findTool(request.params.name);
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}. Call tools/list for the available tools.`);
    }
    const identity = options.identify(extra);
    const progressToken = request.params._meta?.progressToken;
    const caps = server.getClientCapabilities();
    const client: ClientBridge = {};
    if (options.serverRequests && caps?.sampling) {
      client.sample = async (req, signal) => {
        const result = await server.createMessage(
          {
            systemPrompt: req.system,
            messages: req.messages.map((m) => ({ role: m.role, content: { type: 'text' as const, text: m.text } })),
            maxTokens: req.maxTokens,
            temperature: req.temperature,
          },
          // Related to the tools/call, so over HTTP it travels on that request's stream (no GET stream needed).
          { signal: signal ?? extra.signal, timeout: 180_000, relatedRequestId: extra.requestId },
        );
        const content = result.content as { type: string; text?: string } | { type: string; text?: string }[];
        const parts = Array.isArray(content) ? content : [content];
        return parts
          .filter((c) => c.type === 'text')
          .map((c) => c.text ?? '')
          .join('');
      };
    }
    const elicitConfirmation =
      options.serverRequests && caps?.elicitation
        ? async (req: ConfirmationRequest) => {
            const result = await server.elicitInput(
              {
                message: `${req.summary}${req.preview ? `\n\n${req.preview}` : ''}\n\nProceed?`,
                requestedSchema: {
                  type: 'object',
                  properties: { confirm: { type: 'boolean', title: 'Proceed', description: req.summary } },
                  required: ['confirm'],
                },
              },
              { signal: extra.signal, relatedRequestId: extra.requestId },
            );
            return result.action === 'accept' && result.content?.confirm === true;
          }
        : undefined;

    const started = performance.now();
    const outcome = await invokeTool(tool, request.params.arguments, {
      config,
      services,
      logger,
      ...identity,
      transport: options.transport,
      client,
      signal: extra.signal,
      elicitConfirmation,
      progress:
        progressToken === undefined
          ? undefined
          : async (progress, total, message) => {
              await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, total, message } }).catch(() => undefined);
            },
    });
    const ms = Math.round(performance.now() - started);
    const level: LoggingLevel = outcome.ok ? 'info' : outcome.code === 'internal_error' ? 'error' : 'warning';
    if (wants(level, extra.sessionId)) {
      await server
        .sendLoggingMessage(
          { level, logger: 'docent', data: { tool: tool.name, ok: outcome.ok, ...(outcome.ok ? {} : { code: outcome.code }), ms } },
          extra.sessionId,
        )
        .catch(() => undefined);
    }
    return toCallToolResult(outcome);
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: (await presets()).PRESETS.map((preset) => ({
      name: preset.name,
      title: preset.name.replace(/_/g, ' '),
      description: preset.description,
      arguments: [{ name: 'task', description: 'The task for the agent to carry out under this preset', required: false }],
    })),
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const preset = (await presets()).findPreset(request.params.name);
    if (!preset) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}. Call prompts/list for the presets.`);
    }
    const task = request.params.arguments?.task?.trim();
    const text = `${preset.instructions}\n\nTools you may use: ${preset.tools.join(', ')}.` + (task ? `\n\nTask: ${task}` : '');
    return { description: preset.description, messages: [{ role: 'user', content: { type: 'text', text } }] };
  });

  // Documents of the caller's tenant only: the tenant comes from the request (its key over HTTP), never from the URI.
  const docsOf = async (extra: Extra) => (await services.docs()).forTenant(options.identify(extra).tenant);
  server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) => listDocumentResources(await docsOf(extra), request.params?.cursor));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => readDocumentResource(await docsOf(extra), request.params.uri));

  server.onerror = (error) => logger.warn({ err: error }, 'MCP protocol error');
  answerInvalidParamsAsSuch(server);
  return server;
}

/**
 * The SDK validates each request's params with its schema inside the handler it registers, so invalid params
 * (`tools/call` with `arguments: []`, `prompts/get` with a numeric name, `logging/setLevel` with an unknown
 * level) surface as -32603 with a raw validation dump. Every handler, ours and the SDK's own, is wrapped so
 * that a validation failure is -32602 with a message naming the field and what it must be.
 */
function answerInvalidParamsAsSuch(server: Server): void {
  // The handler map is the SDK's (Protocol._requestHandlers); its entries are (request, extra) => Promise.
  const handlers = (server as unknown as { _requestHandlers: Map<string, (request: { method: string }, extra: unknown) => Promise<unknown>> })._requestHandlers;
  for (const [method, handler] of handlers) {
    handlers.set(method, async (request, extra) => {
      try {
        return await handler(request, extra);
      } catch (error) {
        const issues = (error as { issues?: { path: PropertyKey[]; message: string }[] }).issues;
        if (!(error instanceof McpError) && Array.isArray(issues)) {
          const fields = issues.map((i) => `${i.path.length ? `\`${i.path.map(String).join('.')}\`` : 'the request'}: ${i.message}`);
          throw new McpError(
            ErrorCode.InvalidParams,
            `Invalid params for ${method}: ${[...new Set(fields)].slice(0, 5).join('; ')}. See the method's schema in the MCP specification.`,
          );
        }
        throw error;
      }
    });
  }
}
