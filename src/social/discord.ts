/**
 * chat_community → Discord: `POST {DOCENT_DISCORD_API_URL}/channels/{DOCENT_DISCORD_CHANNEL_ID}/messages` with
 * `Authorization: Bot <token>` and JSON `{ content, nonce, enforce_nonce: true, allowed_mentions }`. Discord
 * answers 200 with the Message (`id`, `channel_id`, ...); with `enforce_nonce` a repeated nonce within a few
 * minutes returns the first message instead of posting again. Mentions are disabled so a post never pings
 * @everyone or a role.
 */
import { failureFor, type PlatformAdapter } from './adapter.js';
import { postTo, SendFailure } from './http.js';

export const discord: PlatformAdapter = {
  platform: 'chat_community',
  service: 'Discord',
  endpoint: 'discord',
  deduplicates: true,
  describe: (config) => `a Discord message in channel ${config.social.discordChannelId ?? '(channel not configured)'}`,
  settings: (config) => [
    { env: 'DOCENT_DISCORD_BOT_TOKEN', present: Boolean(config.social.discordBotToken) },
    { env: 'DOCENT_DISCORD_CHANNEL_ID', present: Boolean(config.social.discordChannelId) },
  ],
  async send(config, endpoint, req) {
    const channel = config.social.discordChannelId!;
    const reply = await postTo(endpoint, ['channels', channel, 'messages'], {
      headers: { authorization: `Bot ${config.social.discordBotToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: req.content, nonce: req.idempotencyKey, enforce_nonce: true, allowed_mentions: { parse: [] } }),
      timeoutMs: req.timeoutMs,
      signal: req.signal,
    });
    if (reply.status === 429) {
      const retry = (reply.json as { retry_after?: unknown } | undefined)?.retry_after;
      if (typeof retry === 'number') throw new SendFailure(`Discord rate-limited the request; retry after ${retry} s`, false, 429);
    }
    if (reply.status !== 200) throw failureFor('Discord', reply);
    const message = reply.json as { id?: unknown; channel_id?: unknown; guild_id?: unknown } | undefined;
    if (typeof message?.id !== 'string') throw new SendFailure('Discord accepted the request but its answer has no message id', true, reply.status);
    const url = typeof message.guild_id === 'string' ? `https://discord.com/channels/${message.guild_id}/${channel}/${message.id}` : null;
    return { externalId: message.id, url };
  },
};
