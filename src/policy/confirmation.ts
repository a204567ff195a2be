/**
 * The confirmation policy: which operations may run without an explicit "yes", and the tokens that carry
 * a "yes" from one call to the next when the client cannot be asked interactively.
 *
 * - `safe` (reversible writes): auto-confirmed in agent mode; outside it, confirmed only when the operator
 *   chose `confirmSafeOps: outside_agent_mode`.
 * - `destructive` (deletes) and `send` (posting, webhooks): never auto-confirmed.
 * - `paid`: auto-confirmed in agent mode while the tenant's paid-call budget lasts; explicit beyond it and
 *   always outside agent mode.
 *
 * A token is an HMAC over (tenant, tool, canonical arguments, expiry, random nonce): it confirms exactly that
 * call, once. The nonce makes every issued token new, so a token re-issued after one was spent is redeemable.
 * The HMAC secret, the spent tokens and the paid-call counts are shared state (src/shared): with Redis, a
 * token issued by one replica is redeemed on any other, and only once across all of them.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { InProcessState, type SharedState } from '../shared/state.js';

export type OperationKind = 'safe' | 'destructive' | 'send' | 'paid';

export interface PolicySettings {
  paidCallBudget: number;
  confirmSafeOps: 'outside_agent_mode' | 'never';
  confirmationTtlSeconds: number;
}

export type Decision = { confirm: false; reason: string } | { confirm: true; reason: string };

/** Pure decision; `paidCallsUsed` is the tenant's count of auto-confirmed paid calls so far. */
export function decide(kind: OperationKind, agentMode: boolean, settings: PolicySettings, paidCallsUsed = 0): Decision {
  switch (kind) {
    case 'safe':
      if (agentMode) return { confirm: false, reason: 'safe operation, auto-confirmed in agent mode' };
      return settings.confirmSafeOps === 'outside_agent_mode'
        ? { confirm: true, reason: 'safe operations are confirmed outside agent mode (DOCENT_CONFIRM_SAFE_OPS)' }
        : { confirm: false, reason: 'safe operation' };
    case 'destructive':
      return { confirm: true, reason: 'destroys data, so it is never auto-confirmed' };
    case 'send':
      return { confirm: true, reason: 'sends data off this machine for good, so it is never auto-confirmed' };
    case 'paid':
      if (!agentMode) return { confirm: true, reason: 'paid call outside agent mode' };
      return paidCallsUsed < settings.paidCallBudget
        ? { confirm: false, reason: `paid call within the agent budget (${paidCallsUsed + 1}/${settings.paidCallBudget})` }
        : { confirm: true, reason: `paid-call budget of ${settings.paidCallBudget} is spent (DOCENT_PAID_CALL_BUDGET)` };
  }
}

/** Stable JSON: object keys sorted, so equal arguments give equal tokens. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export interface ConfirmationSubject {
  tenant: string;
  tool: string;
  args: unknown;
}

export type ConfirmationCheck = { allowed: true; by: 'policy' | 'token'; reason: string } | { allowed: false; reason: string };

type LedgerState = Pick<SharedState, 'secret' | 'spendOnce' | 'paidCalls' | 'addPaidCall'>;

/** Issues and redeems single-use confirmation tokens; also counts paid calls per tenant. */
export class ConfirmationLedger {
  private readonly state: () => Promise<LedgerState>;

  constructor(
    readonly settings: PolicySettings,
    state?: () => Promise<LedgerState>,
    private readonly now: () => number = Date.now,
  ) {
    if (state) this.state = state;
    else {
      const own = Promise.resolve(new InProcessState());
      this.state = () => own;
    }
  }

  private async mac(subject: ConfirmationSubject, expires: number, nonce: string): Promise<string> {
    return createHmac('sha256', await (await this.state()).secret())
      .update(canonicalJson([subject.tenant, subject.tool, subject.args, expires, nonce]))
      .digest('base64url');
  }

  async issue(subject: ConfirmationSubject): Promise<string> {
    const expires = Math.floor(this.now() / 1000) + this.settings.confirmationTtlSeconds;
    const nonce = randomBytes(12).toString('base64url');
    return `ct1.${expires}.${nonce}.${await this.mac(subject, expires, nonce)}`;
  }

  /** True (and the token is spent) when `token` confirms exactly this call and has not expired or been used. */
  async redeem(subject: ConfirmationSubject, token: string): Promise<boolean> {
    const match = /^ct1\.(\d{1,12})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match) return false;
    const expires = Number(match[1]);
    const nowSec = Math.floor(this.now() / 1000);
    if (expires < nowSec) return false;
    const expected = Buffer.from(await this.mac(subject, expires, match[2]!));
    const given = Buffer.from(match[3]!);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
    return (await this.state()).spendOnce(token, expires);
  }

  /**
   * Applies the policy to one operation without asking anybody: allowed when the policy auto-confirms it
   * (an auto-confirmed paid call is counted against the tenant's budget) or when `token` confirms exactly this
   * call; otherwise not allowed, with the policy's reason. Asking (elicitation) and issuing a token for a
   * second call are the caller's, in that order.
   */
  async check(subject: ConfirmationSubject, kind: OperationKind, agentMode: boolean, token?: unknown): Promise<ConfirmationCheck> {
    const decision = decide(kind, agentMode, this.settings, kind === 'paid' ? await this.paidCallsUsed(subject.tenant) : 0);
    if (!decision.confirm) {
      if (kind === 'paid') await this.recordPaidCall(subject.tenant);
      return { allowed: true, by: 'policy', reason: decision.reason };
    }
    if (typeof token === 'string' && (await this.redeem(subject, token))) return { allowed: true, by: 'token', reason: decision.reason };
    return { allowed: false, reason: decision.reason };
  }

  async paidCallsUsed(tenant: string): Promise<number> {
    return (await this.state()).paidCalls(tenant);
  }

  async recordPaidCall(tenant: string): Promise<void> {
    await (await this.state()).addPaidCall(tenant);
  }
}
