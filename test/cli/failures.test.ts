/**
 * Failures of the built CLI that must explain themselves: each exits with a status and one message that says
 * what to fix, never a stack, a JSON log line or a hang (a hang fails the test through its time limit).
 */
import { spawn } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cleanEnv, runCli, type CliResult } from '../helpers/cli.js';
import { tempDir } from '../helpers/harness.js';

let root: string;
let env: Record<string, string>;
beforeAll(async () => {
  root = await tempDir('docent-cli-failures-');
  env = cleanEnv(root, { DOCENT_DATA_DIR: path.join(root, 'data'), DOCENT_LOG_LEVEL: 'silent' });
  await writeFile(path.join(root, 'a-file'), 'not a directory');
  await mkdir(path.join(root, 'no-docs'));
  await writeFile(path.join(root, 'no-docs', 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  await writeFile(path.join(root, 'no-docs', 'data.json'), '{}');
});
afterAll(async () => rm(root, { recursive: true, force: true }));

const docent = (args: string[], extra: Record<string, string> = {}) => runCli(args, { env: { ...env, ...extra }, cwd: root });

/** The one-message shape: the text asked for, and nothing that looks like a crash or a log line. */
function explains(result: CliResult, code: number, ...texts: string[]): void {
  expect({ code: result.code, stdout: result.stdout }).toEqual({ code, stdout: '' });
  for (const text of texts) expect(result.stderr).toContain(text);
  expect(result.stderr).not.toMatch(/"level":|\n\s+at |Error:/);
}

describe('an unusable data directory', () => {
  it('that is a file: named with --data-dir / DOCENT_DATA_DIR, exit 2, before any query runs', async () => {
    const result = await docent(['ask', 'How do I install it?', '--data-dir', path.join(root, 'a-file')]);
    explains(result, 2, `The data directory ${path.join(root, 'a-file')} is a file, not a directory`, '--data-dir', 'DOCENT_DATA_DIR');
    expect(result.stderr).not.toContain('failed internally');
  });

  it('below a file, for every command that opens it', async () => {
    for (const args of [
      ['docs', 'list'],
      ['keys', 'list'],
      ['ingest', 'no-docs'],
    ]) {
      const result = await docent([...args, '--data-dir', path.join(root, 'a-file', 'data')]);
      explains(result, 2, 'cannot be created: part of its path is a file', '--data-dir');
    }
  });

  it('that cannot be created (/proc/nope, from DOCENT_DATA_DIR): exits instead of spinning', async () => {
    explains(await docent(['docs', 'list'], { DOCENT_DATA_DIR: '/proc/nope' }), 2, 'The data directory /proc/nope cannot be created', 'DOCENT_DATA_DIR');
    explains(await docent(['serve'], { DOCENT_DATA_DIR: '/proc/nope/deeper' }), 2, 'The data directory /proc/nope/deeper cannot be created');
  });

  it('that exists but cannot be written (/proc, even for root): serve stops at start', async () => {
    explains(await docent(['serve', '--http', '--port', '0', '--data-dir', '/proc']), 2, 'The data directory /proc cannot be written', '--data-dir');
  });
});

describe('ingest', () => {
  it('of nothing supported is exit 1 with the list of supported extensions', async () => {
    const result = await docent(['ingest', 'no-docs', '--tenant', 'empty']);
    explains(result, 1, 'nothing to ingest in no-docs', '.md .mdx .markdown .txt .rst .html .htm');
  });
});

/** Runs the CLI with its stdout already closed by the reader, as `docent … | head -c1` does to a long answer. */
function withClosedStdout(args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout: '', stderr }));
  });
}

describe('a reader that closes the pipe early', () => {
  it('ends the command quietly (no EPIPE stack), for a printed manifest and an answer', async () => {
    expect(await withClosedStdout(['manifest'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await withClosedStdout(['ask', 'How do I install it?', '--json', '--tenant', 'epipe'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

describe('help and flag errors', () => {
  const configFlags = (help: string) => [...help.slice(help.indexOf('Configuration flags:')).matchAll(/^ {2}--([a-z-]+)/gm)].map((m) => m[1]);

  it('lists only the flags a command reads', async () => {
    for (const command of ['ingest', 'ask', 'docs', 'keys']) {
      const help = await docent([command, '--help']);
      expect(help.code).toBe(0);
      expect(configFlags(help.stdout), command).toEqual(['data-dir', 'tenant', 'log-level']);
    }
    expect(configFlags((await docent(['manifest', '--help'])).stdout)).toEqual(['base-url', 'host', 'port']);
    expect(configFlags((await docent(['serve', '--help'])).stdout)).toEqual(expect.arrayContaining(['data-dir', 'host', 'port', 'auth', 'stateless']));
  });

  it('reads cleanly: an unknown flag names itself without a stray quote, and a flag another command takes is unknown here', async () => {
    const unknown = await docent(['ask', 'q', '--nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split('\n')[0]).toBe('docent ask: unknown option --nope');
    expect(unknown.stderr.split('\n')[0]).not.toContain("'");
    expect((await docent(['ask', 'q', '--port', '1'])).stderr.split('\n')[0]).toBe('docent ask: unknown option --port');
    expect((await docent(['ask', 'q', '--top-k'])).stderr.split('\n')[0]).toBe('docent ask: option --top-k needs a value');
    expect((await docent(['docs', 'list', '--json=yes'])).stderr.split('\n')[0]).toBe('docent docs: option --json takes no value');
  });

  it('--port abc reports the port only, not a URL built from it', async () => {
    const result = await docent(['serve', '--http', '--port', 'abc']);
    explains(result, 2, 'flag --port: must be a port number from 0 to 65535');
    expect(result.stderr).not.toMatch(/URL/i);
  });
});
