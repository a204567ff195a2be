/**
 * The data directory, made usable before LanceDB sees it: created when missing, and proved writable. Every
 * problem is a ConfigError naming `--data-dir` / `DOCENT_DATA_DIR` and the path, raised at once (no retry,
 * no recursive mkdir, which Node 20 loops on forever under /proc).
 */
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors.js';

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code ?? String(error);

function problem(dir: string, why: string): ConfigError {
  return new ConfigError(`The data directory ${dir} ${why}. Point --data-dir (or DOCENT_DATA_DIR) at a directory docent can create or write.`);
}

/** Creates `dir` (and missing parents, one at a time) and checks it can be written; throws a ConfigError otherwise. */
export async function prepareDataDir(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let at = dir; ;) {
    try {
      const info = await stat(at);
      if (!info.isDirectory()) throw problem(dir, at === dir ? 'is a file, not a directory' : `cannot be created: ${at} is a file`);
      break;
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      if (codeOf(error) === 'ENOTDIR') throw problem(dir, 'cannot be created: part of its path is a file');
      if (codeOf(error) !== 'ENOENT') throw problem(dir, `cannot be read (${codeOf(error)})`);
      missing.unshift(at);
      const parent = path.dirname(at);
      if (parent === at) break;
      at = parent;
    }
  }
  for (const folder of missing) {
    try {
      await mkdir(folder);
    } catch (error) {
      if (codeOf(error) !== 'EEXIST') throw problem(dir, `cannot be created (${codeOf(error)} on ${folder})`);
    }
  }
  try {
    await rm(await mkdtemp(path.join(dir, '.write-check-')), { recursive: true, force: true });
  } catch (error) {
    throw problem(dir, `cannot be written (${codeOf(error)})`);
  }
}
