/**
 * Attack: JSON-RPC batches to pass the per-minute limit (one POST carrying 90 tools/call counted as one
 * request). A batch is refused outright, and the same 90 calls sent one per request on a 60-per-minute key
 * yield at most 60 results in the minute: every message counts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { planLimitsCheck } from '../../src/http/limits.js';
import { sharedDataDir } from '../tenants/helpers.js';
import { startApp, type App } from '../tenants/http-app.js';

let data: Awaited<ReturnType<typeof sharedDataDir>>;
let app: App | undefined;

beforeAll(async () => {
  data = await sharedDataDir();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});
afterAll(async () => data.remove());

describe('JSON-RPC batches on /mcp', () => {
  it('refuses a batch outright (-32600, nothing run), so 90 calls in one POST cannot pass a 60-per-minute key', async () => {
    app = await startApp(`${data.dir}/batch`, { 'limits.free.requestsPerMinute': 60, 'limits.free.requestsPerMonth': 0 }, { checks: [planLimitsCheck()] });
    const key = await app.key('acme');
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const initialize = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const calls = Array.from({ length: 90 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i + 1,
      method: 'tools/call',
      params: { name: 'calculator', arguments: { operation: 'add', a: '1', b: String(i) } },
    }));
    for (const batch of [[initialize, ...calls], calls]) {
      const response = await fetch(`${app.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(batch) });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(-32600);
      expect(body.error.message).toMatch(
        /^JSON-RPC batches are not accepted on \/mcp \(this one holds \d+ messages\): send each message in a request of its own/,
      );
    }
  });

  it('counts every message: 90 tools/call sent one per request on a 60-per-minute key yield at most 60 results', async () => {
    const clock = new Date('2026-03-10T12:00:00Z'); // the minute does not pass during the test
    app = await startApp(
      `${data.dir}/per-message`,
      { 'limits.free.requestsPerMinute': 60, 'limits.free.requestsPerMonth': 0 },
      { checks: [planLimitsCheck({ now: () => clock })] },
    );
    const key = await app.key('acme');
    const headers = {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    };
    const post = (body: object, session?: string) =>
      fetch(`${app!.url}/mcp`, { method: 'POST', headers: { ...headers, ...(session ? { 'mcp-session-id': session } : {}) }, body: JSON.stringify(body) });
    const opened = await post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const session = opened.headers.get('mcp-session-id')!;
    await opened.text();
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
    let results = 0;
    let limited = 0;
    for (let i = 0; i < 90; i++) {
      const response = await post(
        { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'calculator', arguments: { operation: 'add', a: 1, b: i } } },
        session,
      );
      const text = await response.text();
      if (response.status === 200 && text.includes(`"id":${i + 1}`) && text.includes('"result"')) results++;
      else if (response.status === 429) limited++;
    }
    // initialize and notifications/initialized took two of the 60.
    expect({ results, limited }).toEqual({ results: 58, limited: 32 });
  });
});
