import { z } from 'zod';
import { defineTool } from '../src/catalog/definition.js';
import { ToolError } from '../src/errors.js';
import { rateLimited, upstreamFailure } from '../src/net/upstream.js';
import { checkWebhookUrl } from '../src/net/webhook.js';

/** What Slack-style webhooks answer in plain text: `ok`, or an error code such as `invalid_token`. */
const REPLY_CODE = /^[a-z_]{1,60}$/;

/** The webhook's error codes, as advice for the caller. */
const ADVICE: Record<number, string> = {
  400: 'the platform rejected the message payload',
  403: 'the webhook is not allowed to post (revoked or disabled)',
  404: 'the webhook or its channel no longer exists',
  410: 'the channel is archived',
};

const output = z.object({
  sent: z.literal(true),
  webhook: z.string().describe('The webhook URL with its secret path redacted'),
  status: z.number().int(),
  reply: z.string().describe('What the platform answered (usually "ok")'),
});

export const chat_webhook = defineTool({
  name: 'chat_webhook',
  title: 'Chat webhook message',
  summary: 'Post to an incoming chat webhook on the configured host only',
  description:
    'Posts a message to a chat channel through an incoming webhook (Slack-compatible JSON: text, icon_emoji, username). ' +
    "The webhook URL must be on the operator's chat webhook host (default hooks.slack.com) and look like " +
    'https://<host>/services/...; it is a secret, so it is never echoed back. The message leaves the machine for good, ' +
    'so every post is confirmed by the user first (an elicitation, or a confirmation token to repeat the call with). ' +
    'Use it to notify a team of a result. Not for reading channels or for social networks (use social_poster).',
  input: z.object({
    webhook_url: z.string().trim().min(1).max(2048).describe('Incoming webhook URL on the permitted host (a secret)'),
    text: z.string().min(1).max(40_000).describe("Message text; the platform's markup (mrkdwn) is supported"),
    icon_emoji: z
      .string()
      .regex(/^:[a-z0-9_+'-]{1,100}:$/, 'an emoji code such as :robot_face:')
      .optional()
      .describe("Emoji code shown as the sender's icon, e.g. :robot_face:"),
    username: z.string().trim().min(1).max(80).optional().describe('Display name of the sender'),
  }),
  output,
  side_effects: 'mutating',
  cost_class: 'free',
  requires_secret: true,
  hints: ['The webhook URL itself is the credential: it is redacted in every answer and log line.', "Every post needs the user's confirmation."],
  async handler({ webhook_url, text, icon_emoji, username }, ctx) {
    const target = checkWebhookUrl(webhook_url, ctx.config.services.chatWebhookHost);
    await ctx.confirm({
      kind: 'send',
      summary: `Post a ${text.length}-character message${username ? ` as "${username}"` : ''} to the chat webhook ${target.redacted}`,
      preview: text,
    });
    const outbound = await ctx.services.outbound();
    const response = await outbound.fetch(target.url, {
      policy: target.policy,
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ text, ...(icon_emoji ? { icon_emoji } : {}), ...(username ? { username } : {}) }),
      accept: ['text/plain', 'text/html', 'application/json'],
      maxBytes: 64 * 1024,
      maxRedirects: 0,
      signal: ctx.signal,
    });
    const reply = response.text().trim();
    const code = REPLY_CODE.test(reply) ? reply : undefined;
    if (response.status === 429) throw rateLimited('The chat webhook', response, code);
    if (response.status >= 200 && response.status < 300) {
      const value = { sent: true as const, webhook: target.redacted, status: response.status, reply: code ?? 'ok' };
      return { value, text: `Posted the message to ${target.redacted} (${value.reply}).` };
    }
    const advice = ADVICE[response.status];
    if (advice) {
      throw new ToolError(
        `The chat webhook refused the message (HTTP ${response.status}${code ? `: ${code}` : ''}): ${advice}. Nothing was posted; check the webhook with the user.`,
        'upstream_rejected',
      );
    }
    throw upstreamFailure('The chat webhook', response, code);
  },
});
