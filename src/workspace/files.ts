/**
 * File operations on paths already resolved inside the workspace (see sandbox.ts). Every one acts on a name
 * inside a pinned directory handle, never on a path string, so a directory swapped for a link meanwhile is
 * not followed (the open fails with a `conflict` error instead).
 *
 * - Reads open the name with O_NOFOLLOW and check that the opened file is the one resolved (same device and
 *   inode). A file with more than one hard link is refused: its other name may be outside the workspace.
 *   Text only: a file with a NUL byte or invalid UTF-8 is refused as binary.
 * - Writes are atomic: missing parents are created and opened one by one (O_NOFOLLOW), the bytes go to a new
 *   temp file (O_EXCL) created inside the pinned target directory, are flushed, and the temp file is renamed
 *   over the target within that directory. Readers see the old file or the new one, never a mix; a failed
 *   write leaves the old file and no temp file. rename replaces a link at the target rather than following it.
 *   A file with more than one hard link is not replaced either.
 * - Listing and recursive deletes walk directory handles, never following symbolic links; listing is bounded
 *   in depth and entry count.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import { ToolError } from '../errors.js';
import { DIRECTORY_FLAGS, MAX_FILE_BYTES, changed, codeOf, inside, openDirectoryIn, reopen, type ResolvedPath } from './sandbox.js';

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

/** A file with other names elsewhere (a hard link) is never read or replaced through the workspace. */
export function hardLinked(shown: string, links: number): ToolError {
  return new ToolError(
    `${shown} has ${links} hard links: the same file also has a name elsewhere, possibly outside the workspace, so file_operations neither reads nor replaces it. Delete it (that removes only this name) or copy its text into a new file.`,
    'hard_linked',
    { links },
  );
}

/** An existing entry of a resolved path (the subject named inside its pinned directory). */
export type Existing = ResolvedPath & { stat: Stats };

/** The subject's name inside `target.dir`, or undefined when the subject is the directory itself. */
function nameOf(target: ResolvedPath): string | undefined {
  return target.rest.length === 0 ? undefined : target.rest[0];
}

/** The UTF-8 text of a regular file of at most MAX_FILE_BYTES (a leading byte-order mark is dropped), and its size in bytes. */
export async function readText(target: Existing): Promise<{ content: string; size: number }> {
  // O_NONBLOCK: should the file have been swapped for a FIFO, opening it must not hang.
  let handle: FileHandle;
  try {
    handle = await open(inside(target.dir, nameOf(target)), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if (['ELOOP', 'ENOENT'].includes(codeOf(error) ?? '')) throw changed(target.path);
    throw error;
  }
  try {
    const opened = await handle.stat();
    if (opened.ino !== target.stat.ino || opened.dev !== target.stat.dev || !opened.isFile()) {
      throw new ToolError(`${target.path} changed while it was being opened. Try again.`, 'conflict');
    }
    if (opened.nlink > 1) throw hardLinked(target.path, opened.nlink);
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
      throw new ToolError(`${target.path} is a binary file (${length} bytes), not UTF-8 text; file_operations reads text only.`, 'binary_file', {
        size: length,
      });
    }
    return { content: text, size: length };
  } finally {
    await handle.close();
  }
}

/**
 * Writes `bytes` to `target` atomically (temp file + rename inside the pinned directory), creating the
 * missing parent directories one by one below the deepest existing one.
 */
export async function writeAtomic(target: ResolvedPath, bytes: Buffer): Promise<void> {
  if (target.rest.length === 0) throw new ToolError(`${target.path || 'The workspace root'} is a directory; write needs a file path.`, 'is_a_directory');
  if (target.stat && target.stat.nlink > 1) throw hardLinked(target.path, target.stat.nlink);
  const opened: FileHandle[] = [];
  try {
    let dir = target.dir;
    for (const name of target.rest.slice(0, -1)) {
      await mkdir(inside(dir, name)).catch((error: unknown) => {
        if (codeOf(error) !== 'EEXIST') throw error;
      });
      dir = await openDirectoryIn(dir, name, target.path);
      opened.push(dir);
    }
    const name = target.rest[target.rest.length - 1]!;
    const temp = `.docent-${randomBytes(8).toString('hex')}.tmp`;
    const mode = target.stat?.isFile() ? target.stat.mode & 0o777 : 0o666;
    const handle = await open(inside(dir, temp), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
    try {
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(inside(dir, temp), inside(dir, name));
    } catch (error) {
      await unlink(inside(dir, temp)).catch(() => undefined);
      throw error;
    }
  } finally {
    for (const handle of opened) await handle.close().catch(() => undefined);
  }
}

/** Opens the directory a resolved path names (its own handle, closed by the caller). */
async function openSubject(target: Existing): Promise<FileHandle> {
  const name = nameOf(target);
  if (name === undefined) return reopen(target.dir);
  const handle = await openDirectoryIn(target.dir, name, target.path);
  const now = await handle.stat();
  if (now.ino !== target.stat.ino || now.dev !== target.stat.dev) {
    await handle.close();
    throw changed(target.path);
  }
  return handle;
}

/** Visits the entries below a directory handle, depth first in name order, never through links. */
async function walkBelow(
  root: FileHandle,
  visit: (entry: { rel: string[]; name: string; stat: Stats }) => 'descend' | 'skip' | 'stop',
  maxDepth = Infinity,
): Promise<void> {
  let stopped = false;
  const walk = async (dir: FileHandle, rel: string[]): Promise<void> => {
    for (const name of (await readdir(inside(dir))).sort()) {
      if (stopped) return;
      let stat: Stats;
      try {
        stat = await lstat(inside(dir, name));
      } catch (error) {
        if (codeOf(error) === 'ENOENT') continue;
        throw error;
      }
      const what = visit({ rel, name, stat });
      if (what === 'stop') {
        stopped = true;
        return;
      }
      if (what !== 'descend' || !stat.isDirectory() || rel.length + 1 >= maxDepth) continue;
      let child: FileHandle;
      try {
        child = await open(inside(dir, name), DIRECTORY_FLAGS);
      } catch (error) {
        // Replaced by a link or file, or gone, since the lstat: not descended.
        if (['ELOOP', 'ENOTDIR', 'ENOENT'].includes(codeOf(error) ?? '')) continue;
        throw error;
      }
      try {
        await walk(child, [...rel, name]);
      } finally {
        await child.close();
      }
    }
  };
  await walk(root, []);
}

/** Entries under a resolved directory, sorted by path; links are listed, never followed. */
export async function listDirectory(target: Existing, recursive: boolean): Promise<{ entries: Entry[]; truncated: boolean }> {
  const entries: Entry[] = [];
  let truncated = false;
  const dir = await openSubject(target);
  try {
    await walkBelow(
      dir,
      ({ rel, name, stat }) => {
        if (entries.length >= MAX_LIST_ENTRIES) {
          truncated = true;
          return 'stop';
        }
        const type = typeOf(stat);
        const shown = [target.path, ...rel, name].filter(Boolean).join('/');
        entries.push({ path: shown, name, type, ...(type === 'file' ? { size: stat.size } : {}) });
        if (recursive && type === 'directory' && rel.length + 1 >= MAX_LIST_DEPTH) truncated = true;
        return recursive ? 'descend' : 'skip';
      },
      MAX_LIST_DEPTH,
    );
  } finally {
    await dir.close();
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { entries, truncated };
}

/** Entries below a resolved directory (not following links), counted up to `limit`. */
export async function countBelow(target: Existing, limit = 10_000): Promise<{ count: number; more: boolean }> {
  let count = 0;
  let more = false;
  const dir = await openSubject(target);
  try {
    await walkBelow(dir, () => {
      if (++count >= limit) {
        more = true;
        return 'stop';
      }
      return 'descend';
    });
  } finally {
    await dir.close();
  }
  return { count, more };
}

/** Empties a directory handle, deleting through handles only: a link inside is removed, never followed. */
async function emptyDirectory(dir: FileHandle): Promise<void> {
  for (const name of await readdir(inside(dir))) {
    let child: FileHandle | undefined;
    try {
      child = await open(inside(dir, name), DIRECTORY_FLAGS);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') continue;
      if (!['ELOOP', 'ENOTDIR'].includes(codeOf(error) ?? '')) throw error;
    }
    if (!child) {
      await unlink(inside(dir, name)).catch((error: unknown) => {
        if (codeOf(error) !== 'ENOENT') throw error;
      });
      continue;
    }
    try {
      await emptyDirectory(child);
    } finally {
      await child.close();
    }
    await rmdir(inside(dir, name));
  }
}

/** Deletes a file, a link (never its target), an empty directory, or with `recursive` a whole tree. */
export async function remove(target: Existing, recursive: boolean): Promise<void> {
  const name = nameOf(target);
  if (name === undefined) throw new ToolError('The workspace root itself cannot be deleted. Delete the entries inside it instead.', 'invalid_path');
  const now = await lstat(inside(target.dir, name)).catch((error: unknown) => {
    if (codeOf(error) === 'ENOENT') throw changed(target.path);
    throw error;
  });
  if (now.ino !== target.stat.ino || now.dev !== target.stat.dev || typeOf(now) !== typeOf(target.stat)) {
    throw new ToolError(`${target.path} changed after the delete was confirmed; nothing was deleted. Look again and retry.`, 'conflict');
  }
  if (!now.isDirectory()) await unlink(inside(target.dir, name));
  else {
    if (recursive) {
      const dir = await openSubject(target);
      try {
        await emptyDirectory(dir);
      } finally {
        await dir.close();
      }
    }
    await rmdir(inside(target.dir, name));
  }
}
