/**
 * professional_network → LinkedIn Posts API: `POST {DOCENT_LINKEDIN_API_URL}/rest/posts` with
 * `Authorization: Bearer <token>`, `LinkedIn-Version: <YYYYMM>`, `X-Restli-Protocol-Version: 2.0.0` and a
 * JSON post (`author`, `commentary`, `visibility: PUBLIC`, `distribution`, `lifecycleState: PUBLISHED`).
 * LinkedIn answers 201 with the new post's URN in the `x-restli-id` header. Commentary is LinkedIn's
 * "little text" format, so its reserved characters are escaped to appear literally. LinkedIn has no
 * idempotency key: the post's own state is what prevents a second send.
 */
import { failureFor, type PlatformAdapter } from './adapter.js';
import { postTo, SendFailure } from './http.js';

/** Escapes the characters little text reserves: \ | { } @ [ ] ( ) < > # * _ ~ */
export function littleText(text: string): string {
  return text.replace(/[\\|{}@[\]()<>#*_~]/g, (c) => `\\${c}`);
}

export const linkedin: PlatformAdapter = {
  platform: 'professional_network',
  service: 'LinkedIn',
  endpoint: 'linkedin',
  deduplicates: false,
  describe: (config) => `a public LinkedIn post by ${config.social.linkedinAuthor ?? '(author not configured)'}`,
  settings: (config) => [
    { env: 'DOCENT_LINKEDIN_TOKEN', present: Boolean(config.social.linkedinToken) },
    { env: 'DOCENT_LINKEDIN_AUTHOR', present: Boolean(config.social.linkedinAuthor) },
  ],
  async send(config, endpoint, req) {
    const reply = await postTo(endpoint, ['rest', 'posts'], {
      headers: {
        authorization: `Bearer ${config.social.linkedinToken}`,
        'content-type': 'application/json',
        'linkedin-version': config.social.linkedinVersion,
        'x-restli-protocol-version': '2.0.0',
      },
      body: JSON.stringify({
        author: config.social.linkedinAuthor,
        commentary: littleText(req.content),
        visibility: 'PUBLIC',
        distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
        lifecycleState: 'PUBLISHED',
        isReshareDisabledByAuthor: false,
      }),
      timeoutMs: req.timeoutMs,
      signal: req.signal,
    });
    if (reply.status !== 201) throw failureFor('LinkedIn', reply);
    const urn = reply.header('x-restli-id');
    if (!urn) throw new SendFailure('LinkedIn accepted the post but sent no x-restli-id header', true, reply.status);
    return { externalId: urn, url: `https://www.linkedin.com/feed/update/${urn}/` };
  },
};
