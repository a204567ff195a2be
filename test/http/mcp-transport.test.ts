/**
 * docent's node:http MCP transport on its own: an SDK server behind it on a real port, the SDK's streamable HTTP
 * client in front, and raw requests for the wire-level refusals (the app's tests cover sessions, tenants, caps).
 */
import { createServer, request, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ElicitRequestSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
  LoggingMessageNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NodeHttpTransport } from '../../src/http/mcp-transport.js';
import { rawRequest } from '../helpers/cli.js';
import { INITIALIZE, MCP_HEADERS } from './helpers.js';

/** One session: its transport and the SDK server connected to it. */
interface Session {
  transport: NodeHttpTransport;
  server: Server;
}

let http: HttpServer;
let url: string;
const sessions = new Map<string, Session>();
/** Released by the test to let the `wait` tool answer. */
let release: () => void = () => undefined;
let released: Promise<void> = Promise.resolve();
const errors: Error[] = [];
/** `wait` calls that ran to their end (their progress notification sent without error). */
let waitsFinished = 0;
/** Called when a `wait` call has started (it is then in flight until `release`). */
let onWaitStarted: () => void = () => undefined;
/** Called when the server side of any response closes (the client may see its end first). */
let onServerClose: () => void = () => undefined;

function newServer(): Server {
  const server = new Server({ name: 'transport-test', version: '1' }, { capabilities: { tools: {}, logging: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    if (req.params.name === 'progress') {
      const token = req.params._meta?.progressToken;
      for (let i = 1; i <= 3; i++)
        if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: 3 } });
      return { content: [{ type: 'text', text: 'done' }] };
    }
    if (req.params.name === 'ask') {
      const answer = await extra.sendRequest(
        { method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } } },
        ElicitResultSchema,
      );
      return { content: [{ type: 'text', text: JSON.stringify(answer.content) }] };
    }
    if (req.params.name === 'wait') {
      onWaitStarted();
      await released;
      const token = req.params._meta?.progressToken;
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: 1 } });
      waitsFinished++;
      return { content: [{ type: 'text', text: 'waited' }] };
    }
    return { content: [{ type: 'text', text: 'unknown tool' }], isError: true };
  });
  return server;
}

beforeAll(async () => {
  let next = 0;
  http = createServer((req, res) => {
    res.once('close', () => onServerClose());
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown) : undefined;
        const id = req.headers['mcp-session-id'];
        let session = typeof id === 'string' ? sessions.get(id) : undefined;
        if (!session) {
          const transport = new NodeHttpTransport({ sessionId: `s${++next}`, keepAliveMs: 20, onsessioninitialized: (sid) => sessions.set(sid, session!) });
          transport.onerror = (error) => errors.push(error);
          session = { transport, server: newServer() };
          session.server.onerror = (error) => errors.push(error);
          await session.server.connect(transport);
        }
        await session.transport.handleRequest(req, res, body);
      })();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  for (const s of sessions.values()) await s.server.close();
  await new Promise((resolve) => http.close(resolve));
});
afterEach(() => expect(errors).toEqual([]));

async function connect(): Promise<Client> {
  const client = new Client({ name: 't', version: '1' }, { capabilities: { elicitation: {} } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function rawSession(): Promise<string> {
  const init = await rawRequest(url, { method: 'POST', headers: MCP_HEADERS, body: INITIALIZE });
  expect(init.status).toBe(200);
  expect(init.headers['content-type']).toBe('text/event-stream');
  return init.headers['mcp-session-id'] as string;
}

/** Opens a GET stream and resolves with the response once its headers arrived. */
function openStream(session: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session } }, resolve)
      .on('error', reject)
      .end();
  });
}

/** Reads a stream until `pattern` has appeared in it. */
function readUntil(res: IncomingMessage, pattern: RegExp): Promise<string> {
  let text = '';
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (pattern.test(text)) {
        res.off('data', onData);
        resolve(text);
      }
    };
    res.on('data', onData);
  });
}

describe('NodeHttpTransport with the SDK client', () => {
  it("carries a request's progress notifications and its answer on the request's stream", async () => {
    const client = await connect();
    const progress: number[] = [];
    const result = await client.callTool({ name: 'progress', arguments: {} }, undefined, { onprogress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2, 3]);
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    await client.close();
  });

  it('carries a server request (elicitation) made while a tool runs, and its answer back', async () => {
    const client = await connect();
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ada' } }));
    const result = await client.callTool({ name: 'ask', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: '{"name":"Ada"}' }]);
    await client.close();
  });

  it('carries messages tied to no request on the GET stream, and ends the session on DELETE', async () => {
    const client = await connect();
    const transport = client.transport as StreamableHTTPClientTransport;
    const logs: unknown[] = [];
    const logged = new Promise<void>((resolve) =>
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
        logs.push(n.params.data);
        resolve();
      }),
    );
    const id = transport.sessionId!;
    // The client opens its GET stream after initialize; send until it has (a message with no stream is dropped).
    const server = sessions.get(id)!.server;
    const timer = setInterval(() => void server.sendLoggingMessage({ level: 'info', data: 'hello' }), 10);
    await logged;
    clearInterval(timer);
    expect(logs[0]).toBe('hello');
    await transport.terminateSession();
    const after = await rawRequest(url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-session-id': id },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
    await client.close();
  });
});

describe('NodeHttpTransport on the wire', () => {
  it('refuses what the protocol does not allow, each with its status and a readable message', async () => {
    const session = await rawSession();
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const post = (headers: Record<string, string>, body = list) => rawRequest(url, { method: 'POST', headers, body });
    const inSession = { ...MCP_HEADERS, 'mcp-session-id': session };

    const outcomes = {
      noAccept: await post({ ...inSession, accept: 'application/json' }),
      notJsonRpc: await post(inSession, JSON.stringify({ hello: 'world' })),
      badVersion: await post({ ...inSession, 'mcp-protocol-version': '1999-01-01' }),
      secondInit: await post(inSession, INITIALIZE),
      getNoAccept: await rawRequest(url, { headers: { 'mcp-session-id': session, accept: 'application/json' } }),
      put: await rawRequest(url, { method: 'PUT', headers: inSession }),
    };
    expect(Object.fromEntries(Object.entries(outcomes).map(([k, r]) => [k, [r.status, r.json().error.code]]))).toEqual({
      noAccept: [406, -32000],
      notJsonRpc: [400, -32600],
      badVersion: [400, -32000],
      secondInit: [400, -32600],
      getNoAccept: [406, -32000],
      put: [405, -32000],
    });
    expect(outcomes.badVersion.json().error.message).toMatch(/unsupported protocol version 1999-01-01 \(supported: .*2025-06-18/);
    expect(outcomes.put.headers.allow).toBe('GET, POST, DELETE');

    const ok = await post(inSession);
    expect([ok.status, ok.body]).toEqual([200, expect.stringMatching(/^event: message\ndata: \{"result":\{"tools":\[\]\},"jsonrpc":"2.0","id":2\}\n\n$/)]);
    const note = await post(inSession, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect([note.status, note.body]).toEqual([202, '']);
  });

  it('allows one GET stream per session, keeps it alive with comments, and frees it when the client leaves', async () => {
    const session = await rawSession();
    const first = await openStream(session);
    expect([first.statusCode, first.headers['content-type'], first.headers['mcp-session-id']]).toEqual([200, 'text/event-stream', session]);
    const second = await rawRequest(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session } });
    expect([second.status, second.json().error.code]).toEqual([409, -32000]);
    expect(await readUntil(first, /: keepalive\n\n/)).toMatch(/^(: keepalive\n\n)+$/);
    const closed = new Promise<void>((resolve) => (onServerClose = resolve));
    first.destroy();
    await closed;
    onServerClose = () => undefined;
    const again = await openStream(session);
    expect(again.statusCode).toBe(200);
    again.destroy();
  });

  it('refuses a request under an id that is still in flight in the session, and answers the first', async () => {
    const session = await rawSession();
    released = new Promise((resolve) => (release = resolve));
    const call = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'wait', arguments: {} } });
    const started = new Promise<void>((resolve) => (onWaitStarted = resolve));
    const first = rawRequest(url, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-session-id': session }, body: call });
    await started;
    onWaitStarted = () => undefined;
    const second = await rawRequest(url, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-session-id': session }, body: call });
    expect([second.status, second.json().error.code]).toEqual([409, -32600]);
    expect(second.json().error.message).toMatch(/request id 7 is still in flight/);
    release();
    expect((await first).body).toMatch(/"text":"waited".*"id":7/);
  });

  it('drops the progress and answer of a request whose client went away; the work finishes and the session goes on', async () => {
    const session = await rawSession();
    const finished = waitsFinished;
    released = new Promise((resolve) => (release = resolve));
    const gone = await new Promise<IncomingMessage>((resolve, reject) => {
      request(url, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-session-id': session } }, resolve)
        .on('error', reject)
        .end(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'wait', arguments: {}, _meta: { progressToken: 'p5' } } }));
    });
    const closed = new Promise<void>((resolve) => (onServerClose = resolve));
    gone.destroy();
    await closed;
    onServerClose = () => undefined;
    release();
    const next = await rawRequest(url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'wait', arguments: {} } }),
    });
    expect(next.body).toMatch(/"text":"waited".*"id":6/);
    expect(waitsFinished).toBe(finished + 2);
  });
});
