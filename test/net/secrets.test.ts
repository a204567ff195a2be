/**
 * No secret in any log line or answer: a real MCP server whose pino logger (production redaction rules,
 * level trace) writes into memory, driven through successes and failures of the three tools that hold
 * credentials (GITHUB_TOKEN, DOCENT_WEB_SEARCH_API_KEY, the webhook URL's path).
 */
import { rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { REDACT_PATHS } from '../../src/logging.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { Outbound } from '../../src/net/outbound.js';
import { Services } from '../../src/services.js';
import { sendJson, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir, textOf } from '../helpers/harness.js';
import { startHttpsFixture, tableResolver, testCertificate, tripwire } from './helpers/network.js';

const GITHUB_TOKEN = 'ghp_SECRETgithub0123456789abcdefABCD';
const SEARCH_KEY = 'BSA_SECRETsearch0123456789';
const HOOK_SECRET = 'SECRETwebhookPATH0123';

let api: FixtureServer;
let hooks: FixtureServer;
let client: Client;
let services: Services;
let root: string;
const lines: string[] = [];
const answers: string[] = [];

beforeAll(async () => {
  [api, hooks] = await Promise.all([startFixtureServer(), startHttpsFixture()]);
  root = await tempDir();
  const config = loadConfig({
    env: {},
    overrides: {
      dataDir: `${root}/data`,
      workspaceDir: `${root}/ws`,
      'services.githubApiUrl': api.url,
      'services.webSearchApiUrl': api.url,
      'services.chatWebhookHost': `hooks.chat.test:${hooks.port}`,
      'secrets.githubToken': GITHUB_TOKEN,
      'secrets.webSearchApiKey': SEARCH_KEY,
    },
  });
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const logger = pino({ level: 'trace', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink);
  services = new Services(config, logger);
  services.useOutbound(
    new Outbound(config, logger, {
      resolver: tableResolver({ 'hooks.chat.test': '127.0.0.1' }),
      ca: testCertificate().cert,
      allowLoopbackForTests: true,
      beforeConnect: tripwire().beforeConnect,
    }),
  );
  const server = createMcpServer({
    config,
    services,
    logger,
    transport: 'inproc',
    serverRequests: true,
    identify: () => ({ tenant: 'default', tenantBound: false, agentMode: true }),
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 'secrets-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  let accept = true;
  client.setRequestHandler(ElicitRequestSchema, async () => {
    const answer = accept ? { action: 'accept' as const, content: { confirm: true } } : { action: 'decline' as const };
    accept = !accept;
    return answer;
  });
  await Promise.all([server.connect(b), client.connect(a)]);
});
afterAll(async () => {
  await client.close();
  await services.close();
  await Promise.all([api.close(), hooks.close(), rm(root, { recursive: true, force: true })]);
});

async function call(name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  answers.push(JSON.stringify(result));
  return result;
}

describe('secrets stay out of logs and answers', () => {
  it('across successes and failures of analytics_fetcher, web_search and chat_webhook', async () => {
    const webhook = `https://hooks.chat.test:${hooks.port}/services/T1/B2/${HOOK_SECRET}`;

    api.handle((_req, res) =>
      sendJson(res, 200, { full_name: 'a/b', html_url: 'https://github.com/a/b', stargazers_count: 1, forks_count: 2, open_issues_count: 3 }),
    );
    expect((await call('analytics_fetcher', { platform: 'code_host', target: 'a/b' })).isError).toBeFalsy();
    api.handle((_req, res) => sendJson(res, 401, { message: `Bad credentials for ${GITHUB_TOKEN}` }));
    expect((await call('analytics_fetcher', { platform: 'code_host', target: 'a/b' })).isError).toBe(true);
    api.handle((_req, res) => sendJson(res, 403, { message: 'API rate limit exceeded' }, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' }));
    expect((await call('analytics_fetcher', { platform: 'code_host', target: 'a/b' })).isError).toBe(true);

    api.handle((_req, res) => sendJson(res, 200, { web: { results: [{ title: 't', url: 'https://e.org/', description: 'd' }] } }));
    expect((await call('web_search', { query: 'anything' })).isError).toBeFalsy();
    api.handle((_req, res) => sendJson(res, 401, { type: 'ErrorResponse', error: { detail: 'The provided subscription token is invalid.' } }));
    expect((await call('web_search', { query: 'anything' })).isError).toBe(true);
    api.handle((_req, res) => sendJson(res, 200, '<not json'));
    await call('web_search', { query: 'malformed' });

    hooks.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('ok');
    });
    expect((await call('chat_webhook', { webhook_url: webhook, text: 'hi' })).isError).toBeFalsy(); // user accepts
    expect(textOf(await call('chat_webhook', { webhook_url: webhook, text: 'hi' }))).toMatch(/^The user declined/);
    hooks.handle((_req, res) => {
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end('invalid_token');
    });
    expect((await call('chat_webhook', { webhook_url: webhook, text: 'hi' })).isError).toBe(true);
    await call('chat_webhook', { webhook_url: webhook.replace('https://hooks', 'https://x.hooks'), text: 'hi' });
    await call('chat_webhook', { webhook_url: webhook.replace('https:', 'http:'), text: 'hi' });
    await call('chat_webhook', { webhook_url: `${webhook}?q=1`, text: 'hi' });
    await call('chat_webhook', { webhook_url: webhook, text: 'hi', icon_emoji: 'bad' });

    expect(hooks.requests.map((r) => r.url)).toEqual([`/services/T1/B2/${HOOK_SECRET}`, `/services/T1/B2/${HOOK_SECRET}`]);
    // The logs are real and detailed: every outbound exchange and every tool error is there.
    const all = lines.join('\n');
    expect(lines.filter((l) => l.includes('"msg":"outbound request"')).length).toBeGreaterThanOrEqual(6);
    expect(all).toContain('"host":"hooks.chat.test"');
    expect(all).toContain('GitHub rejected the token in GITHUB_TOKEN');
    for (const secret of [GITHUB_TOKEN, SEARCH_KEY, HOOK_SECRET]) {
      expect(all).not.toContain(secret);
      expect(answers.join('\n')).not.toContain(secret);
    }
  });
});
