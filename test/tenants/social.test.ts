import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, sendJson, type FixtureServer } from '../helpers/fixture-server.js';
import type { Harness } from '../helpers/harness.js';
import { PostStore } from '../../src/tenants/posts.js';
import { call, harnessOn, sharedDataDir } from './helpers.js';
import { discordFixture, linkedinFixture, mastodonFixture, redditFixture, type PlatformFixture } from './platforms.js';

type Post = {
  id: string;
  platform: string;
  content: string;
  status: string;
  error: string | null;
  external_id: string | null;
  url: string | null;
  attempts: number;
  scheduled_at: string | null;
  posted_at: string | null;
};

let data: Awaited<ReturnType<typeof sharedDataDir>>;
let server: FixtureServer;
let platform: PlatformFixture;
/** Harness with every platform configured; the client cannot be asked (confirmation goes by token). */
let h: Harness;
/** Same data, no credentials at all. */
let bare: Harness;

const T = { tenant_id: 'acme' };
const future = () => new Date(Date.now() + 3 * 86_400_000).toISOString();

function configured(url: string): Record<string, unknown> {
  return {
    'social.timeoutSeconds': 1,
    'social.mastodonUrl': url,
    'social.mastodonToken': 'masto-token',
    'social.linkedinApiUrl': url,
    'social.linkedinToken': 'li-token',
    'social.linkedinAuthor': 'urn:li:organization:12345',
    'social.discordApiUrl': url,
    'social.discordBotToken': 'discord-token',
    'social.discordChannelId': '998877',
    'social.redditApiUrl': url,
    'social.redditToken': 'reddit-token',
    'social.redditSubreddit': 'SideProject',
  };
}

beforeAll(async () => {
  data = await sharedDataDir();
  server = await startFixtureServer();
  h = await harnessOn(data.dir, { overrides: configured(server.url) });
  bare = await harnessOn(data.dir);
});
afterAll(async () => {
  await h.close();
  await bare.close();
  await server.close();
  await data.remove();
});
afterEach(() => {
  server.requests.length = 0;
});

function use(fixture: PlatformFixture): PlatformFixture {
  platform = fixture;
  server.handle((req, res) => platform.handler(req, res));
  return fixture;
}

async function draft(platformName: string, content: string, tenant = T): Promise<Post> {
  const r = await call<{ post: Post }>(h, 'social_poster', { ...tenant, action: 'create_draft', platform: platformName, content });
  expect(r.isError, r.text).toBe(false);
  return r.value.post;
}

/** post, confirmed the way a client without elicitation does: first call returns a token, second carries it. */
async function postConfirmed(harness: Harness, postId: string, tenant = T) {
  const args = { ...tenant, action: 'post', post_id: postId };
  const first = await harness.call('social_poster', args);
  const text = (first.content as { text: string }[])[0]!.text;
  const token = /"confirmation_token": "([^"]+)"/.exec(text)?.[1];
  if (!token) return { isError: first.isError === true, text, value: first.structuredContent as Record<string, any> };
  return call(harness, 'social_poster', { ...args, confirmation_token: token });
}

describe('social_poster drafts', () => {
  it.each([
    ['microblog', 280],
    ['professional_network', 3000],
    ['chat_community', 2000],
    ['launch_site', 260],
  ])('accepts a %s draft of exactly its limit and refuses one character more, naming the limit', async (name, limit) => {
    const ok = await draft(name, 'x'.repeat(limit));
    expect(ok).toMatchObject({ platform: name, status: 'draft', characters: limit, limit, attempts: 0, external_id: null });
    const over = await call(h, 'social_poster', { ...T, action: 'create_draft', platform: name, content: 'x'.repeat(limit + 1) });
    expect(over.isError).toBe(true);
    expect(over.text).toContain(`is ${limit + 1} characters, over the ${name.replace('_', ' ')} limit (${limit.toLocaleString('en-US')}`);
    expect(over.text).toMatch(/by 1\. Shorten it/);
  });

  it('counts characters, not UTF-16 units (280 emoji fit the microblog)', async () => {
    const post = await draft('microblog', '🚀'.repeat(280));
    expect(post.characters).toBe(280);
  });

  it.each([
    [{ action: 'create_draft', content: 'hi' }, /`platform` is required for create_draft/],
    [{ action: 'create_draft', platform: 'microblog' }, /`content` is required for create_draft/],
    [{ action: 'create_draft', platform: 'microblog', content: '   ' }, /`content`: must not be empty/],
    [{ action: 'create_draft', platform: 'fax', content: 'hi' }, /`platform`/],
    [{ action: 'create_draft', platform: 'microblog', content: 'hi', scheduled_at: '2030-01-01T00:00:00Z' }, /`scheduled_at` does not apply to create_draft/],
    [{ action: 'schedule', post_id: 'post_000000000000000000000000', scheduled_at: '2030-01-01T00:00:00Z' }, /No post with id/],
    [{ action: 'post' }, /`post_id` is required for post/],
  ])('refuses %j naming the field, writing nothing', async (args, message) => {
    const before = await call<{ posts: Post[] }>(h, 'social_poster', { ...T, action: 'list_posts' });
    const r = await call(h, 'social_poster', { ...T, ...args });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(message);
    const after = await call<{ posts: Post[] }>(h, 'social_poster', { ...T, action: 'list_posts' });
    expect(after.value.posts).toEqual(before.value.posts);
  });

  it('lists posts in creation order, filtered by platform', async () => {
    const all = await call<{ posts: Post[] }>(h, 'social_poster', { ...T, action: 'list_posts' });
    expect(all.value.posts.map((p) => p.platform)).toEqual(['microblog', 'professional_network', 'chat_community', 'launch_site', 'microblog']);
    const micro = await call<{ posts: Post[] }>(h, 'social_poster', { ...T, action: 'list_posts', platform: 'microblog' });
    expect(micro.value.posts).toHaveLength(2);
  });
});

describe('social_poster schedule', () => {
  it('schedules a post in the future and refuses the past or a malformed date-time', async () => {
    const post = await draft('microblog', 'Launching next week');
    const when = future();
    const ok = await call<{ post: Post }>(h, 'social_poster', { ...T, action: 'schedule', post_id: post.id, scheduled_at: when });
    expect(ok.value.post).toMatchObject({ status: 'scheduled', scheduled_at: when });

    const past = await call(h, 'social_poster', { ...T, action: 'schedule', post_id: post.id, scheduled_at: '2020-01-01T00:00:00Z' });
    expect(past.isError).toBe(true);
    expect(past.text).toMatch(/`scheduled_at` 2020-01-01T00:00:00Z is not in the future/);
    for (const bad of ['2030-02-30T10:00:00Z', 'tomorrow', '2030-01-01', '2030-01-01T10:00:00']) {
      const r = await call(h, 'social_poster', { ...T, action: 'schedule', post_id: post.id, scheduled_at: bad });
      expect(r.isError, bad).toBe(true);
      expect(r.text).toMatch(/`scheduled_at`/);
    }
    const list = await call<{ posts: Post[] }>(h, 'social_poster', { ...T, action: 'list_posts' });
    expect(list.value.posts.find((p) => p.id === post.id)).toMatchObject({ status: 'scheduled', scheduled_at: when });
  });
});

describe('social_poster post', () => {
  it('without credentials: a clear error naming the variable, nothing sent, the post unchanged', async () => {
    use(mastodonFixture('masto-token'));
    const post = await draft('microblog', 'No token yet');
    const r = await call(bare, 'social_poster', { ...T, action: 'post', post_id: post.id });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/needs DOCENT_MASTODON_TOKEN, which is not set/);
    expect(r.text).toMatch(/The post is unchanged \(draft\)/);
    const li = await draft('professional_network', 'No LinkedIn either');
    const r2 = await call(bare, 'social_poster', { ...T, action: 'post', post_id: li.id });
    expect(r2.text).toMatch(/needs DOCENT_LINKEDIN_TOKEN and DOCENT_LINKEDIN_AUTHOR, which are not set/);
    expect(server.requests).toEqual([]);
    const list = await call<{ posts: Post[] }>(h, 'social_poster', { ...T, action: 'list_posts' });
    expect(list.value.posts.find((p) => p.id === post.id)).toEqual(post);
  });

  it('asks for confirmation showing the content, sends nothing until confirmed, then publishes on Mastodon once', async () => {
    const mastodon = use(mastodonFixture('masto-token'));
    const post = await draft('microblog', 'docent 1.0 is out: grounded answers from your docs.');
    const first = await h.call('social_poster', { ...T, action: 'post', post_id: post.id });
    expect(first.isError).toBe(true);
    const text = (first.content as { text: string }[])[0]!.text;
    expect(text).toMatch(/Confirmation required/);
    expect(text).toContain('docent 1.0 is out: grounded answers from your docs.');
    expect(text).toMatch(/public Mastodon status/);
    expect(server.requests).toEqual([]);

    const done = await postConfirmed(h, post.id);
    expect(done.isError, done.text).toBe(false);
    expect(done.value.post).toMatchObject({
      status: 'posted',
      external_id: mastodon.published[0]!.id,
      url: `https://social.example/@acme/${mastodon.published[0]!.id}`,
      error: null,
      attempts: 1,
    });
    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expect(sent.headers.authorization).toBe('Bearer masto-token');
    expect(sent.headers['idempotency-key']).toMatch(/^[0-9a-f]{24}$/);
    expect(JSON.parse(sent.body)).toEqual({ status: 'docent 1.0 is out: grounded answers from your docs.', visibility: 'public' });

    const again = await call(h, 'social_poster', { ...T, action: 'post', post_id: post.id });
    expect(again.isError).toBe(false);
    expect(again.value.already_posted).toBe(true);
    expect(again.text).toMatch(/was not sent again/);
    expect(server.requests).toHaveLength(1);
    expect(mastodon.published).toHaveLength(1);

    const reschedule = await call(h, 'social_poster', { ...T, action: 'schedule', post_id: post.id, scheduled_at: future() });
    expect(reschedule.isError).toBe(true);
    expect(reschedule.text).toMatch(/already posted/);
  });

  it("marks the post failed with the platform's reason; a retry with the same key publishes it once", async () => {
    const mastodon = use(mastodonFixture('masto-token'));
    mastodon.failNext(1, (res) => sendJson(res, 503, { error: 'Mastodon is down for maintenance' }));
    const post = await draft('microblog', 'Retry me');
    const failed = await postConfirmed(h, post.id);
    expect(failed.isError).toBe(true);
    expect(failed.text).toMatch(/Mastodon answered HTTP 503: Mastodon is down for maintenance/);
    expect(failed.text).toMatch(/marked failed/);
    const list = await call<{ posts: Post[] }>(h, 'social_poster', { ...T, action: 'list_posts' });
    expect(list.value.posts.find((p) => p.id === post.id)).toMatchObject({
      status: 'failed',
      error: 'Mastodon answered HTTP 503: Mastodon is down for maintenance',
      attempts: 1,
    });

    const retried = await postConfirmed(h, post.id);
    expect(retried.isError, retried.text).toBe(false);
    expect(retried.value.post).toMatchObject({ status: 'posted', error: null, attempts: 2 });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.headers['idempotency-key']).toBe(server.requests[1]!.headers['idempotency-key']);
    expect(mastodon.published.map((p) => p.text)).toEqual(['Retry me']);
  });

  it('when the platform published but never answered, the retry does not publish twice (Mastodon keys)', async () => {
    const mastodon = use(mastodonFixture('masto-token'));
    mastodon.hangNext(1);
    const post = await draft('microblog', 'Slow network day');
    const failed = await postConfirmed(h, post.id);
    expect(failed.isError).toBe(true);
    expect(failed.text).toMatch(
      /failed: Mastodon did not answer in time: 127\.0\.0\.1 did not answer within 1000 ms \(timeout\); it may still have published the post\./,
    );
    expect(failed.text).toMatch(/Mastodon drops a repeat of this post/);
    const retried = await postConfirmed(h, post.id);
    expect(retried.isError, retried.text).toBe(false);
    expect(mastodon.published).toEqual([{ id: retried.value.post.external_id, text: 'Slow network day' }]);
  });

  it('a platform that cannot be reached leaves the post failed and known unsent', async () => {
    const closed = await startFixtureServer();
    const port = closed.port;
    await closed.close();
    const down = await harnessOn(data.dir, { overrides: { ...configured(server.url), 'social.discordApiUrl': `http://127.0.0.1:${port}/api/v10` } });
    try {
      const post = await draft('chat_community', 'Nobody is listening');
      const r = await postConfirmed(down, post.id);
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/failed: could not connect to Discord: could not reach 127\.0\.0\.1 \(ECONNREFUSED\); nothing was sent\./);
      expect(r.text).toMatch(/Fix the cause and call post again to retry/);
    } finally {
      await down.close();
    }
  });

  it('refuses a credentials error from the platform as failed, naming the cause', async () => {
    use(mastodonFixture('another-token'));
    const post = await draft('microblog', 'Wrong token');
    const r = await postConfirmed(h, post.id);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/Mastodon refused the credentials \(HTTP 401: The access token is invalid\)/);
  });

  it('publishes to LinkedIn with the Posts API shape and escaped little text', async () => {
    const li = use(linkedinFixture('li-token'));
    const post = await draft('professional_network', 'We launched #docent (v1.0) @ 50% off_now!');
    const r = await postConfirmed(h, post.id);
    expect(r.isError, r.text).toBe(false);
    expect(r.value.post).toMatchObject({
      status: 'posted',
      external_id: `urn:li:share:${li.published[0]!.id}`,
      url: `https://www.linkedin.com/feed/update/urn:li:share:${li.published[0]!.id}/`,
    });
    const sent = server.requests[0]!;
    expect(sent.headers['linkedin-version']).toBe('202609');
    expect(sent.headers['x-restli-protocol-version']).toBe('2.0.0');
    expect(JSON.parse(sent.body)).toEqual({
      author: 'urn:li:organization:12345',
      commentary: 'We launched \\#docent \\(v1.0\\) \\@ 50% off\\_now!',
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
    });
  });

  it('publishes to Discord with a nonce, enforce_nonce and mentions disabled', async () => {
    const discord = use(discordFixture('discord-token', '998877'));
    const post = await draft('chat_community', 'Hello @everyone, docent is live');
    const r = await postConfirmed(h, post.id);
    expect(r.isError, r.text).toBe(false);
    expect(r.value.post).toMatchObject({ status: 'posted', external_id: discord.published[0]!.id });
    const sent = server.requests[0]!;
    expect(sent.url).toBe('/channels/998877/messages');
    expect(sent.headers.authorization).toBe('Bot discord-token');
    const body = JSON.parse(sent.body);
    expect(body).toEqual({
      content: 'Hello @everyone, docent is live',
      nonce: expect.stringMatching(/^[0-9a-f]{24}$/),
      enforce_nonce: true,
      allowed_mentions: { parse: [] },
    });
  });

  it("submits to Reddit as a self post and reports Reddit's error triples as the failure reason", async () => {
    const reddit = use(redditFixture('reddit-token', 'SideProject'));
    const post = await draft('launch_site', 'docent: ask your docs, get grounded answers');
    const r = await postConfirmed(h, post.id);
    expect(r.isError, r.text).toBe(false);
    expect(r.value.post).toMatchObject({ status: 'posted', external_id: `t3_abc${reddit.published[0]!.id}` });
    const form = new URLSearchParams(server.requests[0]!.body);
    expect(Object.fromEntries(form)).toEqual({
      api_type: 'json',
      kind: 'self',
      sr: 'SideProject',
      title: 'docent: ask your docs, get grounded answers',
      text: '',
    });
    expect(server.requests[0]!.headers['user-agent']).toMatch(/^docent\//);

    use(redditFixture('reddit-token', 'SomewhereElse'));
    const second = await draft('launch_site', 'Second launch');
    const failed = await postConfirmed(h, second.id);
    expect(failed.isError).toBe(true);
    expect(failed.text).toMatch(/Reddit refused the submission \(SUBREDDIT_NOEXIST: that subreddit doesn't exist\)/);
  });

  it('an abandoned send (server stopped mid-send) is resumed safely on a deduplicating platform, and flagged on one that is not', async () => {
    const store = await PostStore.open(h.services);
    const longAgo = new Date(Date.now() - 10 * 60_000);

    const mastodon = use(mastodonFixture('masto-token'));
    const micro = await draft('microblog', 'Interrupted');
    await store.claim('acme', micro.id, { staleAfterMs: 0, deduplicates: true, service: 'Mastodon' }, longAgo);
    const resumed = await postConfirmed(h, micro.id);
    expect(resumed.isError, resumed.text).toBe(false);
    expect(mastodon.published).toHaveLength(1);

    use(linkedinFixture('li-token'));
    const li = await draft('professional_network', 'Interrupted too');
    await store.claim('acme', li.id, { staleAfterMs: 0, deduplicates: false, service: 'LinkedIn' }, longAgo);
    const unknown = await postConfirmed(h, li.id);
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/Outcome unknown: a send to LinkedIn started at .* never finished/);
    expect(server.requests.filter((r) => r.url === '/rest/posts')).toHaveLength(0);
    const list = await call<{ posts: Post[] }>(h, 'social_poster', { ...T, action: 'list_posts' });
    expect(list.value.posts.find((p) => p.id === li.id)).toMatchObject({ status: 'failed', error: expect.stringMatching(/^Outcome unknown/) });
  });
});

describe('social_poster with elicitation', () => {
  let eh: Harness;
  let answer: 'accept' | 'decline' = 'accept';
  const asked: string[] = [];

  beforeAll(async () => {
    eh = await harnessOn(data.dir, { overrides: configured(server.url), capabilities: { elicitation: {} } });
    eh.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      // Keep the first send in flight while a concurrent call arrives.
      await new Promise((resolve) => setTimeout(resolve, 20));
      return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
    });
  });
  afterAll(async () => eh.close());

  it('asks the user with the content; a decline sends nothing and leaves the post as it was', async () => {
    use(mastodonFixture('masto-token'));
    const post = await draft('microblog', 'Ask me first');
    answer = 'decline';
    const r = await call(eh, 'social_poster', { ...T, action: 'post', post_id: post.id });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/The user declined/);
    expect(asked.at(-1)).toContain('Ask me first');
    expect(server.requests).toEqual([]);
    answer = 'accept';
    const ok = await call(eh, 'social_poster', { ...T, action: 'post', post_id: post.id });
    expect(ok.isError, ok.text).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('concurrent post calls on one post publish it exactly once', async () => {
    const mastodon = use(mastodonFixture('masto-token'));
    const post = await draft('microblog', 'Only once please');
    const results = await Promise.all(Array.from({ length: 5 }, () => call(eh, 'social_poster', { ...T, action: 'post', post_id: post.id })));
    expect(mastodon.published).toHaveLength(1);
    expect(server.requests).toHaveLength(1);
    const sent = results.filter((r) => !r.isError && r.value.already_posted === false);
    expect(sent).toHaveLength(1);
    for (const r of results.filter((x) => x !== sent[0])) {
      expect(r.isError ? r.text : r.value.already_posted).toSatisfy((v: unknown) => v === true || /being sent right now/.test(String(v)));
    }
  });
});
