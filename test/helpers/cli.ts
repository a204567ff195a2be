/**
 * Running the built CLI (dist/src/cli/main.js) as a real process: one-shot commands, and `serve --http`
 * on port 0, found through the listening line it logs to stderr. Children get a minimal environment
 * (no agent markers, no API keys from the developer's shell).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

/** A clean environment for a child docent: PATH and HOME only, plus `extra`. */
export function cleanEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...extra };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], options: { env: Record<string, string>; cwd: string; node?: string }): Promise<CliResult> {
  return runNode([CLI, ...args], options);
}

/** Runs node with `args` to completion and collects its output (environment and cwd inherited unless given). */
export function runNode(args: string[], options: { env?: Record<string, string>; cwd?: string; node?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.node ?? process.execPath, args, { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface RunningServer {
  /** Where it listens, e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  baseUrl: string;
  child: ChildProcess;
  stderr(): string;
  stdout(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Spawns `docent serve --http --port 0 ...args` (this build's CLI unless `cli` names another) and resolves once it logs where it listens. */
export function startHttpServer(
  args: string[],
  options: { env: Record<string, string>; cwd: string; node?: string; nodeArgs?: string[]; timeoutMs?: number; cli?: string },
): Promise<RunningServer> {
  const child = spawn(options.node ?? process.execPath, [...(options.nodeArgs ?? []), options.cli ?? CLI, 'serve', '--http', '--port', '0', ...args], {
    env: options.env,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`docent serve --http did not start within ${options.timeoutMs ?? 120_000} ms:\n${stderr}`));
    }, options.timeoutMs ?? 120_000);
    child.stderr!.on('data', (c: Buffer) => {
      const before = stderr.length;
      stderr += c.toString('utf8');
      const lines = stderr.slice(stderr.lastIndexOf('\n', before - 1) + 1).split('\n');
      lines.pop(); // the last piece is an unfinished line (or empty)
      for (const line of lines) {
        if (!line.includes('docent HTTP server listening')) continue;
        const info = JSON.parse(line) as { url: string; port: number; baseUrl: string };
        clearTimeout(timer);
        resolve({
          ...info,
          child,
          stderr: () => stderr,
          stdout: () => stdout,
          async stop() {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`docent serve --http exited (${code}) before listening:\n${stderr}${stdout}`));
    });
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json(): any;
}

/** An HTTP request with full control of headers (fetch cannot set Host). */
export function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
