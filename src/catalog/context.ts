/**
 * What a tool handler is handed. Tools never import LanceDB, `openai` or the network themselves: they reach
 * storage, the documentation index, models and the outbound guard through `ctx.services`, which loads each
 * heavy part on first use.
 */
import type { Config } from '../config.js';
import type { Logger } from '../logging.js';
import type { Services } from '../services.js';
import type { OperationKind } from '../policy/confirmation.js';

export type TransportKind = 'stdio' | 'http' | 'rest' | 'inproc';

export interface ConfirmationRequest {
  /** `safe` (reversible write), `destructive` (delete), `send` (leaves the machine for good), `paid`. */
  kind: OperationKind;
  /** One line shown to the person confirming: exactly what will happen. */
  summary: string;
  /** What is about to be sent or destroyed, shown back before it happens (e.g. the post text). */
  preview?: string;
}

export interface SamplingRequest {
  system?: string;
  messages: { role: 'user' | 'assistant'; text: string }[];
  maxTokens: number;
  temperature?: number;
}

/** Capabilities of the connected MCP client, present only when it advertised them. */
export interface ClientBridge {
  /** Ask the client's model (MCP sampling). */
  sample?(request: SamplingRequest, signal?: AbortSignal): Promise<string>;
}

export interface ToolContext {
  readonly config: Config;
  /** The tenant this call acts for. */
  readonly tenant: string;
  /** True when the tenant comes from an API key: a differing `tenant_id` argument must be refused. */
  readonly tenantBound: boolean;
  readonly agentMode: boolean;
  readonly transport: TransportKind;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  readonly services: Services;
  readonly client: ClientBridge;
  /** Sub-agent lineage: 0 for a direct call; a child's tool calls carry its depth and preset. */
  readonly lineage: { depth: number; preset?: string };
  /** Reports progress on long work (MCP progress notifications when the caller asked for them). */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Resolves when the operation may go ahead under the confirmation policy; otherwise throws a ToolError
   * (declined, or ConfirmationRequiredError carrying the token for a second call). Validate inputs first:
   * an invalid request is an error before any confirmation is asked.
   */
  confirm(request: ConfirmationRequest): Promise<void>;
}
