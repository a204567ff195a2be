/**
 * Which chat model answers: the configured OpenAI-compatible endpoint first, else the connected MCP client's
 * model through sampling, else a ToolError that says how to configure one. Never a canned answer.
 *
 * Reached through `ctx.services.model()` (loaded on first use); see `types.ts` for the `complete()` contract.
 */
import type { ClientBridge } from '../catalog/context.js';
import type { Config } from '../config.js';
import { ToolError } from '../errors.js';
import type { Logger } from '../logging.js';
import { EndpointModel, OPENAI_BASE_URL, displayUrl } from './endpoint.js';
import { SamplingModel } from './sampling.js';
import type { ChatModel } from './types.js';

export type { ChatMessage, ChatModel, Completion, CompletionRequest, ToolCall, ToolSpec } from './types.js';

export const NO_MODEL_MESSAGE =
  'No language model is available. Point docent at an OpenAI-compatible chat endpoint with DOCENT_LLM_BASE_URL ' +
  'and DOCENT_LLM_MODEL (for a local Ollama: DOCENT_LLM_BASE_URL=http://localhost:11434/v1 DOCENT_LLM_MODEL=llama3.1; ' +
  'add DOCENT_LLM_API_KEY or OPENAI_API_KEY when the endpoint needs a key), or connect with an MCP client that ' +
  'supports sampling.';

export class ModelAccess {
  private endpoint?: EndpointModel;

  constructor(
    private readonly config: Config,
    private readonly logger: Logger,
  ) {}

  /** True when an endpoint is configured (sampling is then never used). */
  get endpointConfigured(): boolean {
    return this.config.llm.baseUrl !== undefined || this.config.llm.model !== undefined;
  }

  /** The model for a call from this client. Throws a ToolError naming what to configure when there is none. */
  resolve(client: ClientBridge = {}): ChatModel {
    const { baseUrl, model, apiKey, toolCalling } = this.config.llm;
    if (baseUrl !== undefined || model !== undefined) {
      if (model === undefined) {
        throw new ToolError(
          `DOCENT_LLM_BASE_URL is set (${displayUrl(baseUrl!)}) but DOCENT_LLM_MODEL is not: set it to the name of a chat model that endpoint serves.`,
          'model_unavailable',
        );
      }
      if (baseUrl !== undefined && displayUrl(baseUrl) !== baseUrl) {
        throw new ToolError(
          `DOCENT_LLM_BASE_URL (${displayUrl(baseUrl)}) contains a user name or password, which requests cannot carry: remove them and put the key in DOCENT_LLM_API_KEY.`,
          'model_unavailable',
        );
      }
      if (baseUrl === undefined && apiKey === undefined) {
        throw new ToolError(
          `DOCENT_LLM_MODEL is set (${model}) but not where it runs: set DOCENT_LLM_BASE_URL to its OpenAI-compatible endpoint (e.g. http://localhost:11434/v1 for Ollama), or DOCENT_LLM_API_KEY / OPENAI_API_KEY to use OpenAI's API.`,
          'model_unavailable',
        );
      }
      this.endpoint ??= new EndpointModel({ baseUrl: baseUrl ?? OPENAI_BASE_URL, model, apiKey, toolCalling }, this.logger.child({ component: 'model' }));
      return this.endpoint;
    }
    if (client.sample) return new SamplingModel(client.sample, this.logger.child({ component: 'model' }));
    throw new ToolError(NO_MODEL_MESSAGE, 'model_unavailable');
  }
}
