/**
 * A scripted OpenAI-compatible Chat Completions server on 127.0.0.1:0: each POST /v1/chat/completions gets the
 * next scripted reply, in the real response shapes (a `chat.completion` object, `tool_calls` with JSON-string
 * arguments, finish_reason) and the real error shapes (`{"error": {message, type, param, code}}`).
 */
import type { ServerResponse } from 'node:http';
import { sendJson, startFixtureServer, type FixtureServer, type RecordedRequest } from '../helpers/fixture-server.js';

export type Reply =
  | { content: string }
  | { toolCalls: { name: string; arguments: unknown; id?: string }[]; content?: string }
  | { status: number; error: { message: string; type?: string; param?: string | null; code?: string | null } }
  /** Any 200 JSON body, for malformed responses. */
  | { body: unknown }
  /** Never answers; the request stays open until the client gives up. */
  | { hang: true };

export interface ChatRequestBody {
  model: string;
  messages: { role: string; content?: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string; description: string; parameters: { properties: Record<string, unknown>; required?: string[] } } }[];
  max_tokens?: number;
}

export interface LlmFixture {
  /** Base URL to configure as DOCENT_LLM_BASE_URL (ends in /v1). */
  baseUrl: string;
  server: FixtureServer;
  /** Parsed bodies of the chat requests, in arrival order. */
  bodies: ChatRequestBody[];
  /** Requests on hold ({ hang }) whose connection the client closed. */
  abandoned: number;
  /** Resolves when a held request's connection is closed by the client. */
  abandonedOnce(): Promise<void>;
  /** Sets the replies: a list (one per request, in order) or a function of the request. */
  script(replies: Reply[] | ((body: ChatRequestBody, index: number) => Reply)): void;
  close(): Promise<void>;
}

let counter = 0;

export function completion(model: string, reply: { content?: string | null; toolCalls?: { name: string; arguments: unknown; id?: string }[] }) {
  const toolCalls = reply.toolCalls?.map((c) => ({
    id: c.id ?? `call_${(++counter).toString(36).padStart(8, '0')}`,
    type: 'function',
    function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
  }));
  return {
    id: `chatcmpl-${(++counter).toString(36)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: reply.content ?? null, ...(toolCalls?.length ? { tool_calls: toolCalls } : {}), refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: toolCalls?.length ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
    system_fingerprint: 'fp_fixture',
  };
}

export async function startLlmFixture(): Promise<LlmFixture> {
  let script: (body: ChatRequestBody, index: number) => Reply = () => ({ status: 500, error: { message: 'no script' } });
  const bodies: ChatRequestBody[] = [];
  let abandonWaiters: (() => void)[] = [];
  const fixture: LlmFixture = {
    baseUrl: '',
    server: undefined as unknown as FixtureServer,
    bodies,
    abandoned: 0,
    abandonedOnce: () => new Promise<void>((resolve) => abandonWaiters.push(resolve)),
    script(replies) {
      script = Array.isArray(replies)
        ? (_b, i) => replies[i] ?? { status: 500, error: { message: `fixture: no reply scripted for request ${i + 1}`, type: 'server_error' } }
        : replies;
    },
    close: () => fixture.server.close(),
  };
  const handle = async (req: RecordedRequest, res: ServerResponse) => {
    if (req.method !== 'POST' || !req.url.endsWith('/v1/chat/completions')) {
      sendJson(res, 404, {
        error: { message: `Unknown request URL: ${req.method} ${req.url}`, type: 'invalid_request_error', param: null, code: 'unknown_url' },
      });
      return;
    }
    const body = JSON.parse(req.body) as ChatRequestBody;
    const index = bodies.push(body) - 1;
    const reply = script(body, index);
    if ('hang' in reply) {
      await new Promise<void>((resolve) =>
        res.on('close', () => {
          fixture.abandoned += 1;
          const waiters = abandonWaiters;
          abandonWaiters = [];
          waiters.forEach((w) => w());
          resolve();
        }),
      );
      return;
    }
    if ('status' in reply) {
      sendJson(res, reply.status, { error: { type: 'invalid_request_error', param: null, code: null, ...reply.error } });
      return;
    }
    if ('body' in reply) {
      sendJson(res, 200, reply.body);
      return;
    }
    sendJson(res, 200, completion(body.model, reply));
  };
  fixture.server = await startFixtureServer(handle);
  fixture.baseUrl = `${fixture.server.url}/v1`;
  return fixture;
}

/** The message the model was shown for a tool call's result, from a later request. */
export function toolResultIn(body: ChatRequestBody, toolCallId: string): string | undefined {
  return body.messages.find((m) => m.role === 'tool' && m.tool_call_id === toolCallId)?.content ?? undefined;
}
