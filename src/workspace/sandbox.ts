/**
 * The file_operations sandbox. Contract: a path a caller names resolves to a location inside the workspace
 * directory, or is refused with a ToolError before anything on disk is read, written or asked about; and
 * what is then read, written, listed or deleted is that location, even while another process renames,
 * swaps or relinks directories inside the workspace (no time-of-check-to-time-of-use window).
 *
 * - Paths are relative and '/'-separated. Refused outright: NUL bytes, backslashes (Windows separators, as in
 *   `..\x`), drive letters (`C:`), absolute paths, and `..` that climbs above the workspace root. `..` that
 *   stays inside is resolved lexically, so `a/../b` is `b` whatever `a` is.
 * - Resolution never re-reads a checked prefix: the workspace root is opened once (a pinned directory
 *   handle) and the path is walked from it one component at a time, each directory opened with
 *   O_DIRECTORY | O_NOFOLLOW relative to the handle of its parent (through Linux's `/proc/self/fd/<fd>/<name>`,
 *   which names `<name>` inside the directory the descriptor holds, whatever its path has become). A folder
 *   swapped for a symbolic link between two steps fails the open instead of being followed.
 * - A symbolic link is followed only as the reference MCP filesystem server does, inside the workspace: its
 *   text is read, resolved lexically against the directory holding it, must stay inside the workspace, and
 *   is then walked again from the pinned root (at most MAX_LINKS links per path). A link whose target does
 *   not exist is refused (where it would be created is not known to be inside).
 * - With `followFinalLink: false` (delete) the last component is not followed: the link itself is the
 *   subject, never its target.
 * - The result holds the handle of the deepest existing directory on the path: the operations in files.ts act
 *   on names inside it, never on a path string from the root.
 */
import { constants, existsSync, type Stats } from 'node:fs';
import { lstat, mkdir, open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ToolError, type ToolErrorCode } from '../errors.js';

/** 512 KB: the largest file read or written (content measured in UTF-8 bytes). */
export const MAX_FILE_BYTES = 512 * 1024;
/** Symbolic links followed while resolving one path (as Linux's own limit, ELOOP beyond it). */
export const MAX_LINKS = 40;

/** Opens a directory that must not be a symbolic link (O_NONBLOCK: something swapped in for it never makes the open hang). */
export const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** The path naming `name` inside the directory a handle holds (or the directory itself), resolved from the handle, not from a path. */
export function inside(dir: FileHandle, name?: string): string {
  return name === undefined ? `/proc/self/fd/${dir.fd}` : `/proc/self/fd/${dir.fd}/${name}`;
}

/** A second handle on the directory a handle holds (following `/proc/self/fd/<fd>` is what pins it, so no O_NOFOLLOW). */
export function reopen(dir: FileHandle): Promise<FileHandle> {
  return open(inside(dir), constants.O_RDONLY | constants.O_DIRECTORY);
}

export interface ResolvedPath {
  /** The path as the caller named it, normalised ('' for the workspace root). */
  path: string;
  /** The deepest existing directory on the resolved path, pinned (owned by this result: see release). */
  dir: FileHandle;
  /**
   * The names below `dir`: [] when the subject is `dir` itself (the root, or a link to a directory it resolved to),
   * [name] for an existing entry, or the missing names (at least one) when the path does not exist yet.
   */
  rest: string[];
  /** lstat of the subject; absent when nothing exists there yet. */
  stat?: Stats;
  /** The subject's path inside the workspace after links (for messages). */
  real: string;
  /** Closes the pinned directory. */
  release(): Promise<void>;
}

function refuse(requested: string, why: string, code: ToolErrorCode = 'invalid_path'): ToolError {
  return new ToolError(`Path ${JSON.stringify(requested)} ${why}`, code);
}

function escapes(requested: string): ToolError {
  return refuse(requested, 'leads outside the workspace. Use a path relative to the workspace root, such as notes/todo.md.', 'outside_workspace');
}

/** A directory on the path changed (renamed, or swapped for a link or file) while it was being walked. */
export function changed(requested: string): ToolError {
  return new ToolError(
    `${requested} changed while it was being used (a directory on its path was moved or replaced); nothing was done. Try again.`,
    'conflict',
  );
}

/** '/'-separated names after lexical `.`/`..` resolution; undefined when `..` climbs above the start. */
function lexical(names: Iterable<string>): string[] | undefined {
  const out: string[] = [];
  for (const name of names) {
    if (name === '' || name === '.') continue;
    if (name === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(name);
  }
  return out;
}

/** The '/'-separated names of a workspace-relative path after lexical `.`/`..` resolution. */
export function normalizeRelative(requested: string): string[] {
  if (requested.includes('\0')) throw refuse(requested.replace(/\0/g, '\\0'), 'contains a NUL byte.');
  if (requested.includes('\\')) throw refuse(requested, "contains a backslash. Separate directories with '/'.");
  if (/^[A-Za-z]:/.test(requested)) throw refuse(requested, 'starts with a drive letter. Use a path relative to the workspace root.', 'outside_workspace');
  if (requested.startsWith('/')) {
    throw refuse(requested, 'is absolute. Paths are relative to the workspace root: write notes/todo.md, not /notes/todo.md.', 'outside_workspace');
  }
  const names = lexical(requested.split('/'));
  if (!names) throw escapes(requested);
  return names;
}

const isCode = (error: unknown, ...codes: string[]) => codes.includes(codeOf(error) ?? '');

/** Opens `name` inside `dir` as a directory that is not a link; a link, file or vanished entry there is a conflict. */
export async function openDirectoryIn(dir: FileHandle, name: string, requested: string): Promise<FileHandle> {
  try {
    return await open(inside(dir, name), DIRECTORY_FLAGS);
  } catch (error) {
    if (isCode(error, 'ELOOP', 'ENOTDIR', 'ENOENT')) throw changed(requested);
    throw error;
  }
}

export class Workspace {
  private constructor(
    /** Canonical absolute path of the workspace root. */
    readonly root: string,
    /** The root, opened once: every resolution starts from this handle. */
    private readonly handle: FileHandle,
  ) {}

  /**
   * The workspace directory of a call: over HTTP with API keys each tenant has its own, `<dir>/<tenant>`
   * (created on first use; the tenant name escaped so that it is one path component and two tenants never
   * share one); a stdio server's one tenant keeps the configured directory itself.
   */
  static subdirFor(tenant: string, tenantBound: boolean): string | undefined {
    if (!tenantBound) return undefined;
    const safe = tenant.replace(/[^A-Za-z0-9-]/g, (c) => (c === '_' ? '__' : `_${c.codePointAt(0)!.toString(16)}_`));
    return `tenant-${safe}`;
  }

  static dirFor(dir: string, tenant: string, tenantBound: boolean): string {
    const sub = Workspace.subdirFor(tenant, tenantBound);
    return sub ? path.join(dir, sub) : dir;
  }

  /**
   * Opens the workspace at `dir` (the operator's directory, created on first use), or its `sub` folder (a
   * tenant's, created on first use; it must be a real directory, never a link). Close it when done.
   */
  static async open(dir: string, sub?: string): Promise<Workspace> {
    if (!existsSync('/proc/self/fd')) {
      throw Object.assign(new Error('file_operations resolves paths through /proc/self/fd, which this system does not have (Linux only)'), { code: 'ENOSYS' });
    }
    await mkdir(dir, { recursive: true });
    const base = await realpath(dir);
    let handle = await open(base, DIRECTORY_FLAGS);
    if (sub === undefined) return new Workspace(base, handle);
    try {
      await mkdir(inside(handle, sub)).catch((error: unknown) => {
        if (!isCode(error, 'EEXIST')) throw error;
      });
      const parent = handle;
      handle = await open(inside(parent, sub), DIRECTORY_FLAGS).finally(() => parent.close());
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
    return new Workspace(path.join(base, sub), handle);
  }

  async close(): Promise<void> {
    await this.handle.close();
  }

  contains(absolute: string): boolean {
    return absolute === this.root || absolute.startsWith(this.root.endsWith(path.sep) ? this.root : this.root + path.sep);
  }

  /** Resolves a caller's path inside the workspace; see the module contract. Release the result when done. */
  async resolve(requested: string, options: { followFinalLink?: boolean } = {}): Promise<ResolvedPath> {
    const followFinalLink = options.followFinalLink ?? true;
    const names = normalizeRelative(requested);
    const shown = names.join('/');
    let queue = [...names];
    /** Names at the front of `queue` that come from a link's target, which must exist. */
    let fromLink = 0;
    let linkName = '';
    let links = 0;
    /** The real names of `dir` below the root. */
    let at: string[] = [];
    let dir = await reopen(this.handle);
    const result = (rest: string[], stat: Stats | undefined): ResolvedPath => {
      const pinned = dir;
      return { path: shown, dir: pinned, rest, stat, real: [...at, ...rest].join('/'), release: () => pinned.close() };
    };
    try {
      while (queue.length > 0) {
        const name = queue.shift()!;
        const required = fromLink > 0;
        if (fromLink > 0) fromLink--;
        const last = queue.length === 0;
        let stat: Stats;
        try {
          stat = await lstat(inside(dir, name));
        } catch (error) {
          if (!isCode(error, 'ENOENT')) throw error;
          if (required)
            throw refuse(
              requested,
              `goes through the symbolic link ${linkName}, whose target does not exist; it cannot be followed safely.`,
              'outside_workspace',
            );
          return result([name, ...queue], undefined);
        }
        if (stat.isSymbolicLink() && (followFinalLink || !last)) {
          linkName = [...at, name].join('/');
          if (++links > MAX_LINKS) throw refuse(requested, `goes through more than ${MAX_LINKS} symbolic links (a loop?).`, 'outside_workspace');
          const text = await readlink(inside(dir, name)).catch((error: unknown) => {
            // No longer a link (EINVAL) or gone: it was swapped since the lstat.
            if (isCode(error, 'EINVAL', 'ENOENT')) throw changed(JSON.stringify(requested));
            throw error;
          });
          let target: string[] | undefined;
          if (path.isAbsolute(text)) {
            const absolute = path.normalize(text);
            target = this.contains(absolute) ? lexical(path.relative(this.root, absolute).split(path.sep)) : undefined;
          } else target = lexical([...at, ...text.split('/')]);
          if (!target) throw escapes(requested);
          queue = [...target, ...queue];
          fromLink = target.length + fromLink;
          // Walk the target again from the pinned root.
          await dir.close();
          dir = await reopen(this.handle);
          at = [];
          if (queue.length === 0) return result([], await dir.stat());
          continue;
        }
        if (last) return result([name], stat);
        if (!stat.isDirectory()) {
          throw refuse(
            requested,
            `goes through ${[...at, name].join('/')}, which is a ${stat.isFile() ? 'file' : 'special file'}, not a directory.`,
            'not_a_directory',
          );
        }
        const child = await openDirectoryIn(dir, name, JSON.stringify(requested));
        await dir.close();
        dir = child;
        at.push(name);
      }
      return result([], await dir.stat());
    } catch (error) {
      await dir.close().catch(() => undefined);
      throw error;
    }
  }
}

export function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
