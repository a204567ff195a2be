import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../src/http/routes/ui.js';
import { VERSION } from '../../src/version.js';
import { cleanEnv, startHttpServer } from '../helpers/cli.js';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The package as a user installs it: `npm pack`, then `npm install ./docent-x.y.z.tgz` into an empty project
 * (dependencies from the npm cache that the repository's own install filled). Packs the build `npm test`
 * made (--ignore-scripts: rebuilding dist here would pull it from under the tests running beside this one). The `files` list must ship
 * everything the CLI and the client need, and nothing of the repository's tests or evaluation corpora.
 */
let dir: string;
let files: string[];
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'docent-pack-'));
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, maxBuffer: 32 * 1024 * 1024 });
  files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  const tarball = (await readdir(dir)).find((f) => f.endsWith('.tgz'))!;
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'empty-project', version: '1.0.0', type: 'module' }));
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `./${tarball}`], { cwd: dir, maxBuffer: 32 * 1024 * 1024 });
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('the packed package', () => {
  it('ships the built code, the manifest and the docs, not tests, sources or evaluation corpora', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'dist/src/cli/main.js',
        'dist/.well-known/agent-manifest.json',
        'dist/catalog.json',
        'dist/src/http/ui/index.html',
        'dist/src/http/ui/app.js',
        'dist/src/http/ui/app.css',
        'README.md',
        'package.json',
      ]),
    );
    expect(files.filter((f) => /^(test|src|scripts|tools)\//.test(f) || f.includes('corpora'))).toEqual([]);
  });

  it('leaves the built CLI executable, so npx docent works in the clone itself', async () => {
    expect((await stat(path.join(ROOT, 'dist', 'src', 'cli', 'main.js'))).mode & 0o111).not.toBe(0);
  });

  it('runs `npx docent --version` and loads the client library in an empty project', async () => {
    const { stdout } = await run('npx', ['--no-install', 'docent', '--version'], { cwd: dir });
    expect(stdout.trim()).toBe(VERSION);
    const client = await run(
      process.execPath,
      ['--input-type=module', '-e', "import { DocentClient } from 'docent/client'; console.log(typeof DocentClient)"],
      { cwd: dir },
    );
    expect(client.stdout.trim()).toBe('function');
  });

  it('serves MCP over stdio with `npx docent serve`, answering from the installed package', async () => {
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['--no-install', 'docent', 'serve'],
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, DOCENT_DATA_DIR: path.join(dir, 'data'), DOCENT_LOG_LEVEL: 'silent' },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'docent', version: VERSION });
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('rag_query');
      const sum = await client.callTool({ name: 'calculator', arguments: { operation: 'add', a: 0.1, b: 0.2 } });
      expect(sum.structuredContent).toMatchObject({ result: '0.3' });
    } finally {
      await client.close();
    }
  });

  it('serves the operator page and its assets with `docent serve --http` from the installed package', async () => {
    const server = await startHttpServer([], {
      cli: path.join(dir, 'node_modules', 'docent', 'dist', 'src', 'cli', 'main.js'),
      cwd: dir,
      env: cleanEnv(dir, { DOCENT_DATA_DIR: path.join(dir, 'http-data'), DOCENT_LOG_LEVEL: 'info' }),
    });
    try {
      for (const [asset, type, marker] of [
        ['/', 'text/html; charset=utf-8', '<script type="module" src="/ui/app.js">'],
        ['/ui/app.js', 'text/javascript; charset=utf-8', 'sessionStorage.setItem(KEY_STORAGE'],
        ['/ui/app.css', 'text/css; charset=utf-8', ':focus-visible'],
      ] as const) {
        const response = await fetch(`${server.url}${asset}`);
        expect(response.status, asset).toBe(200);
        expect(response.headers.get('content-type')).toBe(type);
        expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
        expect(await response.text()).toContain(marker);
      }
    } finally {
      await server.stop();
    }
  });
});
