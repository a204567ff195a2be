/**
 * `docent/client` as a dependent package sees it: a consumer with docent in its node_modules imports the
 * package's `./client` export (the built dist/), at run time and in the TypeScript compiler, and loading it
 * pulls in nothing beyond the client's own files (no server modules, no dependencies).
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/harness.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const TRACER = fileURLToPath(new URL('../helpers/module-trace.mjs', import.meta.url));
const run = promisify(execFile);

let consumer: string;
beforeAll(async () => {
  consumer = await tempDir('docent-consumer-');
  await mkdir(path.join(consumer, 'node_modules'));
  await symlink(REPO, path.join(consumer, 'node_modules', 'docent'), 'dir');
  await writeFile(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', dependencies: { docent: '*' } }));
});
afterAll(async () => rm(consumer, { recursive: true, force: true }));

describe('the docent/client export', () => {
  it("imports at run time and loads only the client's own modules", async () => {
    const script = path.join(consumer, 'main.mjs');
    await writeFile(
      script,
      [
        "import { DocentClient, DocentError, DocentAuthError, DocentRateLimitError } from 'docent/client';",
        "const client = new DocentClient({ baseUrl: 'http://127.0.0.1:8787/', apiKey: 'dk_x' });",
        'console.log(JSON.stringify({ baseUrl: client.baseUrl, methods: Object.getOwnPropertyNames(DocentClient.prototype).sort(),',
        '  subclass: new DocentRateLimitError("m", 429, "rate_limited", {}, undefined, 3) instanceof DocentError, auth: typeof DocentAuthError }));',
      ].join('\n'),
    );
    const trace = path.join(consumer, 'modules.trace');
    const { stdout } = await run(process.execPath, ['--import', TRACER, script], {
      cwd: consumer,
      env: { PATH: process.env.PATH ?? '', DOCENT_MODULE_TRACE: trace },
    });
    expect(JSON.parse(stdout)).toEqual({
      baseUrl: 'http://127.0.0.1:8787',
      methods: [
        'callTool',
        'constructor',
        'deleteDocument',
        'deleteLibrary',
        'listDocuments',
        'listLibraries',
        'manifest',
        'ragQuery',
        'uploadDocument',
        'uploadFiles',
      ],
      subclass: true,
      auth: 'function',
    });
    const loaded = (await readFile(trace, 'utf8'))
      .split('\n')
      .filter((line) => line.startsWith('esm file:'))
      .map((line) => fileURLToPath(line.slice(4)))
      .filter((file) => file !== script && !file.startsWith(path.dirname(TRACER)));
    expect(loaded.map((file) => path.relative(REPO, file)).sort()).toEqual(['dist/src/client/errors.js', 'dist/src/client/index.js']);
  });

  it('type-checks in a NodeNext TypeScript project, with the published types (not any)', async () => {
    const file = path.join(consumer, 'main.ts');
    await writeFile(
      file,
      [
        "import { DocentClient, DocentRateLimitError, type DocumentRecord, type QueryResult } from 'docent/client';",
        "const client = new DocentClient({ baseUrl: 'http://127.0.0.1:8787', apiKey: 'dk_x', timeoutMs: 5000 });",
        'export async function main(): Promise<number> {',
        "  const result: QueryResult = await client.ragQuery('How?', { topK: 3 });",
        '  const title: string | undefined = result.sources[0]?.title;',
        "  const scoped: QueryResult = await client.ragQuery('How?', { library: 'react@18' });",
        '  const uri: string | undefined = scoped.sources[0]?.uri;',
        "  const removed: number = await client.deleteLibrary('react@18');",
        '  // @ts-expect-error the answer is absent on a refusal',
        '  const answer: string = result.answer;',
        '  const docs: DocumentRecord[] = await client.listDocuments();',
        '  // @ts-expect-error ragQuery takes options, not a number',
        "  await client.ragQuery('How?', 3);",
        '  try { await client.deleteDocument(docs[0]!.id); } catch (e) { if (e instanceof DocentRateLimitError) return e.retryAfter + e.status; }',
        '  return result.confidence + (title?.length ?? 0) + answer.length + (uri?.length ?? 0) + removed;',
        '}',
      ].join('\n'),
    );
    const program = ts.createProgram([file], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      types: ['node'],
      typeRoots: [path.join(REPO, 'node_modules', '@types')],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
    const resolved = program
      .getSourceFiles()
      .map((f) => path.relative(REPO, fs(f.fileName)))
      .filter((f) => f.startsWith('dist/'));
    expect(resolved.sort()).toEqual(['dist/src/client/errors.d.ts', 'dist/src/client/index.d.ts', 'dist/src/client/types.d.ts']);
  });
});

/** Real path of a file the compiler saw through the node_modules symlink. */
function fs(file: string): string {
  const marker = `${path.sep}node_modules${path.sep}docent${path.sep}`;
  const at = file.indexOf(marker);
  return at < 0 ? file : path.join(REPO, file.slice(at + marker.length));
}
