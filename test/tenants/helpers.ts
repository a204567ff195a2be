import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startHarness, textOf, type Harness, type HarnessOptions } from '../helpers/harness.js';

export interface Called<T = Record<string, any>> {
  isError: boolean;
  text: string;
  value: T;
}

/** Calls a tool through the harness's real MCP client; `value` is the structured result. */
export async function call<T = Record<string, any>>(h: Harness, name: string, args: Record<string, unknown>): Promise<Called<T>> {
  const result = await h.call(name, args);
  return { isError: result.isError === true, text: textOf(result), value: result.structuredContent as T };
}

/** A data directory outlived by the harnesses that use it (restart and multi-identity tests). */
export async function sharedDataDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'docent-tenants-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export function harnessOn(dataDir: string, options: HarnessOptions = {}): Promise<Harness> {
  return startHarness({ ...options, overrides: { dataDir, ...options.overrides } });
}

/** A calendar date `days` from today (UTC). */
export function dayFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}
