/**
 * Finding and reading what to ingest: files and folders (titles relative to the ingested folder, POSIX
 * separators), in a stable order. Hidden entries and `node_modules` are skipped, and whatever the caller's
 * exclude patterns match.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { ToolError } from '../errors.js';
import { acceptedKinds, contentTypeOf, type ContentType } from './parse.js';
import { decodeText } from './text.js';

export interface FoundFile {
  /** Absolute path. */
  file: string;
  /** Path relative to the ingested folder (or the file name), POSIX separators. */
  title: string;
  contentType: ContentType;
}

export interface FoundSource {
  /** Absolute folder or file that was named: documents from it that disappear are removed on re-ingest. */
  origin: string;
  isFolder: boolean;
  files: FoundFile[];
  skipped: { path: string; reason: string }[];
}

const SKIP_DIRS = new Set(['node_modules']);

/** A pattern as the matcher reads it: trimmed, without a leading `./` or trailing slashes (`''`: nothing). */
export function excludePattern(pattern: string): string {
  return pattern.trim().replace(/^\.\//, '').replace(/\/+$/, '');
}

/**
 * What `--exclude` patterns leave out, as .gitignore reads them: a glob matched against the path relative to
 * the ingested folder (`_sources/**`, `api/internal/*.md`); one without a slash matches a file or folder of
 * that name at any depth (`genindex.html`, `_sources`). A folder matched is not entered.
 */
export function excludeMatcher(patterns: readonly string[] = []): (title: string) => boolean {
  const cleaned = patterns.map(excludePattern).filter(Boolean);
  const anywhere = cleaned.filter((p) => !p.includes('/'));
  const rooted = cleaned.filter((p) => p.includes('/'));
  const byName = anywhere.length ? picomatch(anywhere, { dot: true }) : () => false;
  const byPath = rooted.length ? picomatch(rooted, { dot: true }) : () => false;
  return (title) => byPath(title) || byName(title.slice(title.lastIndexOf('/') + 1));
}

async function walk(dir: string, root: string, found: FoundSource, excluded: (title: string) => boolean): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.') || SKIP_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    const title = path.relative(root, full).split(path.sep).join('/');
    if (excluded(title)) continue;
    if (entry.isDirectory()) await walk(full, root, found, excluded);
    else if (entry.isFile()) {
      const type = contentTypeOf(entry.name);
      if (type) found.files.push({ file: full, title, contentType: type });
    }
  }
}

/** Lists the documents under a path. `exclude` holds patterns of paths to leave out of a folder (excludeMatcher). */
export async function findSource(target: string, exclude: readonly string[] = []): Promise<FoundSource> {
  const abs = path.resolve(target);
  let info;
  try {
    info = await stat(abs);
  } catch {
    throw new ToolError(`Nothing to ingest at ${target}: no such file or folder. Check the path.`, 'not_found');
  }
  const found: FoundSource = { origin: abs, isFolder: info.isDirectory(), files: [], skipped: [] };
  if (info.isDirectory()) {
    await walk(abs, abs, found, excludeMatcher(exclude));
  } else {
    const type = contentTypeOf(abs);
    if (!type) {
      throw new ToolError(`Cannot ingest ${target}: only ${acceptedKinds()} files are read.`, 'invalid_arguments');
    }
    found.files.push({ file: abs, title: path.basename(abs), contentType: type });
  }
  return found;
}

/** A file's text; throws with the reason (src/docs/text.ts) when it is not text. */
export async function readText(file: string): Promise<string> {
  const checked = decodeText(await readFile(file));
  if (!checked.ok) throw new Error(checked.reason);
  return checked.text;
}

/** The link of a document under a base URL: `https://docs.example.com/` + `commands/npm-ci.md`. */
export function urlFor(base: string | undefined, title: string): string | undefined {
  if (!base) return undefined;
  const root = base.endsWith('/') ? base : `${base}/`;
  return new URL(title.split('/').map(encodeURIComponent).join('/'), root).toString();
}
