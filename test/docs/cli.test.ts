import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/harness.js';
import { fixtureCopy } from './helpers.js';

const run = promisify(execFile);
const CLI = new URL('../../dist/src/cli/main.js', import.meta.url).pathname;

let root: string;
let folder: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  root = await tempDir();
  folder = await fixtureCopy();
  env = { PATH: process.env.PATH, HOME: root, DOCENT_DATA_DIR: path.join(root, 'data'), DOCENT_LOG_LEVEL: 'silent' };
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(path.dirname(folder), { recursive: true, force: true });
});

async function docent(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('docent ingest / ask / docs (built CLI)', () => {
  it('ingests a folder and prints the summary; a second run changes nothing', async () => {
    const first = await docent('ingest', folder, '--tenant', 'cli');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Ingested into tenant "cli": 7 added, 0 updated, 0 unchanged, 0 removed; \d+ chunks written in [\d.]+ s\.\n$/);
    const second = await docent('ingest', folder, '--tenant', 'cli', '--json');
    expect(JSON.parse(second.stdout)).toMatchObject({ tenant: 'cli', added: 0, updated: 0, unchanged: 7, removed: 0, chunks: 0 });
  });

  it('answers with sources and a percentage, or prints the no-match message', async () => {
    const answer = await docent('ask', 'How do I install without dev dependencies using --omit=dev?', '--tenant', 'cli');
    expect(answer.code).toBe(0);
    expect(answer.stdout).toContain('From install.md › Installation › Production installs [1]:');
    expect(answer.stdout).toMatch(/Sources:\n\[1\] install\.md › Installation › Production installs\nConfidence: \d+%\n$/);
    const none = await docent('ask', 'How do I call lumen.rotateFiles() every night?', '--tenant', 'cli');
    expect(none.stdout).toMatch(/^No match in the documentation\. The documentation has no `rotateFiles`.*\(confidence \d+%\)\n$/);
    const json = JSON.parse((await docent('ask', 'How do I call lumen.rotateFiles() every night?', '--tenant', 'cli', '--json')).stdout);
    expect(json).toEqual({ grounded: false, sources: expect.any(Array), confidence: expect.any(Number), reason: expect.stringContaining('rotateFiles') });
    const other = JSON.parse((await docent('ask', 'How do I install with --omit=dev?', '--tenant', 'other', '--json')).stdout);
    expect(other).toMatchObject({ grounded: false, reason: 'No documentation has been ingested for tenant "other" yet.' });
  });

  it('lists and removes documents', async () => {
    const list = JSON.parse((await docent('docs', 'list', '--tenant', 'cli', '--json')).stdout) as { id: string; title: string }[];
    expect(list.map((d) => d.title)).toContain('notes.txt');
    const table = await docent('docs', 'list', '--tenant', 'cli');
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+TITLE\s+CHUNKS\s+CHARS\s+UPDATED$/);
    const id = list.find((d) => d.title === 'notes.txt')!.id;
    const removed = await docent('docs', 'remove', id, '--tenant', 'cli');
    expect(removed.stdout).toMatch(/^Removed notes\.txt \([0-9a-f]+, 1 chunks\) from tenant "cli"\.\n$/);
    const again = await docent('docs', 'remove', id, '--tenant', 'cli');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no document "${id}"`);
  });

  it('rejects bad usage with status 2', async () => {
    expect((await docent('ingest')).code).toBe(2);
    expect((await docent('ask')).code).toBe(2);
    expect((await docent('docs', 'purge')).code).toBe(2);
    const badBase = await docent('ingest', folder, '--url-base', 'docs.example.com');
    expect(badBase.code).toBe(2);
    expect(badBase.stderr).toContain('--url-base must be an http(s) URL');
  });
});
