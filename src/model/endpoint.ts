/**
 * A chat model behind an OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama, vLLM, LM Studio, ...),
 * through the `openai` package (imported only under src/model; loaded on the first request).
 *
 * Tool calling is native (`tools` / `tool_calls`) by default. When the endpoint refuses a request that carries
 * tools (a 400: the model or server has no tool support), the same request is retried with the JSON text
 * protocol, and that choice is kept for the life of the process. `DOCENT_LLM_TOOL_CALLING` pins either mode.
 */
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { OpenAI } from 'openai';
import { ToolError } from '../errors.js';
import type { Logger } from '../logging.js';
import { readToolReply, toolProtocolInstructions, transcriptAsText } from './json-protocol.js';
import type { ChatMessage, ChatModel, Completion, CompletionRequest, ToolCall } from './types.js';

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

export interface EndpointSettings {
  baseUrl: string;
  model: string;
  apiKey?: string;
  toolCalling: 'auto' | 'native' | 'json';
}

type OpenAIModule = typeof import('openai');

function toApiMessages(system: string | undefined, messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = system ? [{ role: 'system', content: system }] : [];
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: m.content });
    else if (m.role === 'tool') out.push({ role: 'tool', tool_call_id: m.toolCallId, content: m.content });
    else if (m.toolCalls?.length) {
      out.push({
        role: 'assistant',
        content: m.content || null,
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })),
      });
    } else out.push({ role: 'assistant', content: m.content });
  }
  return out;
}

/** The base URL as shown in results and messages: any user:password in it is dropped. */
export function displayUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    if (!url.username && !url.password) return baseUrl;
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return '(invalid URL)';
  }
}

export class EndpointModel implements ChatModel {
  readonly source = 'endpoint' as const;
  readonly label: string;
  private readonly shownUrl: string;
  private mode: 'native' | 'json';
  private clientPromise?: Promise<{ client: OpenAI; sdk: OpenAIModule }>;

  constructor(
    private readonly settings: EndpointSettings,
    private readonly logger: Logger,
  ) {
    this.shownUrl = displayUrl(settings.baseUrl);
    this.label = `${settings.model} at ${this.shownUrl}`;
    this.mode = settings.toolCalling === 'json' ? 'json' : 'native';
  }

  toolCalling(): 'native' | 'json' {
    return this.mode;
  }

  private sdk(): Promise<{ client: OpenAI; sdk: OpenAIModule }> {
    this.clientPromise ??= import('openai').then((sdk) => ({
      sdk,
      client: new sdk.OpenAI({
        // Every option is explicit so OPENAI_BASE_URL, OPENAI_ORG_ID and friends in the environment never apply.
        baseURL: this.settings.baseUrl,
        apiKey: this.settings.apiKey ?? 'unused',
        organization: null,
        project: null,
        // Local servers need no key: send no Authorization header at all rather than a made-up one.
        defaultHeaders: this.settings.apiKey ? {} : { Authorization: null },
        maxRetries: 1,
        timeout: 180_000,
      }),
    }));
    return this.clientPromise;
  }

  async complete(request: CompletionRequest): Promise<Completion> {
    const tools = request.tools?.length ? request.tools : undefined;
    if (tools && this.mode === 'native') {
      try {
        return await this.send(request, 'native');
      } catch (error) {
        const { sdk } = await this.sdk();
        if (this.settings.toolCalling === 'auto' && error instanceof sdk.BadRequestError && !request.signal?.aborted) {
          this.logger.warn({ model: this.settings.model, status: error.status }, 'endpoint refused native tool calling; switching to the JSON tool protocol');
          const completion = await this.send(request, 'json').catch(() => {
            throw this.explain(error, sdk);
          });
          this.mode = 'json';
          return completion;
        }
        throw this.explain(error, sdk, request.signal);
      }
    }
    try {
      return await this.send(request, tools ? 'json' : 'native');
    } catch (error) {
      throw this.explain(error, (await this.sdk()).sdk, request.signal);
    }
  }

  /** One request; errors are thrown raw (the caller explains them). */
  private async send(request: CompletionRequest, mode: 'native' | 'json'): Promise<Completion> {
    const { client } = await this.sdk();
    const tools = request.tools?.length ? request.tools : undefined;
    const started = performance.now();
    let messages: ChatCompletionMessageParam[];
    let apiTools: ChatCompletionTool[] | undefined;
    if (tools && mode === 'json') {
      const system = [request.system, toolProtocolInstructions(tools)].filter(Boolean).join('\n\n');
      messages = [{ role: 'system', content: system }, ...transcriptAsText(request.messages).map((t) => ({ role: t.role, content: t.text }))];
    } else {
      messages = toApiMessages(request.system, request.messages);
      apiTools = tools?.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters } }));
    }
    const response = await client.chat.completions.create(
      { model: this.settings.model, messages, ...(apiTools ? { tools: apiTools } : {}), ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}) },
      { signal: request.signal },
    );
    const choice = response?.choices?.[0];
    if (!choice?.message) {
      throw new ToolError(`The model endpoint ${this.label} returned no choices. Check that DOCENT_LLM_MODEL names a chat model.`, 'model_error');
    }
    const message = choice.message;
    const content = message.content ?? message.refusal ?? '';
    this.logger.debug({ model: this.settings.model, mode, ms: Math.round(performance.now() - started), finish: choice.finish_reason }, 'model reply');
    const native: ToolCall[] = (message.tool_calls ?? [])
      .filter((c) => c.type === 'function')
      .map((c, i) => ({ id: c.id || `call_${i + 1}`, name: c.function.name, arguments: c.function.arguments || '{}' }));
    if (native.length) return { text: content, toolCalls: native };
    // Text-only models, and native ones that wrote their calls as JSON in the content, are read the same way.
    if (tools) return readToolReply(content);
    return { text: content };
  }

  /** Turns an SDK failure into a ToolError that says what to fix; an abort passes through as the signal's reason. */
  private explain(error: unknown, sdk: OpenAIModule, signal?: AbortSignal): unknown {
    if (signal?.aborted) return signal.reason ?? error;
    if (error instanceof ToolError) return error;
    const where = `the model endpoint ${this.shownUrl}`;
    if (error instanceof sdk.APIUserAbortError) return error;
    if (error instanceof sdk.APIConnectionTimeoutError) {
      return new ToolError(`${where} did not answer in time. Check that it is running and not overloaded.`, 'model_unavailable');
    }
    if (error instanceof sdk.APIConnectionError) {
      const cause = error.cause as { cause?: { code?: string }; message?: string } | undefined;
      const detail = cause?.cause?.code ?? cause?.message ?? error.message;
      return new ToolError(`Could not reach ${where} (${detail}). Check that it is running and that DOCENT_LLM_BASE_URL is right.`, 'model_unavailable');
    }
    if (error instanceof sdk.APIError) {
      const status = error.status;
      const detail = error.message;
      if (status === 401 || status === 403) {
        return new ToolError(`${where} refused the request (${detail}). Set DOCENT_LLM_API_KEY (or OPENAI_API_KEY) to a key it accepts.`, 'model_unavailable');
      }
      if (status === 404) {
        return new ToolError(
          `${where} does not know model "${this.settings.model}" or the path (${detail}). Check DOCENT_LLM_MODEL, and that DOCENT_LLM_BASE_URL ends where the API starts (e.g. .../v1).`,
          'model_unavailable',
        );
      }
      if (status === 429) return new ToolError(`${where} is rate-limiting or out of quota (${detail}). Try again later.`, 'model_unavailable');
      return new ToolError(`${where} failed (${detail}).`, 'model_error');
    }
    return error;
  }
}
