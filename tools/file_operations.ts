import { z } from 'zod';
import { actionInputShape, checkAction, defineActions } from '../src/catalog/actions.js';
import { defineTool } from '../src/catalog/definition.js';
import { ToolError } from '../src/errors.js';
import {
  ENTRY_TYPES,
  MAX_LIST_DEPTH,
  MAX_LIST_ENTRIES,
  countBelow,
  hardLinked,
  listDirectory,
  readText,
  remove,
  tooLarge,
  typeOf,
  writeAtomic,
  type Existing,
} from '../src/workspace/files.js';
import { MAX_FILE_BYTES, Workspace, codeOf, type ResolvedPath } from '../src/workspace/sandbox.js';

/** The fields each operation reads: validation and field descriptions come from here. */
const SPEC = defineActions({
  selector: 'operation',
  selectorDoc: 'read | write | list | delete',
  fields: {
    path: { schema: z.string().max(4096), doc: 'Relative to the workspace root, "/"-separated (e.g. notes/plan.md)' },
    content: { schema: z.string(), doc: `The complete new file text (at most ${MAX_FILE_BYTES} bytes as UTF-8)` },
    force: { schema: z.boolean(), doc: 'Also delete a non-empty directory and everything in it' },
    recursive: { schema: z.boolean(), doc: `Include subdirectories (at most ${MAX_LIST_DEPTH} levels, ${MAX_LIST_ENTRIES} entries)` },
  },
  actions: {
    read: { path: 'required' },
    write: { path: 'required', content: 'required' },
    list: { path: ['optional', 'the root when omitted'], recursive: 'optional' },
    delete: { path: 'required', force: 'optional' },
  },
});
const OPERATIONS = Object.keys(SPEC.actions) as [keyof typeof SPEC.actions];

const entry = z.object({
  path: z.string().describe('Relative to the workspace root'),
  name: z.string(),
  type: z.enum(ENTRY_TYPES),
  size: z.number().int().optional().describe('Bytes, for files'),
});

const output = z.object({
  operation: z.enum(OPERATIONS),
  path: z.string().describe('The path acted on, normalised, relative to the workspace root ("" is the root)'),
  content: z.string().optional().describe('The file text (read)'),
  size: z.number().int().optional().describe('File size in bytes (read, write)'),
  created: z.boolean().optional().describe('True when write created the file, false when it replaced one'),
  entries: z.array(entry).optional().describe('Directory entries sorted by path (list)'),
  truncated: z.boolean().optional().describe(`True when a recursive list stopped at ${MAX_LIST_DEPTH} levels or ${MAX_LIST_ENTRIES} entries`),
  deleted: z.enum(ENTRY_TYPES).optional().describe('What was deleted (delete)'),
});
type Output = z.infer<typeof output>;

function exists(target: ResolvedPath): target is Existing {
  return target.stat !== undefined;
}

function notFound(target: ResolvedPath): ToolError {
  return new ToolError(`${target.path} does not exist in the workspace. Use operation "list" to see what is there.`, 'not_found');
}

const shown = (target: ResolvedPath) => target.path || 'the workspace root';
const bytes = (n: number) => `${n} byte${n === 1 ? '' : 's'}`;
const entriesCount = (n: number | string) => `${n} entr${n === 1 ? 'y' : 'ies'}`;

/** Expected filesystem failures become errors the model can act on; anything else stays internal. */
function fsError(error: unknown, target: string): unknown {
  switch (codeOf(error)) {
    case 'EACCES':
    case 'EPERM':
      return new ToolError(`Permission denied on ${target}. The server's user cannot access it.`, 'forbidden');
    case 'ENAMETOOLONG':
      return new ToolError(`A name in ${target} is too long for the filesystem. Use shorter names.`, 'invalid_path');
    case 'ENOSPC':
    case 'EDQUOT':
      return new ToolError('The disk holding the workspace is full. Delete files and try again.', 'no_space');
    case 'ELOOP':
      return new ToolError(`${target} is a symbolic link, which this operation does not follow.`, 'outside_workspace');
    default:
      return error;
  }
}

export const file_operations = defineTool({
  name: 'file_operations',
  title: 'Workspace files',
  summary: 'Read, write, list, delete inside `./agent_workspace` (canonicalised paths, 512 KB cap, atomic writes)',
  description:
    'Read, write, list and delete UTF-8 text files in the agent workspace, a sandbox directory on the server ' +
    "(`./agent_workspace` unless the operator chose another; over HTTP each API key's tenant has its own " +
    "folder in it, and sees no other tenant's files). `path` is relative to the workspace root " +
    '(e.g. notes/plan.md); absolute paths, `..` above the root, and symbolic links that lead outside are refused. ' +
    `Files are at most ${MAX_FILE_BYTES} bytes (512 KB). ` +
    'Operations: `read` (the file text); `write` (create or replace a file with `content`, atomically; missing ' +
    'parent directories are created); `list` (entries of a directory with type and size, the root when `path` ' +
    'is omitted; `recursive` for the whole tree); `delete` (a file, a symbolic link itself, or an empty directory; ' +
    "a non-empty directory needs `force: true`). Deletes always need the user's confirmation; writes may, depending " +
    'on the server\'s policy. When a call answers "confirmation required", show the summary to the user and, if they ' +
    'agree, repeat the call with the `confirmation_token` it gave. Use it for notes, drafts and intermediate ' +
    'results an agent keeps between steps. Not for binary files, files elsewhere on the machine, or the uploaded ' +
    'documentation (ask rag_query for that).',
  input: z.object(actionInputShape(SPEC)),
  output,
  side_effects: 'mutating',
  // The sandbox is on this machine: nothing leaves it.
  annotations: { openWorldHint: false },
  cost_class: 'free',
  requires_secret: false,
  hints: ['write replaces the whole file: read it first and send the full new text.', 'Deleting a symbolic link removes the link, never what it points to.'],
  async handler(input, ctx) {
    const args = checkAction(SPEC, input);
    const { operation } = args;
    const sub = Workspace.subdirFor(ctx.tenant, ctx.tenantBound);
    const requested = args.path ?? '';
    const workspace = await Workspace.open(ctx.config.workspaceDir, sub).catch((error: unknown) => {
      const dir = Workspace.dirFor(ctx.config.workspaceDir, ctx.tenant, ctx.tenantBound);
      const code = codeOf(error);
      // A tenant folder must be a real directory: a link there is never followed.
      const why =
        code === 'ELOOP' || (code === 'ENOTDIR' && sub !== undefined)
          ? `${code}: something other than a directory, such as a symbolic link, is there`
          : (code ?? String(error));
      throw new ToolError(
        `The agent workspace ${dir} cannot be created or opened (${why}). ` +
          'The operator can point DOCENT_WORKSPACE_DIR (or --workspace) at a writable directory.',
        'workspace_unavailable',
      );
    });
    /** Resolves the path, runs `use` on it, and releases the pinned directory whatever happens. */
    const at = async <T>(followFinalLink: boolean, use: (target: ResolvedPath) => Promise<T>): Promise<T> => {
      const target = await workspace.resolve(requested, { followFinalLink });
      try {
        return await use(target);
      } finally {
        await target.release();
      }
    };

    try {
      switch (operation) {
        case 'read':
          return await at(true, async (target) => {
            if (!exists(target)) throw notFound(target);
            if (target.stat.isDirectory()) throw new ToolError(`${shown(target)} is a directory. Use operation "list" to see its entries.`, 'is_a_directory');
            if (!target.stat.isFile()) throw new ToolError(`${target.path} is not a regular file.`, 'not_a_file');
            if (target.stat.nlink > 1) throw hardLinked(target.path, target.stat.nlink);
            if (target.stat.size > MAX_FILE_BYTES) throw tooLarge(target.path, target.stat.size);
            const { content, size } = await readText(target);
            const value: Output = { operation, path: target.path, content, size };
            return { value, text: content };
          });

        case 'write': {
          const data = Buffer.from(args.content, 'utf8');
          if (data.length > MAX_FILE_BYTES) throw tooLarge('The content', data.length);
          if (requested.endsWith('/'))
            throw new ToolError(`Path ${JSON.stringify(requested)} ends with "/", which names a directory. Give a file name.`, 'invalid_path');
          const checkWritable = (t: ResolvedPath) => {
            if (t.path === '') throw new ToolError('write needs a file path, not the workspace root.', 'invalid_path');
            if (t.stat?.isDirectory()) throw new ToolError(`${t.path} is a directory; write needs a file path.`, 'is_a_directory');
            if (t.stat && !t.stat.isFile()) throw new ToolError(`${t.path} is not a regular file, so it cannot be written.`, 'not_a_file');
            if (t.stat && t.stat.nlink > 1) throw hardLinked(t.path, t.stat.nlink);
          };
          const summary = await at(true, async (target) => {
            checkWritable(target);
            return target.stat
              ? `Replace ${target.path} (${bytes(target.stat.size)}) with ${bytes(data.length)} in the agent workspace`
              : `Create ${target.path} (${bytes(data.length)}) in the agent workspace`;
          });
          // The directory is not held while the user is asked: the path is resolved again afterwards.
          await ctx.confirm({ kind: 'safe', summary });
          return await at(true, async (target) => {
            checkWritable(target);
            await writeAtomic(target, data);
            const created = !target.stat;
            return {
              value: { operation, path: target.path, size: data.length, created },
              text: `${created ? 'Created' : 'Replaced'} ${target.path} (${bytes(data.length)}).`,
            };
          });
        }

        case 'list':
          return await at(true, async (target) => {
            if (!exists(target)) throw notFound(target);
            if (!target.stat.isDirectory()) {
              throw new ToolError(`${target.path} is a ${typeOf(target.stat)}, not a directory. Use operation "read" for a file.`, 'not_a_directory');
            }
            const { entries, truncated } = await listDirectory(target, args.recursive === true);
            const lines = entries.map(
              (e) =>
                `${e.type === 'directory' ? 'd' : e.type === 'symlink' ? 'l' : e.type === 'file' ? 'f' : '?'} ${e.path}${e.size === undefined ? '' : ` (${bytes(e.size)})`}`,
            );
            const header = `${entriesCount(entries.length)} in ${shown(target)}${truncated ? ` (truncated at ${MAX_LIST_DEPTH} levels or ${MAX_LIST_ENTRIES} entries; list a subdirectory for more)` : ''}`;
            const value: Output = { operation, path: target.path, entries, truncated };
            return { value, text: [header, ...lines].join('\n') };
          });

        case 'delete': {
          const { kind, summary, stat } = await at(false, async (target) => {
            if (target.path === '') throw new ToolError('The workspace root itself cannot be deleted. Delete the entries inside it instead.', 'invalid_path');
            if (!exists(target)) throw notFound(target);
            const kind = typeOf(target.stat);
            if (kind === 'directory') {
              const { count, more } = await countBelow(target);
              if (count > 0 && args.force !== true) {
                throw new ToolError(
                  `${target.path} is a directory with ${more ? `at least ${entriesCount(count)}` : entriesCount(count)} below it. ` +
                    'Pass force: true to delete it and everything in it, or delete the entries first.',
                  'not_empty',
                );
              }
              const summary =
                count === 0
                  ? `Delete the empty directory ${target.path}`
                  : `Delete the directory ${target.path} and the ${entriesCount(more ? `${count}+` : count)} below it`;
              return { kind, summary, stat: target.stat };
            }
            if (kind === 'symlink') return { kind, summary: `Delete the symbolic link ${target.path} (what it points to is not touched)`, stat: target.stat };
            return { kind, summary: `Delete the file ${target.path} (${bytes(target.stat.size)})`, stat: target.stat };
          });
          await ctx.confirm({ kind: 'destructive', summary: `${summary} from the agent workspace` });
          return await at(false, async (target) => {
            if (!exists(target)) throw notFound(target);
            // What is deleted must be what the user confirmed: remove() compares it with that entry.
            await remove({ ...target, stat }, kind === 'directory' && args.force === true);
            const value: Output = { operation, path: target.path, deleted: kind };
            return { value, text: `Deleted ${kind} ${target.path}.` };
          });
        }
      }
    } catch (error) {
      throw fsError(error, JSON.stringify(requested));
    } finally {
      await workspace.close();
    }
  },
});
