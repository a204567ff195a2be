import { ToolError } from '../../errors.js';
import { createRuntime } from '../../runtime.js';
import { LOCAL_FLAGS, parseCommand, UsageError } from '../args.js';
import type { Command } from '../main.js';

const USAGE = [
  'Usage: docent docs list [--library NAME] [--tenant T] [--json]',
  '       docent docs remove <id-or-title> [--library NAME] [--tenant T]',
  '       docent docs remove --library NAME [--tenant T]',
  '',
  "  list     the tenant's documents grouped by document set: id, title, chunks, size, last update",
  '  remove   removes one document (by the id `docs list` shows, or by its title within --library) and all',
  '           its chunks; with --library alone, removes the whole set',
  '',
  '  --library NAME   one document set only',
].join('\n');

export const command: Command = {
  summary: 'List or remove ingested documents and document sets',
  usage: USAGE,
  configFlags: LOCAL_FLAGS,
  async run(argv) {
    const parsed = parseCommand(argv, { json: { type: 'boolean' }, library: { type: 'string' } }, LOCAL_FLAGS);
    const [action, ...rest] = parsed.positionals;
    const library = parsed.values.library as string | undefined;
    if (action !== 'list' && action !== 'remove') throw new UsageError(action ? `unknown action "${action}"` : 'say list or remove');
    if (action === 'list' && rest.length) throw new UsageError(`unexpected argument: ${rest[0]}`);
    if (action === 'remove' && rest.length > 1) throw new UsageError('remove takes one document id or title (or --library alone for a whole set)');
    if (action === 'remove' && !rest.length && library === undefined)
      throw new UsageError('remove needs a document id or title, or --library NAME to remove a whole set');
    const runtime = createRuntime(parsed.config());
    const tenant = runtime.config.tenant;
    try {
      const index = await (await runtime.services.docs()).forTenant(tenant);
      if (action === 'list') {
        const docs = await index.listDocuments(library);
        if (parsed.values.json) {
          process.stdout.write(`${JSON.stringify(docs, null, 2)}\n`);
          return 0;
        }
        if (!docs.length) {
          process.stdout.write(
            library === undefined
              ? `No documents in tenant "${tenant}". Add some with \`docent ingest <folder>\`.\n`
              : `No document set "${library}" in tenant "${tenant}". \`docent docs list\` shows every set.\n`,
          );
          return 0;
        }
        const head = ['ID', 'TITLE', 'CHUNKS', 'CHARS', 'UPDATED'];
        const rows = docs.map((d) => [d.id, d.title, String(d.chunks), String(d.chars), d.updated_at]);
        const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
        const line = (r: string[]) => `  ${r.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`.trimEnd();
        const out: string[] = [];
        for (const set of [...new Set(docs.map((d) => d.library))]) {
          const inSet = docs.map((d, i) => ({ d, row: rows[i]! })).filter(({ d }) => d.library === set);
          const chunks = inSet.reduce((n, { d }) => n + d.chunks, 0);
          if (out.length) out.push('');
          out.push(`${set} (${inSet.length} document${inSet.length === 1 ? '' : 's'}, ${chunks} chunks)`, line(head), ...inSet.map(({ row }) => line(row)));
        }
        process.stdout.write(`${out.join('\n')}\n`);
        return 0;
      }
      if (!rest.length) {
        const removed = await index.removeLibrary(library!);
        if (!removed.length) {
          process.stderr.write(`docent docs: no document set "${library}" in tenant "${tenant}". See \`docent docs list\`.\n`);
          return 1;
        }
        process.stdout.write(`Removed the document set "${library}" (${removed.length} documents) from tenant "${tenant}".\n`);
        return 0;
      }
      const removed = await index.removeDocument(rest[0]!, library);
      if (!removed) {
        const where = library === undefined ? '' : ` of set "${library}"`;
        process.stderr.write(`docent docs: no document "${rest[0]}"${where} in tenant "${tenant}". See \`docent docs list\`.\n`);
        return 1;
      }
      process.stdout.write(`Removed ${removed.title} of set "${removed.library}" (${removed.id}, ${removed.chunks} chunks) from tenant "${tenant}".\n`);
      return 0;
    } catch (error) {
      if (error instanceof ToolError) {
        process.stderr.write(`docent docs: ${error.message}\n`);
        return 1;
      }
      throw error;
    } finally {
      await runtime.close();
    }
  },
};
