import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDataDir } from './helpers.js';
import { startApp } from './http-app.js';

const run = promisify(execFile);
const CLI = new URL('../../dist/src/cli/main.js', import.meta.url).pathname;

let data: Awaited<ReturnType<typeof sharedDataDir>>;
beforeAll(async () => {
  data = await sharedDataDir();
});
afterAll(async () => data.remove());

async function docent(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [CLI, ...args, '--data-dir', `${data.dir}/data`], {
    env: { PATH: process.env.PATH, HOME: data.dir, DOCENT_LOG_LEVEL: 'silent', DOCENT_PRO_REQUESTS_PER_MONTH: '50000' },
  });
  return stdout;
}

describe('docent keys create --plan / keys list usage', () => {
  it("creates free and pro keys and lists each key's requests this month against its plan quota", async () => {
    const free = JSON.parse(await docent('keys', 'create', '--tenant', 'acme', '--json')) as { key: string; id: string; plan: string };
    const pro = JSON.parse(await docent('keys', 'create', '--tenant', 'acme', '--plan', 'pro', '--json')) as { key: string; id: string; plan: string };
    expect([free.plan, pro.plan]).toEqual(['free', 'pro']);
    await expect(docent('keys', 'create', '--tenant', 'acme', '--plan', 'gold')).rejects.toMatchObject({
      stderr: expect.stringMatching(/--plan must be one of free, pro/),
    });

    const app = await startApp(`${data.dir}/data`, { 'limits.free.requestsPerMinute': 0 });
    try {
      for (let i = 0; i < 3; i++) expect((await app.tool(free.key, 'scheduler', { tenant_id: 'acme', action: 'list_tasks' })).status).toBe(200);
      expect((await app.tool(pro.key, 'scheduler', { tenant_id: 'acme', action: 'list_tasks' })).status).toBe(200);
    } finally {
      await app.close();
    }

    const month = new Date().toISOString().slice(0, 7);
    const listed = JSON.parse(await docent('keys', 'list', '--json')) as { id: string; usage: unknown }[];
    expect(Object.fromEntries(listed.map((k) => [k.id, k.usage]))).toEqual({
      [free.id]: { month, requests: 3, limit: 10_000 },
      [pro.id]: { month, requests: 1, limit: 50_000 },
    });
    const text = await docent('keys', 'list');
    expect(text).toMatch(new RegExp(`REQUESTS ${month}`));
    expect(text).toMatch(new RegExp(`${free.id}\\s+acme\\s+free\\s+3 / 10,000`));
    expect(text).toMatch(new RegExp(`${pro.id}\\s+acme\\s+pro\\s+1 / 50,000`));
  });
});
