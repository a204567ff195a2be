import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDataDir } from '../tenants/helpers.js';
import { startApp, type App } from '../tenants/http-app.js';

/**
 * Slowloris: a client that trickles its request head (one header line at a time, never the blank line that
 * ends it) must be cut once the head timeout passes, while other requests are served meanwhile.
 */
let data: Awaited<ReturnType<typeof sharedDataDir>>;
let app: App;
beforeAll(async () => {
  data = await sharedDataDir();
  app = await startApp(`${data.dir}/data`, { 'http.headersTimeoutMs': 400, 'http.requestTimeoutMs': 400 });
});
afterAll(async () => {
  await app.close();
  await data.remove();
});

describe('slow clients', () => {
  it('closes a connection that trickles its headers, and serves others meanwhile', async () => {
    const { port } = new URL(app.url);
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    // Keep trickling a header line until the server gives up on us.
    let sent = 0;
    const trickle = setInterval(() => {
      if (!socket.destroyed && socket.writable) socket.write(`X-Slow-${sent++}: 1\r\n`);
    }, 100);
    // Meanwhile a well-behaved request is answered.
    const health = await fetch(`${app.url}/healthz`);
    expect(health.status).toBe(200);
    await closed;
    clearInterval(trickle);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(received).toContain('"code":"request_timeout"');
    expect(sent).toBeGreaterThan(0);
  });
});
