import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, lstat, mkdir, readFile, readdir, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { invokeTool } from '../../src/catalog/invoke.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logging.js';
import { MAX_FILE_BYTES } from '../../src/workspace/sandbox.js';
import { findTool } from '../../tools/index.js';
import { startHarness, tempDir, textOf, type Harness } from '../helpers/harness.js';

// Deletes are confirmed through MCP elicitation by a client that accepts every request and counts them,
// so the tests can also assert that invalid requests never reach the confirmation step.
let h: Harness;
let ws: string;
let outside: string;
let elicitations: string[];

beforeAll(async () => {
  h = await startHarness({ capabilities: { elicitation: {} } });
  h.client.setRequestHandler(ElicitRequestSchema, async (request) => {
    elicitations.push(request.params.message);
    return { action: 'accept', content: { confirm: true } };
  });
  ws = h.config.workspaceDir;
  outside = path.join(h.root, 'outside');
});
afterAll(async () => h.close());

beforeEach(async () => {
  elicitations = [];
  await rm(ws, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
  await mkdir(path.join(outside, 'dir'), { recursive: true });
  await writeFile(path.join(outside, 'secret.txt'), 'top secret\n');
  await writeFile(path.join(outside, 'dir', 'inner.txt'), 'inner\n');
});

type Out = {
  operation: string;
  path: string;
  content?: string;
  size?: number;
  created?: boolean;
  entries?: { path: string; name: string; type: string; size?: number }[];
  truncated?: boolean;
  deleted?: string;
};

async function ok(args: Record<string, unknown>): Promise<Out> {
  const result = await h.call('file_operations', args);
  if (result.isError) throw new Error(`unexpected error: ${textOf(result)}`);
  return result.structuredContent as Out;
}

async function fails(args: Record<string, unknown>): Promise<string> {
  const result = await h.call('file_operations', args);
  expect(result.isError, JSON.stringify(result.structuredContent)).toBe(true);
  return textOf(result);
}

/** Every path, type, link target and content hash below `dir`. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (current: string) => {
    for (const name of (await readdir(current)).sort()) {
      const full = path.join(current, name);
      const rel = path.relative(dir, full);
      const st = await lstat(full);
      if (st.isSymbolicLink()) out[rel] = `link -> ${await readlink(full)}`;
      else if (st.isDirectory()) {
        out[rel] = 'dir';
        await walk(full);
      } else
        out[rel] = `file ${createHash('sha256')
          .update(await readFile(full))
          .digest('hex')} mode ${st.mode & 0o777}`;
    }
  };
  await walk(dir);
  return out;
}

async function plant(rel: string, content: string | Buffer): Promise<string> {
  const full = path.join(ws, rel);
  await mkdir(path.dirname(full), { recursive: true });
  await writeFile(full, content);
  return full;
}

describe('file_operations basics', () => {
  it('creates the workspace on first use and lists it empty', async () => {
    expect(existsSync(ws)).toBe(false);
    expect(await ok({ operation: 'list' })).toEqual({ operation: 'list', path: '', entries: [], truncated: false });
    expect((await stat(ws)).isDirectory()).toBe(true);
  });

  it('defaults the workspace to ./agent_workspace under the working directory', () => {
    const config = loadConfig({ env: {}, cwd: '/srv/docent' });
    expect(config.workspaceDir).toBe('/srv/docent/agent_workspace');
    expect(loadConfig({ env: { DOCENT_WORKSPACE_DIR: 'files' }, cwd: '/srv/docent' }).workspaceDir).toBe('/srv/docent/files');
  });

  it('writes, reads back and replaces a file, creating parents', async () => {
    expect(await ok({ operation: 'write', path: 'notes/plan.md', content: '# Plan\nfirst ✓\n' })).toEqual({
      operation: 'write',
      path: 'notes/plan.md',
      size: 17,
      created: true,
    });
    expect(await readFile(path.join(ws, 'notes/plan.md'), 'utf8')).toBe('# Plan\nfirst ✓\n');
    const read = await ok({ operation: 'read', path: 'notes/plan.md' });
    expect(read).toEqual({ operation: 'read', path: 'notes/plan.md', content: '# Plan\nfirst ✓\n', size: 17 });
    expect(await ok({ operation: 'write', path: './notes//plan.md', content: 'x' })).toMatchObject({ path: 'notes/plan.md', created: false, size: 1 });
    expect(await readFile(path.join(ws, 'notes/plan.md'), 'utf8')).toBe('x');
    expect(elicitations).toEqual([]);
  });

  it('reads a file with a byte-order mark as its text, reporting the size on disk', async () => {
    await plant('bom.txt', Buffer.from([0xef, 0xbb, 0xbf, 0x68, 0x69]));
    expect(await ok({ operation: 'read', path: 'bom.txt' })).toEqual({ operation: 'read', path: 'bom.txt', content: 'hi', size: 5 });
  });

  it('writes an empty file', async () => {
    expect(await ok({ operation: 'write', path: 'empty.txt', content: '' })).toMatchObject({ size: 0, created: true });
    expect((await ok({ operation: 'read', path: 'empty.txt' })).content).toBe('');
  });

  it('resolves .. that stays inside the workspace', async () => {
    await plant('b.txt', 'bee');
    expect((await ok({ operation: 'read', path: 'a/../b.txt' })).content).toBe('bee');
  });

  it('lists entries with type and size, recursively on request, sorted by path', async () => {
    await plant('b.txt', 'bb');
    await plant('a/one.txt', '1');
    await plant('a/deep/two.txt', '22');
    await symlink('b.txt', path.join(ws, 'link-b'));
    expect((await ok({ operation: 'list' })).entries).toEqual([
      { path: 'a', name: 'a', type: 'directory' },
      { path: 'b.txt', name: 'b.txt', type: 'file', size: 2 },
      { path: 'link-b', name: 'link-b', type: 'symlink' },
    ]);
    expect((await ok({ operation: 'list', path: 'a', recursive: true })).entries).toEqual([
      { path: 'a/deep', name: 'deep', type: 'directory' },
      { path: 'a/deep/two.txt', name: 'two.txt', type: 'file', size: 2 },
      { path: 'a/one.txt', name: 'one.txt', type: 'file', size: 1 },
    ]);
  });

  it('bounds a recursive listing in depth', async () => {
    await plant(`${Array.from({ length: 12 }, (_, i) => `d${i}`).join('/')}/leaf.txt`, 'x');
    const out = await ok({ operation: 'list', recursive: true });
    expect(out.truncated).toBe(true);
    expect(out.entries!.map((e) => e.path.split('/').length).reduce((a, b) => Math.max(a, b))).toBe(8);
  });

  it('bounds a recursive listing in entry count', async () => {
    await mkdir(ws, { recursive: true });
    await Promise.all(Array.from({ length: 1005 }, (_, i) => writeFile(path.join(ws, `f${String(i).padStart(4, '0')}`), '')));
    const out = await ok({ operation: 'list', recursive: true });
    expect(out.entries).toHaveLength(1000);
    expect(out.truncated).toBe(true);
  });

  it.each([
    [{ operation: 'read' }, /`path` is required for read/],
    [{ operation: 'write', path: 'a.txt' }, /`content` is required for write/],
    [{ operation: 'delete' }, /`path` is required for delete/],
    [{ operation: 'read', path: 'missing.txt' }, /missing.txt does not exist in the workspace/],
    [{ operation: 'list', path: 'nope' }, /nope does not exist/],
    [{ operation: 'write', path: '', content: 'x' }, /not the workspace root/],
    [{ operation: 'write', path: 'dir/', content: 'x' }, /ends with "\/", which names a directory/],
    [{ operation: 'move', path: 'a' }, /Invalid arguments for file_operations: `operation`/],
    [{ operation: 'write', path: 'a', content: 42 }, /`content`/],
  ])('refuses %j clearly', async (args, message) => {
    expect(await fails(args)).toMatch(message);
  });

  it('refuses reading a directory and writing over one', async () => {
    await plant('d/x.txt', 'x');
    expect(await fails({ operation: 'read', path: 'd' })).toMatch(/d is a directory. Use operation "list"/);
    expect(await fails({ operation: 'write', path: 'd', content: 'y' })).toMatch(/d is a directory; write needs a file path/);
    expect(await fails({ operation: 'write', path: 'd/x.txt/child', content: 'y' })).toMatch(/goes through d\/x.txt, which is a file, not a directory/);
    expect(await fails({ operation: 'list', path: 'd/x.txt' })).toMatch(/is a file, not a directory/);
  });

  it('refuses binary files, saying their size', async () => {
    await plant('image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    expect(await fails({ operation: 'read', path: 'image.png' })).toMatch(/image.png is a binary file \(12 bytes\), not UTF-8 text/);
    await plant('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    expect(await fails({ operation: 'read', path: 'latin1.txt' })).toMatch(/binary file \(4 bytes\)/);
  });
});

describe('file_operations size limit (512 KB)', () => {
  it('writes exactly 512 KB and refuses one byte more, creating nothing', async () => {
    expect(await ok({ operation: 'write', path: 'max.txt', content: 'a'.repeat(MAX_FILE_BYTES) })).toMatchObject({ size: 524288 });
    expect(await fails({ operation: 'write', path: 'over.txt', content: 'a'.repeat(MAX_FILE_BYTES + 1) })).toMatch(
      /The content is 524289 bytes, over the 524288-byte \(512 KB\) limit/,
    );
    expect(existsSync(path.join(ws, 'over.txt'))).toBe(false);
  });

  it('counts UTF-8 bytes, not characters', async () => {
    const content = 'é'.repeat(MAX_FILE_BYTES / 2) + 'x'; // 262,145 characters, 524,289 bytes
    expect(await fails({ operation: 'write', path: 'accents.txt', content })).toMatch(/524289 bytes/);
  });

  it('refuses to replace a file with oversized content, leaving it intact', async () => {
    await plant('keep.txt', 'original');
    await fails({ operation: 'write', path: 'keep.txt', content: 'b'.repeat(MAX_FILE_BYTES + 1) });
    expect(await readFile(path.join(ws, 'keep.txt'), 'utf8')).toBe('original');
  });

  it('reads a planted 512 KB file and refuses one of 512 KB + 1 byte', async () => {
    await plant('max.txt', 'a'.repeat(MAX_FILE_BYTES));
    expect((await ok({ operation: 'read', path: 'max.txt' })).size).toBe(MAX_FILE_BYTES);
    await plant('big.txt', 'a'.repeat(MAX_FILE_BYTES + 1));
    expect(await fails({ operation: 'read', path: 'big.txt' })).toMatch(/big.txt is 524289 bytes, over the 524288-byte \(512 KB\) limit/);
  });
});

describe('file_operations atomic writes', () => {
  it('replaces an existing file whole and leaves no temp file behind', async () => {
    await plant('doc.txt', 'a long original text that is longer than its replacement\n');
    const before = await stat(path.join(ws, 'doc.txt'));
    await ok({ operation: 'write', path: 'doc.txt', content: 'short' });
    expect(await readFile(path.join(ws, 'doc.txt'), 'utf8')).toBe('short');
    expect((await stat(path.join(ws, 'doc.txt'))).ino).not.toBe(before.ino); // a new inode renamed into place
    expect(await readdir(ws)).toEqual(['doc.txt']);
  });

  it('keeps the permission bits of the file it replaces', async () => {
    const full = await plant('script.sh', '#!/bin/sh\n');
    await chmod(full, 0o640);
    await ok({ operation: 'write', path: 'script.sh', content: '#!/bin/sh\necho hi\n' });
    expect((await stat(full)).mode & 0o777).toBe(0o640);
  });

  it('ends concurrent writes with exactly one complete version and no temp files', async () => {
    const versions = Array.from({ length: 12 }, (_, i) => `${String(i).repeat(1000 + i * 97)}\n`);
    const results = await Promise.all(versions.map((content) => h.call('file_operations', { operation: 'write', path: 'race.txt', content })));
    expect(results.every((r) => !r.isError)).toBe(true);
    expect(versions).toContain(await readFile(path.join(ws, 'race.txt'), 'utf8'));
    expect(await readdir(ws)).toEqual(['race.txt']);
  });
});

describe('file_operations delete', () => {
  it('deletes a file after confirmation', async () => {
    await plant('old.txt', 'bye');
    expect(await ok({ operation: 'delete', path: 'old.txt' })).toEqual({ operation: 'delete', path: 'old.txt', deleted: 'file' });
    expect(existsSync(path.join(ws, 'old.txt'))).toBe(false);
    expect(elicitations).toHaveLength(1);
    expect(elicitations[0]).toMatch(/Delete the file old.txt \(3 bytes\) from the agent workspace/);
  });

  it('describes a directory with one entry in the singular', async () => {
    await plant('one/a.txt', 'a');
    expect(await fails({ operation: 'delete', path: 'one' })).toMatch(/one is a directory with 1 entry below it/);
    await ok({ operation: 'delete', path: 'one', force: true });
    expect(elicitations[0]).toMatch(/Delete the directory one and the 1 entry below it/);
  });

  it('deletes an empty directory, refuses a non-empty one without force before asking, and deletes it with force', async () => {
    await mkdir(path.join(ws, 'empty'), { recursive: true });
    expect((await ok({ operation: 'delete', path: 'empty' })).deleted).toBe('directory');
    await plant('full/a.txt', 'a');
    await plant('full/sub/b.txt', 'b');
    expect(elicitations).toHaveLength(1);
    expect(await fails({ operation: 'delete', path: 'full' })).toMatch(/full is a directory with 3 entries below it. Pass force: true/);
    expect(elicitations).toHaveLength(1);
    expect(await readFile(path.join(ws, 'full/sub/b.txt'), 'utf8')).toBe('b');
    expect(await ok({ operation: 'delete', path: 'full', force: true })).toMatchObject({ deleted: 'directory' });
    expect(elicitations[1]).toMatch(/Delete the directory full and the 3 entries below it/);
    expect(existsSync(path.join(ws, 'full'))).toBe(false);
  });

  it('refuses to delete the workspace root', async () => {
    await plant('a.txt', 'a');
    for (const p of ['', '.', 'x/..']) expect(await fails({ operation: 'delete', path: p, force: true })).toMatch(/workspace root itself cannot be deleted/);
    expect(elicitations).toEqual([]);
    expect(existsSync(path.join(ws, 'a.txt'))).toBe(true);
  });

  it('says when the file to delete does not exist, without asking', async () => {
    expect(await fails({ operation: 'delete', path: 'ghost.txt' })).toMatch(/ghost.txt does not exist/);
    expect(elicitations).toEqual([]);
  });
});

describe('file_operations sandbox attacks', () => {
  let before: Record<string, string>;
  beforeEach(async () => {
    await mkdir(ws, { recursive: true });
    await symlink(path.join(outside, 'secret.txt'), path.join(ws, 'link-out'));
    await symlink(outside, path.join(ws, 'dir-out'));
    await symlink(path.join(outside, 'not-yet.txt'), path.join(ws, 'dangling'));
    await symlink(path.join(outside, 'not-yet-dir', 'x'), path.join(ws, 'dangling-dir'));
    before = await snapshot(h.root);
    delete before[path.relative(h.root, ws)];
  });

  /** Nothing outside the workspace changed (the data directory aside, which file_operations never touches). */
  async function outsideUnchanged(): Promise<void> {
    const after = await snapshot(h.root);
    const inside = (p: string) => p === path.relative(h.root, ws) || p.startsWith(`${path.relative(h.root, ws)}/`);
    const strip = (s: Record<string, string>) => Object.fromEntries(Object.entries(s).filter(([p]) => !inside(p)));
    expect(strip(after)).toEqual(strip(before));
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
  }

  const escapes = [
    '../outside/secret.txt',
    'a/../../outside/secret.txt',
    './../outside/secret.txt',
    '../agent_workspace/../outside/secret.txt',
    '/etc/passwd',
    '//etc/passwd',
    '..',
    'link-out',
    'dir-out/secret.txt',
    'dir-out/dir/inner.txt',
    'dangling',
    'dangling-dir/x',
    '..\\outside\\secret.txt',
    'a\\..\\..\\outside',
    'C:\\Windows\\win.ini',
    'C:/Windows/win.ini',
    'c:secret.txt',
    'a\u0000b',
    'link-out\u0000.txt',
  ];

  it.each(escapes)('refuses to read %j', async (p) => {
    expect(await fails({ operation: 'read', path: p })).toMatch(
      /^Path .* (leads outside the workspace|is absolute|backslash|drive letter|NUL byte|symbolic link .* does not exist)/,
    );
    await outsideUnchanged();
  });

  it('resolves .. on the path text, so a link followed by .. cannot climb out', async () => {
    // A shell would read dir-out/.. as the parent of the link's target; here it is the workspace root.
    expect(await ok({ operation: 'write', path: 'dir-out/../outside/secret.txt', content: 'mine' })).toMatchObject({
      path: 'outside/secret.txt',
      created: true,
    });
    expect(await readFile(path.join(ws, 'outside/secret.txt'), 'utf8')).toBe('mine');
    await outsideUnchanged();
  });

  it('refuses the absolute path of a file outside, and of one inside', async () => {
    expect(await fails({ operation: 'read', path: path.join(outside, 'secret.txt') })).toMatch(/is absolute/);
    await plant('inside.txt', 'in');
    expect(await fails({ operation: 'read', path: path.join(ws, 'inside.txt') })).toMatch(/is absolute. Paths are relative to the workspace root/);
  });

  it.each(escapes)('refuses to write %j and changes nothing outside', async (p) => {
    expect(await fails({ operation: 'write', path: p, content: 'pwned' })).toMatch(/^Path /);
    await outsideUnchanged();
    expect(existsSync(path.join(outside, 'not-yet.txt'))).toBe(false);
    expect(existsSync(path.join(outside, 'not-yet-dir'))).toBe(false);
  });

  it.each(['dir-out/new.txt', 'dir-out/deeper/new.txt', 'dangling-dir/new.txt'])('refuses to create %j through a symlinked parent', async (p) => {
    expect(await fails({ operation: 'write', path: p, content: 'pwned' })).toMatch(/leads outside the workspace|does not exist/);
    await outsideUnchanged();
  });

  it.each(escapes.filter((p) => !['link-out', 'dangling'].includes(p)))('refuses to delete %j without asking', async (p) => {
    expect(await fails({ operation: 'delete', path: p, force: true })).toMatch(/^Path /);
    expect(elicitations).toEqual([]);
    await outsideUnchanged();
  });

  it.each(['..', '../outside', 'dir-out', 'dir-out/dir', '/tmp', 'dangling-dir'])('refuses to list %j', async (p) => {
    expect(await fails({ operation: 'list', path: p, recursive: true })).toMatch(/^Path /);
  });

  it('deletes a link that points outside without touching its target', async () => {
    expect(await ok({ operation: 'delete', path: 'link-out' })).toMatchObject({ deleted: 'symlink' });
    expect(elicitations[0]).toMatch(/Delete the symbolic link link-out \(what it points to is not touched\)/);
    expect(existsSync(path.join(ws, 'link-out'))).toBe(false);
    expect(await ok({ operation: 'delete', path: 'dir-out', force: true })).toMatchObject({ deleted: 'symlink' });
    expect(await ok({ operation: 'delete', path: 'dangling' })).toMatchObject({ deleted: 'symlink' });
    await outsideUnchanged();
    expect(await readFile(path.join(outside, 'dir', 'inner.txt'), 'utf8')).toBe('inner\n');
  });

  it('deleting a directory with force removes links inside it, not their targets', async () => {
    await mkdir(path.join(ws, 'box'));
    await symlink(outside, path.join(ws, 'box', 'escape'));
    await symlink(path.join(outside, 'secret.txt'), path.join(ws, 'box', 'secret-link'));
    await ok({ operation: 'delete', path: 'box', force: true });
    expect(existsSync(path.join(ws, 'box'))).toBe(false);
    await outsideUnchanged();
  });

  it('lists links as links and never descends through them', async () => {
    const out = await ok({ operation: 'list', recursive: true });
    expect(out.entries).toEqual([
      { path: 'dangling', name: 'dangling', type: 'symlink' },
      { path: 'dangling-dir', name: 'dangling-dir', type: 'symlink' },
      { path: 'dir-out', name: 'dir-out', type: 'symlink' },
      { path: 'link-out', name: 'link-out', type: 'symlink' },
    ]);
  });

  it('follows links that stay inside the workspace', async () => {
    await plant('real/target.txt', 'v1');
    await symlink('real/target.txt', path.join(ws, 'alias.txt'));
    await symlink('real', path.join(ws, 'alias-dir'));
    expect((await ok({ operation: 'read', path: 'alias.txt' })).content).toBe('v1');
    expect((await ok({ operation: 'read', path: 'alias-dir/target.txt' })).content).toBe('v1');
    await ok({ operation: 'write', path: 'alias.txt', content: 'v2' });
    expect(await readFile(path.join(ws, 'real/target.txt'), 'utf8')).toBe('v2');
    expect((await lstat(path.join(ws, 'alias.txt'))).isSymbolicLink()).toBe(true);
    await ok({ operation: 'write', path: 'alias-dir/new.txt', content: 'n' });
    expect(await readFile(path.join(ws, 'real/new.txt'), 'utf8')).toBe('n');
    expect((await ok({ operation: 'list', path: 'alias-dir' })).entries!.map((e) => e.path)).toEqual(['alias-dir/new.txt', 'alias-dir/target.txt']);
    await outsideUnchanged();
  });

  it('names the refusal in its error code for each kind of attack', async () => {
    const env = {
      config: h.config,
      services: h.services,
      logger: silentLogger(),
      tenant: 'default',
      tenantBound: false,
      agentMode: false,
      transport: 'inproc' as const,
    };
    const codes = [];
    for (const p of ['../x', '/etc/passwd', 'a\\b', 'C:/x', 'a\u0000', 'link-out', 'dangling', 'dir-out/x']) {
      const outcome = await invokeTool(findTool('file_operations')!, { operation: 'read', path: p }, env);
      codes.push(outcome.ok ? 'ok' : outcome.code);
    }
    expect(codes).toEqual([
      'outside_workspace',
      'outside_workspace',
      'invalid_path',
      'outside_workspace',
      'invalid_path',
      'outside_workspace',
      'outside_workspace',
      'outside_workspace',
    ]);
  });
});

describe('file_operations in tools/list', () => {
  it('is listed as mutating, after calculator and datetime, and accepts a confirmation token', async () => {
    const { tools } = await h.client.listTools();
    expect(tools.map((t) => t.name).slice(0, 3)).toEqual(['calculator', 'datetime', 'file_operations']);
    const tool = tools.find((t) => t.name === 'file_operations')!;
    expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(Object.keys(tool.inputSchema.properties!).sort()).toEqual(['confirmation_token', 'content', 'force', 'operation', 'path', 'recursive']);
    expect(tool.inputSchema.required).toEqual(['operation']);
  });
});

describe('file_operations with an unusable workspace directory', () => {
  it('says which setting to change', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'a-file'), '');
    const workspaceDir = path.join(dir, 'a-file', 'workspace');
    const blocked = await startHarness({ overrides: { workspaceDir } });
    try {
      const result = await blocked.call('file_operations', { operation: 'list' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        `The agent workspace ${workspaceDir} cannot be created or opened (ENOTDIR). The operator can point DOCENT_WORKSPACE_DIR (or --workspace) at a writable directory.`,
      );
    } finally {
      await blocked.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
