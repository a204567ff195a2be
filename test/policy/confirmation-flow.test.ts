/**
 * The confirmation policy end to end, through a real MCP client: tokens for clients without elicitation,
 * elicitation for clients with it, agent mode, the safe-ops setting, and the paid-call budget.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/catalog/definition.js';
import { invokeTool, type CallEnvironment } from '../../src/catalog/invoke.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logging.js';
import { ConfirmationLedger } from '../../src/policy/confirmation.js';
import { Services } from '../../src/services.js';
import { startHarness, textOf, type Harness, type HarnessOptions } from '../helpers/harness.js';

const open: Harness[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

async function harness(options: HarnessOptions = {}): Promise<Harness> {
  const h = await startHarness(options);
  open.push(h);
  await mkdir(h.config.workspaceDir, { recursive: true });
  return h;
}

async function plant(h: Harness, name: string, content = 'data'): Promise<string> {
  const full = path.join(h.config.workspaceDir, name);
  await writeFile(full, content);
  return full;
}

function tokenIn(text: string): string {
  const match = /"confirmation_token": "(ct1\.[^"]+)"/.exec(text);
  if (!match) throw new Error(`no confirmation token in: ${text}`);
  return match[1]!;
}

/** A client that answers every elicitation with `answer` and records the messages it was shown. */
function elicitingHarness(answer: ElicitResult, options: HarnessOptions = {}) {
  const asked: string[] = [];
  return harness({ ...options, capabilities: { elicitation: {} } }).then((h) => {
    h.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return answer;
    });
    return { h, asked };
  });
}

describe('delete over a client without elicitation: the confirmation token', () => {
  it('refuses the first call with a token, deletes on the second, and never reuses the token', async () => {
    const h = await harness();
    const file = await plant(h, 'report.txt', 'hello');
    const first = await h.call('file_operations', { operation: 'delete', path: 'report.txt' });
    expect(first.isError).toBe(true);
    expect(textOf(first)).toMatch(/^Confirmation required \(destroys data, so it is never auto-confirmed\): Delete the file report.txt \(5 bytes\)/);
    expect(textOf(first)).toMatch(/Nothing has been done yet/);
    expect(existsSync(file)).toBe(true);

    const token = tokenIn(textOf(first));
    const second = await h.call('file_operations', { operation: 'delete', path: 'report.txt', confirmation_token: token });
    expect(second.isError).toBeFalsy();
    expect(second.structuredContent).toEqual({ operation: 'delete', path: 'report.txt', deleted: 'file' });
    expect(existsSync(file)).toBe(false);

    await plant(h, 'report.txt', 'again');
    const replay = await h.call('file_operations', { operation: 'delete', path: 'report.txt', confirmation_token: token });
    expect(replay.isError).toBe(true);
    expect(textOf(replay)).toMatch(/Confirmation required/);
    expect(tokenIn(textOf(replay))).not.toBe(token);
    expect(await readFile(file, 'utf8')).toBe('again');
  });

  it('refuses a token issued for different arguments', async () => {
    const h = await harness();
    const a = await plant(h, 'a.txt');
    const b = await plant(h, 'b.txt');
    const token = tokenIn(textOf(await h.call('file_operations', { operation: 'delete', path: 'a.txt' })));
    const wrong = await h.call('file_operations', { operation: 'delete', path: 'b.txt', confirmation_token: token });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/Confirmation required/);
    expect(existsSync(b)).toBe(true);
    // A token for a plain delete does not confirm a forced one either.
    await mkdir(path.join(h.config.workspaceDir, 'dir'));
    const dirToken = tokenIn(textOf(await h.call('file_operations', { operation: 'delete', path: 'dir' })));
    const forced = await h.call('file_operations', { operation: 'delete', path: 'dir', force: true, confirmation_token: dirToken });
    expect(textOf(forced)).toMatch(/Confirmation required/);
    // The original token still works for its own call, once.
    expect((await h.call('file_operations', { operation: 'delete', path: 'a.txt', confirmation_token: token })).isError).toBeFalsy();
    expect(existsSync(a)).toBe(false);
  });

  it('refuses an expired token', async () => {
    const h = await harness({ overrides: { 'policy.confirmationTtlSeconds': 60 } });
    let now = Date.now();
    // Inject the clock: the ledger the server uses reads time through this function.
    Object.defineProperty(h.services, 'confirmations', { value: new ConfirmationLedger(h.config.policy, undefined, () => now) });
    const file = await plant(h, 'old.txt');
    const text = textOf(await h.call('file_operations', { operation: 'delete', path: 'old.txt' }));
    expect(text).toMatch(/valid 60 s, once/);
    now += 61_000;
    const late = await h.call('file_operations', { operation: 'delete', path: 'old.txt', confirmation_token: tokenIn(text) });
    expect(late.isError).toBe(true);
    expect(textOf(late)).toMatch(/Confirmation required/);
    expect(existsSync(file)).toBe(true);
  });

  it('refuses a garbage token as unconfirmed, not as a crash', async () => {
    const h = await harness();
    const file = await plant(h, 'x.txt');
    const result = await h.call('file_operations', { operation: 'delete', path: 'x.txt', confirmation_token: 'yes please' });
    expect(textOf(result)).toMatch(/Confirmation required/);
    expect(existsSync(file)).toBe(true);
  });

  it('asks nothing and issues no token for an invalid or escaping path', async () => {
    const h = await harness();
    for (const p of ['../x', '/etc/passwd', 'missing.txt']) {
      const result = await h.call('file_operations', { operation: 'delete', path: p });
      expect(result.isError).toBe(true);
      expect(textOf(result)).not.toMatch(/confirmation/i);
    }
  });
});

describe('delete over a client with elicitation', () => {
  it('deletes when the user accepts', async () => {
    const { h, asked } = await elicitingHarness({ action: 'accept', content: { confirm: true } });
    const file = await plant(h, 'notes.md', 'abc');
    const result = await h.call('file_operations', { operation: 'delete', path: 'notes.md' });
    expect(result.isError).toBeFalsy();
    expect(existsSync(file)).toBe(false);
    expect(asked).toEqual(['Delete the file notes.md (3 bytes) from the agent workspace\n\nProceed?']);
  });

  it.each([
    ['decline', { action: 'decline' }],
    ['cancel', { action: 'cancel' }],
    ['accept without a yes', { action: 'accept', content: { confirm: false } }],
  ] as [string, ElicitResult][])('keeps the file when the user answers %s', async (_, answer) => {
    const { h, asked } = await elicitingHarness(answer);
    const file = await plant(h, 'notes.md', 'abc');
    const result = await h.call('file_operations', { operation: 'delete', path: 'notes.md' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('The user declined: Delete the file notes.md (3 bytes) from the agent workspace. Nothing was done.');
    expect(asked).toHaveLength(1);
    expect(await readFile(file, 'utf8')).toBe('abc');
  });
});

describe('agent mode', () => {
  it('does not auto-confirm deletes (token flow)', async () => {
    const h = await harness({ identity: { agentMode: true } });
    const file = await plant(h, 'keep.txt');
    const result = await h.call('file_operations', { operation: 'delete', path: 'keep.txt' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Confirmation required \(destroys data/);
    expect(existsSync(file)).toBe(true);
  });

  it('does not auto-confirm deletes (elicitation is still asked)', async () => {
    const { h, asked } = await elicitingHarness({ action: 'decline' }, { identity: { agentMode: true } });
    const file = await plant(h, 'keep.txt');
    expect((await h.call('file_operations', { operation: 'delete', path: 'keep.txt' })).isError).toBe(true);
    expect(asked).toHaveLength(1);
    expect(existsSync(file)).toBe(true);
  });
});

describe('confirmSafeOps', () => {
  const write = { operation: 'write', path: 'draft.md', content: '# Draft\n' };

  it('outside_agent_mode: a write outside agent mode needs confirmation, then goes through with the token', async () => {
    const h = await harness({ overrides: { 'policy.confirmSafeOps': 'outside_agent_mode' } });
    const target = path.join(h.config.workspaceDir, 'draft.md');
    const first = await h.call('file_operations', write);
    expect(first.isError).toBe(true);
    expect(textOf(first)).toMatch(
      /Confirmation required \(safe operations are confirmed outside agent mode \(DOCENT_CONFIRM_SAFE_OPS\)\): Create draft.md \(8 bytes\)/,
    );
    expect(existsSync(target)).toBe(false);
    const second = await h.call('file_operations', { ...write, confirmation_token: tokenIn(textOf(first)) });
    expect(second.structuredContent).toMatchObject({ created: true, size: 8 });
    expect(await readFile(target, 'utf8')).toBe('# Draft\n');
  });

  it('outside_agent_mode: the token covers exactly the content it was issued for', async () => {
    const h = await harness({ overrides: { 'policy.confirmSafeOps': 'outside_agent_mode' } });
    const token = tokenIn(textOf(await h.call('file_operations', write)));
    const swapped = await h.call('file_operations', { ...write, content: 'something else', confirmation_token: token });
    expect(textOf(swapped)).toMatch(/Confirmation required/);
    expect(existsSync(path.join(h.config.workspaceDir, 'draft.md'))).toBe(false);
  });

  it('outside_agent_mode: an elicitation client is asked about a write', async () => {
    const { h, asked } = await elicitingHarness(
      { action: 'accept', content: { confirm: true } },
      { overrides: { 'policy.confirmSafeOps': 'outside_agent_mode' } },
    );
    await plant(h, 'draft.md', 'old');
    expect((await h.call('file_operations', write)).isError).toBeFalsy();
    expect(asked).toEqual(['Replace draft.md (3 bytes) with 8 bytes in the agent workspace\n\nProceed?']);
  });

  it('outside_agent_mode: in agent mode a write goes through unasked', async () => {
    const { h, asked } = await elicitingHarness(
      { action: 'decline' },
      { overrides: { 'policy.confirmSafeOps': 'outside_agent_mode' }, identity: { agentMode: true } },
    );
    expect((await h.call('file_operations', write)).structuredContent).toMatchObject({ created: true });
    expect(asked).toEqual([]);
  });

  it('never (the default): a write outside agent mode goes through unasked', async () => {
    const { h, asked } = await elicitingHarness({ action: 'decline' });
    expect(h.config.policy.confirmSafeOps).toBe('never');
    expect((await h.call('file_operations', write)).structuredContent).toMatchObject({ created: true });
    expect(asked).toEqual([]);
  });
});

describe('paid calls and the agent budget (through invokeTool, the one call path)', () => {
  const paidProbe = defineTool({
    name: 'paid_probe',
    title: 'Paid probe',
    description: 'Test-only tool that spends one paid call.',
    input: z.object({ n: z.number().int() }),
    side_effects: 'external_paid',
    cost_class: 'metered',
    requires_secret: false,
    hints: [],
    async handler({ n }, ctx) {
      await ctx.confirm({ kind: 'paid', summary: `Spend paid call ${n}` });
      return { value: { n } };
    },
  });

  function environment(agentMode: boolean, tenant = 'acme') {
    const config = loadConfig({ env: {}, overrides: { dataDir: '/nonexistent/docent-test', 'policy.paidCallBudget': 2 }, cwd: '/tmp' });
    const services = new Services(config, silentLogger());
    return (tenantName = tenant, mode = agentMode): CallEnvironment => ({
      config,
      services,
      logger: silentLogger(),
      tenant: tenantName,
      tenantBound: false,
      agentMode: mode,
      transport: 'inproc',
    });
  }

  it('auto-confirms within the budget in agent mode, per tenant, and asks beyond it', async () => {
    const env = environment(true);
    expect((await invokeTool(paidProbe, { n: 1 }, env())).ok).toBe(true);
    expect((await invokeTool(paidProbe, { n: 2 }, env())).ok).toBe(true);
    const third = await invokeTool(paidProbe, { n: 3 }, env());
    expect(third).toMatchObject({ ok: false, code: 'confirmation_required' });
    expect(third.ok ? '' : third.message).toMatch(/paid-call budget of 2 is spent \(DOCENT_PAID_CALL_BUDGET\)/);
    const token = third.ok ? '' : (third.details!.confirmation_token as string);
    expect((await invokeTool(paidProbe, { n: 3, confirmation_token: token }, env())).ok).toBe(true);
    expect((await invokeTool(paidProbe, { n: 1 }, env('other-tenant'))).ok).toBe(true);
  });

  it('asks for every paid call outside agent mode', async () => {
    const env = environment(false);
    const first = await invokeTool(paidProbe, { n: 1 }, env());
    expect(first).toMatchObject({ ok: false, code: 'confirmation_required' });
    expect(first.ok ? '' : first.message).toMatch(/paid call outside agent mode/);
  });
});
