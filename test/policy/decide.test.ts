import { describe, expect, it } from 'vitest';
import { ConfirmationLedger, canonicalJson, decide, type OperationKind, type PolicySettings } from '../../src/policy/confirmation.js';

const settings = (overrides: Partial<PolicySettings> = {}): PolicySettings => ({
  paidCallBudget: 2,
  confirmSafeOps: 'never',
  confirmationTtlSeconds: 600,
  ...overrides,
});

// kind, agent mode, confirmSafeOps, budget, paid calls used → needs confirmation
const TABLE: [OperationKind, boolean, PolicySettings['confirmSafeOps'], number, number, boolean][] = [
  ['safe', true, 'never', 2, 0, false],
  ['safe', true, 'outside_agent_mode', 2, 0, false],
  ['safe', false, 'never', 2, 0, false],
  ['safe', false, 'outside_agent_mode', 2, 0, true],
  ['destructive', true, 'never', 2, 0, true],
  ['destructive', true, 'outside_agent_mode', 2, 0, true],
  ['destructive', false, 'never', 2, 0, true],
  ['destructive', false, 'outside_agent_mode', 2, 0, true],
  ['send', true, 'never', 2, 0, true],
  ['send', true, 'outside_agent_mode', 2, 0, true],
  ['send', false, 'never', 2, 0, true],
  ['send', false, 'outside_agent_mode', 2, 0, true],
  ['paid', true, 'never', 2, 0, false],
  ['paid', true, 'never', 2, 1, false],
  ['paid', true, 'never', 2, 2, true],
  ['paid', true, 'never', 2, 7, true],
  ['paid', true, 'never', 0, 0, true],
  ['paid', true, 'outside_agent_mode', 2, 0, false],
  ['paid', false, 'never', 2, 0, true],
  ['paid', false, 'never', 0, 0, true],
  ['paid', false, 'outside_agent_mode', 100, 0, true],
];

describe('decide()', () => {
  it.each(TABLE)('%s, agent=%s, confirmSafeOps=%s, budget=%i, used=%i → confirm=%s', (kind, agent, safeOps, budget, used, confirm) => {
    const decision = decide(kind, agent, settings({ confirmSafeOps: safeOps, paidCallBudget: budget }), used);
    expect(decision.confirm).toBe(confirm);
    expect(decision.reason.length).toBeGreaterThan(0);
  });

  it('covers every kind × agent mode × safe-ops setting', () => {
    const combos = new Set(TABLE.map(([k, a, s]) => `${k}/${a}/${s}`));
    expect(combos.size).toBe(4 * 2 * 2);
  });

  it('gives reasons that name the setting to change', () => {
    expect(decide('safe', false, settings({ confirmSafeOps: 'outside_agent_mode' })).reason).toMatch(/DOCENT_CONFIRM_SAFE_OPS/);
    expect(decide('paid', true, settings({ paidCallBudget: 1 }), 1).reason).toMatch(/DOCENT_PAID_CALL_BUDGET/);
    expect(decide('paid', true, settings({ paidCallBudget: 3 }), 1).reason).toMatch(/2\/3/);
  });
});

describe('ConfirmationLedger', () => {
  const subject = { tenant: 't1', tool: 'file_operations', args: { operation: 'delete', path: 'a.txt' } };

  it('issues a fresh token every time, so one re-issued after a spent one still works', async () => {
    const ledger = new ConfirmationLedger(settings(), undefined, () => 1_700_000_000_000);
    const first = await ledger.issue(subject);
    expect(await ledger.redeem(subject, first)).toBe(true);
    const second = await ledger.issue(subject);
    expect(second).not.toBe(first);
    expect(await ledger.redeem(subject, second)).toBe(true);
  });

  it('redeems a token once, for exactly the call it was issued for', async () => {
    const ledger = new ConfirmationLedger(settings());
    const token = await ledger.issue(subject);
    expect(token).toMatch(/^ct1\.\d+\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{43}$/);
    expect(await ledger.redeem({ ...subject, tenant: 't2' }, token)).toBe(false);
    expect(await ledger.redeem({ ...subject, tool: 'other' }, token)).toBe(false);
    expect(await ledger.redeem({ ...subject, args: { operation: 'delete', path: 'b.txt' } }, token)).toBe(false);
    expect(await ledger.redeem({ ...subject, args: { path: 'a.txt', operation: 'delete' } }, token)).toBe(true);
    expect(await ledger.redeem(subject, token)).toBe(false);
  });

  it('refuses expired, forged and malformed tokens', async () => {
    let now = 1_700_000_000_000;
    const ledger = new ConfirmationLedger(settings({ confirmationTtlSeconds: 60 }), undefined, () => now);
    const token = await ledger.issue(subject);
    now += 61_000;
    expect(await ledger.redeem(subject, token)).toBe(false);
    const other = new ConfirmationLedger(settings(), undefined, () => now);
    expect(await ledger.redeem(subject, await other.issue(subject))).toBe(false);
    const [, expires, nonce, mac] = (await ledger.issue(subject)).split('.');
    expect(await ledger.redeem(subject, `ct1.${Number(expires) + 1000}.${nonce}.${mac}`)).toBe(false);
    expect(await ledger.redeem(subject, `ct1.${expires}.${'A'.repeat(16)}.${mac}`)).toBe(false);
    for (const bad of ['', 'ct1', 'ct1...', `ct2.${expires}.${nonce}.${mac}`, `ct1.${expires}.${nonce}.${mac}x`, `ct1.${expires}.${mac}`]) {
      expect(await ledger.redeem(subject, bad)).toBe(false);
    }
    expect(await ledger.redeem(subject, `ct1.${expires}.${nonce}.${mac}`)).toBe(true);
  });

  it('canonicalises arguments so key order does not matter and undefined is dropped', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: undefined }] })).toBe('{"a":[{"d":2}],"b":1}');
  });

  it('counts paid calls per tenant', async () => {
    const ledger = new ConfirmationLedger(settings());
    await ledger.recordPaidCall('a');
    await ledger.recordPaidCall('a');
    expect(await ledger.paidCallsUsed('a')).toBe(2);
    expect(await ledger.paidCallsUsed('b')).toBe(0);
  });
});
