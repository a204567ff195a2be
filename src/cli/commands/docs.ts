import { createRuntime } from '../../runtime.js';
import { LOCAL_FLAGS, parseCommand, UsageError } from '../args.js';
import type { Command } from '../main.js';

const USAGE = [
  'Usage: docent docs list [--tenant T] [--json]',
  '       docent docs remove <id-or-title> [--tenant T]',
  '',
  '  list     the tenant\'s documents: id, title, chunks, size, last update',
  '  remove   removes one document (by the id `docs list` shows, or by its title) and all its chunks',
].join('\n');

export const command: Command = {
  summary: 'List or remove ingested documents',
  usage: USAGE,
  configFlags: LOCAL_FLAGS,
  async run(argv) {
    const parsed = parseCommand(argv, { json: { type: 'boolean' } }, LOCAL_FLAGS);
    const [action, ...rest] = parsed.positionals;
    if (action !== 'list' && action !== 'remove') throw new UsageError(action ? `unknown action "${action}"` : 'say list or remove');
    if (action === 'list' && rest.length) throw new UsageError(`unexpected argument: ${rest[0]}`);
    if (action === 'remove' && rest.length !== 1) throw new UsageError('remove takes exactly one document id or title');
    const runtime = createRuntime(parsed.config());
    try {
      const index = await (await runtime.services.docs()).forTenant(runtime.config.tenant);
      if (action === 'list') {
        const docs = await index.listDocuments();
        if (parsed.values.json) {
          process.stdout.write(`${JSON.stringify(docs, null, 2)}\n`);
          return 0;
        }
        if (!docs.length) {
          process.stdout.write(`No documents in tenant "${runtime.config.tenant}". Add some with \`docent ingest <folder>\`.\n`);
          return 0;
        }
        const rows = docs.map((d) => [d.id, d.title, String(d.chunks), String(d.chars), d.updated_at]);
        const head = ['ID', 'TITLE', 'CHUNKS', 'CHARS', 'UPDATED'];
        const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
        process.stdout.write([head, ...rows].map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n') + '\n');
        return 0;
      }
      const removed = await index.removeDocument(rest[0]!);
      if (!removed) {
        process.stderr.write(`docent docs: no document "${rest[0]}" in tenant "${runtime.config.tenant}". See \`docent docs list\`.\n`);
        return 1;
      }
      process.stdout.write(`Removed ${removed.title} (${removed.id}, ${removed.chunks} chunks) from tenant "${runtime.config.tenant}".\n`);
      return 0;
    } finally {
      await runtime.close();
    }
  },
};
