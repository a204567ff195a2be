import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { call, dayFromToday, sharedDataDir } from './helpers.js';
import { startApp, type App } from './http-app.js';
import { mastodonFixture } from './platforms.js';

let data: Awaited<ReturnType<typeof sharedDataDir>>;
let fixture: FixtureServer;
let app: App;
let keyA: string;
let keyB: string;
const A = { tenant_id: 'acme' };
const B = { tenant_id: 'globex' };

beforeAll(async () => {
  data = await sharedDataDir();
  fixture = await startFixtureServer();
  const mastodon = mastodonFixture('masto-token');
  fixture.handle((req, res) => mastodon.handler(req, res));
  app = await startApp(`${data.dir}/data`, {
    'limits.free.requestsPerMinute': 0,
    'limits.free.requestsPerMonth': 0,
    'social.mastodonUrl': fixture.url,
    'social.mastodonToken': 'masto-token',
  });
  keyA = await app.key('acme');
  keyB = await app.key('globex');
});
afterAll(async () => {
  await app.close();
  await fixture.close();
  await data.remove();
});

describe('tenant isolation over HTTP (two API keys)', () => {
  let taskA: string;
  let postA: string;

  beforeAll(async () => {
    const task = await app.tool(keyA, 'scheduler', { ...A, action: 'add_task', label: 'Secret launch prep', category: 'prep', due_date: dayFromToday(3) });
    expect(task.status).toBe(200);
    taskA = task.body.result.task.id;
    const post = await app.tool(keyA, 'social_poster', { ...A, action: 'create_draft', platform: 'microblog', content: 'Acme secret launch' });
    postA = post.body.result.post.id;
    const plan = await app.tool(keyA, 'pricing_manager', { ...A, action: 'create_plan', name: 'Pro', price_usd: 29, requests_per_month: 100_000 });
    expect(plan.status).toBe(200);
  });

  it("refuses a tenant_id other than the key's with 403 forbidden, touching nothing", async () => {
    for (const [tool, args] of [
      ['scheduler', { action: 'list_tasks' }],
      ['scheduler', { action: 'add_task', label: 'Planted', category: 'prep', due_date: dayFromToday(1) }],
      ['scheduler', { action: 'complete_task', task_id: 'x' }],
      ['social_poster', { action: 'list_posts' }],
      ['social_poster', { action: 'create_draft', platform: 'microblog', content: 'Planted' }],
      ['pricing_manager', { action: 'list_plans' }],
      ['pricing_manager', { action: 'create_plan', name: 'Pro', price_usd: 1, requests_per_month: 1 }],
    ] as const) {
      const r = await app.tool(keyB, tool, { ...A, ...args });
      expect(r.status, `${tool} ${args.action}`).toBe(403);
      expect(r.body.error).toMatchObject({ code: 'forbidden', field: 'tenant_id' });
      expect(r.body.error.message).toMatch(/this API key acts for tenant "globex", not "acme"/);
    }
    const tasks = await app.tool(keyA, 'scheduler', { ...A, action: 'list_tasks' });
    expect(tasks.body.result.tasks.map((t: { label: string }) => t.label)).toEqual(['Secret launch prep']);
    const plans = await app.tool(keyA, 'pricing_manager', { ...A, action: 'list_plans' });
    expect(plans.body.result.plans).toHaveLength(1);
    expect(plans.body.result.plans[0].price_usd).toBe(29);
    const posts = await app.tool(keyA, 'social_poster', { ...A, action: 'list_posts' });
    expect(posts.body.result.posts.map((p: { content: string }) => p.content)).toEqual(['Acme secret launch']);
  });

  it('B cannot list, complete, schedule or post A\'s records, even by id: they are "not found"', async () => {
    expect((await app.tool(keyB, 'scheduler', { ...B, action: 'list_tasks' })).body.result.tasks).toEqual([]);
    expect((await app.tool(keyB, 'social_poster', { ...B, action: 'list_posts' })).body.result.posts).toEqual([]);
    expect((await app.tool(keyB, 'pricing_manager', { ...B, action: 'list_plans' })).body.result.plans).toEqual([]);

    const complete = await app.tool(keyB, 'scheduler', { ...B, action: 'complete_task', task_id: taskA });
    expect(complete.status).toBe(404);
    expect(complete.body.error).toMatchObject({ code: 'not_found', field: 'task_id' });
    expect(complete.body.error.message).toBe(
      `No task with id "${taskA}" for tenant "globex". Call list_tasks to see the tenant's task ids. Nothing was changed.`,
    );

    const schedule = await app.tool(keyB, 'social_poster', {
      ...B,
      action: 'schedule',
      post_id: postA,
      scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(schedule.status).toBe(404);
    const post = await app.tool(keyB, 'social_poster', { ...B, action: 'post', post_id: postA });
    expect(post.status).toBe(404);
    expect(post.body.error.code).toBe('not_found');
    expect(fixture.requests).toEqual([]);

    const revenue = await app.tool(keyB, 'pricing_manager', { ...B, action: 'project_revenue', subscribers: { Pro: 10 } });
    expect(revenue.status).toBe(404);
    expect(revenue.body.error.message).toMatch(/Tenant "globex" has no pricing plans/);

    // A's records are exactly as they were.
    const tasks = await app.tool(keyA, 'scheduler', { ...A, action: 'list_tasks' });
    expect(tasks.body.result.tasks[0]).toMatchObject({ id: taskA, status: 'open', completed_at: null });
    const posts = await app.tool(keyA, 'social_poster', { ...A, action: 'list_posts' });
    expect(posts.body.result.posts[0]).toMatchObject({ id: postA, status: 'draft', scheduled_at: null, attempts: 0 });
  });

  it('A posts its own draft over HTTP after confirming with the token', async () => {
    const first = await app.tool(keyA, 'social_poster', { ...A, action: 'post', post_id: postA });
    expect(first.status).toBe(409);
    expect(first.body.error.code).toBe('confirmation_required');
    expect(first.body.error.message).toContain('Acme secret launch');
    expect(fixture.requests).toEqual([]);
    const token = first.body.error.confirmation_token as string;
    const stolen = await app.tool(keyB, 'social_poster', { ...B, action: 'post', post_id: postA, confirmation_token: token });
    expect(stolen.status).toBe(404);
    const done = await app.tool(keyA, 'social_poster', { ...A, action: 'post', post_id: postA, confirmation_token: token });
    expect(done.status).toBe(200);
    expect(done.body.result.post.status).toBe('posted');
    expect(fixture.requests).toHaveLength(1);
  });

  it("over MCP on /mcp the session acts for its key's tenant only", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${keyB}` } } });
    const client = new Client({ name: 'tenant-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const h = { call: (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) } as Parameters<typeof call>[0];
      const listed = await call(h, 'scheduler', { ...B, action: 'list_tasks' });
      expect(listed.value.tasks).toEqual([]);
      const forbidden = await call(h, 'scheduler', { ...A, action: 'list_tasks' });
      expect(forbidden.isError).toBe(true);
      expect(forbidden.text).toMatch(/Forbidden: this API key acts for tenant "globex"/);
      const notFound = await call(h, 'scheduler', { ...B, action: 'complete_task', task_id: taskA });
      expect(notFound.isError).toBe(true);
      expect(notFound.text).toMatch(/No task with id/);
    } finally {
      await client.close();
    }
  });
});

describe('concurrency over HTTP', () => {
  it('100 parallel add_task calls leave exactly 100 tasks', async () => {
    const key = await app.key('bulk');
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        app.tool(key, 'scheduler', { tenant_id: 'bulk', action: 'add_task', label: `Task ${i}`, category: 'content', due_date: dayFromToday(i % 30) }),
      ),
    );
    expect(results.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    const list = await app.tool(key, 'scheduler', { tenant_id: 'bulk', action: 'list_tasks' });
    expect(list.body.result.tasks).toHaveLength(100);
    expect(new Set(list.body.result.tasks.map((t: { label: string }) => t.label))).toEqual(new Set(Array.from({ length: 100 }, (_, i) => `Task ${i}`)));
  });

  it('concurrent complete_task calls complete one task exactly once', async () => {
    const key = await app.key('race');
    const added = await app.tool(key, 'scheduler', { tenant_id: 'race', action: 'add_task', label: 'Once', category: 'launch', due_date: dayFromToday(1) });
    const id = added.body.result.task.id;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => app.tool(key, 'scheduler', { tenant_id: 'race', action: 'complete_task', task_id: id })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.result.already_done === false)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.result.task.completed_at)).size).toBe(1);
  });
});
