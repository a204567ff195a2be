import { fetchDocument } from '../../docs/fetch.js';
import { excludePattern } from '../../docs/ingest.js';
import { libraryProblem } from '../../docs/library.js';
import { EXTENSIONS } from '../../docs/parse.js';
import { ToolError } from '../../errors.js';
import type { IngestProgress } from '../../docs/types.js';
import { createRuntime } from '../../runtime.js';
import { LOCAL_FLAGS, parseCommand, UsageError } from '../args.js';
import type { Command } from '../main.js';

const USAGE = [
  'Usage: docent ingest <path-or-url>... [--library NAME] [--exclude PATTERN]... [--tenant T] [--url-base URL] [--json]',
  '',
  `Adds documentation to the tenant's index: files (${Object.keys(EXTENSIONS).join(' ')}), folders`,
  "(recursively; a document's title is its path relative to the folder) and https URLs (fetched through the",
  'outbound guard). Only text is indexed: a file that is not UTF-8 text (or holds NUL bytes) is skipped and',
  'named. Every document belongs to a document set (a library); the same path in two sets is two documents.',
  'Re-running is cheap: unchanged documents are skipped by content hash, changed ones are replaced in one',
  'step, and documents that left a re-ingested folder are removed from that set.',
  '',
  "  --library NAME     the document set (a version goes in the name: react@18); default: the folder's name,",
  "                     a single file's folder's name, a URL's host",
  '  --exclude PATTERN  leave out of a folder the paths this glob matches, as .gitignore reads it: with a',
  "                     slash, from the folder's root (api/internal/**); without, a file or folder of that name",
  '                     anywhere (genindex.html, _sources). Repeatable. A document of the set that it now leaves',
  '                     out is removed, as one deleted from the folder.',
  '  --url-base URL     sources link to URL/<title> (e.g. the published site of the same folder)',
  '  --json             print the summary as JSON',
].join('\n');

/** A one-line progress bar on stderr, redrawn in place (terminals only). */
function progressBar(stream: NodeJS.WriteStream): (p: IngestProgress) => void {
  let last = 0;
  return ({ done, total, title }) => {
    const now = Date.now();
    if (done < total && now - last < 50) return;
    last = now;
    const width = 24;
    const filled = total ? Math.round((done / total) * width) : width;
    const name = title.length > 40 ? `…${title.slice(-39)}` : title;
    stream.write(`\r\x1b[2K[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${name}`);
    if (done === total) stream.write('\r\x1b[2K');
  };
}

export const command: Command = {
  summary: 'Ingest documentation files, folders or URLs into the index',
  usage: USAGE,
  configFlags: LOCAL_FLAGS,
  async run(argv) {
    const parsed = parseCommand(
      argv,
      { 'url-base': { type: 'string' }, library: { type: 'string' }, exclude: { type: 'string', multiple: true }, json: { type: 'boolean' } },
      LOCAL_FLAGS,
    );
    if (!parsed.positionals.length) throw new UsageError('name at least one file, folder or URL to ingest');
    const urlBase = parsed.values['url-base'] as string | undefined;
    if (urlBase !== undefined && !/^https?:\/\/[^/]/i.test(urlBase)) throw new UsageError(`--url-base must be an http(s) URL, got "${urlBase}"`);
    const exclude = (parsed.values.exclude as string[] | undefined) ?? [];
    const empty = exclude.find((p) => ['', '.'].includes(excludePattern(p)));
    if (empty !== undefined)
      throw new UsageError(`--exclude "${empty}" matches nothing or everything: give a path pattern such as _sources or api/internal/**`);
    const library = parsed.values.library as string | undefined;
    const problem = library === undefined ? undefined : libraryProblem(library);
    if (problem) throw new UsageError(`--library "${library}" ${problem}`);
    const runtime = createRuntime(parsed.config());
    try {
      const index = await (await runtime.services.docs()).forTenant(runtime.config.tenant);
      const summary = await index.ingestPath(parsed.positionals, {
        urlBase,
        library,
        exclude,
        onProgress: process.stderr.isTTY && !parsed.values.json ? progressBar(process.stderr) : undefined,
        fetchUrl: async (url, signal) => fetchDocument(await runtime.services.outbound(), url, signal),
      });
      if (summary.added + summary.updated + summary.unchanged + summary.removed === 0) {
        for (const s of summary.skipped) process.stderr.write(`  skipped ${s.path}: ${s.reason}\n`);
        process.stderr.write(
          `docent ingest: nothing to ingest in ${parsed.positionals.join(', ')}: no text file with a supported extension ` +
            `(${Object.keys(EXTENSIONS).join(' ')}). Name such files or folders that hold them.\n`,
        );
        return 1;
      }
      if (parsed.values.json) {
        process.stdout.write(`${JSON.stringify({ tenant: runtime.config.tenant, ...summary }, null, 2)}\n`);
      } else {
        const sets = summary.libraries.map((l) => `"${l}"`).join(', ');
        process.stdout.write(
          `Ingested into tenant "${runtime.config.tenant}", ${summary.libraries.length > 1 ? 'sets' : 'set'} ${sets}: ${summary.added} added, ${summary.updated} updated, ` +
            `${summary.unchanged} unchanged, ${summary.removed} removed; ${summary.chunks} chunks written in ${summary.seconds} s.\n`,
        );
        for (const s of summary.skipped) process.stdout.write(`  skipped ${s.path}: ${s.reason}\n`);
      }
      return 0;
    } catch (error) {
      if (error instanceof ToolError) {
        process.stderr.write(`docent ingest: ${error.message}\n`);
        return 1;
      }
      throw error;
    } finally {
      await runtime.close();
    }
  },
};
