import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkMarkdown } from '../../src/docs/chunk.js';
import { contentTypeFromMime, contentTypeOf, parseDocument } from '../../src/docs/parse.js';
import { QueryResultSchema } from '../../src/docs/types.js';
import { textOf } from '../helpers/harness.js';
import { ingestedIndex } from './helpers.js';

const GUIDE = `= Running Scripts
:description: How to run scripts and what the cache keeps.
:tool: gantry
ifdef::env-github[]
:note-caption: :paperclip:
endif::[]

{tool} runs a script from a file, a URL or standard input.

== Options

*-f*, *--fresh*::
Make sure the dependencies are resolved again instead of read from the cache.

\`--offline\`::
Work without the network.

== Cache

NOTE: The cache lives in \`~/.gantry/cache\` unless \`GANTRY_CACHE_DIR\` is set.

[WARNING]
====
Clearing the cache removes every downloaded dependency.

* Scripts run slower once.
====

.Clearing the cache
[source,bash]
----
gantry cache clear --all # <1>
----
<1> Also removes the installed JDKs.

|===
|Setting |Default

|cache-ttl
|24h

|offline
|false
|===

See xref:install.adoc#_setup[the setup steps] and <<_options,the options>>.
`;

const parse = (text: string) => parseDocument(text, 'asciidoc');

describe('AsciiDoc documents', () => {
  it('is accepted by extension and by media type', () => {
    expect(contentTypeOf('guides/run.adoc')).toBe('asciidoc');
    expect(contentTypeOf('README.asciidoc')).toBe('asciidoc');
    expect(contentTypeOf('key.asc')).toBeUndefined();
    expect(contentTypeFromMime('text/asciidoc; charset=utf-8')).toBe('asciidoc');
    expect(contentTypeFromMime('text/x-asciidoc')).toBe('asciidoc');
  });

  it('reads the title, the description and the sections, with attributes and conditionals resolved', () => {
    const parsed = parse(GUIDE);
    expect(parsed.title).toBe('Running Scripts');
    expect(parsed.description).toBe('How to run scripts and what the cache keeps.');
    expect(parsed.body).toMatch(/^# Running Scripts\n/);
    expect(parsed.body).toContain('gantry runs a script from a file, a URL or standard input.');
    expect(parsed.body).not.toContain('{tool}');
    expect(parsed.body).not.toContain(':paperclip:');
    const sections = chunkMarkdown(parsed.body).map((c) => c.section);
    expect(new Set(sections)).toEqual(new Set(['Running Scripts', 'Running Scripts › Options', 'Running Scripts › Cache']));
  });

  it('reads a definition list as each term opening its definition', () => {
    const { body } = parse(GUIDE);
    expect(body).toContain('-f, --fresh: Make sure the dependencies are resolved again instead of read from the cache.');
    expect(body).toContain('`--offline`: Work without the network.');
  });

  it('reads admonitions as their label opening their content, paragraph or block', () => {
    const { body } = parse(GUIDE);
    expect(body).toContain('Note: The cache lives in `~/.gantry/cache` unless `GANTRY_CACHE_DIR` is set.');
    expect(body).toContain('Warning: Clearing the cache removes every downloaded dependency.');
    expect(body).toMatch(/\n- Scripts run slower once\./);
  });

  it('keeps code as code, with its title before it and without callout marks or the comment that held them', () => {
    const { body } = parse(GUIDE);
    expect(body).toContain('Clearing the cache\n\n```\ngantry cache clear --all\n```');
    expect(body).not.toMatch(/\(1\)|<1>/);
    expect(body).toContain('1. Also removes the installed JDKs.');
  });

  it('reads the UI macros as what they show', () => {
    // A menu path is written with no-break spaces around its arrows.
    expect(parse('Press kbd:[Ctrl+C], then btn:[Save] in menu:File[Export > PDF].').body.replace(/\u00a0/g, ' ')).toBe(
      'Press Ctrl+C, then Save in File › Export › PDF.',
    );
  });

  it('keeps a table as rows under its header', () => {
    const { body } = parse(GUIDE);
    expect(body).toMatch(/\| Setting \| Default \|\n\|[- |]+\|\n\| cache-ttl \| 24h \|\n\| offline \| false \|/);
  });

  it('collects cross references to other pages as links to their .adoc paths', () => {
    const parsed = parseDocument(GUIDE, 'asciidoc') as ReturnType<typeof parseDocument> & { links?: [string, string][] };
    expect(parsed.links).toContainEqual(['install.adoc#_setup', 'the setup steps']);
    expect(parsed.body).toContain('See the setup steps and the options.');
  });

  it('never reads an included file, by relative or absolute path, and reads the directive as nothing', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'docent-adoc-'));
    try {
      const secret = path.join(dir, 'secret.adoc');
      await writeFile(secret, 'The launch code is 0000.');
      for (const target of [secret, 'secret.adoc', '../../../../etc/passwd', 'partial$secret.adoc']) {
        const { body } = parse(`= Page\n\nBefore.\n\ninclude::${target}[]\n\nAfter.\n`);
        expect(body).toBe('# Page\n\nBefore.\n\nAfter.');
      }
      // Inside a paragraph the lines around it stay; a listing of only an include goes.
      const inline = parse(
        `= Page\n\nBefore the include.\ninclude::${secret}[]\nAfter the include.\n\n[source,java]\n----\ninclude::example$Foo.java[]\n----\n\nEnd.\n`,
      );
      expect(inline.body).toBe('# Page\n\nBefore the include. After the include.\n\nEnd.');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads every entry of a definition list with several terms, and nested admonitions', () => {
    const { body } = parse('= Page\n\n-f::\n--fresh::\nResolve again.\n\n-v::\nVerbose output.\n\n[NOTE]\n====\nOuter note.\n\nTIP: Inner tip.\n====\n');
    expect(body).toBe('# Page\n\n-f, --fresh: Resolve again.\n\n-v: Verbose output.\n\nNote: Outer note.\n\nTip: Inner tip.');
  });

  it('drops callout marks without the code before them', () => {
    const { body } = parse(
      '= Page\n\n[source,java]\n----\nint i = 0; // <1>\nint j = 1; <2>\nx-- <3>\n----\n\n[source,xml]\n----\n<bean id="x"/> <!--1-->\n----\n\n[source,sql]\n----\nSELECT 1; -- <1>\n----\n',
    );
    expect(body).toContain('```\nint i = 0;\nint j = 1;\nx--\n```');
    expect(body).toContain('```\n<bean id="x"/>\n```');
    expect(body).toContain('```\nSELECT 1;\n```');
  });

  it('refuses a document that expands itself into megabytes, naming why', () => {
    const bomb = `= Page\n:a: ${'x'.repeat(4000)}\n\n${'{a} '.repeat(10_000)}\n`;
    expect(() => parse(bomb)).toThrow(/AsciiDoc expands to 40\.\d MB from 45 KB \(attribute references or repeated content\); it is not read/);
  });

  it('reads hostile or broken input without throwing', () => {
    const inputs = [
      '',
      '= ',
      '----\nnever closed',
      '|===\n|a|b\n',
      '====\n'.repeat(200),
      '* '.repeat(5000),
      ':a: {b}\n:b: {a}\n\n{a}',
      '++++\n<script>alert(1)</script>\n++++',
      'image::../../etc/passwd[]',
    ];
    for (const input of inputs) expect(() => parse(input)).not.toThrow();
    expect(parse('++++\n<script>alert(1)</script>\n++++').body).not.toContain('alert');
  });
});

describe('AsciiDoc through rag_query', () => {
  let ingested: Awaited<ReturnType<typeof ingestedIndex>>;
  beforeAll(async () => {
    ingested = await ingestedIndex('adoc', {
      'guides/running.adoc': GUIDE,
      'install.adoc': '= Install\n\n== Setup\n\nDownload the archive and put `gantry` on your PATH.\n',
    });
  });
  afterAll(() => ingested.close());

  it('answers from an AsciiDoc page, quoting the option with what it does, and serves the source as text/asciidoc', async () => {
    const response = await ingested.h.call('rag_query', { question: 'How do I make gantry resolve the dependencies again instead of using the cache?' });
    expect(response.isError).toBeFalsy();
    const result = QueryResultSchema.parse(response.structuredContent);
    expect(result.grounded).toBe(true);
    expect(result.sources[0]).toMatchObject({ title: 'guides/running.adoc', section: 'Running Scripts › Options' });
    expect(result.answer).toContain('-f, --fresh: Make sure the dependencies are resolved again');
    expect(textOf(response)).toContain('guides/running.adoc');
    const read = await ingested.h.client.readResource({ uri: result.sources[0]!.uri });
    expect(read.contents[0]).toMatchObject({ mimeType: 'text/asciidoc' });
    expect((read.contents[0] as { text: string }).text).toBe(GUIDE);
  });
});
