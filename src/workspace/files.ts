/**
 * File operations on paths already resolved inside the workspace (see sandbox.ts).
 *
 * - Reads open the canonical path with O_NOFOLLOW and check that the opened file is the one resolved (same
 *   device and inode), so a file or parent swapped for a link after resolution is not read. Text only: a file
 *   with a NUL byte or invalid UTF-8 is refused as binary.
 * - Writes are atomic: the bytes go to a new temp file (O_EXCL) in the target's directory, are flushed, and
 *   the temp file is renamed over the target. Readers see the old file or the new one, never a mix; a failed
 *   write leaves the old file and no temp file. rename replaces a link at the target rather than following it.
 * - Listing never follows symbolic links; recursion is bounded in depth and entry count.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath, rename, rm, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../errors.js';
import { MAX_FILE_BYTES, codeOf, type ResolvedPath, type Workspace } from './sandbox.js';

export const MAX_LIST_DEPTH = 8;
export const MAX_LIST_ENTRIES = 1000;

export const ENTRY_TYPES = ['file', 'directory', 'symlink', 'other'] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

export interface Entry {
  path: string;
  name: string;
  type: EntryType;
  /** Bytes, for files. */
  size?: number;
}

export function typeOf(stat: Stats): EntryType {
  return stat.isSymbolicLink() ? 'symlink' : stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : 'other';
}

export function tooLarge(what: string, bytes: number): ToolError {
  return new ToolError(
    `${what} is ${bytes} bytes, over the ${MAX_FILE_BYTES}-byte (512 KB) limit of file_operations. Split it into smaller files.`,
    'too_large',
    { size: bytes, limit: MAX_FILE_BYTES },
  );
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The UTF-8 text of a regular file of at most MAX_FILE_BYTES (a leading byte-order mark is dropped), and its size in bytes. */
export async function readText(target: ResolvedPath & { stat: Stats }): Promise<{ content: string; size: number }> {
  // O_NONBLOCK: should the file have been swapped for a FIFO, opening it must not hang.
  const handle = await open(target.absolute, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const opened = await handle.stat();
    if (opened.ino !== target.stat.ino || opened.dev !== target.stat.dev) {
      throw new ToolError(`${target.path} changed while it was being opened. Try again.`, 'conflict');
    }
    if (opened.size > MAX_FILE_BYTES) throw tooLarge(target.path, opened.size);
    const buffer = Buffer.alloc(MAX_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_FILE_BYTES) throw tooLarge(target.path, Math.max(length, opened.size));
    }
    const bytes = buffer.subarray(0, length);
    let text: string | undefined;
    if (!bytes.includes(0)) {
      try {
        text = utf8.decode(bytes);
      } catch {
        text = undefined;
      }
    }
    if (text === undefined) {
      throw new ToolError(`${target.path} is a binary file (${length} bytes), not UTF-8 text; file_operations reads text only.`, 'binary_file', { size: length });
    }
    return { content: text, size: length };
  } finally {
    await handle.close();
  }
}

/** Creates the missing directories between the workspace and `dir`, then checks `dir` is still inside. */
async function ensureDirectory(workspace: Workspace, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const real = await realpath(dir);
  if (real !== dir || !workspace.contains(real)) {
    throw new ToolError(`The directory of the target changed while it was being created; nothing was written. Try again.`, 'conflict');
  }
}

/** Writes `bytes` to `target` atomically (temp file + rename), creating parent directories inside the workspace. */
export async function writeAtomic(workspace: Workspace, target: ResolvedPath, bytes: Buffer): Promise<void> {
  const dir = path.dirname(target.absolute);
  await ensureDirectory(workspace, dir);
  const temp = path.join(dir, `.docent-${randomBytes(8).toString('hex')}.tmp`);
  const mode = target.stat?.isFile() ? target.stat.mode & 0o777 : 0o666;
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  try {
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target.absolute);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** Entries under a directory, sorted by path; links are listed, never followed. */
export async function listDirectory(
  dir: string,
  shownPrefix: string,
  recursive: boolean,
): Promise<{ entries: Entry[]; truncated: boolean }> {
  const entries: Entry[] = [];
  let truncated = false;
  const walk = async (absolute: string, shown: string, depth: number): Promise<void> => {
    const names = (await readdir(absolute)).sort();
    for (const name of names) {
      if (entries.length >= MAX_LIST_ENTRIES) {
        truncated = true;
        return;
      }
      const child = path.join(absolute, name);
      let stat: Stats;
      try {
        stat = await lstat(child);
      } catch (error) {
        if (codeOf(error) === 'ENOENT') continue;
        throw error;
      }
      const type = typeOf(stat);
      const childShown = shown ? `${shown}/${name}` : name;
      entries.push({ path: childShown, name, type, ...(type === 'file' ? { size: stat.size } : {}) });
      if (recursive && type === 'directory') {
        if (depth + 1 >= MAX_LIST_DEPTH) truncated = true;
        else await walk(child, childShown, depth + 1);
      }
    }
  };
  await walk(dir, shownPrefix, 0);
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { entries, truncated };
}

/** Entries below a directory (not following links), counted up to `limit`. */
export async function countBelow(dir: string, limit = 10_000): Promise<{ count: number; more: boolean }> {
  let count = 0;
  const stack = [dir];
  while (stack.length) {
    const current = stack.pop()!;
    for (const entry of await readdir(current, { withFileTypes: true })) {
      if (++count >= limit) return { count, more: true };
      if (entry.isDirectory()) stack.push(path.join(current, entry.name));
    }
  }
  return { count, more: false };
}

/** Deletes a file, a link (never its target), an empty directory, or with `recursive` a whole tree. */
export async function remove(target: ResolvedPath & { stat: Stats }, recursive: boolean): Promise<void> {
  const now = await lstat(target.absolute);
  if (now.ino !== target.stat.ino || now.dev !== target.stat.dev || typeOf(now) !== typeOf(target.stat)) {
    throw new ToolError(`${target.path} changed after the delete was confirmed; nothing was deleted. Look again and retry.`, 'conflict');
  }
  if (!now.isDirectory()) await unlink(target.absolute);
  else if (recursive) await rm(target.absolute, { recursive: true });
  else await rmdir(target.absolute);
}
