/**
 * microblog → Mastodon: `POST {DOCENT_MASTODON_URL}/api/v1/statuses` with `Authorization: Bearer <token>`
 * (scope write:statuses), JSON `{ status, visibility }` and an `Idempotency-Key` header. Mastodon answers
 * 200 with a Status (`id`, `url`, ...) and returns the first status for a repeated key (keys are kept for an
 * hour), so a repeated send does not post twice.
 */
import { failureFor, type PlatformAdapter } from './adapter.js';
import { postTo, SendFailure } from './http.js';

export const mastodon: PlatformAdapter = {
  platform: 'microblog',
  service: 'Mastodon',
  endpoint: 'mastodon',
  deduplicates: true,
  describe: (config) => `a ${config.social.mastodonVisibility} Mastodon status on ${new URL(config.social.mastodonUrl).host}`,
  settings: (config) => [{ env: 'DOCENT_MASTODON_TOKEN', present: Boolean(config.social.mastodonToken) }],
  async send(config, endpoint, req) {
    const reply = await postTo(endpoint, ['api', 'v1', 'statuses'], {
      headers: {
        authorization: `Bearer ${config.social.mastodonToken}`,
        'content-type': 'application/json',
        accept: 'application/json',
        'idempotency-key': req.idempotencyKey,
      },
      body: JSON.stringify({ status: req.content, visibility: config.social.mastodonVisibility }),
      timeoutMs: req.timeoutMs,
      signal: req.signal,
    });
    if (reply.status !== 200) throw failureFor('Mastodon', reply);
    const status = reply.json as { id?: unknown; url?: unknown } | undefined;
    if (typeof status?.id !== 'string') throw new SendFailure('Mastodon accepted the request but its answer has no status id', true, reply.status);
    return { externalId: status.id, url: typeof status.url === 'string' ? status.url : null };
  },
};
