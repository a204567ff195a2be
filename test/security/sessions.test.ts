import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIALIZE, MCP_HEADERS, startApp, type TestApp } from '../http/helpers.js';

/**
 * One tenant must not be able to lock the others out of MCP by holding sessions open: each tenant has its own
 * cap (here 3). Past it, its oldest idle session makes room; when all of them are busy (a GET stream open),
 * its next initialize is refused with 429 naming the cap, while another tenant still gets in.
 */
let t: TestApp;
let keyA: string;
let keyB: string;
const streams: AbortController[] = [];

beforeAll(async () => {
  t = await startApp({ 'http.sessionsPerTenant': 3 });
  keyA = await t.key('acme');
  keyB = await t.key('globex');
});
afterAll(async () => {
  for (const s of streams) s.abort();
  await t.close();
});

async function initialize(key: string): Promise<Response> {
  return fetch(`${t.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, authorization: `Bearer ${key}` }, body: INITIALIZE });
}

async function openSession(key: string, withStream: boolean): Promise<string> {
  const response = await initialize(key);
  expect(response.status).toBe(200);
  await response.text();
  const id = response.headers.get('mcp-session-id')!;
  await fetch(`${t.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, authorization: `Bearer ${key}`, 'mcp-session-id': id }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  if (withStream) {
    const controller = new AbortController();
    streams.push(controller);
    const stream = await fetch(`${t.url}/mcp`, { method: 'GET', headers: { ...MCP_HEADERS, accept: 'text/event-stream', authorization: `Bearer ${key}`, 'mcp-session-id': id }, signal: controller.signal });
    expect(stream.status).toBe(200);
  }
  return id;
}

describe('MCP sessions per tenant', () => {
  it('lets idle sessions make room, refuses a tenant whose sessions are all busy with 429, and still admits other tenants', async () => {
    const idle = await openSession(keyA, false);
    await openSession(keyA, true);
    await openSession(keyA, true);
    // At the cap with one idle session: it is closed to make room.
    await openSession(keyA, true);
    const gone = await fetch(`${t.url}/mcp`, { method: 'GET', headers: { ...MCP_HEADERS, accept: 'text/event-stream', authorization: `Bearer ${keyA}`, 'mcp-session-id': idle } });
    expect(gone.status).toBe(404);
    // Now all three are busy: refused, naming the cap.
    const refused = await initialize(keyA);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    const body = (await refused.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/already holds 3 open MCP sessions, the most one tenant may \(DOCENT_MCP_SESSIONS_PER_TENANT\)/);
    // Another tenant is not locked out.
    expect((await initialize(keyB)).status).toBe(200);
  });
});
