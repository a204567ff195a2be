/**
 * Attack: a local process swaps a folder of the workspace with a symbolic link to a folder outside it
 * (renameat2 RENAME_EXCHANGE, as fast as it can) while file_operations writes, reads, lists and deletes
 * inside that folder. Whatever each call answers (success, conflict, "leads outside"), nothing may land
 * outside, and no read or listing may return what is outside. Counted in rounds, not time.
 * Also: a hard link placed in the workspace is neither read nor replaced.
 */
import { link, lstat, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeTool, type CallEnvironment } from '../../src/catalog/invoke.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logging.js';
import { Services } from '../../src/services.js';
import { file_operations } from '../../tools/file_operations.js';
import { tempDir } from '../helpers/harness.js';
import { startSwapper } from '../helpers/swapper.js';

const ROUNDS = 500;
const OUTSIDE_MARK = 'OUTSIDE-CONTENT';

let root: string;
let ws: string;
let outside: string;
let services: Services;
let env: CallEnvironment;

beforeAll(async () => {
  root = await tempDir('docent-race-');
  ws = path.join(root, 'ws');
  outside = path.join(root, 'outside');
  const config = loadConfig({ env: {}, overrides: { dataDir: path.join(root, 'data'), workspaceDir: ws } });
  services = new Services(config, silentLogger());
  // Deletes are confirmed by a user who always says yes; writes are safe operations.
  env = {
    config,
    services,
    logger: silentLogger(),
    tenant: 'default',
    tenantBound: false,
    agentMode: true,
    transport: 'inproc',
    elicitConfirmation: async () => true,
  };
});
afterAll(async () => {
  await services.close();
  await rm(root, { recursive: true, force: true });
});

/** Every entry below `dir` with its content (files) or link text. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (current: string, rel: string) => {
    for (const name of (await readdir(current)).sort()) {
      const full = path.join(current, name);
      const st = await lstat(full);
      const key = rel ? `${rel}/${name}` : name;
      if (st.isDirectory()) {
        out[key] = 'dir';
        await walk(full, key);
      } else out[key] = st.isSymbolicLink() ? 'link' : await readFile(full, 'utf8');
    }
  };
  await walk(dir, '');
  return out;
}

const call = (args: Record<string, unknown>) => invokeTool(file_operations, args, env);

describe('workspace folder swapped for a link to outside, during every operation', () => {
  it(`lets nothing land outside and returns nothing from outside in ${ROUNDS} rounds`, async () => {
    await mkdir(path.join(outside, 'sub'), { recursive: true });
    await writeFile(path.join(outside, 'inner.txt'), `${OUTSIDE_MARK} inner`);
    await writeFile(path.join(outside, 'victim.txt'), `${OUTSIDE_MARK} victim`);
    await writeFile(path.join(outside, 'only-outside.txt'), `${OUTSIDE_MARK} marker`);
    await writeFile(path.join(outside, 'sub', 'n.txt'), `${OUTSIDE_MARK} sub`);
    const before = await tree(outside);
    await mkdir(path.join(ws, 'box'), { recursive: true });
    await writeFile(path.join(ws, 'box', 'inner.txt'), 'inside inner');
    await symlink(outside, path.join(ws, 'box-swap'));

    const swapper = await startSwapper(root, path.join(ws, 'box'), path.join(ws, 'box-swap'));
    const tally = { ok: 0, refused: 0, leakedReads: 0, leakedLists: 0, crashed: [] as string[] };
    const judge = (outcome: Awaited<ReturnType<typeof call>>, kind: 'read' | 'list' | 'other') => {
      if (!outcome.ok) {
        if (outcome.code === 'internal_error') tally.crashed.push(outcome.message);
        else tally.refused += 1;
        if (outcome.message.includes(OUTSIDE_MARK) || outcome.message.includes('only-outside')) tally.leakedReads += 1;
        return;
      }
      tally.ok += 1;
      const seen = JSON.stringify(outcome.value);
      if (kind === 'read' && seen.includes(OUTSIDE_MARK)) tally.leakedReads += 1;
      if (kind === 'list' && seen.includes('only-outside')) tally.leakedLists += 1;
    };
    let swaps: number;
    try {
      for (let round = 0; round < ROUNDS; round++) {
        judge(await call({ operation: 'write', path: 'box/victim.txt', content: `inside ${round}` }), 'other');
        judge(await call({ operation: 'write', path: 'box/sub/n.txt', content: `inside ${round}` }), 'other');
        judge(await call({ operation: 'read', path: 'box/inner.txt' }), 'read');
        judge(await call({ operation: 'read', path: 'box/victim.txt' }), 'read');
        judge(await call({ operation: 'list', path: 'box', recursive: true }), 'list');
        judge(await call({ operation: 'delete', path: 'box/victim.txt' }), 'other');
        judge(await call({ operation: 'delete', path: 'box/sub', force: true }), 'other');
      }
    } finally {
      swaps = await swapper.stop();
    }
    // The swapper really raced (an even count: both names are back where they started).
    expect(swaps).toBeGreaterThan(0);
    expect(tally.crashed).toEqual([]);
    expect({ leakedReads: tally.leakedReads, leakedLists: tally.leakedLists }).toEqual({ leakedReads: 0, leakedLists: 0 });
    // Nothing written, replaced, deleted or left behind (temp files) outside.
    expect(await tree(outside)).toEqual(before);
    expect(tally.ok + tally.refused).toBe(ROUNDS * 7);
    // The workspace is still usable and holds no temp files once the swapping stops.
    expect(Object.keys(await tree(path.join(ws, 'box'))).filter((p) => p.includes('.docent-'))).toEqual([]);
    expect((await call({ operation: 'read', path: 'box/inner.txt' })).ok).toBe(true);
  }, 180_000); // bounded by rounds, not time: about 10 s alone on 2 cores, longer beside other suites
});

describe('hard links', () => {
  it('are neither read nor replaced, and deleting one removes only its workspace name', async () => {
    await mkdir(ws, { recursive: true });
    const secret = path.join(root, 'secret.txt');
    await writeFile(secret, `${OUTSIDE_MARK} linked`);
    await link(secret, path.join(ws, 'hard.txt'));
    const read = await call({ operation: 'read', path: 'hard.txt' });
    expect(read).toMatchObject({ ok: false, code: 'hard_linked' });
    expect(!read.ok && read.message).toMatch(/^hard.txt has 2 hard links: the same file also has a name elsewhere/);
    expect(JSON.stringify(read)).not.toContain(OUTSIDE_MARK);
    expect(await call({ operation: 'write', path: 'hard.txt', content: 'mine' })).toMatchObject({ ok: false, code: 'hard_linked' });
    expect(await readFile(secret, 'utf8')).toBe(`${OUTSIDE_MARK} linked`);
    // Through a link that stays inside, too.
    await symlink('hard.txt', path.join(ws, 'alias.txt'));
    expect(await call({ operation: 'read', path: 'alias.txt' })).toMatchObject({ ok: false, code: 'hard_linked' });
    expect(await call({ operation: 'delete', path: 'hard.txt' })).toMatchObject({ ok: true });
    expect(await readFile(secret, 'utf8')).toBe(`${OUTSIDE_MARK} linked`);
  });
});

describe('a tenant folder replaced by a link', () => {
  it('is refused, never followed to where it points', async () => {
    const tenantEnv = { ...env, tenant: 'acme', tenantBound: true };
    const elsewhere = path.join(root, 'elsewhere');
    await mkdir(elsewhere, { recursive: true });
    await mkdir(ws, { recursive: true });
    await writeFile(path.join(elsewhere, 'notes.md'), `${OUTSIDE_MARK} tenant`);
    await symlink(elsewhere, path.join(ws, 'tenant-acme'));
    for (const args of [{ operation: 'read', path: 'notes.md' }, { operation: 'list' }, { operation: 'write', path: 'new.md', content: 'x' }]) {
      const outcome = await invokeTool(file_operations, args, tenantEnv);
      expect(outcome).toMatchObject({
        ok: false,
        code: 'workspace_unavailable',
        message: expect.stringMatching(
          /tenant-acme cannot be created or opened \((ENOTDIR|ELOOP): something other than a directory, such as a symbolic link, is there\)/,
        ),
      });
      expect(JSON.stringify(outcome)).not.toContain(OUTSIDE_MARK);
    }
    expect(await readdir(elsewhere)).toEqual(['notes.md']);
  });
});
