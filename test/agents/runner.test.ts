/**
 * The runner's contracts that the real catalog tools cannot make visible: concurrency of a parallel_group,
 * what a child's tool call is handed (tenant, agent mode, lineage, signal), cancellation of a tool in flight,
 * and the confirmation policy. Probe tools record what they were given; the model is the scripted endpoint.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findPreset } from '../../presets/index.js';
import { childToolNames } from '../../src/agents/guards.js';
import { runSubAgent } from '../../src/agents/runner.js';
import type { ToolContext } from '../../src/catalog/context.js';
import { defineTool, type AnyTool } from '../../src/catalog/definition.js';
import { definePreset, type Preset } from '../../src/catalog/preset.js';
import { loadConfig, type Config } from '../../src/config.js';
import { ToolError } from '../../src/errors.js';
import { silentLogger } from '../../src/logging.js';
import { Services } from '../../src/services.js';
import { tempDir } from '../helpers/harness.js';
import { startLlmFixture, toolResultIn, type LlmFixture } from './llm-fixture.js';

/** A deadline no run reaches: these tests end on events, never on the clock. */
const NO_DEADLINE = 10 * 60_000;

let llm: LlmFixture;
let root: string;
let config: Config;
let services: Services;

beforeAll(async () => {
  llm = await startLlmFixture();
  root = await tempDir();
  config = loadConfig({
    env: {},
    overrides: { dataDir: path.join(root, 'data'), 'llm.baseUrl': llm.baseUrl, 'llm.model': 'fixture-model', 'policy.paidCallBudget': 1 },
  });
  services = new Services(config, silentLogger());
});
afterAll(async () => {
  await services.close();
  await llm.close();
  await rm(root, { recursive: true, force: true });
});
afterEach(() => {
  llm.bodies.length = 0;
});

// Probes: each records what it was handed and does nothing else.
const events: string[] = [];
const seen: Record<string, unknown>[] = [];
let arrived = 0;
let releaseBarrier: () => void = () => {};
const barrier = new Promise<void>((resolve) => (releaseBarrier = resolve));

const label = z.object({ label: z.string() });
const probes: AnyTool[] = [
  defineTool({
    name: 'probe_order',
    title: 'order',
    description: 'records start and end',
    input: label,
    side_effects: 'none',
    cost_class: 'free',
    requires_secret: false,
    hints: [],
    async handler({ label: l }) {
      events.push(`start ${l}`);
      await new Promise((r) => setImmediate(r));
      events.push(`end ${l}`);
      return { value: `done ${l}` };
    },
  }),
  defineTool({
    name: 'probe_barrier',
    title: 'barrier',
    description: 'returns once two calls are in flight',
    input: label,
    side_effects: 'none',
    cost_class: 'free',
    requires_secret: false,
    hints: [],
    async handler({ label: l }, ctx) {
      arrived += 1;
      if (arrived === 2) releaseBarrier();
      await Promise.race([barrier, new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted'))))]);
      return { value: `passed ${l}` };
    },
  }),
  defineTool({
    name: 'probe_context',
    title: 'context',
    description: 'records its context',
    input: z.object({ tenant_id: z.string() }),
    side_effects: 'none',
    cost_class: 'free',
    requires_secret: false,
    hints: [],
    async handler({ tenant_id }, ctx) {
      seen.push({ tenant_id, tenant: ctx.tenant, tenantBound: ctx.tenantBound, agentMode: ctx.agentMode, transport: ctx.transport, lineage: ctx.lineage });
      return { value: 'recorded' };
    },
  }),
  defineTool({
    name: 'probe_wait',
    title: 'wait',
    description: 'waits until cancelled',
    input: z.object({}),
    side_effects: 'none',
    cost_class: 'free',
    requires_secret: false,
    hints: [],
    async handler(_input, ctx) {
      events.push('wait started');
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
      events.push(`wait saw abort: ${ctx.signal.aborted}`);
      throw new Error('cancelled');
    },
  }),
  defineTool({
    name: 'probe_delete',
    title: 'delete',
    description: 'a destructive operation',
    input: label,
    side_effects: 'mutating',
    cost_class: 'free',
    requires_secret: false,
    hints: [],
    async handler({ label: l }, ctx) {
      await ctx.confirm({ kind: 'destructive', summary: `delete ${l}` });
      events.push(`deleted ${l}`);
      return { value: 'deleted' };
    },
  }),
  defineTool({
    name: 'probe_paid',
    title: 'paid',
    description: 'a paid call',
    input: label,
    side_effects: 'external_paid',
    cost_class: 'metered',
    requires_secret: false,
    hints: [],
    async handler({ label: l }, ctx) {
      await ctx.confirm({ kind: 'paid', summary: `pay for ${l}` });
      events.push(`paid ${l}`);
      return { value: 'paid' };
    },
  }),
];
const lookup = (name: string) => probes.find((t) => t.name === name);

function preset(name: string, behaviour: Partial<Preset['behaviour']> = {}): Preset {
  return definePreset({
    name,
    description: 'test preset',
    tools: probes.map((t) => t.name),
    instructions: 'Use the probes.',
    behaviour: { retrieveContextFirst: false, parallelFanOut: false, twoPhase: false, factCheck: 'key_claims', ...behaviour },
  });
}

function parent(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    config,
    services,
    tenant: 'acme',
    tenantBound: true,
    agentMode: true,
    transport: 'inproc',
    logger: silentLogger(),
    signal: new AbortController().signal,
    client: {},
    lineage: { depth: 0 },
    progress: async () => {},
    confirm: async () => {
      throw new Error("the parent's own confirmation is never used by a child");
    },
    ...overrides,
  };
}

const call = (name: string, args: Record<string, unknown>, id?: string) => ({ name, arguments: args, ...(id ? { id } : {}) });

describe('execution order', () => {
  it('runs calls sharing a parallel_group concurrently (they wait for each other)', async () => {
    llm.script([
      { toolCalls: [call('probe_barrier', { label: 'a', parallel_group: 'g' }), call('probe_barrier', { label: 'b', parallel_group: 'g' })] },
      { content: 'Both passed.' },
    ]);
    const result = await runSubAgent({ prompt: 'Pass the barrier.', preset: preset('fan', { parallelFanOut: true }), timeoutMs: NO_DEADLINE }, parent(), {
      lookup,
    });
    expect(result.steps.map((s) => [s.n, s.outcome, s.parallel_group])).toEqual([
      [1, 'ok', 'g'],
      [2, 'ok', 'g'],
    ]);
  });

  it.each([
    ['fan-out, same group', { parallelFanOut: true }, ['g', 'g'], ['start a', 'start b', 'end a', 'end b']],
    ['fan-out, no group', { parallelFanOut: true }, [undefined, undefined], ['start a', 'end a', 'start b', 'end b']],
    ['no fan-out, same group', { parallelFanOut: false }, ['g', 'g'], ['start a', 'end a', 'start b', 'end b']],
    ['two-phase, same group', { parallelFanOut: true, twoPhase: true }, ['g', 'g'], ['start a', 'end a', 'start b', 'end b']],
  ] as const)('%s', async (_name, behaviour, groups, order) => {
    events.length = 0;
    const calls = ['a', 'b'].map((l, i) => call('probe_order', { label: l, ...(groups[i] ? { parallel_group: groups[i] } : {}) }));
    llm.script([...(behaviour.twoPhase ? [{ content: '1. Run a.\n2. Run b.' }] : []), { toolCalls: calls }, { content: 'Done.' }]);
    await runSubAgent({ prompt: 'Run a and b.', preset: preset('order', behaviour), timeoutMs: NO_DEADLINE }, parent(), { lookup });
    expect(events).toEqual(order);
  });
});

describe("what a child's tool call is handed", () => {
  it("the parent's tenant, binding, agent mode and transport, and its own lineage", async () => {
    seen.length = 0;
    llm.script([
      { toolCalls: [call('probe_context', {}), call('probe_context', { tenant_id: 'acme' }), call('probe_context', { tenant_id: 'globex' }, 'x')] },
      { content: 'Recorded.' },
    ]);
    const result = await runSubAgent({ prompt: 'Record.', preset: preset('ctx'), timeoutMs: NO_DEADLINE }, parent(), { lookup });
    const expected = { tenant_id: 'acme', tenant: 'acme', tenantBound: true, agentMode: true, transport: 'inproc', lineage: { depth: 1, preset: 'ctx' } };
    expect(seen).toEqual([expected, expected]);
    expect(result.steps[2]).toMatchObject({ outcome: 'error', error_code: 'forbidden' });
    expect(toolResultIn(llm.bodies[1]!, 'x')).toMatch(/tenant_id "globex" was refused/);
  });

  it('tool lists: preset ∩ registered ∩ parent preset, and no spawning at the depth limit', () => {
    const all = () => true;
    const pe = findPreset('planner_executor')!;
    expect(childToolNames(pe, { depth: 0 }, all)).toEqual(pe.tools.filter((t) => t !== 'spawn_sub_agent'));
    expect(childToolNames(pe, { depth: 1, preset: 'general_task' }, all)).toEqual(
      pe.tools.filter((t) => t !== 'spawn_sub_agent' && findPreset('general_task')!.tools.includes(t)),
    );
    expect(childToolNames(findPreset('general_task')!, { depth: 1, preset: 'planner_executor' }, all)).not.toContain('rss_feed');
    expect(childToolNames(pe, { depth: 0 }, (n) => n === 'calculator')).toEqual(['calculator']);
    expect(childToolNames(pe, { depth: 1, preset: 'no_such_preset' }, all)).toEqual([]);
  });
});

describe('cancellation', () => {
  it('the deadline aborts the tool in flight and the run fails with a timeout error', async () => {
    events.length = 0;
    llm.script([{ toolCalls: [call('probe_wait', {})] }]);
    // The deadline fires once the tool is running (an event, not a race against the clock).
    const deadline = new AbortController();
    const run = runSubAgent({ prompt: 'Wait.', preset: preset('wait'), timeoutMs: 200 }, parent(), { lookup, deadline: deadline.signal });
    await expect.poll(() => events).toEqual(['wait started']);
    deadline.abort(new DOMException('The deadline passed', 'TimeoutError'));
    await expect(run).rejects.toMatchObject({ code: 'timeout', message: expect.stringMatching(/timed out after 0\.2 s while executing/) });
    await expect.poll(() => events).toEqual(['wait started', 'wait saw abort: true']);
  });

  it("the parent's cancellation stops the run", async () => {
    const controller = new AbortController();
    llm.script([{ hang: true }]);
    const abandoned = llm.abandonedOnce();
    const run = runSubAgent({ prompt: 'Hang.', preset: preset('cancel'), timeoutMs: NO_DEADLINE }, parent({ signal: controller.signal }), { lookup });
    await expect.poll(() => llm.bodies.length).toBe(1);
    controller.abort();
    await expect(run).rejects.toMatchObject({ code: 'cancelled' });
    await abandoned;
  });
});

describe('confirmation policy', () => {
  it('refuses a destructive call without issuing a token, and never redeems one the model passes', async () => {
    events.length = 0;
    const ledger = services.confirmations;
    const subject = { tenant: 'acme', tool: 'probe_delete', args: { label: 'db' } };
    const parentToken = await ledger.issue(subject);
    let issued = 0;
    const issue = ledger.issue.bind(ledger);
    ledger.issue = (s) => {
      issued += 1;
      return issue(s);
    };
    try {
      llm.script([
        { toolCalls: [call('probe_delete', { label: 'db' }), call('probe_delete', { label: 'db', confirmation_token: parentToken })] },
        { content: 'Deleting needs you.' },
      ]);
      const result = await runSubAgent({ prompt: 'Delete db.', preset: preset('del'), timeoutMs: NO_DEADLINE }, parent(), { lookup });
      expect(result.steps.map((s) => s.error_code)).toEqual(['confirmation_required', 'confirmation_required']);
      expect(issued).toBe(0);
      expect(events).toEqual([]);
      // The parent's token was not spent by the child: it still confirms the parent's own call, once.
      expect(await ledger.redeem(subject, parentToken)).toBe(true);
    } finally {
      ledger.issue = issue;
    }
  });

  it("auto-confirms a paid call within the tenant's agent budget, like the parent's own, and refuses beyond it", async () => {
    events.length = 0;
    llm.script([{ toolCalls: [call('probe_paid', { label: 'one' }), call('probe_paid', { label: 'two' })] }, { content: 'One paid call ran.' }]);
    const result = await runSubAgent({ prompt: 'Pay twice.', preset: preset('paid'), timeoutMs: NO_DEADLINE }, parent({ tenant: 'payer' }), { lookup });
    expect(events).toEqual(['paid one']);
    expect(result.steps.map((s) => [s.outcome, s.error_code])).toEqual([
      ['ok', undefined],
      ['error', 'confirmation_required'],
    ]);
    expect(result.steps[1]!.message).toMatch(/pay for two/);
  });

  it("errors from the parent's guard are ToolErrors, not crashes", async () => {
    await expect(
      runSubAgent({ prompt: 'x', preset: findPreset('planner_executor')!, timeoutMs: 1000 }, parent({ lineage: { depth: 1, preset: 'planner_executor' } }), {
        lookup,
      }),
    ).rejects.toBeInstanceOf(ToolError);
    expect(llm.bodies).toHaveLength(0);
  });
});
