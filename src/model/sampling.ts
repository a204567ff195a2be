/**
 * The MCP client's own model, asked through sampling (`sampling/createMessage`). The bridge carries text
 * only, so tools travel by the JSON text protocol. The client (and the person behind it) may refuse a
 * request; that is an error for the caller, not a crash.
 */
import { ToolError } from '../errors.js';
import type { ClientBridge } from '../catalog/context.js';
import type { Logger } from '../logging.js';
import { readToolReply, toolProtocolInstructions, transcriptAsText } from './json-protocol.js';
import type { ChatModel, Completion, CompletionRequest } from './types.js';

export const SAMPLING_MAX_TOKENS = 4096;

export class SamplingModel implements ChatModel {
  readonly source = 'sampling' as const;
  readonly label = "the MCP client's model (sampling)";

  constructor(
    private readonly sample: NonNullable<ClientBridge['sample']>,
    private readonly logger: Logger,
  ) {}

  toolCalling(): 'json' {
    return 'json';
  }

  async complete(request: CompletionRequest): Promise<Completion> {
    const tools = request.tools?.length ? request.tools : undefined;
    const system = [request.system, tools ? toolProtocolInstructions(tools) : undefined].filter(Boolean).join('\n\n');
    const started = performance.now();
    let reply: string;
    try {
      reply = await this.sample(
        {
          system: system || undefined,
          messages: transcriptAsText(request.messages),
          maxTokens: request.maxTokens ?? SAMPLING_MAX_TOKENS,
        },
        request.signal,
      );
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason ?? error;
      const detail = error instanceof Error ? error.message : String(error);
      throw new ToolError(
        `The client's model did not answer the sampling request (${detail}). Approve sampling in the client, or configure a model endpoint with DOCENT_LLM_BASE_URL and DOCENT_LLM_MODEL.`,
        'model_unavailable',
      );
    }
    this.logger.debug({ ms: Math.round(performance.now() - started) }, 'sampling reply');
    return tools ? readToolReply(reply) : { text: reply };
  }
}
