/**
 * The chat-model contract every caller uses (sub-agents, generative answers): one `complete()` call, whichever
 * model is behind it (an OpenAI-compatible endpoint or the MCP client's model through sampling).
 *
 *   const model = (await ctx.services.model()).resolve(ctx.client);
 *   const { text } = await model.complete({ system, messages: [{ role: 'user', content: question }], signal: ctx.signal });
 *
 * Failures are ToolErrors whose message says what to fix (`model_unavailable`, `model_error`); an aborted
 * `signal` rejects with the signal's reason and cancels the request in flight.
 */

/** A tool the model may call: a name, a description written for the model, and a JSON Schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** One tool call requested by the model. `arguments` is the raw JSON text the model wrote (it may be invalid). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  /** The result of one tool call, answering the assistant's call with the same id. */
  | { role: 'tool'; toolCallId: string; name: string; content: string };

export interface CompletionRequest {
  system?: string;
  messages: ChatMessage[];
  /** Tools offered for this turn; omit for a plain text reply. */
  tools?: ToolSpec[];
  signal?: AbortSignal;
  /** Upper bound on the reply length (used by sampling, which requires one). */
  maxTokens?: number;
}

export interface Completion {
  /** The reply text ('' when the model only called tools). */
  text: string;
  /** Tool calls the model asked for, in its order. */
  toolCalls?: ToolCall[];
  /**
   * Set when the reply was meant as tool calls but could not be read (broken JSON, no tool name): the reason,
   * phrased so it can be sent back to the model. `text` then holds the raw reply.
   */
  malformed?: string;
}

export interface ChatModel {
  /** `endpoint`: the configured OpenAI-compatible server; `sampling`: the MCP client's model. */
  readonly source: 'endpoint' | 'sampling';
  /** Human-readable identity for results and logs, e.g. `llama3.1 at http://localhost:11434/v1`. */
  readonly label: string;
  /** How tool calls travel right now: the API's native `tools`, or the JSON text protocol. */
  toolCalling(): 'native' | 'json';
  complete(request: CompletionRequest): Promise<Completion>;
}
