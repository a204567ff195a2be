/**
 * The file_operations sandbox. Contract: a path a caller names resolves to a location inside the workspace
 * directory, or is refused with a ToolError before anything on disk is read, written or asked about.
 *
 * - Paths are relative and '/'-separated. Refused outright: NUL bytes, backslashes (Windows separators, as in
 *   `..\x`), drive letters (`C:`), absolute paths, and `..` that climbs above the workspace root. `..` that
 *   stays inside is resolved lexically, so `a/../b` is `b` whatever `a` is.
 * - Then canonicalised, as the reference MCP filesystem server does: from the (realpath'd) root down, each
 *   existing component is lstat'ed; a symbolic link is resolved with realpath and must land inside the
 *   workspace, and a dangling link is refused (where its target would be created is not known to be inside).
 *   For a path whose tail does not exist yet, the result is the canonical nearest existing parent plus the
 *   remaining names, so a new file can only be created under a real directory inside the workspace.
 * - With `followFinalLink: false` (delete) the last component is not followed: the link itself is the
 *   subject, never its target.
 */
import type { Stats } from 'node:fs';
import { lstat, mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ToolError, type ToolErrorCode } from '../errors.js';

/** 512 KB: the largest file read or written (content measured in UTF-8 bytes). */
export const MAX_FILE_BYTES = 512 * 1024;

export interface ResolvedPath {
  /** The path as the caller named it, normalised ('' for the workspace root). */
  path: string;
  /** Canonical absolute location, inside the workspace. */
  absolute: string;
  /** lstat of `absolute`; absent when nothing exists there yet. */
  stat?: Stats;
}

function refuse(requested: string, why: string, code: ToolErrorCode = 'invalid_path'): ToolError {
  return new ToolError(`Path ${JSON.stringify(requested)} ${why}`, code);
}

function escapes(requested: string): ToolError {
  return refuse(requested, 'leads outside the workspace. Use a path relative to the workspace root, such as notes/todo.md.', 'outside_workspace');
}

/** The '/'-separated names of a workspace-relative path after lexical `.`/`..` resolution. */
export function normalizeRelative(requested: string): string[] {
  if (requested.includes('\0')) throw refuse(requested.replace(/\0/g, '\\0'), 'contains a NUL byte.');
  if (requested.includes('\\')) throw refuse(requested, "contains a backslash. Separate directories with '/'.");
  if (/^[A-Za-z]:/.test(requested)) throw refuse(requested, 'starts with a drive letter. Use a path relative to the workspace root.', 'outside_workspace');
  if (requested.startsWith('/')) {
    throw refuse(requested, 'is absolute. Paths are relative to the workspace root: write notes/todo.md, not /notes/todo.md.', 'outside_workspace');
  }
  const names: string[] = [];
  for (const name of requested.split('/')) {
    if (name === '' || name === '.') continue;
    if (name === '..') {
      if (names.length === 0) throw escapes(requested);
      names.pop();
    } else names.push(name);
  }
  return names;
}

export class Workspace {
  private constructor(
    /** Canonical absolute path of the workspace root. */
    readonly root: string,
  ) {}

  /** Opens the workspace at `dir`, creating it on first use. */
  /**
   * The workspace directory of a call: over HTTP with API keys each tenant has its own, `<dir>/<tenant>`
   * (created on first use; the tenant name escaped so that it is one path component and two tenants never
   * share one); a stdio server's one tenant keeps the configured directory itself.
   */
  static dirFor(dir: string, tenant: string, tenantBound: boolean): string {
    if (!tenantBound) return dir;
    const safe = tenant.replace(/[^A-Za-z0-9-]/g, (c) => (c === '_' ? '__' : `_${c.codePointAt(0)!.toString(16)}_`));
    return path.join(dir, `tenant-${safe}`);
  }

  static async open(dir: string): Promise<Workspace> {
    await mkdir(dir, { recursive: true });
    return new Workspace(await realpath(dir));
  }

  contains(absolute: string): boolean {
    return absolute === this.root || absolute.startsWith(this.root.endsWith(path.sep) ? this.root : this.root + path.sep);
  }

  /** Resolves a caller's path inside the workspace; see the module contract. */
  async resolve(requested: string, options: { followFinalLink?: boolean } = {}): Promise<ResolvedPath> {
    const followFinalLink = options.followFinalLink ?? true;
    const names = normalizeRelative(requested);
    const shown = names.join('/');
    let current = this.root;
    let stat = await lstat(current);
    for (let i = 0; i < names.length; i++) {
      const candidate = path.join(current, names[i]!);
      const last = i === names.length - 1;
      try {
        stat = await lstat(candidate);
      } catch (error) {
        if (codeOf(error) === 'ENOENT') return { path: shown, absolute: path.join(candidate, ...names.slice(i + 1)) };
        throw error;
      }
      if (stat.isSymbolicLink() && (followFinalLink || !last)) {
        let target: string;
        try {
          target = await realpath(candidate);
        } catch (error) {
          if (['ENOENT', 'ELOOP'].includes(codeOf(error) ?? '')) {
            throw refuse(requested, `goes through the symbolic link ${names.slice(0, i + 1).join('/')}, whose target does not exist; it cannot be followed safely.`, 'outside_workspace');
          }
          throw error;
        }
        if (!this.contains(target)) throw escapes(requested);
        current = target;
        stat = await lstat(target);
      } else {
        current = candidate;
      }
      if (!last && !stat.isDirectory()) {
        throw refuse(requested, `goes through ${names.slice(0, i + 1).join('/')}, which is a file, not a directory.`, 'not_a_directory');
      }
    }
    return { path: shown, absolute: current, stat };
  }
}

export function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
