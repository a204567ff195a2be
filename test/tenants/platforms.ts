/**
 * Local stand-ins for the four platforms, answering with their real response shapes. Mastodon and Discord
 * deduplicate by Idempotency-Key / nonce as the real services do, so tests can see a repeat not publish twice.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, type RecordedRequest } from '../helpers/fixture-server.js';

export interface Published {
  id: string;
  text: string;
}

export interface PlatformFixture {
  /** What the "platform" has published, in order. */
  published: Published[];
  /** The next requests fail this way (then the platform behaves normally again). */
  failNext(times: number, reply: (res: ServerResponse) => void): void;
  /** Hold the next requests: publish, then never answer (the client times out). */
  hangNext(times: number): void;
  handler(req: RecordedRequest, res: ServerResponse): void;
}

function fixture(route: (req: RecordedRequest, res: ServerResponse, publish: (text: string, key?: string) => Published) => void): PlatformFixture {
  const published: Published[] = [];
  const byKey = new Map<string, Published>();
  const failures: ((res: ServerResponse) => void)[] = [];
  let hangs = 0;
  let next = 100;
  const publish = (text: string, key?: string): Published => {
    if (key && byKey.has(key)) return byKey.get(key)!;
    const item = { id: String(next++), text };
    published.push(item);
    if (key) byKey.set(key, item);
    return item;
  };
  return {
    published,
    failNext(times, reply) {
      for (let i = 0; i < times; i++) failures.push(reply);
    },
    hangNext(times) {
      hangs += times;
    },
    handler(req, res) {
      const failure = failures.shift();
      if (failure) return failure(res);
      if (hangs > 0) {
        hangs--;
        // The platform publishes, but the answer never arrives.
        route(req, { writeHead: () => ({ end: () => undefined }), end: () => undefined, setHeader: () => undefined } as unknown as ServerResponse, publish);
        return;
      }
      route(req, res, publish);
    },
  };
}

export function mastodonFixture(token: string): PlatformFixture {
  return fixture((req, res, publish) => {
    if (req.method !== 'POST' || req.url !== '/api/v1/statuses') return sendJson(res, 404, { error: 'Record not found' });
    if (req.headers.authorization !== `Bearer ${token}`) return sendJson(res, 401, { error: 'The access token is invalid' });
    const body = JSON.parse(req.body) as { status?: string; visibility?: string };
    if (!body.status) return sendJson(res, 422, { error: "Validation failed: Text can't be blank" });
    const status = publish(body.status, req.headers['idempotency-key'] as string | undefined);
    sendJson(res, 200, {
      id: status.id,
      created_at: new Date().toISOString(),
      visibility: body.visibility,
      uri: `https://social.example/users/acme/statuses/${status.id}`,
      url: `https://social.example/@acme/${status.id}`,
      content: `<p>${status.text}</p>`,
      account: { id: '1', username: 'acme', acct: 'acme' },
      media_attachments: [],
      mentions: [],
      tags: [],
    });
  });
}

export function linkedinFixture(token: string): PlatformFixture {
  return fixture((req, res, publish) => {
    if (req.method !== 'POST' || req.url !== '/rest/posts') return sendJson(res, 404, { status: 404, message: 'Resource not found' });
    if (req.headers.authorization !== `Bearer ${token}`) {
      return sendJson(res, 401, { status: 401, serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN', message: 'Invalid access token' });
    }
    if (!/^\d{6}$/.test(String(req.headers['linkedin-version'])) || req.headers['x-restli-protocol-version'] !== '2.0.0') {
      return sendJson(res, 426, { status: 426, code: 'NONEXISTENT_VERSION', message: 'Requested version is not active' });
    }
    const body = JSON.parse(req.body) as { commentary: string; author: string; lifecycleState: string };
    const post = publish(body.commentary);
    res.writeHead(201, { 'x-restli-id': `urn:li:share:${post.id}`, 'x-linkedin-id': `urn:li:share:${post.id}` });
    res.end();
  });
}

export function discordFixture(token: string, channel: string): PlatformFixture {
  return fixture((req, res, publish) => {
    if (req.method !== 'POST' || req.url !== `/channels/${channel}/messages`) return sendJson(res, 404, { message: 'Unknown Channel', code: 10003 });
    if (req.headers.authorization !== `Bot ${token}`) return sendJson(res, 401, { message: '401: Unauthorized', code: 0 });
    const body = JSON.parse(req.body) as { content: string; nonce?: string; enforce_nonce?: boolean };
    const message = publish(body.content, body.enforce_nonce ? body.nonce : undefined);
    sendJson(res, 200, {
      id: message.id,
      type: 0,
      content: message.text,
      channel_id: channel,
      author: { id: '42', username: 'docent-bot', bot: true },
      timestamp: new Date().toISOString(),
      nonce: body.nonce,
      mentions: [],
      attachments: [],
    });
  });
}

export function redditFixture(token: string, subreddit: string): PlatformFixture {
  return fixture((req, res, publish) => {
    if (req.method !== 'POST' || req.url !== '/api/submit') return sendJson(res, 404, { message: 'Not Found', error: 404 });
    if (req.headers.authorization !== `bearer ${token}`) return sendJson(res, 401, { message: 'Unauthorized', error: 401 });
    const form = new URLSearchParams(req.body);
    if (form.get('sr') !== subreddit) {
      return sendJson(res, 200, { json: { errors: [['SUBREDDIT_NOEXIST', "that subreddit doesn't exist", 'sr']] } });
    }
    const post = publish(form.get('title') ?? '');
    const id = `abc${post.id}`;
    sendJson(res, 200, {
      json: { errors: [], data: { url: `https://www.reddit.com/r/${subreddit}/comments/${id}/launch/`, drafts_count: 0, id, name: `t3_${id}` } },
    });
  });
}
