/**
 * spawn_sub_agent end to end: a real MCP client calls the tool on a real server; the child's model is a
 * scripted OpenAI-compatible fixture on 127.0.0.1; the child's tools are the real catalog tools.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { findPreset } from '../../presets/index.js';
import { findTool } from '../../tools/index.js';
import { SUB_AGENT_LIMITS } from '../../src/agents/limits.js';
import type { SubAgentResult } from '../../src/agents/result.js';
import { invokeTool } from '../../src/catalog/invoke.js';
import { silentLogger } from '../../src/logging.js';
import { startHarness, textOf, type Harness } from '../helpers/harness.js';
import { startLlmFixture, toolResultIn, type ChatRequestBody, type LlmFixture } from './llm-fixture.js';

let llm: LlmFixture;
let h: Harness;

beforeAll(async () => {
  llm = await startLlmFixture();
  h = await startHarness({ overrides: { 'llm.baseUrl': llm.baseUrl, 'llm.model': 'fixture-model' } });
});
afterAll(async () => {
  await h.close();
  await llm.close();
});
afterEach(() => {
  llm.bodies.length = 0;
});

async function spawn(args: Record<string, unknown>, harness: Harness = h) {
  const result = await harness.call('spawn_sub_agent', args);
  return { result, value: result.structuredContent as SubAgentResult | undefined, text: textOf(result) };
}

const registered = (preset: string) => findPreset(preset)!.tools.filter((name) => findTool(name) !== undefined);
const toolNames = (body: ChatRequestBody) => body.tools?.map((t) => t.function.name);
const lastUser = (body: ChatRequestBody) => [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';

describe('the full cycle', () => {
  it('plans a tool call, runs it, synthesises and verifies the answer', async () => {
    llm.script([
      { toolCalls: [{ id: 'call_m', name: 'calculator', arguments: { operation: 'multiply', a: 1234, b: 5678 } }] },
      { content: '1234 multiplied by 5678 is 7006652.' },
    ]);
    const { result, value, text } = await spawn({ prompt: 'What is 1234 times 5678?' });
    expect(result.isError).toBeFalsy();
    expect(value).toMatchObject({
      answer: '1234 multiplied by 5678 is 7006652.',
      verdict: 'verified',
      preset: 'general_task',
      depth: 1,
      model: { source: 'endpoint', label: `fixture-model at ${llm.baseUrl}`, tool_calling: 'native' },
      plan: ['calculator {"operation":"multiply","a":1234,"b":5678}'],
      claims: { checked: 1, held: 1 },
      notes: [],
    });
    expect(value!.steps).toEqual([
      { n: 1, tool: 'calculator', arguments: '{"operation":"multiply","a":1234,"b":5678}', outcome: 'ok', duration_ms: expect.any(Number) },
    ]);
    expect(value!.claims.items[0]!.sources).toContain('step 1 (calculator)');
    expect(value!.wall_time_ms).toBeGreaterThanOrEqual(0);
    expect(text).toMatch(/^1234 multiplied by 5678 is 7006652\.\n\n---\nVerdict: verified \(1 of 1 checked claim\(s\) held\)/);

    // What the model saw: the preset's instructions and exactly the preset's registered tools, then the real result.
    const [first, second] = llm.bodies;
    expect(first!.messages[0]).toMatchObject({ role: 'system' });
    expect(first!.messages[0]!.content).toContain(findPreset('general_task')!.instructions);
    expect(first!.messages[1]).toEqual({ role: 'user', content: 'Task:\nWhat is 1234 times 5678?' });
    expect(new Set(toolNames(first!))).toEqual(new Set(registered('general_task')));
    expect(toolResultIn(second!, 'call_m')).toBe('1234 × 5678 = 7006652');
  });

  it('hides confirmation tokens and tenant ids from the tool specs it offers', async () => {
    llm.script([{ content: 'Nothing to do.' }]);
    await spawn({ prompt: 'Nothing.', preset: 'growth_hacker' });
    for (const tool of llm.bodies[0]!.tools ?? []) {
      expect(Object.keys(tool.function.parameters.properties)).not.toContain('confirmation_token');
      expect(Object.keys(tool.function.parameters.properties)).not.toContain('tenant_id');
      expect(tool.function.parameters.required ?? []).not.toContain('tenant_id');
    }
  });

  it('marks an answer partially verified when one of its figures appears in no evidence', async () => {
    llm.script([
      { toolCalls: [{ name: 'calculator', arguments: { operation: 'add', a: 1234, b: 5678 } }] },
      { content: 'The sum is 6912. The difference is 4440.' },
    ]);
    const { value, text } = await spawn({ prompt: 'Add 1234 and 5678.' });
    expect(value!.verdict).toBe('partially_verified');
    expect(value!.claims).toMatchObject({ checked: 2, held: 1 });
    expect(value!.claims.items.map((c) => [c.text, c.held, c.unsupported])).toEqual([
      ['The sum is 6912.', true, []],
      ['The difference is 4440.', false, ['4440']],
    ]);
    expect(text).toMatch(/Not supported by the evidence:\n {2}- "The difference is 4440\." \(not found: 4440\)/);
  });

  it('completes a direct answer as a one-step plan, checked against the task text', async () => {
    llm.script([{ content: 'The number is 4711.' }]);
    const { value } = await spawn({ prompt: 'Repeat the number 4711 back to me.' });
    expect(value).toMatchObject({ plan: ['answer directly (no tool needed)'], steps: [], verdict: 'verified', claims: { checked: 1, held: 1 } });
    expect(value!.claims.items[0]!.sources).toEqual(['task']);

    llm.bodies.length = 0;
    llm.script([{ content: 'Hello! Happy to help.' }]);
    const greeting = await spawn({ prompt: 'Greet me.' });
    expect(greeting.value).toMatchObject({
      answer: 'Hello! Happy to help.',
      plan: ['answer directly (no tool needed)'],
      steps: [],
      verdict: 'unverified',
      claims: { checked: 0, held: 0 },
    });
  });

  it('reports progress for each phase and step', async () => {
    llm.script([{ toolCalls: [{ name: 'calculator', arguments: { operation: 'subtract', a: 10, b: 4 } }] }, { content: '10 minus 4 is 6.' }]);
    const messages: string[] = [];
    await h.client.callTool({ name: 'spawn_sub_agent', arguments: { prompt: 'What is 10 - 4?' } }, CallToolResultSchema, {
      onprogress: (p) => messages.push(p.message ?? ''),
    });
    expect(messages).toEqual([
      'general_task (depth 1): planning',
      'general_task (depth 1): planning the tool calls',
      'general_task (depth 1): step 1: calculator',
      'general_task (depth 1): model turn 2',
      'general_task (depth 1): fact-checking the answer',
    ]);
  });

  it('gives data_analyst figures with their provenance', async () => {
    llm.script([
      { toolCalls: [{ name: 'calculator', arguments: { operation: 'divide', a: 45, b: 60 } }] },
      { content: 'The conversion rate is 0.75 (45 ÷ 60, from step 1).' },
    ]);
    const { value, text } = await spawn({ prompt: '45 of 60 visitors converted. What is the conversion rate?', preset: 'data_analyst' });
    expect(value!.verdict).toBe('verified');
    expect(value!.claims.items[0]!.sources).toEqual(['step 1 (calculator)']);
    expect(text).toContain('Provenance:\n  - "The conversion rate is 0.75 (45 ÷ 60, from step 1)." ← step 1 (calculator)');
  });
});

describe('presets', () => {
  it('rust_backend_architect offers parallel_group and fans grouped steps out', async () => {
    llm.script([
      {
        toolCalls: [
          { name: 'calculator', arguments: { operation: 'multiply', a: 12, b: 8, parallel_group: 'sizes' } },
          { name: 'calculator', arguments: { operation: 'multiply', a: 3, b: 1024, parallel_group: 'sizes' } },
          { name: 'calculator', arguments: { operation: 'add', a: 96, b: 3072 } },
        ],
      },
      { content: 'The pool needs 96 plus 3072, so 3168 slots.' },
    ]);
    const { value } = await spawn({ prompt: 'Size the connection pool.', preset: 'rust_backend_architect' });
    expect(value!.steps.map((s) => [s.n, s.parallel_group, s.outcome])).toEqual([
      [1, 'sizes', 'ok'],
      [2, 'sizes', 'ok'],
      [3, undefined, 'ok'],
    ]);
    expect(value!.steps[0]!.arguments).toBe('{"operation":"multiply","a":12,"b":8}');
    expect(llm.bodies[0]!.tools!.find((t) => t.function.name === 'calculator')!.function.parameters.properties).toHaveProperty('parallel_group');
    expect(llm.bodies[0]!.messages[0]!.content).toMatch(/parallel_group/);
    expect(value!.verdict).toBe('verified');
  });

  it('planner_executor plans first (no tools offered), then executes the steps in order', async () => {
    llm.script([
      { content: '1. Multiply 12 by 12 with calculator.\n2. Add 1 to the product with calculator.' },
      { toolCalls: [{ id: 'c1', name: 'calculator', arguments: { operation: 'multiply', a: 12, b: 12 } }] },
      { toolCalls: [{ id: 'c2', name: 'calculator', arguments: { operation: 'add', a: 144, b: 1 } }] },
      { content: '12 × 12 is 144, and adding 1 gives 145.' },
    ]);
    const { value } = await spawn({ prompt: 'Compute 12 squared plus 1.', preset: 'planner_executor' });
    expect(value).toMatchObject({
      plan: ['Multiply 12 by 12 with calculator.', 'Add 1 to the product with calculator.'],
      verdict: 'verified',
      preset: 'planner_executor',
    });
    expect(value!.steps.map((s) => [s.n, s.tool, s.outcome])).toEqual([
      [1, 'calculator', 'ok'],
      [2, 'calculator', 'ok'],
    ]);
    const [plan, exec1, exec2] = llm.bodies;
    expect(plan!.tools).toBeUndefined();
    expect(plan!.messages[0]!.content).toMatch(/## Phase 1: plan/);
    expect(exec1!.tools?.length).toBeGreaterThan(0);
    expect(lastUser(exec1!)).toMatch(/^Phase 2, execute/);
    expect(toolResultIn(exec2!, 'c1')).toBe('12 × 12 = 144');
  });

  it('planner_executor takes free text where a plan was expected as a one-step plan', async () => {
    llm.script([{ content: 'I would just answer: it is 7.' }, { content: 'It is 7.' }]);
    const { value } = await spawn({ prompt: 'What is 3 + 4?', preset: 'planner_executor' });
    expect(value).toMatchObject({ answer: 'It is 7.', plan: ['I would just answer: it is 7.'], steps: [] });
    expect(value!.notes).toContain('the model wrote no numbered plan; its reply was taken as a one-step plan');
  });

  it('security_auditor asks for a rewrite when the threat model, findings and remediation sections are missing', async () => {
    llm.script([
      { content: 'The upload endpoint trusts the file name.' },
      { content: '## Threat model\nUploads cross a trust boundary.\n## Findings\nThe file name is trusted.\n## Remediation\nNormalise the name.' },
    ]);
    const { value } = await spawn({ prompt: 'Audit the upload handler design.', preset: 'security_auditor' });
    expect(value!.answer).toMatch(/^## Threat model[\s\S]*## Findings[\s\S]*## Remediation/);
    expect(lastUser(llm.bodies[1]!)).toMatch(/^Rewrite your final answer with sections headed exactly: Threat model, Findings, Remediation/);
    expect(value!.notes).toEqual([]);
  });

  it.each(['rag_data_engineer', 'growth_hacker'])('%s consults the documentation before planning', async (preset) => {
    llm.script([{ content: 'The documentation does not cover rate limits.' }]);
    const { value } = await spawn({ prompt: 'What rate limits does the zorblax API apply?', preset });
    const task = llm.bodies[0]!.messages[1]!.content!;
    if (findTool('rag_query')) {
      expect(value!.steps[0]).toMatchObject({ n: 1, tool: 'rag_query', outcome: 'ok' });
      expect(value!.retrieval).toMatchObject({ tool: 'rag_query', grounded: false });
      expect(task).toMatch(/documentation has nothing that answers this task/);
    } else {
      expect(value!.steps).toEqual([]);
      expect(value!.retrieval).toEqual({ tool: 'rag_query', grounded: false, sources: [], note: expect.stringMatching(/rag_query is not available/) });
      expect(task).toMatch(/the tenant's documentation was not consulted/);
    }
  });
});

describe("grounding in the tenant's documentation", () => {
  it.skipIf(!findTool('rag_query'))('rag_data_engineer retrieves first and checks every sentence against the passages', async () => {
    const docs = await startHarness({ overrides: { 'llm.baseUrl': llm.baseUrl, 'llm.model': 'fixture-model', 'docs.answers': 'extractive' } });
    try {
      const index = await (await docs.services.docs()).forTenant(docs.config.tenant);
      await index.ingestDocument({
        title: 'limits.md',
        content:
          '# Rate limits\n\nThe zorblax API allows 120 requests per minute per key. Requests above the limit receive HTTP 429 with a Retry-After header.\n',
      });
      llm.script([{ content: 'The zorblax API allows 120 requests per minute per key. Set `burstLimit` to raise it.' }]);
      const { value } = await spawn({ prompt: 'How many requests per minute does the zorblax API allow?', preset: 'rag_data_engineer' }, docs);
      expect(value!.steps[0]).toMatchObject({ n: 1, tool: 'rag_query', outcome: 'ok' });
      expect(value!.retrieval).toMatchObject({ tool: 'rag_query', grounded: true, sources: ['limits.md'] });
      expect(llm.bodies[0]!.messages[1]!.content).toMatch(/Documentation retrieved for this task \(rag_query\):[\s\S]*120 requests per minute/);
      expect(value!.claims.items.map((c) => c.held)).toEqual([true, false]);
      expect(value!.claims.items[1]!.unsupported).toContain('burstLimit');
      expect(value!.claims.items[0]!.sources).toEqual(['step 1 (rag_query)']);
      expect(value!.verdict).toBe('partially_verified');
    } finally {
      await docs.close();
    }
  });
});

describe('guards', () => {
  it("a sub-agent cannot spawn: a planner_executor child of a planner_executor, and any child's child, are refused", async () => {
    llm.script([
      { content: '1. Delegate planning.\n2. Delegate the sum.' },
      { toolCalls: [{ id: 'pe', name: 'spawn_sub_agent', arguments: { prompt: 'Plan it again.', preset: 'planner_executor' } }] },
      { toolCalls: [{ id: 'gt', name: 'spawn_sub_agent', arguments: { prompt: 'What is 2 + 2? Use the calculator.', preset: 'general_task' } }] },
      { content: 'Delegation was refused, so the sum was not delegated.' },
    ]);
    const { value } = await spawn({ prompt: 'Get 2 + 2 computed by a helper.', preset: 'planner_executor' });
    expect(value!.steps.map((s) => [s.tool, s.outcome, s.error_code])).toEqual([
      ['spawn_sub_agent', 'error', 'depth_guard'],
      ['spawn_sub_agent', 'error', 'depth_guard'],
    ]);
    expect(value!.steps[0]!.message).toMatch(/planner_executor may not spawn another planner_executor/);
    expect(value!.steps[1]!.message).toMatch(/capped at depth 2.*a sub-agent cannot spawn/);
    expect(llm.bodies).toHaveLength(4); // no grandchild ever reached the model
    // The child (depth 2 counting the caller) is not even offered the spawn tool.
    expect(toolNames(llm.bodies[1]!)).not.toContain('spawn_sub_agent');
    expect(new Set(toolNames(llm.bodies[1]!))).toEqual(new Set(registered('planner_executor').filter((n) => n !== 'spawn_sub_agent')));
  });

  it('refuses to spawn from a sub-agent before asking any model', async () => {
    const outcome = await invokeTool(
      findTool('spawn_sub_agent')!,
      { prompt: 'Go deeper.', preset: 'general_task' },
      {
        config: h.config,
        services: h.services,
        logger: silentLogger(),
        tenant: 'default',
        tenantBound: false,
        agentMode: true,
        transport: 'inproc',
        lineage: { depth: 1, preset: 'general_task' },
      },
    );
    expect(outcome).toMatchObject({ ok: false, code: 'depth_guard', message: expect.stringMatching(/capped at depth 2/) });
    expect(llm.bodies).toHaveLength(0);
  });

  it('refuses tools outside the preset, and unknown tools, as failed steps the model sees', async () => {
    llm.script([
      {
        toolCalls: [
          { id: 'x1', name: 'calculator', arguments: { operation: 'add', a: 1, b: 1 } },
          { id: 'x2', name: 'shell_exec', arguments: { cmd: 'id' } },
        ],
      },
      { content: 'Threat model: none established.\nFindings: none.\nRemediation: none needed.' },
    ]);
    const { value } = await spawn({ prompt: 'Audit this.', preset: 'security_auditor' });
    expect(llm.bodies).toHaveLength(2);
    expect(toolNames(llm.bodies[0]!)).not.toContain('calculator');
    expect(value!.steps.map((s) => [s.tool, s.error_code])).toEqual([
      ['calculator', 'tool_not_allowed'],
      ['shell_exec', 'tool_not_allowed'],
    ]);
    expect(toolResultIn(llm.bodies[1]!, 'x1')).toMatch(/^Error \(tool_not_allowed\): "calculator" is not a tool this sub-agent may call\. Its tools are: /);
  });

  it("runs a child's delete under the parent's confirmation policy: refused, no token minted or accepted", async () => {
    const agent = await startHarness({
      overrides: { 'llm.baseUrl': llm.baseUrl, 'llm.model': 'fixture-model' },
      identity: { agentMode: true },
    });
    try {
      await mkdir(agent.config.workspaceDir, { recursive: true });
      await writeFile(path.join(agent.config.workspaceDir, 'keep.txt'), 'precious');
      llm.script([
        {
          toolCalls: [
            { id: 'w', name: 'file_operations', arguments: { operation: 'write', path: 'notes.txt', content: 'draft' } },
            { id: 'd1', name: 'file_operations', arguments: { operation: 'delete', path: 'keep.txt' } },
            {
              id: 'd2',
              name: 'file_operations',
              arguments: { operation: 'delete', path: 'keep.txt', confirmation_token: 'ct1.9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
            },
          ],
        },
        { content: "I wrote notes.txt; deleting keep.txt needs the user's confirmation." },
      ]);
      const { value } = await spawn({ prompt: 'Write notes.txt and remove keep.txt.' }, agent);
      expect(value!.steps.map((s) => [s.n, s.outcome, s.error_code])).toEqual([
        [1, 'ok', undefined],
        [2, 'error', 'confirmation_required'],
        [3, 'error', 'confirmation_required'],
      ]);
      for (const step of value!.steps.slice(1)) {
        expect(step.message).toMatch(/Needs the user's confirmation .* which a sub-agent can neither ask for nor give/);
        expect(step.message).not.toMatch(/ct1\./);
      }
      expect(value!.steps[2]!.arguments).not.toContain('confirmation_token');
      expect(existsSync(path.join(agent.config.workspaceDir, 'keep.txt'))).toBe(true);
      expect(existsSync(path.join(agent.config.workspaceDir, 'notes.txt'))).toBe(true);
    } finally {
      await agent.close();
    }
  });

  it.skipIf(!findTool('pricing_manager'))("acts only for the parent's tenant", async () => {
    const bound = await startHarness({
      overrides: { 'llm.baseUrl': llm.baseUrl, 'llm.model': 'fixture-model' },
      identity: { tenant: 'acme', tenantBound: true },
    });
    try {
      llm.script([
        {
          toolCalls: [
            { id: 'other', name: 'pricing_manager', arguments: { action: 'list_plans', tenant_id: 'globex' } },
            { id: 'own', name: 'pricing_manager', arguments: { action: 'list_plans' } },
          ],
        },
        { content: 'acme has no plans yet.' },
      ]);
      const { value } = await spawn({ prompt: 'List our plans.', preset: 'data_analyst' }, bound);
      expect(value!.steps.map((s) => [s.outcome, s.error_code])).toEqual([
        ['error', 'forbidden'],
        ['ok', undefined],
      ]);
      expect(value!.steps[0]!.message).toMatch(/only for its parent's tenant "acme"; tenant_id "globex" was refused/);
      expect(toolResultIn(llm.bodies[1]!, 'own')).toMatch(/^Tenant "acme" has no pricing plans yet/);
    } finally {
      await bound.close();
    }
  });
});

describe('failures', () => {
  it('times out: cancels the model request in flight and says so, and the server keeps serving', async () => {
    llm.script([{ hang: true }]);
    const abandoned = llm.abandonedOnce();
    const { result, text } = await spawn({ prompt: 'Think forever.', timeout_secs: 0.3 });
    expect(result.isError).toBe(true);
    expect(text).toMatch(
      /^The sub-agent \(general_task\) timed out after 0\.3 s while executing, with 0 tool call\(s\) done .* cancelled\. Give it a longer timeout_secs \(at most 180\)/,
    );
    await abandoned;

    llm.bodies.length = 0;
    llm.script([{ content: 'Back.' }]);
    expect((await spawn({ prompt: 'Still there?' })).value!.answer).toBe('Back.');
  });

  it('recovers from bad tool-call JSON and invalid arguments as failed steps', async () => {
    llm.script([
      { toolCalls: [{ id: 'bad', name: 'calculator', arguments: '{"operation": "add", "a": 1,' }] },
      { toolCalls: [{ id: 'wrong', name: 'calculator', arguments: { operation: 'power', a: 2, b: 10 } }] },
      { toolCalls: [{ id: 'good', name: 'calculator', arguments: { operation: 'multiply', a: 2, b: 512 } }] },
      { content: '2 times 512 is 1024.' },
    ]);
    const { result, value } = await spawn({ prompt: 'What is 2 to the 10th?' });
    expect(result.isError).toBeFalsy();
    expect(value!.steps.map((s) => [s.outcome, s.error_code])).toEqual([
      ['error', 'invalid_arguments'],
      ['error', 'invalid_arguments'],
      ['ok', undefined],
    ]);
    expect(toolResultIn(llm.bodies[1]!, 'bad')).toMatch(/^Error \(invalid_arguments\): The arguments for calculator are not valid JSON/);
    expect(toolResultIn(llm.bodies[2]!, 'wrong')).toMatch(/^Error \(invalid_arguments\): Invalid arguments for calculator: `operation`/);
    expect(value!.verdict).toBe('verified');
  });

  it('gives up with a clear error when the model keeps replying with unreadable output', async () => {
    llm.script(() => ({ content: '{"tool_calls": [{"name": "calculator", "arguments": {"a": 1' }));
    const { result, text } = await spawn({ prompt: 'Add things.' });
    expect(result.isError).toBe(true);
    expect(text).toMatch(
      /^The model's replies could not be read 3 times in a row \(last: the reply is not valid JSON .*\), so the sub-agent stopped without an answer\. If this persists/,
    );
    expect(llm.bodies).toHaveLength(SUB_AGENT_LIMITS.maxMalformedReplies + 1);
    expect(lastUser(llm.bodies[1]!)).toMatch(/^Your last reply could not be read: the reply is not valid JSON/);
  });

  it('treats an empty reply as unreadable and carries on', async () => {
    llm.script([
      {
        body: {
          id: 'c',
          object: 'chat.completion',
          created: 1,
          model: 'fixture-model',
          choices: [{ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'stop' }],
        },
      },
      { content: 'Done.' },
    ]);
    const { value } = await spawn({ prompt: 'Say done.' });
    expect(value!.answer).toBe('Done.');
    expect(value!.notes).toEqual(['model reply 1 could not be read: the reply was empty']);
  });

  it('reports an endpoint error as a tool error naming what to fix', async () => {
    llm.script([{ status: 404, error: { message: 'model "fixture-model" not found, try pulling it first', type: 'api_error' } }]);
    const { result, text } = await spawn({ prompt: 'Anything.' });
    expect(result.isError).toBe(true);
    expect(text).toMatch(/does not know model "fixture-model".*Check DOCENT_LLM_MODEL/);
  });

  it('stops at the step limit and makes the model answer from what it has', async () => {
    llm.script((body) =>
      /tool budget is used up/.test(lastUser(body))
        ? { content: 'The running total could not be finished.' }
        : {
            toolCalls: [
              { name: 'calculator', arguments: { operation: 'add', a: 1, b: 1 } },
              { name: 'calculator', arguments: { operation: 'add', a: 2, b: 2 } },
              { name: 'calculator', arguments: { operation: 'add', a: 3, b: 3 } },
            ],
          },
    );
    const { value } = await spawn({ prompt: 'Keep adding.' });
    expect(value!.steps).toHaveLength(SUB_AGENT_LIMITS.maxSteps);
    expect(value!.answer).toBe('The running total could not be finished.');
    expect(value!.notes).toEqual([expect.stringMatching(/^stopped at the limit \(6 model turns, 16 tool calls\)/)]);
    // Calls beyond the limit were answered (the API needs a result for every call id) but never run.
    expect(
      llm.bodies.at(-1)!.messages.filter((m) => m.role === 'tool' && /^Not run: this sub-agent's limit of 16 tool calls/.test(m.content ?? '')),
    ).toHaveLength(2);
  });

  it.each([
    [{ prompt: '' }, /`prompt`/],
    [{ prompt: '   ' }, /must not be blank/],
    [{ prompt: 'x'.repeat(4097) }, /`prompt`: Too big/],
    [{ prompt: 'ok', timeout_secs: 181 }, /`timeout_secs`/],
    [{ prompt: 'ok', timeout_secs: 0 }, /`timeout_secs`/],
    [{ prompt: 'ok', preset: 'hacker' }, /`preset`/],
  ])('rejects bad input before any model call (%#)', async (args, pattern) => {
    const { result, text } = await spawn(args);
    expect(result.isError).toBe(true);
    expect(text).toMatch(/^Invalid arguments for spawn_sub_agent/);
    expect(text).toMatch(pattern);
    expect(llm.bodies).toHaveLength(0);
  });

  it('says how to configure a model when there is none', async () => {
    const bare = await startHarness();
    try {
      const { result, text } = await spawn({ prompt: 'Hello?' }, bare);
      expect(result.isError).toBe(true);
      expect(text).toMatch(/No language model is available\. Point docent at an OpenAI-compatible chat endpoint with DOCENT_LLM_BASE_URL and DOCENT_LLM_MODEL/);
      expect(text).toMatch(/MCP client that supports sampling/);
    } finally {
      await bare.close();
    }
  });
});
