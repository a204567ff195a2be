/**
 * chat_webhook end to end: a real MCP client, an HTTPS fixture that answers like Slack's incoming
 * webhooks (`ok`, or a plain-text error code), and the confirmation policy (elicitation or token).
 */
import type { ServerResponse } from 'node:http';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureServer } from '../helpers/fixture-server.js';
import { textOf } from '../helpers/harness.js';
import { startHttpsFixture, startNetHarness, type NetHarness } from './helpers/network.js';

const SECRET = 'xoxSECRETtoken123';
let slack: FixtureServer;
let host: string;
let webhook: string;
const table = { 'hooks.chat.test': '127.0.0.1' };

const reply =
  (status: number, body: string, headers: Record<string, string> = {}) =>
  (_req: unknown, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'text/html', ...headers });
    res.end(body);
  };

beforeAll(async () => {
  slack = await startHttpsFixture(reply(200, 'ok'));
  host = `hooks.chat.test:${slack.port}`;
  webhook = `https://${host}/services/T024BE7LD/B024BE7LH/${SECRET}`;
});
afterAll(async () => slack.close());
afterEach(() => {
  slack.requests.length = 0;
  slack.handle(reply(200, 'ok'));
});

/** A harness whose client answers elicitations with `answer`. */
async function eliciting(answer: 'accept' | 'decline'): Promise<NetHarness & { asked: string[] }> {
  const h = await startNetHarness({
    table,
    allowLoopbackForTests: true,
    overrides: { 'services.chatWebhookHost': host },
    capabilities: { elicitation: {} },
  });
  const asked: string[] = [];
  h.client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
  });
  return Object.assign(h, { asked });
}

describe('chat_webhook', () => {
  let yes: NetHarness & { asked: string[] };
  beforeAll(async () => {
    yes = await eliciting('accept');
  });
  afterAll(async () => yes.close());

  it('asks the user, then posts {text, icon_emoji, username} as JSON', async () => {
    const result = await yes.call('chat_webhook', { webhook_url: webhook, text: 'Deploy *done* :tada:', icon_emoji: ':rocket:', username: 'docent' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ sent: true, webhook: `https://${host}/services/[redacted]`, status: 200, reply: 'ok' });
    expect(textOf(result)).toBe(`Posted the message to https://${host}/services/[redacted] (ok).`);
    expect(yes.asked.at(-1)).toBe(
      `Post a 20-character message as "docent" to the chat webhook https://${host}/services/[redacted]\n\nDeploy *done* :tada:\n\nProceed?`,
    );
    expect(slack.requests).toHaveLength(1);
    const [request] = slack.requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe(`/services/T024BE7LD/B024BE7LH/${SECRET}`);
    expect(request!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(request!.body)).toEqual({ text: 'Deploy *done* :tada:', icon_emoji: ':rocket:', username: 'docent' });
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it('sends only the fields given', async () => {
    await yes.call('chat_webhook', { webhook_url: webhook, text: 'plain' });
    expect(JSON.parse(slack.requests[0]!.body)).toEqual({ text: 'plain' });
  });

  it('sends nothing when the user declines', async () => {
    const no = await eliciting('decline');
    try {
      const result = await no.call('chat_webhook', { webhook_url: webhook, text: 'hello' });
      expect(textOf(result)).toBe(`The user declined: Post a 5-character message to the chat webhook https://${host}/services/[redacted]. Nothing was done.`);
      expect(slack.requests).toHaveLength(0);
    } finally {
      await no.close();
    }
  });

  it('without elicitation, returns a token; the same call with the token posts once', async () => {
    const h = await startNetHarness({ table, allowLoopbackForTests: true, overrides: { 'services.chatWebhookHost': host }, identity: { agentMode: true } });
    try {
      const args = { webhook_url: webhook, text: 'release notes' };
      const first = await h.call('chat_webhook', args);
      expect(first.isError).toBe(true);
      expect(textOf(first)).toMatch(/^Confirmation required \(sends data off this machine for good, so it is never auto-confirmed\)/);
      expect(textOf(first)).toContain('release notes');
      expect(textOf(first)).not.toContain(SECRET);
      expect(slack.requests).toHaveLength(0);
      const token = /"confirmation_token": "([^"]+)"/.exec(textOf(first))![1]!;
      const second = await h.call('chat_webhook', { ...args, confirmation_token: token });
      expect(second.isError).toBeFalsy();
      expect(slack.requests).toHaveLength(1);
      const third = await h.call('chat_webhook', { ...args, confirmation_token: token });
      expect(textOf(third)).toMatch(/^Confirmation required/);
      expect(slack.requests).toHaveLength(1);
    } finally {
      await h.close();
    }
  });

  it.each([
    [
      400,
      'invalid_payload',
      'The chat webhook refused the message (HTTP 400: invalid_payload): the platform rejected the message payload. Nothing was posted; check the webhook with the user.',
    ],
    [
      403,
      'invalid_token',
      'The chat webhook refused the message (HTTP 403: invalid_token): the webhook is not allowed to post (revoked or disabled). Nothing was posted; check the webhook with the user.',
    ],
    [
      404,
      'channel_not_found',
      'The chat webhook refused the message (HTTP 404: channel_not_found): the webhook or its channel no longer exists. Nothing was posted; check the webhook with the user.',
    ],
    [
      410,
      'channel_is_archived',
      'The chat webhook refused the message (HTTP 410: channel_is_archived): the channel is archived. Nothing was posted; check the webhook with the user.',
    ],
    [500, 'rollup_error', 'The chat webhook answered HTTP 500: rollup_error. The service is failing; try again later.'],
  ])('turns HTTP %i %s into a clear error', async (status, code, message) => {
    slack.handle(reply(status, code));
    const result = await yes.call('chat_webhook', { webhook_url: webhook, text: 'x' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(message);
  });

  it('does not echo an error body that is not a plain error code', async () => {
    slack.handle(reply(403, `<html>denied for ${SECRET}</html>`));
    const result = await yes.call('chat_webhook', { webhook_url: webhook, text: 'x' });
    expect(textOf(result)).toBe(
      'The chat webhook refused the message (HTTP 403): the webhook is not allowed to post (revoked or disabled). Nothing was posted; check the webhook with the user.',
    );
  });

  it('says when to retry after a rate limit', async () => {
    slack.handle(reply(429, 'rate_limited', { 'retry-after': '30' }));
    const result = await yes.call('chat_webhook', { webhook_url: webhook, text: 'x' });
    expect(textOf(result)).toMatch(/^The chat webhook rate limit reached \(HTTP 429: rate_limited\)\. Retry after 30 s \(at .+Z\)\.$/);
  });

  it('never follows a redirect with the message', async () => {
    slack.handle(reply(307, '', { location: `https://${host}/services/T0/B0/other` }));
    const result = await yes.call('chat_webhook', { webhook_url: webhook, text: 'x' });
    expect(textOf(result)).toBe('refused: hooks.chat.test answered with a redirect (307), and chat_webhook does not follow redirects');
    expect(slack.requests).toHaveLength(1);
  });

  it.each([
    ['an emoji without colons', { icon_emoji: 'rocket' }, /icon_emoji/],
    ['an empty text', { text: '' }, /text/],
    ['a text over 40000 characters', { text: 'x'.repeat(40_001) }, /text/],
    ['a username over 80 characters', { username: 'u'.repeat(81) }, /username/],
  ])('validates arguments before anything else: %s', async (_name, patch, field) => {
    const result = await yes.call('chat_webhook', { webhook_url: webhook, text: 'x', ...patch });
    expect(textOf(result)).toMatch(/^Invalid arguments for chat_webhook/);
    expect(textOf(result)).toMatch(field);
    expect(textOf(result)).not.toContain(SECRET);
    expect(slack.requests).toHaveLength(0);
  });
});
