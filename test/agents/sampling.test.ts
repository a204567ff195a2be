/**
 * spawn_sub_agent with no endpoint configured: the child's model is the MCP client's, reached through
 * sampling/createMessage. The client here answers those requests from a script, as a host's model would.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CreateMessageRequestSchema, McpError, ErrorCode, type CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import type { SubAgentResult } from '../../src/agents/result.js';
import { startHarness, textOf, type Harness } from '../helpers/harness.js';

type Params = CreateMessageRequest['params'];
type Answer = string | ((params: Params, signal: AbortSignal) => Promise<string>);

let h: Harness;
let script: Answer[] = [];
const requests: Params[] = [];

beforeAll(async () => {
  h = await startHarness({ capabilities: { sampling: {} } });
  h.client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
    requests.push(request.params);
    const next = script.shift();
    if (next === undefined) throw new McpError(ErrorCode.InvalidRequest, 'User rejected the sampling request');
    const text = typeof next === 'string' ? next : await next(request.params, extra.signal);
    return { model: 'host-model', role: 'assistant', content: { type: 'text', text }, stopReason: 'endTurn' };
  });
});
afterAll(async () => h.close());
afterEach(() => {
  requests.length = 0;
  script = [];
});

const text = (p: Params, i: number) => {
  const content = p.messages[i]!.content as { type: string; text?: string };
  return content.text ?? '';
};

describe('sub-agent over MCP sampling', () => {
  it('plans with the JSON tool protocol, runs the tool, and verifies the answer', async () => {
    script = ['{"tool_calls": [{"name": "calculator", "arguments": {"operation": "multiply", "a": 19, "b": 21}}]}', '19 × 21 = 399.'];
    const result = await h.call('spawn_sub_agent', { prompt: 'What is 19 times 21?', preset: 'data_analyst' });
    expect(result.isError).toBeFalsy();
    const value = result.structuredContent as SubAgentResult;
    expect(value).toMatchObject({
      answer: '19 × 21 = 399.',
      verdict: 'verified',
      model: { source: 'sampling', tool_calling: 'json' },
      steps: [{ n: 1, tool: 'calculator', outcome: 'ok' }],
      claims: { checked: 1, held: 1 },
    });
    const [first, second] = requests;
    expect(first!.systemPrompt).toMatch(/You are a data analyst\.[\s\S]*## Calling tools[\s\S]*### calculator/);
    expect(first!.maxTokens).toBe(4096);
    expect(first!.messages.map((m) => m.role)).toEqual(['user']);
    expect(text(first!, 0)).toBe('Task:\nWhat is 19 times 21?');
    expect(second!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(text(second!, 1)).toBe('{"tool_calls":[{"name":"calculator","arguments":{"operation":"multiply","a":19,"b":21}}]}');
    expect(text(second!, 2)).toMatch(/^Result of calculator \(call call_[0-9a-f]{12}\):\n19 × 21 = 399$/);
  });

  it("runs planner_executor's two phases through sampling too", async () => {
    script = [
      '1. Add 40 and 2 with calculator.',
      '```json\n{"steps": [{"tool": "calculator", "args": {"operation": "add", "a": 40, "b": 2}}]}\n```',
      'The sum is 42.',
    ];
    const result = await h.call('spawn_sub_agent', { prompt: 'Add 40 and 2.', preset: 'planner_executor' });
    const value = result.structuredContent as SubAgentResult;
    expect(value).toMatchObject({ answer: 'The sum is 42.', plan: ['Add 40 and 2 with calculator.'], verdict: 'verified' });
    expect(requests[0]!.systemPrompt).not.toMatch(/## Calling tools/);
    expect(requests[1]!.systemPrompt).toMatch(/## Calling tools/);
  });

  it('fails with a clear error when the client refuses to sample', async () => {
    script = [];
    const result = await h.call('spawn_sub_agent', { prompt: 'Anything.' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^The client's model did not answer the sampling request \(.*User rejected the sampling request\)\. Approve sampling in the client, or configure a model endpoint with DOCENT_LLM_BASE_URL and DOCENT_LLM_MODEL\.$/,
    );
  });

  it('times out a sampling request that never returns, and cancels it at the client', async () => {
    let cancelled!: () => void;
    const sawCancel = new Promise<void>((resolve) => (cancelled = resolve));
    script = [
      (_params, signal) =>
        new Promise<string>((_, reject) =>
          signal.addEventListener('abort', () => {
            cancelled();
            reject(new Error('cancelled by the server'));
          }),
        ),
    ];
    const result = await h.call('spawn_sub_agent', { prompt: 'Take your time.', timeout_secs: 0.3 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/timed out after 0\.3 s while executing/);
    await sawCancel;
  });

  it("handles free text and broken JSON from the client's model without crashing", async () => {
    script = ['{"tool_calls": [{"name": "calculator", "arguments": {', 'Sorry, I cannot use tools. The answer is unknown.'];
    const result = await h.call('spawn_sub_agent', { prompt: 'What is 5 + 5?' });
    const value = result.structuredContent as SubAgentResult;
    expect(value.answer).toBe('Sorry, I cannot use tools. The answer is unknown.');
    expect(value.notes[0]).toMatch(/^model reply 1 could not be read: the reply is not valid JSON/);
    expect(text(requests[1]!, 2)).toMatch(/^Your last reply could not be read/);
  });
});
