/**
 * Attack: guessing keys, or flooding the server with made-up ones. Failed authentications are limited per
 * client address (here 10 per minute): past it the address gets 429 `auth_rate_limited` with Retry-After,
 * while a valid key, from that same address, is still answered at once. A missing header is not a guess.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FailedAuthLimiter } from '../../src/http/authenticate.js';
import { startApp, type TestApp } from '../http/helpers.js';

let t: TestApp;
let valid: string;
const LIMIT = 10;

beforeAll(async () => {
  t = await startApp({ 'http.authFailuresPerMinute': LIMIT, 'limits.free.requestsPerMinute': 0, 'limits.free.requestsPerMonth': 0 });
  valid = await t.key('acme');
});
afterAll(async () => t.close());

const call = (authorization?: string) =>
  fetch(`${t.url}/v1/tools/calculator`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify({ operation: 'add', a: 1, b: 2 }),
  });

describe('failed authentication per client address', () => {
  it(`answers 401 for ${LIMIT} bad keys, then 429 with Retry-After, and still accepts a valid key meanwhile`, async () => {
    for (let i = 0; i < 5; i++) expect((await call()).status).toBe(401); // no header: not counted
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) statuses.push((await call(`Bearer dk_${'0'.repeat(15)}${i % 10}_${'A'.repeat(43)}`)).status);
    expect(statuses).toEqual(Array(LIMIT).fill(401));
    for (const header of [`Bearer dk_${'1'.repeat(16)}_${'B'.repeat(43)}`, 'Bearer not-a-key', 'Basic Zm9vOmJhcg==', `Bearer ${valid}x`]) {
      const limited = await call(header);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const body = (await limited.json()) as { error: { code: string; message: string; limit: number } };
      expect(body.error).toMatchObject({ code: 'auth_rate_limited', limit: LIMIT });
      expect(body.error.message).toMatch(/^Too many failed authentications from 127\.0\.0\.1: at most 10 per minute \(DOCENT_AUTH_FAILURES_PER_MINUTE\)/);
    }
    // A valid key from the same address is served.
    const ok = await call(`Bearer ${valid}`);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { ok: boolean }).ok).toBe(true);
    // MCP too: a bad key on /mcp is limited the same way.
    const mcp = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer nope' }, body: '{}' });
    expect(mcp.status).toBe(429);
  });

  it('refills evenly over a minute, per address, and forgets nothing it should not', () => {
    let now = 0;
    const limiter = new FailedAuthLimiter(6, () => now);
    for (let i = 0; i < 6; i++) expect(limiter.fail('10.0.0.1')).toBeUndefined();
    expect(limiter.fail('10.0.0.1')).toBe(10_000); // one token comes back every 10 s
    expect(limiter.fail('10.0.0.2')).toBeUndefined(); // another address has its own bucket
    now = 10_000;
    expect(limiter.fail('10.0.0.1')).toBeUndefined();
    expect(limiter.fail('10.0.0.1')).toBe(10_000);
    expect(new FailedAuthLimiter(0).fail('10.0.0.1')).toBeUndefined(); // 0 = no limit
  });
});
