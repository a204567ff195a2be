/**
 * The HTTP app in process: the request pipeline (guard → route → auth → checks → body → handler), the REST
 * tool route, and MCP sessions over streamable HTTP with real SDK clients and a real data directory.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../src/auth/keys.js';
import { mcpEndpoint } from '../../src/http/mcp-endpoint.js';
import { HttpError } from '../../src/http/route.js';
import { TOOLS } from '../../tools/index.js';
import { rawRequest } from '../helpers/cli.js';
import { textOf } from '../helpers/harness.js';
import { INITIALIZE, MCP_HEADERS, restCall, startApp, type TestApp } from './helpers.js';

let t: TestApp;
let acme: string;
let beta: string;
const checked: { tenant: string; key?: string; plan?: string; path: string }[] = [];

beforeAll(async () => {
  t = await startApp(
    {},
    {
      checks: [
        {
          name: 'test-limit',
          async check(ctx) {
            checked.push({ tenant: ctx.caller.tenant, key: ctx.caller.keyId, plan: ctx.caller.plan, path: ctx.route.path });
            if (ctx.req.headers['x-test-limit']) throw new HttpError(429, 'rate_limited', 'Too many requests.', { limit: 1 }, { 'retry-after': '7' });
          },
        },
      ],
    },
  );
  acme = await t.key('acme');
  beta = await t.key('beta', 'pro');
});
afterAll(async () => t.close());

const rest = (name: string, body: unknown, key: string | undefined, headers: Record<string, string> = {}) => restCall(t.url, name, body, key, headers);

describe('request pipeline', () => {
  it('serves the manifest and health publicly, with the listening base URL', async () => {
    const health = await rawRequest(`${t.url}/healthz`);
    expect(health.status).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    const manifest = (await rawRequest(`${t.url}/.well-known/agent-manifest.json`)).json();
    expect(manifest.manifest_url).toBe(`${t.url}/.well-known/agent-manifest.json`);
    expect(manifest.tools.map((x: { name: string }) => x.name)).toEqual(TOOLS.map((x) => x.name));
  });

  it('answers unknown paths 404 and wrong methods 405, as JSON', async () => {
    const missing = await rawRequest(`${t.url}/v2/anything`);
    expect([missing.status, missing.json().error.code]).toEqual([404, 'not_found']);
    const wrong = await rawRequest(`${t.url}/healthz`, { method: 'PUT' });
    expect([wrong.status, wrong.headers.allow]).toEqual([405, 'GET, HEAD']);
    expect(wrong.json().error.code).toBe('method_not_allowed');
  });

  it('needs a valid key on key routes: 401 JSON with WWW-Authenticate otherwise', async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'missing_api_key'],
      [{ authorization: 'Basic YTpi' }, 'invalid_authorization'],
      [{ authorization: 'Bearer' }, 'invalid_authorization'],
      [{ authorization: 'Bearer dk_0123456789abcdef_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' }, 'invalid_api_key'],
      [{ authorization: `Bearer ${acme}x` }, 'invalid_api_key'],
    ];
    for (const [headers, code] of cases) {
      for (const path of ['/mcp', '/v1/tools/calculator']) {
        const res = await rawRequest(`${t.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });
        expect([res.status, res.json().error.code], `${path} ${JSON.stringify(headers)}`).toEqual([401, code]);
        expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="docent"/);
      }
    }
  });

  it('accepts a key case-insensitively on the scheme, and refuses it once revoked', async () => {
    const { key, record } = await (await apiKeys(t.runtime.services)).create({ tenant: 'short-lived' });
    expect((await rest('calculator', { operation: 'add', a: 1, b: 2 }, undefined, { authorization: `bearer ${key}` })).status).toBe(200);
    await (await apiKeys(t.runtime.services)).revoke(record.id);
    const refused = await rest('calculator', { operation: 'add', a: 1, b: 2 }, key);
    expect([refused.status, refused.json().error.code]).toEqual([401, 'invalid_api_key']);
  });

  it('runs the authenticated checks after auth and before the body is read', async () => {
    checked.length = 0;
    const limited = await rest('calculator', '{not json', acme, { 'x-test-limit': '1' });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('7');
    expect(limited.json()).toEqual({ error: { code: 'rate_limited', message: 'Too many requests.', limit: 1 } });
    expect(checked).toEqual([{ tenant: 'acme', key: expect.stringMatching(/^[0-9a-f]{16}$/), plan: 'free', path: '/v1/tools/:name' }]);
    await rawRequest(`${t.url}/healthz`);
    await rest('calculator', {}, undefined);
    expect(checked).toHaveLength(1);
    await rest('calculator', { operation: 'add', a: 1, b: 1 }, beta);
    expect(checked[1]).toMatchObject({ tenant: 'beta', plan: 'pro' });
  });
});

describe('POST /v1/tools/:name', () => {
  it('returns the tool result, the same as over MCP', async () => {
    const res = await rest('calculator', { operation: 'divide', a: 1, b: 8 }, acme);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      ok: true,
      result: { operation: 'divide', a: 1, b: 8, result: '0.125', result_number: 0.125, exact: true },
      text: expect.any(String),
    });
  });

  it('maps tool errors to statuses with the error in the body', async () => {
    const bad = await rest('calculator', { operation: 'power', a: 1, b: 2 }, acme);
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({
      ok: false,
      error: { code: 'invalid_arguments', message: expect.stringMatching(/^Invalid arguments for calculator: `operation`/) },
    });
    // A lone surrogate (JSON allows "\ud800") is not text: 400, before the tool runs (it was a 500 from encodeURIComponent).
    for (const [tool, args] of [
      ['encyclopedia', { title: 'Ada \ud800 Lovelace' }],
      ['file_operations', { operation: 'write', path: 'a\udc00.txt', content: 'x' }],
      ['rag_query', { question: 'why?', keywords: ['ok', '\ud83d'] }],
    ] as const) {
      const broken = await rest(tool, args, acme);
      expect([broken.status, broken.json().error.code], tool).toEqual([400, 'invalid_arguments']);
      expect(broken.json().error.message).toMatch(/contains an unpaired UTF-16 surrogate/);
    }
    const notObject = await rest('calculator', [1, 2], acme);
    expect(notObject.status).toBe(400);
    const byZero = await rest('calculator', { operation: 'divide', a: 1, b: 0 }, acme);
    expect([byZero.status, byZero.json().error.code]).toEqual([400, 'invalid_arguments']);
    expect(byZero.json().error.message).toMatch(/Division by zero/);
    const missing = await rest('file_operations', { operation: 'read', path: 'nothing-here.txt' }, acme);
    expect([missing.status, missing.json().error.code]).toEqual([404, 'not_found']);
    const directory = await rest('file_operations', { operation: 'write', path: 'dir/', content: 'x' }, acme);
    expect([directory.status, directory.json().error.code]).toEqual([422, 'invalid_path']);
    const unknown = await rest('no_such_tool', {}, acme);
    expect([unknown.status, unknown.json().error.code]).toEqual([404, 'unknown_tool']);
  });

  it('asks for confirmation with 409 and a token, and runs the confirmed repeat', async () => {
    expect((await rest('file_operations', { operation: 'write', path: 'notes/a.txt', content: 'hello' }, acme)).status).toBe(200);
    const first = await rest('file_operations', { operation: 'delete', path: 'notes/a.txt' }, acme, { 'x-agent-client': 'test-agent' });
    expect(first.status).toBe(409);
    const error = first.json().error;
    expect(error.code).toBe('confirmation_required');
    expect(typeof error.confirmation_token).toBe('string');
    // The token confirms that exact call for that tenant only (beta has a notes/a.txt of its own, in its own workspace).
    expect((await rest('file_operations', { operation: 'write', path: 'notes/a.txt', content: 'beta' }, beta)).status).toBe(200);
    const foreign = await rest('file_operations', { operation: 'delete', path: 'notes/a.txt', confirmation_token: error.confirmation_token }, beta);
    expect(foreign.status).toBe(409);
    const confirmed = await rest('file_operations', { operation: 'delete', path: 'notes/a.txt', confirmation_token: error.confirmation_token }, acme);
    expect(confirmed.status).toBe(200);
    expect(confirmed.json().result).toMatchObject({ operation: 'delete', deleted: 'file' });
  });
});

describe('MCP over streamable HTTP (sessions)', () => {
  it('lists the tools and calls one in a session bound to the key', async () => {
    const { client, transport } = await t.mcp(acme);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await client.listTools()).tools.map((x) => x.name)).toEqual(TOOLS.map((x) => x.name));
    const result = await client.callTool({ name: 'calculator', arguments: { operation: 'multiply', a: 1.1, b: 1.1 } });
    expect((result.structuredContent as { result: string }).result).toBe('1.21');
  });

  it('delivers log notifications on the session, filtered by logging/setLevel', async () => {
    const { client } = await t.mcp(acme);
    const messages: { level: string; data: unknown }[] = [];
    let notify: () => void = () => {};
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      messages.push(n.params);
      notify();
    });
    const next = () => new Promise<void>((resolve) => (notify = resolve));
    expect(await client.setLoggingLevel('warning')).toEqual({});
    let arrived = next();
    await client.callTool({ name: 'calculator', arguments: { operation: 'add', a: 1, b: 1 } }); // info: filtered out
    await client.callTool({ name: 'calculator', arguments: { operation: 'divide', a: 1, b: 0 } }); // warning: delivered
    await arrived;
    expect(messages).toEqual([
      { level: 'warning', logger: 'docent', data: { tool: 'calculator', ok: false, code: 'invalid_arguments', ms: expect.any(Number) } },
    ]);
    arrived = next();
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'calculator', arguments: { operation: 'add', a: 1, b: 1 } });
    await arrived;
    expect(messages[1]).toMatchObject({ level: 'info', data: { tool: 'calculator', ok: true } });
  });

  it('sends a session that never set a level warnings and errors only, not a notification per call', async () => {
    const { client } = await t.mcp(acme);
    const messages: { level: string }[] = [];
    let notify: () => void = () => {};
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      messages.push(n.params);
      notify();
    });
    const arrived = new Promise<void>((resolve) => (notify = resolve));
    await client.callTool({ name: 'calculator', arguments: { operation: 'add', a: 1, b: 1 } }); // info: not sent
    await client.callTool({ name: 'calculator', arguments: { operation: 'divide', a: 1, b: 0 } }); // warning: sent
    await arrived;
    expect(messages.map((m) => m.level)).toEqual(['warning']);
  });

  it('asks the person through elicitation in session mode, and honours the answer', async () => {
    let answer: 'accept' | 'decline' = 'decline';
    const asked: string[] = [];
    const { client } = await t.mcp(acme, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push((request.params as { message: string }).message);
      return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
    });
    await client.callTool({ name: 'file_operations', arguments: { operation: 'write', path: 'e.txt', content: 'x' } });
    const declined = await client.callTool({ name: 'file_operations', arguments: { operation: 'delete', path: 'e.txt' } });
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toMatch(/declined/);
    answer = 'accept';
    const accepted = await client.callTool({ name: 'file_operations', arguments: { operation: 'delete', path: 'e.txt' } });
    expect(accepted.isError).toBeFalsy();
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatch(/e\.txt/);
  });

  it('elicits on the tools/call stream, so it works without a GET stream', async () => {
    let gets = 0;
    const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${acme}` } },
      // A client that never holds the standalone GET stream open.
      fetch: async (url, init) => {
        if ((init?.method ?? 'GET') === 'GET') {
          gets++;
          return new Response(null, { status: 405 });
        }
        return fetch(url, init);
      },
    });
    const client = new Client({ name: 'no-get', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { confirm: true } }));
    await client.connect(transport);
    try {
      await client.callTool({ name: 'file_operations', arguments: { operation: 'write', path: 'g.txt', content: 'x' } });
      const deleted = await client.callTool({ name: 'file_operations', arguments: { operation: 'delete', path: 'g.txt' } });
      expect(deleted.isError).toBeFalsy();
      expect(gets).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it("refuses a session id presented with another tenant's key, exactly like an unknown one", async () => {
    const { transport } = await t.mcp(acme);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const post = (key: string, session: string) =>
      rawRequest(`${t.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, authorization: `Bearer ${key}`, 'mcp-session-id': session }, body: list });
    const own = await post(acme, transport.sessionId!);
    expect(own.status).toBe(200);
    const foreign = await post(beta, transport.sessionId!);
    const unknown = await post(beta, '00000000-0000-4000-8000-000000000000');
    expect(foreign.status).toBe(404);
    expect(foreign.json()).toEqual(unknown.json());
    const del = await rawRequest(`${t.url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${beta}`, 'mcp-session-id': transport.sessionId! } });
    expect(del.status).toBe(404);
    expect((await post(acme, transport.sessionId!)).status).toBe(200);
  });

  it('needs initialize before anything else, and ends a session on DELETE', async () => {
    const noSession = await rawRequest(`${t.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${acme}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(noSession.status).toBe(400);
    expect(noSession.json().error.message).toMatch(/initialize/);
    const sessions = () => mcpEndpoint(t.runtime).sessionCount;
    const before = sessions();
    const badInit = await rawRequest(`${t.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${acme}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 42, capabilities: {}, clientInfo: {} } }),
    });
    expect(badInit.status).toBe(400);
    expect(sessions()).toBe(before);
    const init = await rawRequest(`${t.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, authorization: `Bearer ${acme}` }, body: INITIALIZE });
    const session = init.headers['mcp-session-id'] as string;
    expect(session).toBeTruthy();
    expect(sessions()).toBe(before + 1);
    const del = await rawRequest(`${t.url}/mcp`, { method: 'DELETE', headers: { ...MCP_HEADERS, authorization: `Bearer ${acme}`, 'mcp-session-id': session } });
    expect(del.status).toBe(200);
    expect(sessions()).toBe(before);
    const after = await rawRequest(`${t.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${acme}`, 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
  });
});

describe('agent mode and auth none', () => {
  let open: TestApp;
  beforeAll(async () => {
    open = await startApp({ 'http.auth': 'none', tenant: 'local', 'policy.confirmSafeOps': 'outside_agent_mode' });
  });
  afterAll(async () => open.close());

  it('serves without a key as the configured tenant, with agent mode from headers', async () => {
    const write = (headers: Record<string, string>) =>
      rawRequest(`${open.url}/v1/tools/file_operations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ operation: 'write', path: 'a.txt', content: 'x' }),
      });
    const person = await write({});
    expect([person.status, person.json().error.code]).toEqual([409, 'confirmation_required']);
    expect((await write({ 'x-agent-client': 'my-agent' })).status).toBe(200);
    expect((await write({ 'user-agent': 'Cursor/0.42' })).status).toBe(200);
  });

  it('decides agent mode per request within one MCP session', async () => {
    let agent = false;
    const transport = new StreamableHTTPClientTransport(new URL(`${open.url}/mcp`), {
      fetch: (url, init) => {
        const headers = new Headers(init?.headers);
        if (agent) headers.set('x-agent-client', 'my-agent');
        return fetch(url, { ...init, headers });
      },
    });
    const client = new Client({ name: 'agent-toggle', version: '1.0.0' });
    await client.connect(transport);
    try {
      const write = () => client.callTool({ name: 'file_operations', arguments: { operation: 'write', path: 'b.txt', content: 'y' } });
      const asPerson = await write();
      expect(asPerson.isError).toBe(true);
      expect(textOf(asPerson)).toMatch(/Confirmation required/);
      agent = true;
      expect((await write()).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});

describe('stateless mode and shutdown', () => {
  it('serves MCP without sessions and refuses GET/DELETE with 405', async () => {
    const s = await startApp({ 'http.stateless': true });
    try {
      const key = await s.key('acme');
      const { client, transport } = await s.mcp(key);
      expect(transport.sessionId).toBeUndefined();
      expect((await client.listTools()).tools.length).toBe(TOOLS.length);
      expect((await client.callTool({ name: 'calculator', arguments: { operation: 'add', a: 0.1, b: 0.2 } })).structuredContent).toMatchObject({
        result: '0.3',
      });
      for (const method of ['GET', 'DELETE']) {
        const res = await rawRequest(`${s.url}/mcp`, { method, headers: { accept: 'text/event-stream', authorization: `Bearer ${key}` } });
        expect([res.status, res.headers.allow], method).toEqual([405, 'POST']);
      }
      const missing = await rawRequest(`${s.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: INITIALIZE });
      expect(missing.status).toBe(401);
    } finally {
      await s.close();
    }
  });

  it('closes open sessions and stops listening on close', async () => {
    const s = await startApp();
    const key = await s.key('acme');
    const { client } = await s.mcp(key);
    expect((await client.listTools()).tools.length).toBe(TOOLS.length);
    await s.app.close();
    await expect(rawRequest(`${s.url}/healthz`)).rejects.toThrow(/ECONNREFUSED/);
    await expect(client.listTools()).rejects.toThrow();
    await s.close();
  });
});
