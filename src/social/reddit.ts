/**
 * launch_site → Reddit: a self post in a launch community (e.g. r/SideProject) through
 * `POST {DOCENT_REDDIT_API_URL}/api/submit` with `Authorization: bearer <token>` (scope submit), a
 * descriptive User-Agent, and a form body `api_type=json, kind=self, sr, title`. The post text is the title
 * (launch_site posts are at most 260 characters; Reddit allows 300). Reddit answers 200 with
 * `{ json: { errors: [], data: { id, name, url } } }`, or errors as `[code, message, field]` triples, also
 * under 200. Reddit has no idempotency key: the post's own state is what prevents a second send.
 */
import { VERSION } from '../version.js';
import { failureFor, type PlatformAdapter } from './adapter.js';
import { postTo, SendFailure } from './http.js';

interface SubmitReply {
  json?: { errors?: unknown[]; data?: { id?: unknown; name?: unknown; url?: unknown } };
}

export const reddit: PlatformAdapter = {
  platform: 'launch_site',
  service: 'Reddit',
  endpoint: 'reddit',
  deduplicates: false,
  describe: (config) => `a post in r/${config.social.redditSubreddit ?? '(subreddit not configured)'}`,
  settings: (config) => [
    { env: 'DOCENT_REDDIT_TOKEN', present: Boolean(config.social.redditToken) },
    { env: 'DOCENT_REDDIT_SUBREDDIT', present: Boolean(config.social.redditSubreddit) },
  ],
  async send(config, endpoint, req) {
    const form = new URLSearchParams({ api_type: 'json', kind: 'self', sr: config.social.redditSubreddit!, title: req.content, text: '' });
    const reply = await postTo(endpoint, ['api', 'submit'], {
      headers: {
        authorization: `bearer ${config.social.redditToken}`,
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': `docent/${VERSION} (social_poster)`,
      },
      body: form.toString(),
      timeoutMs: req.timeoutMs,
      signal: req.signal,
    });
    if (reply.status !== 200) throw failureFor('Reddit', reply);
    const body = (reply.json ?? {}) as SubmitReply;
    const errors = body.json?.errors ?? [];
    if (errors.length) {
      const described = errors.map((e) => (Array.isArray(e) ? `${String(e[0])}: ${String(e[1] ?? '')}`.trim() : JSON.stringify(e))).join('; ');
      throw new SendFailure(`Reddit refused the submission (${described})`, false, reply.status);
    }
    const data = body.json?.data;
    const id = typeof data?.name === 'string' ? data.name : typeof data?.id === 'string' ? data.id : undefined;
    if (!id) throw new SendFailure('Reddit accepted the request but its answer has no post id', true, reply.status);
    return { externalId: id, url: typeof data?.url === 'string' ? data.url : null };
  },
};
