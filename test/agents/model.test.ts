import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ToolError } from '../../src/errors.js';
import { silentLogger } from '../../src/logging.js';
import { readToolReply, transcriptAsText } from '../../src/model/json-protocol.js';
import { ModelAccess } from '../../src/model/index.js';
import type { ToolSpec } from '../../src/model/types.js';
import { startFixtureServer } from '../helpers/fixture-server.js';
import { startLlmFixture, type LlmFixture } from './llm-fixture.js';

const CALC: ToolSpec = {
  name: 'calculator',
  description: 'Exact arithmetic on two numbers.',
  parameters: {
    type: 'object',
    properties: { operation: { type: 'string' }, a: { type: 'number' }, b: { type: 'number' } },
    required: ['operation', 'a', 'b'],
  },
};

function access(llm: Record<string, unknown>): ModelAccess {
  const overrides = Object.fromEntries(Object.entries(llm).map(([k, v]) => [`llm.${k}`, v]));
  return new ModelAccess(loadConfig({ env: {}, overrides: { dataDir: '/tmp/unused', ...overrides } }), silentLogger());
}

let llm: LlmFixture;
beforeAll(async () => {
  llm = await startLlmFixture();
});
afterAll(async () => llm.close());
afterEach(() => {
  llm.bodies.length = 0;
  llm.server.requests.length = 0;
});

describe('choosing a model', () => {
  it('refuses with a message naming the variables and sampling when nothing is configured', () => {
    const error = (() => {
      try {
        access({}).resolve({});
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('model_unavailable');
    expect((error as ToolError).message).toMatch(/DOCENT_LLM_BASE_URL/);
    expect((error as ToolError).message).toMatch(/DOCENT_LLM_MODEL/);
    expect((error as ToolError).message).toMatch(/sampling/);
  });

  it('names the missing half of an incomplete endpoint configuration', () => {
    expect(() => access({ baseUrl: llm.baseUrl }).resolve({})).toThrow(/DOCENT_LLM_MODEL is not/);
    expect(() => access({ model: 'm' }).resolve({})).toThrow(/set DOCENT_LLM_BASE_URL/);
  });

  it('uses sampling only when no endpoint is configured, and the endpoint first when both exist', async () => {
    const sample = async () => 'from the client';
    expect(access({}).resolve({ sample }).source).toBe('sampling');
    const endpoint = access({ baseUrl: llm.baseUrl, model: 'fixture-model' }).resolve({ sample });
    expect(endpoint.source).toBe('endpoint');
    expect(endpoint.label).toBe(`fixture-model at ${llm.baseUrl}`);
  });
});

describe('OpenAI-compatible endpoint', () => {
  it('sends native tool specs and reads tool_calls from a chat.completion', async () => {
    llm.script([{ toolCalls: [{ id: 'call_a1', name: 'calculator', arguments: { operation: 'add', a: 1, b: 2 } }] }]);
    const model = access({ baseUrl: llm.baseUrl, model: 'fixture-model' }).resolve({});
    const reply = await model.complete({ system: 'Be exact.', messages: [{ role: 'user', content: 'What is 1 + 2?' }], tools: [CALC] });
    expect(reply.toolCalls).toEqual([{ id: 'call_a1', name: 'calculator', arguments: '{"operation":"add","a":1,"b":2}' }]);
    const body = llm.bodies[0]!;
    expect(body.model).toBe('fixture-model');
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be exact.' },
      { role: 'user', content: 'What is 1 + 2?' },
    ]);
    expect(body.tools).toEqual([{ type: 'function', function: { name: 'calculator', description: CALC.description, parameters: CALC.parameters } }]);
    expect(model.toolCalling()).toBe('native');
  });

  it('sends no Authorization header without a key, a Bearer key with one, and ignores OPENAI_* in the environment', async () => {
    const saved = { base: process.env.OPENAI_BASE_URL, org: process.env.OPENAI_ORG_ID };
    process.env.OPENAI_BASE_URL = 'http://127.0.0.1:9/v1';
    process.env.OPENAI_ORG_ID = 'org-from-env';
    try {
      llm.script([{ content: 'one' }, { content: 'two' }]);
      await access({ baseUrl: llm.baseUrl, model: 'm' })
        .resolve({})
        .complete({ messages: [{ role: 'user', content: 'hi' }] });
      await access({ baseUrl: llm.baseUrl, model: 'm', apiKey: 'sk-test-123' })
        .resolve({})
        .complete({ messages: [{ role: 'user', content: 'hi' }] });
    } finally {
      process.env.OPENAI_BASE_URL = saved.base;
      process.env.OPENAI_ORG_ID = saved.org;
      if (saved.base === undefined) delete process.env.OPENAI_BASE_URL;
      if (saved.org === undefined) delete process.env.OPENAI_ORG_ID;
    }
    const [first, second] = llm.server.requests;
    expect(first!.headers.authorization).toBeUndefined();
    expect(second!.headers.authorization).toBe('Bearer sk-test-123');
    expect(first!.headers['openai-organization']).toBeUndefined();
  });

  it('continues a conversation with assistant tool_calls and tool results in the API shape', async () => {
    llm.script([{ content: 'It is 3.' }]);
    const model = access({ baseUrl: llm.baseUrl, model: 'm' }).resolve({});
    const reply = await model.complete({
      messages: [
        { role: 'user', content: 'What is 1 + 2?' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"operation":"add","a":1,"b":2}' }] },
        { role: 'tool', toolCallId: 'c1', name: 'calculator', content: '1 + 2 = 3' },
      ],
      tools: [CALC],
    });
    expect(reply).toEqual({ text: 'It is 3.' });
    expect(llm.bodies[0]!.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'calculator', arguments: '{"operation":"add","a":1,"b":2}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '1 + 2 = 3' },
    ]);
  });

  it('falls back to the JSON tool protocol when the endpoint refuses tools (Ollama 400), and stays there', async () => {
    llm.script([
      { status: 400, error: { message: 'registry.ollama.ai/library/gemma3:4b does not support tools', type: 'api_error' } },
      { content: '```json\n{"tool_calls": [{"name": "calculator", "arguments": {"operation": "multiply", "a": 6, "b": 7}}]}\n```' },
      { content: 'The product is 42.' },
    ]);
    const model = access({ baseUrl: llm.baseUrl, model: 'gemma3:4b' }).resolve({});
    const reply = await model.complete({ system: 'Be exact.', messages: [{ role: 'user', content: '6 × 7?' }], tools: [CALC] });
    expect(reply.toolCalls).toHaveLength(1);
    expect(reply.toolCalls![0]).toMatchObject({ name: 'calculator', arguments: '{"operation":"multiply","a":6,"b":7}' });
    expect(model.toolCalling()).toBe('json');
    expect(llm.bodies[0]!.tools).toHaveLength(1);
    expect(llm.bodies[1]!.tools).toBeUndefined();
    expect(llm.bodies[1]!.messages[0]!.content).toMatch(/Be exact\.[\s\S]*"tool_calls"[\s\S]*### calculator/);

    const next = await model.complete({
      messages: [
        { role: 'user', content: '6 × 7?' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c9', name: 'calculator', arguments: '{"operation":"multiply","a":6,"b":7}' }] },
        { role: 'tool', toolCallId: 'c9', name: 'calculator', content: '6 × 7 = 42' },
      ],
      tools: [CALC],
    });
    expect(next).toEqual({ text: 'The product is 42.' });
    expect(llm.bodies).toHaveLength(3);
    expect(llm.bodies[2]!.tools).toBeUndefined();
    expect(llm.bodies[2]!.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(llm.bodies[2]!.messages[3]!.content).toMatch(/Result of calculator \(call c9\):\n6 × 7 = 42/);
  });

  it('does not fall back when DOCENT_LLM_TOOL_CALLING=native', async () => {
    llm.script([{ status: 400, error: { message: 'llama3 does not support tools', type: 'api_error' } }]);
    const model = access({ baseUrl: llm.baseUrl, model: 'llama3', toolCalling: 'native' }).resolve({});
    await expect(model.complete({ messages: [{ role: 'user', content: 'x' }], tools: [CALC] })).rejects.toMatchObject({
      code: 'model_error',
      message: expect.stringMatching(/400 llama3 does not support tools/),
    });
    expect(llm.bodies).toHaveLength(1);
  });

  it.each([
    [
      401,
      { message: 'Incorrect API key provided: sk-bad.', type: 'invalid_request_error', code: 'invalid_api_key' },
      'model_unavailable',
      /DOCENT_LLM_API_KEY/,
    ],
    [404, { message: 'model "llama9" not found, try pulling it first', type: 'api_error' }, 'model_unavailable', /DOCENT_LLM_MODEL/],
    [422, { message: 'unprocessable', type: 'invalid_request_error' }, 'model_error', /failed \(422 unprocessable\)/],
  ])('explains HTTP %i as a ToolError', async (status, error, code, pattern) => {
    llm.script([{ status, error }]);
    const model = access({ baseUrl: llm.baseUrl, model: 'llama9' }).resolve({});
    await expect(model.complete({ messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ code, message: expect.stringMatching(pattern) });
  });

  it('refuses a base URL carrying credentials without repeating them', () => {
    for (const llmSettings of [{ baseUrl: 'http://user:s3cret@127.0.0.1:1/v1', model: 'm' }, { baseUrl: 'http://user:s3cret@127.0.0.1:1/v1' }]) {
      const error = (() => {
        try {
          access(llmSettings).resolve({});
        } catch (e) {
          return e as ToolError;
        }
      })();
      expect(error?.message).toMatch(/^DOCENT_LLM_BASE_URL .*(contains a user name or password|DOCENT_LLM_MODEL is not)/);
      expect(error?.message).not.toMatch(/s3cret/);
    }
  });

  it('says the endpoint is unreachable when nothing listens there', async () => {
    const gone = await startFixtureServer();
    const url = `${gone.url}/v1`;
    await gone.close();
    const model = access({ baseUrl: url, model: 'm' }).resolve({});
    await expect(model.complete({ messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      code: 'model_unavailable',
      message: expect.stringMatching(/Could not reach the model endpoint .*ECONNREFUSED.*DOCENT_LLM_BASE_URL/),
    });
  });

  it('reports a response without choices as a model error', async () => {
    llm.script([{ body: { id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [] } }]);
    await expect(
      access({ baseUrl: llm.baseUrl, model: 'm' })
        .resolve({})
        .complete({ messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({
      code: 'model_error',
      message: expect.stringMatching(/no choices/),
    });
  });

  it('cancels the request in flight when the signal aborts', async () => {
    llm.script([{ hang: true }]);
    const controller = new AbortController();
    const abandoned = llm.abandonedOnce();
    const pending = access({ baseUrl: llm.baseUrl, model: 'm' })
      .resolve({})
      .complete({ messages: [{ role: 'user', content: 'x' }], signal: controller.signal });
    await expect.poll(() => llm.bodies.length).toBe(1);
    controller.abort(new Error('stop now'));
    await expect(pending).rejects.toThrow('stop now');
    await abandoned;
  });
});

describe('JSON tool protocol', () => {
  it.each([
    ['{"tool_calls":[{"name":"calculator","arguments":{"operation":"add","a":1,"b":2}}]}', 'calculator', '{"operation":"add","a":1,"b":2}'],
    ['Sure.\n```json\n{"steps":[{"tool":"datetime","args":{"action":"now"}}]}\n```', 'datetime', '{"action":"now"}'],
    ['{"name":"calculator","arguments":"{\\"operation\\":\\"add\\",\\"a\\":1,\\"b\\":1}"}', 'calculator', '{"operation":"add","a":1,"b":1}'],
    ['{"calls":[{"tool":"calculator","arguments":{"a":1},"parallel_group":"g1"}]}', 'calculator', '{"a":1,"parallel_group":"g1"}'],
  ])('reads calls from %j', (text, name, args) => {
    const reply = readToolReply(text);
    expect(reply.malformed).toBeUndefined();
    expect(reply.toolCalls).toHaveLength(1);
    expect(reply.toolCalls![0]!.name).toBe(name);
    expect(reply.toolCalls![0]!.arguments).toBe(args);
  });

  it('takes free text and {"answer"} as the answer', () => {
    expect(readToolReply('The answer is 42.')).toEqual({ text: 'The answer is 42.' });
    expect(readToolReply('{"answer": "42"}')).toEqual({ text: '42' });
    expect(readToolReply('{"total": 42}')).toEqual({ text: '{"total": 42}' });
  });

  it.each([
    ['{"tool_calls": [{"name": "calculator", "arguments": {"a": 1}', /not valid JSON/],
    ['{"tool_calls": [{"arguments": {}}]}', /#1 has no "name"/],
    ['{"tool_calls": []}', /empty list/],
    ['I will call it: {"tool_calls": [ oops ]}', /not valid JSON/],
  ])('reports %j as malformed, not as an answer', (text, reason) => {
    const reply = readToolReply(text);
    expect(reply.toolCalls).toBeUndefined();
    expect(reply.malformed).toMatch(reason);
  });

  it('renders a conversation as alternating text turns', () => {
    expect(
      transcriptAsText([
        { role: 'user', content: 'Q' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"a":1}' }] },
        { role: 'tool', toolCallId: 'c1', name: 'calculator', content: 'R1' },
        { role: 'user', content: 'Go on.' },
      ]),
    ).toEqual([
      { role: 'user', text: 'Q' },
      { role: 'assistant', text: '{"tool_calls":[{"name":"calculator","arguments":{"a":1}}]}' },
      { role: 'user', text: 'Result of calculator (call c1):\nR1\n\nGo on.' },
    ]);
  });
});
