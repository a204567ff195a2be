import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIALIZE, MCP_HEADERS, startApp, type TestApp } from '../http/helpers.js';

/**
 * One tenant must not be able to lock the others out of MCP by holding sessions or streams open: each tenant
 * has its own cap on sessions (here 3) and on open GET streams (2 in the second test, across its sessions). Past the session
 * cap its oldest idle session makes room; when all are busy its next initialize is refused with 429 naming the
 * cap; past the stream cap its next GET stream is refused likewise. Another tenant still gets in and streams.
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

/** Opens a GET stream on a session; the response (200 with the stream held open, or a refusal). */
async function stream(key: string, id: string): Promise<Response> {
  const controller = new AbortController();
  streams.push(controller);
  return fetch(`${t.url}/mcp`, {
    method: 'GET',
    headers: { ...MCP_HEADERS, accept: 'text/event-stream', authorization: `Bearer ${key}`, 'mcp-session-id': id },
    signal: controller.signal,
  });
}

async function openSession(key: string, withStream: boolean): Promise<string> {
  const response = await initialize(key);
  expect(response.status).toBe(200);
  await response.text();
  const id = response.headers.get('mcp-session-id')!;
  await fetch(`${t.url}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, authorization: `Bearer ${key}`, 'mcp-session-id': id },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  if (withStream) expect((await stream(key, id)).status).toBe(200);
  return id;
}

describe('MCP sessions per tenant', () => {
  it('lets idle sessions make room, refuses a tenant whose sessions are all busy with 429, and still admits other tenants', async () => {
    const idle = await openSession(keyA, false);
    await openSession(keyA, true);
    await openSession(keyA, true);
    // At the cap with one idle session: it is closed to make room.
    await openSession(keyA, true);
    const gone = await fetch(`${t.url}/mcp`, {
      method: 'GET',
      headers: { ...MCP_HEADERS, accept: 'text/event-stream', authorization: `Bearer ${keyA}`, 'mcp-session-id': idle },
    });
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

  it("refuses a tenant's stream past its stream cap with 429 naming it, while another tenant initializes and streams", async () => {
    const first = t;
    t = await startApp({ 'http.sessionsPerTenant': 3, 'http.streamsPerTenant': 2 });
    const c = await t.key('initech');
    const d = await t.key('umbrella');
    try {
      await openSession(c, true);
      await openSession(c, true);
      const third = await openSession(c, false);
      const refused = await stream(c, third);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('30');
      const body = (await refused.json()) as { error: { message: string } };
      expect(body.error.message).toMatch(
        /^Tenant "initech" already holds 2 open MCP streams \(GET \/mcp\), the most one tenant may \(DOCENT_MCP_STREAMS_PER_TENANT\)/,
      );
      // The other tenant's initialize and stream are untouched by it.
      await openSession(d, true);
      expect((await stream(d, await openSession(d, false))).status).toBe(200);
    } finally {
      for (const s of streams.splice(0)) s.abort();
      await t.close();
      t = first;
    }
  });
});
