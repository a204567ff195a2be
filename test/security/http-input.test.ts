/**
 * Attacks on the HTTP surface itself (moved here from test/http/app.test.ts): DNS rebinding through a foreign
 * Host or Origin, a second Host (or Origin) header smuggled after an allowed one, bodies past the limit
 * (declared or streamed chunked), malformed JSON or media types, and bytes that are not HTTP at all. Each is
 * refused before any handler runs, and the server keeps serving.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/cli.js';
import { restCall, startApp, type TestApp } from '../http/helpers.js';

let t: TestApp;
let acme: string;

beforeAll(async () => {
  t = await startApp();
  acme = await t.key('acme');
});
afterAll(async () => t.close());

const rest = (name: string, body: unknown, key: string | undefined, headers: Record<string, string> = {}) => restCall(t.url, name, body, key, headers);

describe('Host, Origin and request bodies', () => {
  it('refuses foreign Host and Origin on every route before anything else', async () => {
    for (const path of ['/healthz', '/.well-known/agent-manifest.json', '/mcp', '/v1/tools/calculator', '/nowhere']) {
      const host = await rawRequest(`${t.url}${path}`, { headers: { host: 'evil.example.com' } });
      expect([host.status, host.json().error.code], path).toEqual([403, 'forbidden_host']);
      const origin = await rawRequest(`${t.url}${path}`, {
        method: 'POST',
        headers: { origin: 'http://evil.example.com', authorization: `Bearer ${acme}` },
        body: '{',
      });
      expect([origin.status, origin.json().error.code], path).toEqual([403, 'forbidden_origin']);
    }
  });

  it('refuses a request with two Host (or two Origin) headers, whichever comes first', async () => {
    const port = new URL(t.url).port;
    const send = (lines: string[]) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.end(`${lines.join('\r\n')}\r\n\r\n`));
        let data = '';
        socket.on('data', (chunk) => (data += chunk.toString()));
        socket.on('end', () => resolve(data));
        socket.on('error', reject);
      });
    for (const hosts of [
      [`127.0.0.1:${port}`, 'evil.example'],
      ['evil.example', `127.0.0.1:${port}`],
      [`127.0.0.1:${port}`, `127.0.0.1:${port}`],
    ]) {
      const reply = await send(['GET /healthz HTTP/1.1', ...hosts.map((h) => `Host: ${h}`), 'Connection: close']);
      expect(reply).toMatch(/^HTTP\/1\.1 400 /);
      expect(reply).toContain('"code":"duplicate_header"');
    }
    const origins = await send(['GET /healthz HTTP/1.1', `Host: 127.0.0.1:${port}`, `Origin: ${t.url}`, 'Origin: http://evil.example', 'Connection: close']);
    expect(origins).toMatch(/^HTTP\/1\.1 400 /);
    const single = await send(['GET /healthz HTTP/1.1', `Host: 127.0.0.1:${port}`, 'Connection: close']);
    expect(single).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('refuses bad bodies clearly: malformed JSON 400, wrong type 415, too large 413', async () => {
    const malformed = await rest('calculator', '{"operation": "add",', acme);
    expect([malformed.status, malformed.json().error.code]).toEqual([400, 'invalid_json']);
    const form = await rest('calculator', 'a=1', acme, { 'content-type': 'application/x-www-form-urlencoded' });
    expect([form.status, form.json().error.code]).toEqual([415, 'unsupported_media_type']);
    const big = await rest('calculator', JSON.stringify({ pad: 'x'.repeat(4 * 1024 * 1024) }), acme);
    expect([big.status, big.json().error.code]).toEqual([413, 'payload_too_large']);
    // Declared small, streamed large (chunked): still 413.
    const chunked = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${t.url}/v1/tools/calculator`);
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(
          `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${acme}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        );
        const chunk = 'x'.repeat(1024 * 1024);
        for (let i = 0; i < 5; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      });
      let response = '';
      socket.on('data', (d) => {
        response += d.toString();
        const status = /^HTTP\/1\.1 (\d{3})/.exec(response);
        if (status) {
          socket.destroy();
          resolve(Number(status[1]));
        }
      });
      socket.on('error', reject);
    });
    expect(chunked).toBe(413);
  });

  it('answers malformed HTTP with a JSON 400 and keeps serving', async () => {
    const url = new URL(t.url);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write('GARBAGE / NOT-HTTP\r\n\r\n'));
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    expect(reply).toContain('"code":"bad_request"');
    expect((await rawRequest(`${t.url}/healthz`)).status).toBe(200);
  });
});
